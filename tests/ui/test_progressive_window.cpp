// Big images stay live (issue 20, item 10), label gui under Xvfb: while a sweep is refined the
// sweep views show a preview marked as one, the exact sweep replaces it (and equals the
// engine's), a parameter change marks what is shown stale, the status bar says the controls'
// values, and Cancel leaves a consistent window. The engine is held at its checkpoints by a
// gate, never timed; progressive sweeps are turned on for a small image by their options.
#include "ui/freshness_badge.h"
#include "ui/main_window.h"
#include "ui/spectrum_panel.h"
#include "ui/view_controls.h"
#include "ui/viewport_widget.h"
#include "tests/support/engine_gate.h"
#include "tests/support/random_images.h"
#include "tests/ui/window_fixture.h"

#include "app/session/planes.h"

#include <QDockWidget>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QFileInfo>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <memory>

using namespace linescope;
using linescope::ui::MainWindow;

namespace {

constexpr int kTimeoutMs = 120000;  // CI has 2 cores and runs suites in parallel
constexpr int kW = 192, kH = 160;   // 30720 pixels: a coarse preview at 1/4 (previewPixels 4096)

using Gate = test::EngineGate;

// Holds the engine once, at checkpoint `step` of the next sweep (step 1: before any work;
// 2: after the coarse preview and the first chunk).
void holdSweepAt(session::EngineQueue& q, Gate& gate, int step) {
    auto once = std::make_shared<std::atomic<bool>>(false);
    q.setCheckpointHookForTests([&gate, once, step](session::RequestKind k, std::uint64_t, int s) {
        if (k == session::RequestKind::Sweep && s == step && !once->exchange(true)) gate.hold();
    });
}

Image<std::uint8_t> testImage() { return test::randomImage<std::uint8_t>(kW, kH, 20, test::ImageKind::Blocky); }

}  // namespace

class TestProgressiveWindow : public QObject {
    Q_OBJECT

    // A window whose sweeps are progressive on the test image, showing the orientation map
    // over 36 angles with λ = 15 and the spectrum dock.
    std::unique_ptr<MainWindow> makeWindow() {
        auto w = test::makeTestWindow(QStringLiteral(LINESCOPE_SAMPLES_DIR), false, [](session::EngineQueue::Options& o) {
            o.progressive.previewPixels = 4096;
            o.progressive.reducedAbovePixels = 0;
            o.progressive.passWork = 1;
            o.sweepChunkAngles = 2;
        });
        w->show();
        if (!QTest::qWaitForWindowExposed(w.get())) return nullptr;
        w->spectrumDock()->show();
        w->viewControls()->setView(ui::Plane::Orientation);
        w->viewControls()->setAngleSet(AngleSet::overHalfTurn(36));
        w->setLength(15);
        return w;
    }

    bool exactShown(MainWindow& w) {
        const auto s = w.viewport()->sweepSnapshot();
        return s && !s->isPreview() && w.viewport()->shownSweepId() == s->id;
    }

private slots:
    // A preview arrives first and is marked as one (viewport, spectrum dock), with the
    // progress bar up; the exact sweep replaces it, the marks go, and it is the engine's.
    void previewIsMarkedThenReplacedByTheExactSweep() {
        auto w = makeWindow();
        QVERIFY(w);
        Gate gate;
        holdSweepAt(w->session().queue(), gate, 2);
        const Image<std::uint8_t> img = testImage();
        w->session().setImage(session::AnyImage(img));
        QVERIFY(gate.waitHeld());
        QTRY_VERIFY_WITH_TIMEOUT(w->viewport()->sweepSnapshot() && w->viewport()->sweepSnapshot()->isPreview(), kTimeoutMs);
        ui::FreshnessBadge* mark = w->viewport()->freshnessBadge();
        QTRY_VERIFY(mark->isVisible());
        QCOMPARE(mark->text(), QStringLiteral("Preview: 1/4 resolution"));
        QTRY_VERIFY(w->spectrumPanel()->freshnessBadge()->isVisible());
        QVERIFY(w->spectrumPanel()->freshnessBadge()->text().startsWith(QStringLiteral("Preview")));
        QVERIFY(w->spectrumPanel()->shownSweep()->isPreview());
        QTRY_VERIFY(w->progressBar()->isVisible());
        QVERIFY(w->cancelButton()->isVisible());
        // A preview is not exported as if it were the sweep; the exact one is.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("orientation.png"));
        QString error;
        QVERIFY(!w->writeView(path, &error));
        QVERIFY2(error.contains(QStringLiteral("still being refined")), qPrintable(error));
        QVERIFY(!QFileInfo::exists(path));
        gate.release();

        QTRY_VERIFY_WITH_TIMEOUT(exactShown(*w), kTimeoutMs);
        QVERIFY2(w->writeView(path, &error), qPrintable(error));
        QTRY_VERIFY(!mark->isVisible());
        QTRY_VERIFY(!w->spectrumPanel()->freshnessBadge()->isVisible());
        QTRY_VERIFY(!w->progressBar()->isVisible());
        QVERIFY(!w->spectrumPanel()->shownSweep()->isPreview());
        const auto shown = session::hostSweep(*w->viewport()->sweepSnapshot());
        const auto& got = std::get<SweepResult<std::uint8_t>>(*shown);
        const SweepResult<std::uint8_t> want = sweep<std::uint8_t>(
            img.cview(), SweepRequest{MorphOp::Open, 15, AngleSet::overHalfTurn(36)}, EngineOptions{Backend::Cpu});
        QVERIFY(got.sup == want.sup);
        QVERIFY(got.argIndex == want.argIndex);
        QVERIFY(got.strength == want.strength);
        QCOMPARE(got.spectrumExact, want.spectrumExact);
    }

