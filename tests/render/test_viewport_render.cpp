// render/ headless: the ViewportRenderer draws into a framebuffer object of a bare EGL
// context (Mesa's surfaceless platform on CI, EGL's device platform on the GPU machine);
// the pixels read back are compared exactly with what the engine defines. Skips, with the
// reason, where no EGL OpenGL 3.3 context can be made.
#include "compute/contours/contours.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"
#include "render/headless/egl_context.h"
#include "render/se_glyph.h"
#include "render/viewport_renderer.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <utility>

using namespace linescope;
using namespace linescope::render;

Q_DECLARE_METATYPE(linescope::LineKind)

namespace {

struct Rgb8 {
    int r = 0, g = 0, b = 0;
    bool operator==(const Rgb8&) const = default;
};

// The framebuffer read back, top row first.
struct Frame {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgba;
    Rgb8 at(int x, int y) const {
        const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 4;
        return {rgba[i], rgba[i + 1], rgba[i + 2]};
    }
};

QString describe(Rgb8 c) { return QString("(%1,%2,%3)").arg(c.r).arg(c.g).arg(c.b); }

// Compares every framebuffer pixel with expected(x, y), up to tolerance per channel;
// reports the first difference.
template <class F>
bool framesMatch(const Frame& f, F expected, int tolerance, QString* first) {
    for (int y = 0; y < f.height; ++y)
        for (int x = 0; x < f.width; ++x) {
            const Rgb8 got = f.at(x, y), want = expected(x, y);
            if (std::abs(got.r - want.r) > tolerance || std::abs(got.g - want.g) > tolerance ||
                std::abs(got.b - want.b) > tolerance) {
                *first = QString("screen pixel (%1,%2): got %3, expected %4").arg(x).arg(y).arg(describe(got), describe(want));
                return false;
            }
        }
    return true;
}

// The display formula, with ties refused so that the expected pixel is unambiguous.
int greyOf(double v, double lo, double hi) {
    const double g = std::clamp((v - lo) / (hi - lo), 0.0, 1.0) * 255.0;
    const double frac = g - std::floor(g);
    if (std::abs(frac - 0.5) < 0.01) throw Error("test data gives a rounding tie");
    return static_cast<int>(std::lround(g));
}

}  // namespace

class TestViewportRender : public QObject {
    Q_OBJECT

    std::unique_ptr<EglContext> egl_;
    std::unique_ptr<ViewportRenderer> renderer_;

    Frame draw(int w, int h) {
        RenderTarget target{egl_->framebuffer(w, h), w, h};
        renderer_->render(target);
        return {w, h, egl_->readPixels()};
    }

    // Grey view of image at zoom z and pan (px, py): image pixel (x, y) fills the screen
    // block [px + z·x, px + z·(x+1)) × …, grey from the range; black elsewhere.
    template <class T>
    void checkGrey(const Image<T>& img, double lo, double hi, int zoom, int px, int py, int fw, int fh) {
        renderer_->setColourMap(ColourMap::Grey);
        renderer_->uploadImage<T>(img.cview());
        renderer_->setDisplayRange(lo, hi);
        renderer_->setView({static_cast<double>(zoom), static_cast<double>(px), static_cast<double>(py)});
        const Frame f = draw(fw, fh);
        QString first;
        const bool ok = framesMatch(f, [&](int x, int y) {
            const int ix = x - px >= 0 ? (x - px) / zoom : -1, iy = y - py >= 0 ? (y - py) / zoom : -1;
            if (ix < 0 || iy < 0 || ix >= img.width() || iy >= img.height()) return Rgb8{};
            const int g = greyOf(static_cast<double>(img.at(ix, iy)), lo, hi);
            return Rgb8{g, g, g};
        }, 0, &first);
        QVERIFY2(ok, qPrintable(first));
    }

private slots:
    void initTestCase() {
        egl_ = std::make_unique<EglContext>();
        if (!egl_->usable()) QSKIP(qPrintable("no headless OpenGL: " + QString::fromStdString(egl_->why())));
        qInfo("%s", egl_->description().c_str());
        renderer_ = std::make_unique<ViewportRenderer>();
        renderer_->initialize(&EglContext::procAddress);
    }
    void cleanupTestCase() {
        if (renderer_) renderer_->release();
        renderer_.reset();
        egl_.reset();
    }
    void init() {
        renderer_->setBackground({0, 0, 0, 1});
        renderer_->clearContours();
        renderer_->clearGlyph();
    }

