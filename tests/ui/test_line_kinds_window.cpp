// The window's line kinds (label gui, under Xvfb; issue 18): the selector beside λ sets the
// session's kind and the result is the engine's for it; the difference view shows the count
// of differing pixels that a plain loop over the engine's two results gives, live while the
// angle moves; the angle slider's ticks are exactly where the pixel set changes; with snapping
// on, every arrow step gives another pixel set; the sentence names the current segment.
#include "app/session/kind_difference.h"
#include "app/session/shown_state.h"
#include "compute/line_kernel.h"
#include "compute/line_resolution.h"
#include "tests/support/random_images.h"
#include "tests/ui/window_fixture.h"
#include "ui/angle_resolution_control.h"
#include "ui/line_kind_combo.h"
#include "ui/line_kind_text.h"
#include "ui/view_controls.h"
#include "ui/viewport_widget.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>

#include <algorithm>
#include <set>
#include <utility>

using namespace linescope;
using linescope::ui::MainWindow;

namespace {

constexpr int kTimeoutMs = 120000;

std::set<std::pair<int, int>> pixelSet(LineKind kind, double angle, int length) {
    std::set<std::pair<int, int>> s;
    for (const Offset& o : lineKernel(kind, angle, length).offsets()) s.insert({o.dx, o.dy});
    return s;
}

}  // namespace

class TestLineKindsWindow : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> window_;

    // The newest result snapshot once it answers the controls (and compares kinds if asked).
    session::SnapshotPtr awaitResult(bool withDifference) {
        session::SnapshotPtr s;
        const bool ok = QTest::qWaitFor([&] {
            s = window_->session().latest(session::RequestKind::Result);
            const auto wanted = window_->session().requestFor(session::RequestKind::Result);
            return s && s->ok() && wanted && session::answers(*s, *wanted) && bool(s->difference) == withDifference;
        }, kTimeoutMs);
        return ok ? s : nullptr;
    }
    const Image<std::uint8_t>& image() const { return std::get<Image<std::uint8_t>>(*window_->session().image()); }