    // After a λ change the shown sweep is of the old λ: marked stale (viewport and spectrum)
    // until the new one comes; the status bar reads the controls' operator and λ at once.
    void parameterChangeMarksTheShownSweepStale() {
        auto w = makeWindow();
        QVERIFY(w);
        w->session().setImage(session::AnyImage(testImage()));
        QTRY_VERIFY_WITH_TIMEOUT(exactShown(*w), kTimeoutMs);
        QTRY_VERIFY(!w->viewport()->freshnessBadge()->isVisible());
        Gate gate;
        holdSweepAt(w->session().queue(), gate, 1);
        w->setLength(21);
        QVERIFY(w->statusBar()->currentMessage().startsWith(QStringLiteral("Opening at 0.0°, λ = 21")));
        QVERIFY(gate.waitHeld());
        ui::FreshnessBadge* mark = w->viewport()->freshnessBadge();
        QCOMPARE(mark->state().freshness, session::Freshness::Stale);
        QTRY_VERIFY(mark->isVisible());  // after FreshnessBadge::kStaleDelayMs
        QCOMPARE(mark->text(), QStringLiteral("Stale: shows λ = 15"));
        QTRY_VERIFY(w->spectrumPanel()->freshnessBadge()->isVisible());
        QCOMPARE(w->spectrumPanel()->freshnessBadge()->text(), QStringLiteral("Stale: shows λ = 15"));
        gate.release();
        QTRY_VERIFY_WITH_TIMEOUT(exactShown(*w) && std::get<session::SweepParams>(
                                     w->viewport()->sweepSnapshot()->request.params).sweep.length == 21, kTimeoutMs);
        QTRY_VERIFY(!mark->isVisible());
        QTRY_VERIFY(!w->spectrumPanel()->freshnessBadge()->isVisible());
        QTRY_VERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("ms on the CPU")));
    }

    // Cancel while a preview is shown: no bar or button left, the preview stays marked (its
    // refinement cancelled), the status bar says what is shown and offers Recompute, which
    // brings the exact sweep and clears every mark.
    void cancelDuringAPreviewKeepsTheWindowConsistent() {
        auto w = makeWindow();
        QVERIFY(w);
        Gate gate;
        holdSweepAt(w->session().queue(), gate, 2);
        w->session().setImage(session::AnyImage(testImage()));
        QVERIFY(gate.waitHeld());
        QTRY_VERIFY_WITH_TIMEOUT(w->viewport()->sweepSnapshot() && w->viewport()->sweepSnapshot()->isPreview(), kTimeoutMs);
        QTRY_VERIFY(w->cancelButton()->isVisible());
        w->cancelButton()->click();
        gate.release();
        QTRY_VERIFY_WITH_TIMEOUT(w->session().queue().stats().cancelled >= 1, kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(!w->session().queue().busy(), kTimeoutMs);
        for (int k = 0; k < 5; ++k) QCoreApplication::processEvents();
        QVERIFY(!w->progressBar()->isVisible());
        QVERIFY(!w->cancelButton()->isVisible());
        QVERIFY(w->sweepStaleLabel()->isVisible());
        QCOMPARE(w->sweepStaleLabel()->text(),
                 QStringLiteral("Sweep cancelled: showing λ = 15 (preview: 1/4 resolution) —"));
        QVERIFY(w->recomputeAction()->isEnabled());
        QVERIFY(w->viewport()->sweepSnapshot()->isPreview());
        QTRY_VERIFY(w->viewport()->freshnessBadge()->text().endsWith(QStringLiteral("(refining cancelled)")));

        w->recomputeAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(exactShown(*w), kTimeoutMs);
        QTRY_VERIFY(!w->sweepStaleLabel()->isVisible());
        QTRY_VERIFY(!w->viewport()->freshnessBadge()->isVisible());
        QTRY_VERIFY(!w->progressBar()->isVisible());
        QVERIFY(!w->recomputeAction()->isEnabled());
    }
};

QTEST_MAIN(TestProgressiveWindow)
#include "test_progressive_window.moc"