    void viewTransformArithmetic() {
        ViewTransform t = ViewTransform::fit(100, 50, 400, 400);
        QCOMPARE(t.zoom, 4.0);
        QCOMPARE(t.panX, 0.0);
        QCOMPARE(t.panY, 100.0);
        const double ix = t.imageX(123), iy = t.imageY(77);
        t.wheel(123, 77, 120);  // one notch: ×2^(1/4), about the cursor
        QVERIFY(std::abs(t.zoom - 4.0 * std::exp2(0.25)) < 1e-12);
        QVERIFY(std::abs(t.imageX(123) - ix) < 1e-9 && std::abs(t.imageY(77) - iy) < 1e-9);
        t.drag(5, -3);
        QVERIFY(std::abs(t.imageX(128) - ix) < 1e-9 && std::abs(t.imageY(74) - iy) < 1e-9);
        const ViewTransform one = ViewTransform::oneToOne(10, 10, 31, 31);
        QCOMPARE(one.zoom, 1.0);
        QCOMPARE(one.panX, 11.0);  // 10.5 rounded: whole pixels stay exact
        QCOMPARE(one.pixelX(11.0), 0);
        QCOMPARE(one.pixelX(10.99), -1);
    }

    void greyU8OneToOne() {
        Image<std::uint8_t> img(7, 5);
        for (int y = 0; y < 5; ++y)
            for (int x = 0; x < 7; ++x) img.at(x, y) = static_cast<std::uint8_t>((x * 37 + y * 59 + 3) % 256);
        img.at(0, 0) = 0;
        img.at(6, 4) = 255;
        checkGrey(img, 0, 255, 1, 3, 2, 16, 12);
    }
    void greyU8Range() {
        Image<std::uint8_t> img(9, 3);
        const std::uint8_t v[] = {0, 10, 20, 21, 64, 100, 150, 200, 255};
        for (int y = 0; y < 3; ++y)
            for (int x = 0; x < 9; ++x) img.at(x, y) = v[(x + y) % 9];
        checkGrey(img, 20, 200, 1, 0, 0, 9, 3);  // (v−20)/180·255: below and above clamp
    }
    void greyU16Range() {
        Image<std::uint16_t> img(7, 2);
        const std::uint16_t v[] = {0, 1000, 2000, 2600, 4000, 6000, 65535};
        for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 7; ++x) img.at(x, y) = v[(x + 3 * y) % 7];
        checkGrey(img, 1000, 5000, 1, 1, 1, 10, 5);
        checkGrey(img, 0, 65535, 1, 0, 0, 7, 2);
    }
    void greyFloatRange() {
        Image<float> img(6, 2);
        const float v[] = {-5.0f, -1.0f, 0.1f, 0.7f, 1.3f, 2.9f, 3.0f, 100.0f, -0.4f, 2.2f, 1.1f, 0.0f};
        for (int i = 0; i < 12; ++i) img.at(i % 6, i / 6) = v[i];
        checkGrey(img, -1, 3, 1, 2, 3, 9, 7);
    }
    void zoomFourNearest() {
        Image<std::uint8_t> img(4, 3);
        for (int i = 0; i < 12; ++i) img.at(i % 4, i / 4) = static_cast<std::uint8_t>(i * 21 + 7);
        checkGrey(img, 0, 255, 4, 2, 1, 20, 15);  // every image pixel a 4×4 block, exact edges
    }
    void zoomOutFiltersAConstantImage() {
        // Zoomed out the view is filtered (mipmaps): a constant image stays that constant.
        Image<std::uint8_t> img(64, 64, 200);
        renderer_->setColourMap(ColourMap::Grey);
        renderer_->uploadImage<std::uint8_t>(img.cview());
        renderer_->setDisplayRange(0, 255);
        renderer_->setView({0.25, 0, 0});
        const Frame f = draw(16, 16);
        QString first;
        QVERIFY2(framesMatch(f, [](int, int) { return Rgb8{200, 200, 200}; }, 0, &first), qPrintable(first));
    }
    void stridedUpload() {
        Image<std::uint16_t> padded(11, 4);
        for (int i = 0; i < 44; ++i) padded.at(i % 11, i / 11) = static_cast<std::uint16_t>(i * 5 * 257 + 100);  // 5i + 0.39 grey levels
        const ImageView<const std::uint16_t> view(padded.data() + 2, 7, 4, 11);  // 7 of 11 columns
        Image<std::uint16_t> dense(7, 4);
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 7; ++x) dense.at(x, y) = view.at(x, y);
        renderer_->uploadImage<std::uint16_t>(view);
        renderer_->setDisplayRange(0, 65535);
        renderer_->setView({1, 0, 0});
        const Frame f = draw(7, 4);
        QString first;
        QVERIFY2(framesMatch(f, [&](int x, int y) { const int g = greyOf(dense.at(x, y), 0, 65535); return Rgb8{g, g, g}; }, 0, &first),
                 qPrintable(first));
    }

    void orientationMapMatchesTheEngineColours_data() {
        QTest::addColumn<int>("zoom");
        QTest::newRow("1:1") << 1;
        QTest::newRow("3x") << 3;
    }
    void orientationMapMatchesTheEngineColours() {
        QFETCH(int, zoom);
        const Image<std::uint8_t> src = test::randomImage<std::uint8_t>(24, 18, 7);
        SweepRequest req;
        req.length = 5;
        req.angles = AngleSet{0, 15, 12};
        EngineOptions opt;
        opt.backend = Backend::Cpu;
        const SweepResult<std::uint8_t> sw = sweep<std::uint8_t>(src.cview(), req, opt);
        const RgbImage cpu = orientationColours(sw);
        renderer_->uploadOrientation(sw);
        renderer_->setColourMap(ColourMap::Orientation);
        renderer_->setView({static_cast<double>(zoom), 1, 2});
        const Frame f = draw(24 * zoom + 3, 18 * zoom + 4);
        renderer_->setColourMap(ColourMap::Grey);
        QString first;
        const bool ok = framesMatch(f, [&](int x, int y) {
            const int ix = x - 1 >= 0 ? (x - 1) / zoom : -1, iy = y - 2 >= 0 ? (y - 2) / zoom : -1;
            if (ix < 0 || iy < 0 || ix >= 24 || iy >= 18) return Rgb8{};
            const std::size_t i = (static_cast<std::size_t>(iy) * 24 + static_cast<std::size_t>(ix)) * 3;
            return Rgb8{cpu.rgb[i], cpu.rgb[i + 1], cpu.rgb[i + 2]};
        }, 1, &first);
        QVERIFY2(ok, qPrintable(first));
    }

    void contoursAsLineLoops() {
        // A ring (outer border and one hole) and a diagonal bar; the SIMPLE contours, drawn as
        // loops through pixel centres, light exactly the pixels of the NONE contours.
        Image<std::uint8_t> bin(24, 20, 0);
        for (int y = 2; y < 12; ++y)
            for (int x = 2; x < 14; ++x) bin.at(x, y) = 1;
        for (int y = 5; y < 8; ++y)
            for (int x = 6; x < 10; ++x) bin.at(x, y) = 0;
        for (int k = 0; k < 6; ++k) { bin.at(16 + k, 12 + k) = 1; bin.at(17 + k, 12 + k) = 1; }
        bin.at(20, 3) = 1;  // a single pixel: a one-point contour
        const Contours simple = findContours(bin.cview(), ContourMode::List, ContourApprox::Simple);
        const Contours all = findContours(bin.cview(), ContourMode::List, ContourApprox::None);
        std::set<std::pair<int, int>> outer, hole;
        for (std::size_t i = 0; i < all.size(); ++i)
            for (std::size_t k = 0; k < all.length(i); ++k)
                (all.hole[i] ? hole : outer).insert({all.begin(i)[k].x, all.begin(i)[k].y});
        QVERIFY(!hole.empty());
        renderer_->setContours(simple);
        renderer_->setContourColours({1, 0, 0, 1}, {0, 0, 1, 1});
        Image<std::uint8_t> black(24, 20, 0);
        renderer_->uploadImage<std::uint8_t>(black.cview());
        renderer_->setView({1, 0, 0});
        const Frame f = draw(24, 20);
        QString first;
        const bool ok = framesMatch(f, [&](int x, int y) {
            if (hole.count({x, y})) return Rgb8{0, 0, 255};
            if (outer.count({x, y})) return Rgb8{255, 0, 0};
            return Rgb8{};
        }, 0, &first);
        QVERIFY2(ok, qPrintable(first));
    }

    // For every line kind: the glyph is the kind's own pixel set (line_kernel.h for the
    // translation-invariant kinds) as the engine uses it.
    void glyphIsTheEngineSegment_data() {
        QTest::addColumn<double>("angle");
        QTest::addColumn<int>("length");
        QTest::addColumn<LineKind>("kind");
        for (LineKind k : {LineKind::Paths, LineKind::Segment, LineKind::Periodic})
            for (double a : {0.0, 17.0, 30.0, 45.0, 60.0, 90.0, 112.5, 135.0, 163.0, 179.5})
                for (int l : {1, 4, 7, 15})
                    QTest::addRow("%s %g deg, lambda %d", lineKindName(k), a, l) << a << l << k;
    }
    void glyphIsTheEngineSegment() {
        QFETCH(double, angle);
        QFETCH(int, length);
        QFETCH(LineKind, kind);
        const int w = 23, h = 19;
        for (auto [cx, cy] : {std::pair{11, 9}, std::pair{1, 2}, std::pair{21, 17}}) {
            // The engine's own segment: the dilation of one bright pixel lights exactly the
            // pixels the erosion at that pixel reads.
            Image<std::uint8_t> impulse(w, h, 0);
            impulse.at(cx, cy) = 255;
            EngineOptions opt;
            opt.backend = Backend::Cpu;
            // δ(f)(c) = max f(c − k): the impulse at q lights q + K, the pixels ε reads at q.
            const Image<std::uint8_t> lit =
                lineMorph<std::uint8_t>(MorphOp::Dilate, impulse.cview(), {angle, length, kind}, opt);
            std::set<std::pair<int, int>> engine, glyph;
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x)
                    if (lit.at(x, y)) engine.insert({x, y});
            for (const GlyphPixel& p : lineGlyph(kind, angle, length, cx, cy, w, h)) glyph.insert({p.x, p.y});
            QCOMPARE(glyph, engine);

            // Drawn at 3× over a black view: each glyph pixel is a whole 3×3 block.
            const int zoom = 3;
            renderer_->uploadImage<std::uint8_t>(Image<std::uint8_t>(w, h, 0).cview());
            renderer_->setDisplayRange(0, 255);
            renderer_->setGlyph(angle, length, cx, cy, kind);
            renderer_->setGlyphColour({0, 1, 0, 1});
            renderer_->setView({static_cast<double>(zoom), 0, 0});
            const Frame f = draw(w * zoom, h * zoom);
            QString first;
            const bool ok = framesMatch(f, [&](int x, int y) {
                return glyph.count({x / zoom, y / zoom}) ? Rgb8{0, 255, 0} : Rgb8{};
            }, 0, &first);
            QVERIFY2(ok, qPrintable(QString("centre (%1,%2): ").arg(cx).arg(cy) + first));
        }
    }

    // Two kinds compared: the result's grey, dimmed, where they agree; orange where the
    // difference is positive and blue where negative, brighter with |d| (shaders.h).
    void signedDifferenceColoursTheSign() {
        Image<std::uint8_t> img(4, 1);
        const std::uint8_t v[] = {0, 255, 100, 200};
        Image<float> d(4, 1);
        const float dv[] = {0, 0, 5, -10};
        for (int x = 0; x < 4; ++x) {
            img.at(x, 0) = v[x];
            d.at(x, 0) = dv[x];
        }
        renderer_->uploadImage<std::uint8_t>(img.cview());
        renderer_->setDisplayRange(0, 255);
        renderer_->uploadDifference(d.cview(), 10);
        renderer_->setColourMap(ColourMap::SignedDifference);
        const int zoom = 4;  // magnified: nearest texels
        renderer_->setView({static_cast<double>(zoom), 0, 0});
        const Frame f = draw(4 * zoom, zoom);
        const Rgb8 expected[] = {{31, 31, 31}, {133, 133, 133}, {204, 102, 10}, {38, 153, 255}};
        QString first;
        const bool ok = framesMatch(f, [&](int x, int) { return expected[x / zoom]; }, 1, &first);
        renderer_->setColourMap(ColourMap::Grey);
        QVERIFY2(ok, qPrintable(first));
    }

    void contextRecreationRestoresTheState() {
        // As when Qt recreates the widget's context: release, initialize, upload again.
        Image<std::uint8_t> img(5, 4);
        for (int i = 0; i < 20; ++i) img.at(i % 5, i / 5) = static_cast<std::uint8_t>(i * 12);
        const std::uint64_t generation = renderer_->contextGeneration();
        renderer_->release();
        QVERIFY(!renderer_->initialized());
        QCOMPARE(renderer_->texture(ViewTexture::Image), 0u);
        renderer_->initialize(&EglContext::procAddress);
        QCOMPARE(renderer_->contextGeneration(), generation + 1);
        checkGrey(img, 0, 255, 2, 1, 1, 13, 10);
    }
};

QTEST_GUILESS_MAIN(TestViewportRender)
#include "test_viewport_render.moc"
