// The viewport's logic without a window system (label render): ViewportController draws
// into a bare EGL context's framebuffer object (Mesa's surfaceless platform on CI), fed by a
// real Session on its engine thread as MainWindow feeds it (snapshotReady → showSnapshot).
// What users rely on, read back with glReadPixels: the frame shows the newest Result
// snapshot, its pixels in grey at 1:1, the sweep's supremum, the original on the left of
// both compare modes; the probe reads the snapshot's planes; the overlay changes only its
// panel. No QGuiApplication: QTEST_GUILESS_MAIN. Skips, with the reason, where no EGL
// OpenGL 3.3 context can be made.
#include "app/session/session.h"
#include "compute/line_geometry.h"
#include "render/headless/egl_context.h"
#include "tests/support/random_images.h"
#include "ui/viewport_controller.h"
#include "render/gl_vendor.h"

#include <QtTest>

#include <cmath>
#include <cstdint>
#include <memory>
#include <variant>

using namespace linescope;
using linescope::ui::CompareMode;
using linescope::ui::Plane;
using linescope::ui::ViewportController;

namespace {

constexpr int kTimeoutMs = 120000;             // generous: CI has 2 cores and runs suites in parallel
constexpr int kImageW = 80, kImageH = 60;      // the generated image
constexpr int kViewW = 200, kViewH = 100;      // logical = framebuffer pixels (ratio 1): each half holds the image

// The framebuffer read back, top row first.
struct Frame {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgba;
    // 0xRRGGBB (the frame is opaque)
    std::uint32_t at(int x, int y) const {
        const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 4;
        return std::uint32_t{rgba[i]} << 16 | std::uint32_t{rgba[i + 1]} << 8 | rgba[i + 2];
    }
};

std::uint32_t grey(std::uint32_t v) { return v << 16 | v << 8 | v; }

const Image<std::uint8_t>& u8(const session::AnyImage& img) { return std::get<Image<std::uint8_t>>(img); }

}  // namespace

class TestViewportController : public QObject {
    Q_OBJECT

    std::unique_ptr<render::EglContext> egl_;
    std::unique_ptr<session::Session> session_;
    std::unique_ptr<ViewportController> viewport_;
    int repaints_ = 0, probes_ = 0;

    // One frame of the whole view, read back.
    Frame draw() {
        const GLuint fb = egl_->framebuffer(kViewW, kViewH);
        if (!viewport_->render(fb, kViewW, kViewH)) return {};
        return {kViewW, kViewH, egl_->readPixels()};
    }

    // Every screen pixel of `columns` (x0 ≤ x < x1) that shows an image pixel, against
    // expected(image x, image y); the view's transform maps (screen x − areaLeft) into the image.
    template <class F>
    void compareColumns(const Frame& f, int x0, int x1, int areaLeft, F expected, const char* what) {
        const render::ViewTransform& t = viewport_->viewTransform();
        long compared = 0, wrong = 0;
        QString first;
        for (int sy = 0; sy < f.height; ++sy)
            for (int sx = x0; sx < x1; ++sx) {
                const int x = t.pixelX(sx - areaLeft + 0.5), y = t.pixelY(sy + 0.5);
                if (x < 0 || y < 0 || x >= kImageW || y >= kImageH) continue;
                ++compared;
                const std::uint32_t got = f.at(sx, sy), want = expected(x, y);
                if (got != want && wrong++ == 0)
                    first = QString("screen (%1, %2) = image (%3, %4): shown %5, expected %6")
                                .arg(sx).arg(sy).arg(x).arg(y).arg(got, 6, 16, QChar('0')).arg(want, 6, 16, QChar('0'));
            }
        QVERIFY2(compared >= 20 * kImageH, qPrintable(QString("%1: only %2 pixels visible").arg(what).arg(compared)));
        QVERIFY2(wrong == 0, qPrintable(QString("%1: %2 of %3 pixels differ; first at %4").arg(what).arg(wrong).arg(compared).arg(first)));
    }