private slots:
    void initTestCase() {
        window_ = test::makeTestWindow(QStringLiteral(LINESCOPE_SAMPLES_DIR));
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QSignalSpy opened(&window_->session(), &session::Session::imageOpened);
        window_->openFile(QStringLiteral(LINESCOPE_SAMPLES_DIR "/music_sheet.png"));
        QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty(), kTimeoutMs);
        window_->setAngle(30);
        window_->setLength(11);
    }

    // The selector beside λ: the session's kind, the result by it, the status line and the glyph.
    void selectorSetsTheKind() {
        ui::LineKindCombo* combo = window_->lineKindCombo();
        QCOMPARE(combo->kind(), LineKind::Paths);
        QCOMPARE(combo->count(), 3);
        QVERIFY(combo->itemData(1, Qt::ToolTipRole).toString().contains("morphologyEx"));
        combo->setCurrentIndex(combo->findData(static_cast<int>(LineKind::Segment)));
        QCOMPARE(window_->session().parameters().kind, LineKind::Segment);
        QCOMPARE(window_->viewport()->controller().glyphKind(), LineKind::Segment);
        const session::SnapshotPtr s = awaitResult(false);
        QVERIFY(s);
        const auto want = lineMorph<std::uint8_t>(MorphOp::Open, image().cview(), LineParams{30, 11, LineKind::Segment},
                                                  EngineOptions{Backend::Cpu});
        if (auto d = test::firstDifference(want, std::get<Image<std::uint8_t>>(*s->result))) QFAIL(d->c_str());
        QTRY_VERIFY_WITH_TIMEOUT(window_->statusBar()->currentMessage().contains("segment (opencv kernel)"), kTimeoutMs);
        window_->setLineKind(LineKind::Paths);
        QCOMPARE(combo->kind(), LineKind::Paths);
    }

    // The difference view: the count and share of differing pixels, equal to a plain count over
    // the engine's two results, in the viewport's label and the status bar, and again after the
    // angle moves; another view leaves the comparison.
    void differenceViewCountsDifferingPixels() {
        ui::ViewControls* controls = window_->viewControls();
        controls->setView(ui::Plane::Supremum);
        controls->setOtherKind(LineKind::Segment);
        controls->setCompareMode(ui::CompareMode::KindsDifference);
        QCOMPARE(controls->view(), ui::Plane::Result);  // the kinds are compared in the Result view
        QVERIFY(controls->otherKindCombo()->isEnabled());
        for (double angle : {30.0, 12.5}) {
            window_->setAngle(angle);
            const session::SnapshotPtr s = awaitResult(true);
            QVERIFY(s);
            const EngineOptions cpu{Backend::Cpu};
            const auto a = lineMorph<std::uint8_t>(MorphOp::Open, image().cview(), LineParams{angle, 11, LineKind::Paths}, cpu);
            const auto b = lineMorph<std::uint8_t>(MorphOp::Open, image().cview(), LineParams{angle, 11, LineKind::Segment}, cpu);
            long long differing = 0;
            for (std::size_t i = 0; i < a.pixels().size(); ++i) differing += a.pixels()[i] != b.pixels()[i];
            QVERIFY(differing > 0);
            QCOMPARE(s->difference->differing, differing);
            const QString count = QLocale().toString(differing);
            QTRY_VERIFY_WITH_TIMEOUT(window_->statusBar()->currentMessage().contains(count + " of "), kTimeoutMs);
            const QString share = QLocale().toString(100.0 * double(differing) / double(a.pixels().size()), 'f', 2);
            QVERIFY2(ui::kindDifferenceText(*s->difference).contains("(" + share + " %)"),
                     qPrintable(ui::kindDifferenceText(*s->difference)));
            bool labelled = false;
            for (QLabel* l : window_->viewport()->findChildren<QLabel*>())
                labelled |= l->isVisible() && l->text().contains(count + " of ");
            QVERIFY(labelled);
        }
        controls->setView(ui::Plane::Original);
        QCOMPARE(controls->compareMode(), ui::CompareMode::Single);
        QCOMPARE(window_->session().viewOptions().compare, ui::CompareMode::Single);
        controls->setView(ui::Plane::Result);
        window_->setAngle(30);
    }

    // The ticks are the angles where the pixel set changes, for the kind and λ shown, and
    // follow a change of either.
    void ticksAreWhereTheSegmentChanges() {
        ui::AngleResolutionControl* r = window_->angleResolution();
        for (auto [kind, length] : {std::pair{LineKind::Paths, 11}, std::pair{LineKind::Periodic, 11},
                                    std::pair{LineKind::Segment, 7}}) {
            window_->setLineKind(kind);
            window_->setLength(length);
            QTRY_VERIFY_WITH_TIMEOUT(r->ready(), kTimeoutMs);
            const std::vector<int> want = AngleResolution(kind, length).changes();
            QVERIFY(!want.empty());
            QCOMPARE(static_cast<const ui::TickedSlider*>(window_->angleSlider())->ticks(), want);
        }
        window_->setLineKind(LineKind::Paths);
        window_->setLength(11);
    }

    // Snapping on: each arrow key on the slider moves to another pixel set (forwards and
    // back), and the sentence names the current segment's angles.
    void snappedStepsGiveOtherSegments() {
        ui::AngleResolutionControl* r = window_->angleResolution();
        QTRY_VERIFY_WITH_TIMEOUT(r->ready(), kTimeoutMs);
        window_->viewControls()->snapCheck()->setChecked(true);
        QVERIFY(r->snapping());
        QSlider* slider = window_->angleSlider();
        slider->setFocus();
        for (Qt::Key key : {Qt::Key_Right, Qt::Key_Left})
            for (int i = 0; i < 12; ++i) {
                const double before = window_->session().parameters().angle;
                QTest::keyClick(slider, key);
                const double after = window_->session().parameters().angle;
                QVERIFY2(pixelSet(LineKind::Paths, after, 11) != pixelSet(LineKind::Paths, before, 11),
                         qPrintable(QStringLiteral("%1° → %2°").arg(before).arg(after)));
            }
        // The sentence: the run of the current angle, its size, and the count over 180°.
        const AngleResolution res(LineKind::Paths, 11);
        const int index = res.indexOf(window_->session().parameters().angle);
        const SegmentRun& run = res.runs()[static_cast<std::size_t>(res.runAt(index))];
        const QString text = window_->viewControls()->resolutionLabel()->text();
        QVERIFY2(text.contains(QStringLiteral("%1-pixel segment").arg(run.pixels)), qPrintable(text));
        QVERIFY2(text.contains(QString::number(res.angleOf(run.first), 'f', 1) + "°"), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("(%1 distinct over 180°)").arg(res.runs().size())), qPrintable(text));
        window_->viewControls()->snapCheck()->setChecked(false);
        const double before = window_->session().parameters().angle;
        QTest::keyClick(slider, Qt::Key_Right);  // off: one step of 0.1°
        QCOMPARE(window_->session().parameters().angle, std::round((before + 0.1) * 10) / 10);
    }

    void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(TestLineKindsWindow)
#include "test_line_kinds_window.moc"