    // Until the controller holds the session's newest snapshot of `kind` and the engine is idle.
    void waitForNewest(session::RequestKind kind) {
        QTRY_VERIFY_WITH_TIMEOUT(!session_->queue().busy() && session_->latest(kind) &&
                                     (kind == session::RequestKind::Result ? viewport_->snapshot()
                                                                           : viewport_->sweepSnapshot()) ==
                                         session_->latest(kind),
                                 kTimeoutMs);
    }

    void resetView(Plane view, CompareMode mode) {
        viewport_->setView(view);
        viewport_->setCompareMode(mode);
        viewport_->setSplitPosition(0.5);
        viewport_->zoomOneToOne();
    }

private slots:
    void initTestCase() {
        egl_ = std::make_unique<render::EglContext>();
        if (!egl_->usable()) QSKIP(qPrintable("no headless OpenGL: " + QString::fromStdString(egl_->why())));
        qInfo("%s", egl_->description().c_str());

        ui::ViewportHooks hooks;
        hooks.repaint = [this] { ++repaints_; };
        hooks.probeChanged = [this](const ui::ProbeValues&) { ++probes_; };
        viewport_ = std::make_unique<ViewportController>(std::move(hooks));
        viewport_->resize(kViewW, kViewH, 1.0);
        viewport_->initialize(&render::EglContext::procAddress);
        QVERIFY2(viewport_->initialized() && viewport_->glError().isEmpty(), qPrintable(viewport_->glError()));
        // The overlay's panel covers the top-left corner; overlayChangesOnlyItsPanel shows it.
        viewport_->setOverlayVisible(false);
        viewport_->setGlyphVisible(false);

        session::EngineQueue::Options options;
        options.engine.backend = Backend::Cpu;
        session_ = std::make_unique<session::Session>(options);
        session_->setLive(session::RequestKind::Contours, false);
        session_->setLive(session::RequestKind::Skew, false);
        session_->setAngleSet(AngleSet::overHalfTurn(12));
        // As MainWindow: the image when it becomes current, each snapshot when it is published.
        connect(session_.get(), &session::Session::imageChanged, this,
                [this] { viewport_->setOriginal(session_->image()); });
        connect(session_.get(), &session::Session::snapshotReady, this,
                [this](session::RequestKind, const session::SnapshotPtr& s) { viewport_->showSnapshot(s); });
        session_->setImage(test::randomImage<std::uint8_t>(kImageW, kImageH, 16, test::ImageKind::Blocky));
        session_->setLength(7);
        waitForNewest(session::RequestKind::Result);
        waitForNewest(session::RequestKind::Sweep);
    }

    // The GPU path starts only on NVIDIA's OpenGL (CUDA registers no other driver's textures):
    // on any other, asking for it says why and the views stay on the upload path.
    void gpuPathNeedsNvidiasOpenGl() {
        QVERIFY(!viewport_->glVendor().empty());
        QVERIFY(!render::interopRefusal("NVIDIA Corporation"));
        const auto refusal = render::interopRefusal(viewport_->glVendor());
        QCOMPARE(refusal.has_value(), viewport_->glVendor().find("NVIDIA") == std::string::npos);
        if (!refusal) QSKIP("this OpenGL is NVIDIA's");
        QVERIFY(QString::fromStdString(*refusal).contains(QString::fromStdString(viewport_->glVendor())));
        QString why;
        QVERIFY(!viewport_->setGpuPath(true, &why));
        QVERIFY(!viewport_->gpuPath());
        QVERIFY(!why.isEmpty());
    }

    void cleanupTestCase() {
        session_.reset();  // the engine thread stops before the controller goes
        if (viewport_) viewport_->release();
        viewport_.reset();
        egl_.reset();
    }

    // A burst of parameter changes: the engine coalesces them, and the frame shows the
    // snapshot of the last, pixel for pixel in grey (uint8 0…255) at 1:1.
    void resultViewShowsTheNewestSnapshot() {
        resetView(Plane::Result, CompareMode::Single);
        for (const double angle : {10.0, 20.0, 35.5}) session_->setAngle(angle);
        session_->setLength(9);
        session_->setOp(MorphOp::Close);
        waitForNewest(session::RequestKind::Result);
        const session::SnapshotPtr newest = session_->latest(session::RequestKind::Result);
        const auto& p = std::get<session::ResultParams>(newest->request.params);
        QCOMPARE(p.op, MorphOp::Close);
        QCOMPARE(p.line.angle, 35.5);
        QCOMPARE(p.line.length, 9);

        repaints_ = 0;
        viewport_->showSnapshot(newest);  // what snapshotReady delivered: asks for a frame
        QVERIFY(viewport_->needsFrame() && repaints_ > 0);
        const Frame f = draw();
        QVERIFY2(viewport_->glError().isEmpty(), qPrintable(viewport_->glError()));
        QVERIFY(!viewport_->needsFrame());
        QCOMPARE(viewport_->shownResultId(), newest->id);
        QCOMPARE(viewport_->viewTransform().zoom, 1.0);
        const auto& result = u8(*newest->result);
        compareColumns(f, 0, f.width, 0, [&](int x, int y) { return grey(result.at(x, y)); }, "result");
    }

    // The sweep's supremum, in grey, from the newest Sweep snapshot.
    void supremumViewShowsTheSweep() {
        resetView(Plane::Supremum, CompareMode::Single);
        waitForNewest(session::RequestKind::Sweep);
        const session::SnapshotPtr sweep = session_->latest(session::RequestKind::Sweep);
        const Frame f = draw();
        QCOMPARE(viewport_->shownSweepId(), sweep->id);
        const auto& sup = std::get<SweepResult<std::uint8_t>>(*sweep->sweep).sup;
        compareColumns(f, 0, f.width, 0, [&](int x, int y) { return grey(sup.at(x, y)); }, "supremum");
    }

    // The probe under the cursor reads the original and the snapshots' planes at that pixel,
    // in either half side by side.
    void probeReadsTheSnapshotsPlanes() {
        resetView(Plane::Result, CompareMode::SideBySide);
        draw();
        const session::SnapshotPtr result = viewport_->snapshot(), sweep = viewport_->sweepSnapshot();
        QVERIFY(result && sweep);
        const auto& original = u8(*session_->image());
        const auto& s = std::get<SweepResult<std::uint8_t>>(*sweep->sweep);
        const render::ViewTransform& t = viewport_->viewTransform();
        const int rightLeft = viewport_->primaryArea().x;
        for (const auto& [x, y] : {std::pair{0, 0}, std::pair{13, 41}, std::pair{kImageW - 1, kImageH - 1}}) {
            for (const int areaLeft : {0, rightLeft}) {
                const QPointF at(areaLeft + t.screenX(x + 0.5), t.screenY(y + 0.5));
                probes_ = 0;
                viewport_->move(at);
                QCOMPARE(probes_, 1);
                const ui::ProbeValues p = viewport_->probe();
                QVERIFY(p.inside);
                QCOMPARE(p.x, x);
                QCOMPARE(p.y, y);
                QCOMPARE(p.value, static_cast<double>(original.at(x, y)));
                QCOMPARE(p.result, static_cast<double>(u8(*result->result).at(x, y)));
                QCOMPARE(p.supremum, static_cast<double>(s.sup.at(x, y)));
                QCOMPARE(p.strength, static_cast<double>(s.strength.at(x, y)));
                QCOMPARE(p.orientation, normalizeAngle(s.orientation(x, y)));
            }
        }
        viewport_->move({1, 1});  // the background, off the image
        QVERIFY(!viewport_->probe().inside);
        viewport_->leave();
        QVERIFY(!viewport_->probe().inside);
    }

    // Side by side and split, the original is drawn on the left and the view on the right;
    // the divider (two columns) is left out.
    void compareModesDrawTheOriginalOnTheLeft() {
        const auto& original = u8(*session_->image());
        const auto& result = u8(*viewport_->snapshot()->result);
        auto originalAt = [&](int x, int y) { return grey(original.at(x, y)); };
        auto resultAt = [&](int x, int y) { return grey(result.at(x, y)); };

        resetView(Plane::Result, CompareMode::SideBySide);
        Frame f = draw();
        const int half = viewport_->primaryArea().x;
        QCOMPARE(half, kViewW / 2);
        compareColumns(f, 0, half - 1, 0, originalAt, "side by side, left");
        compareColumns(f, half + 1, f.width, half, resultAt, "side by side, right");

        resetView(Plane::Result, CompareMode::Split);
        viewport_->setSplitPosition(0.45);
        f = draw();
        const int split = static_cast<int>(std::lround(0.45 * kViewW));
        compareColumns(f, 0, split - 1, 0, originalAt, "split, left");
        compareColumns(f, split + 1, f.width, 0, resultAt, "split, right");

        // The divider follows a drag that starts on it.
        QCOMPARE(viewport_->press({split + 2.0, 50}, Qt::LeftButton), ui::PointerGrab::Split);
        viewport_->move({0.7 * kViewW, 50});
        QVERIFY(viewport_->releaseButton());
        QCOMPARE(viewport_->splitPosition(), 0.7);
    }

    // With the overlay on, only its panel's pixels change.
    void overlayChangesOnlyItsPanel() {
        if (!viewport_->overlayAvailable()) QSKIP("built without Dear ImGui");
        resetView(Plane::Result, CompareMode::Single);
        const Frame without = draw();
        viewport_->setOverlayVisible(true);
        Frame with = draw();
        for (int i = 0; i < 5 && viewport_->needsFrame(); ++i) with = draw();  // the panel settles
        QVERIFY2(viewport_->glError().isEmpty(), qPrintable(viewport_->glError()));
        const QRectF panel = viewport_->overlayPanelRect();
        QVERIFY(!panel.isEmpty());
        int changed = 0, outside = 0;
        for (int y = 0; y < with.height; ++y)
            for (int x = 0; x < with.width; ++x) {
                if (with.at(x, y) == without.at(x, y)) continue;
                ++changed;
                if (!panel.adjusted(-1, -1, 1, 1).contains(x + 0.5, y + 0.5)) ++outside;
            }
        QVERIFY(changed > 0);
        QCOMPARE(outside, 0);
        viewport_->setOverlayVisible(false);
    }

    // Pan and zoom move the image as the view transform says; a fit follows the size.
    void panZoomAndFit() {
        resetView(Plane::Result, CompareMode::Single);
        const render::ViewTransform before = viewport_->viewTransform();
        viewport_->panBy({5, -3});
        QCOMPARE(viewport_->viewTransform().panX, before.panX + 5);
        QCOMPARE(viewport_->viewTransform().panY, before.panY - 3);
        viewport_->zoomAbout({100, 50}, 480);  // four notches: twice the zoom
        QCOMPARE(viewport_->viewTransform().zoom, 2.0);
        const Frame f = draw();
        const auto& result = u8(*viewport_->snapshot()->result);
        compareColumns(f, 0, f.width, 0, [&](int x, int y) { return grey(result.at(x, y)); }, "zoomed result");
        viewport_->zoomToFit();
        QCOMPARE(viewport_->viewTransform().zoom, std::min(double(kViewW) / kImageW, double(kViewH) / kImageH));
        viewport_->resize(kViewW, 2 * kViewH, 1.0);
        QCOMPARE(viewport_->viewTransform().zoom, double(kViewW) / kImageW);
        viewport_->resize(kViewW, kViewH, 1.0);
    }
};

QTEST_GUILESS_MAIN(TestViewportController)
#include "test_viewport_controller.moc"
