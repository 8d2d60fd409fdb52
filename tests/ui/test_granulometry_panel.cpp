// The Granulometry dock in the window (label gui): computed only once shown, it plots the
// engine's numbers (S(λ)/S(1) and PS(λ)/S(1) at the controls' angle), marks the controls' λ,
// a click on a bar sets λ, and the angle, Λ, the supremum box and the region recompute it;
// a region drawn in the viewport (Draw, then a drag) is the region summed, outlined over the
// image while the dock is shown, and Whole gives the whole image back.
#include "ui/granulometry_panel.h"
#include "ui/main_window.h"
#include "ui/viewport_widget.h"
#include "tests/support/random_images.h"
#include "tests/ui/window_fixture.h"

#include <QBarSet>
#include <QChartView>
#include <QLabel>
#include <QCheckBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QLineSeries>
#include <QSpinBox>
#include <QToolButton>
#include <QtTest>

using namespace linescope;

namespace {

constexpr int kTimeoutMs = 120000;

// What the engine gives for the window's current parameters.
Granulometry expectedFor(const Image<std::uint8_t>& img, const session::Session& s) {
    GranulometryRequest req;
    req.angle = s.parameters().angle;
    req.maxLength = s.parameters().granulometry.maxLength;
    req.rect = s.parameters().granulometry.region;
    if (s.parameters().granulometry.supremum) req.angles = s.parameters().angles;
    return *granulometry<std::uint8_t>(img.cview(), req);
}

}  // namespace

class TestGranulometryPanel : public QObject {
    Q_OBJECT

    std::unique_ptr<ui::MainWindow> w_;
    Image<std::uint8_t> img_ = test::randomImage<std::uint8_t>(96, 72, 18, test::ImageKind::Blocky);

    ui::GranulometryPanel* panel() { return w_->granulometryPanel(); }

    // Waits until the panel shows the engine's numbers for the current parameters, then
    // checks the plotted points against them.
    void verifyShowsTheEngine() {
        const Granulometry e = expectedFor(img_, w_->session());
        QTRY_VERIFY_WITH_TIMEOUT(panel()->shown() && panel()->shown()->sumsExact == e.sumsExact &&
                                     panel()->shown()->maxLength == e.maxLength,
                                 kTimeoutMs);
        const QList<QPointF> points = panel()->sumSeries()->points();
        QCOMPARE(points.size(), static_cast<qsizetype>(e.sums.size()));
        for (qsizetype i = 0; i < points.size(); ++i) {
            QCOMPARE(points[i].x(), static_cast<double>(i + 1));
            QCOMPARE(points[i].y(), e.sums[static_cast<std::size_t>(i)] / e.sums[0]);
        }
        QCOMPARE(panel()->spectrumBars()->count(), static_cast<qsizetype>(e.spectrum.size() + 1));
        QCOMPARE(panel()->spectrumBars()->at(0), 0.0);
        for (std::size_t l = 1; l <= e.spectrum.size(); ++l)
            QCOMPARE(panel()->spectrumBars()->at(static_cast<int>(l)), e.spectrum[l - 1] / e.sums[0]);
    }

private slots:
    void init() {
        w_ = test::makeTestWindow(QStringLiteral(LINESCOPE_SAMPLES_DIR));
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
        w_->session().setImage(img_);
    }
    void cleanup() { w_.reset(); }

    void computedOnlyWhenShown() {
        QVERIFY(!w_->granulometryDock()->isVisible());
        QVERIFY(!w_->session().isLive(session::RequestKind::Granulometry));
        QCoreApplication::processEvents();
        QVERIFY(!panel()->hasGranulometry());
        QCOMPARE(w_->session().queue().computations(session::RequestKind::Granulometry), std::uint64_t{0});
        w_->granulometryDock()->show();
        w_->granulometryDock()->raise();
        QTRY_VERIFY_WITH_TIMEOUT(w_->session().isLive(session::RequestKind::Granulometry), kTimeoutMs);
        verifyShowsTheEngine();
    }

    void marksLambdaAndClickSetsIt() {
        w_->granulometryDock()->show();
        w_->granulometryDock()->raise();
        w_->setLength(21);
        verifyShowsTheEngine();
        QCOMPARE(panel()->markerSeries()->count(), 2);
        QCOMPARE(panel()->markerSeries()->at(0).x(), 21.0);
        // A click on bar 10 sets λ (the controls and the session), and the marker follows.
        QTest::mouseClick(panel()->chartView()->viewport(), Qt::LeftButton, {}, panel()->pointOfLength(10).toPoint());
        QCOMPARE(w_->session().parameters().length, 10);
        QCOMPARE(w_->lengthSpin()->value(), 10);
        QCOMPARE(panel()->markerSeries()->at(0).x(), 10.0);
        QTest::mouseClick(panel()->chartView()->viewport(), Qt::LeftButton, {}, panel()->pointOfLength(47).toPoint());
        QCOMPARE(w_->session().parameters().length, 47);
    }

    void followsAngleAndSettings() {
        w_->granulometryDock()->show();
        w_->granulometryDock()->raise();
        verifyShowsTheEngine();
        w_->setAngle(45);
        verifyShowsTheEngine();
        panel()->maxLengthSpin()->setValue(30);
        QCOMPARE(w_->session().parameters().granulometry.maxLength, 30);
        verifyShowsTheEngine();
        panel()->regionEdit()->setText(QStringLiteral("10, 8, 40, 30"));
        emit panel()->regionEdit()->editingFinished();
        QCOMPARE(w_->session().parameters().granulometry.region, std::optional<PixelRect>(PixelRect{10, 8, 40, 30}));
        verifyShowsTheEngine();
        QCOMPARE(panel()->shown()->pixels, 40LL * 30);
        panel()->regionEdit()->setText(QStringLiteral("10,8,0,30"));  // refused, nothing changes
        emit panel()->regionEdit()->editingFinished();
        QCOMPARE(w_->session().parameters().granulometry.region, std::optional<PixelRect>(PixelRect{10, 8, 40, 30}));
        QVERIFY(!panel()->statusLabel()->text().isEmpty());
        w_->session().setAngleSet(AngleSet{0, 45, 4});
        panel()->supremumBox()->setChecked(true);
        QVERIFY(w_->session().parameters().granulometry.supremum);
        verifyShowsTheEngine();
    }

    void regionDrawnInTheViewport() {
        w_->granulometryDock()->show();
        w_->granulometryDock()->raise();
        verifyShowsTheEngine();
        ui::ViewportWidget* view = w_->viewport();
        QTRY_VERIFY(view->viewTransform().zoom > 0);
        const render::ViewTransform t = view->viewTransform();
        const double dpr = view->devicePixelRatioF();
        // The logical position of image pixel (x, y)'s centre.
        const auto at = [&](int x, int y) {
            return QPoint(static_cast<int>(std::floor(t.screenX(x + 0.5) / dpr)),
                          static_cast<int>(std::floor(t.screenY(y + 0.5) / dpr)));
        };
        QVERIFY(t.zoom >= 2);  // pixels large enough to hit one by its centre
        panel()->drawRegionButton()->click();
        QVERIFY(view->regionDrawing());
        QTest::mousePress(view, Qt::LeftButton, {}, at(49, 37));  // dragged up and left
        QTest::mouseMove(view, at(30, 20));
        QTest::mouseMove(view, at(10, 8));
        QTest::mouseRelease(view, Qt::LeftButton, {}, at(10, 8));
        const std::optional<PixelRect> want = PixelRect{10, 8, 40, 30};
        QCOMPARE(w_->session().parameters().granulometry.region, want);
        QVERIFY(!view->regionDrawing());
        QVERIFY(!panel()->drawRegionButton()->isChecked());
        QCOMPARE(panel()->regionEdit()->text(), QStringLiteral("10,8,40,30"));
        QCOMPARE(view->viewTransform().panX, t.panX);  // the drag drew, it did not pan
        verifyShowsTheEngine();
        QCOMPARE(panel()->shown()->pixels, 40LL * 30);
        // Outlined where the pixels are, whatever the zoom.
        QVERIFY(view->regionOutline()->isVisible());
        const QRect outline = view->regionOutline()->geometry();
        QVERIFY2(std::abs(outline.left() - t.screenX(10) / dpr) <= 1 && std::abs(outline.top() - t.screenY(8) / dpr) <= 1 &&
                     std::abs(outline.right() + 1 - t.screenX(50) / dpr) <= 1 &&
                     std::abs(outline.bottom() + 1 - t.screenY(38) / dpr) <= 1,
                 qPrintable(QString("outline %1,%2 %3x%4").arg(outline.x()).arg(outline.y()).arg(outline.width()).arg(outline.height())));
        // Hidden with the dock, back with it; a drag without Draw pans and leaves the region.
        w_->granulometryDock()->hide();
        QTRY_VERIFY(!view->regionOutline()->isVisible());
        w_->granulometryDock()->show();
        QTRY_VERIFY(view->regionOutline()->isVisible());
        QTest::mousePress(view, Qt::LeftButton, {}, at(60, 50));
        QTest::mouseMove(view, at(60, 50) + QPoint(15, 5));
        QTest::mouseRelease(view, Qt::LeftButton, {}, at(60, 50) + QPoint(15, 5));
        QVERIFY(view->viewTransform().panX != t.panX);
        QCOMPARE(w_->session().parameters().granulometry.region, want);
        // Whole: the whole image again.
        panel()->wholeImageButton()->click();
        QCOMPARE(w_->session().parameters().granulometry.region, std::optional<PixelRect>());
        QVERIFY(panel()->regionEdit()->text().isEmpty());
        QTRY_VERIFY(!view->regionOutline()->isVisible());
        verifyShowsTheEngine();
        QCOMPARE(panel()->shown()->pixels, 96LL * 72);
        // In lesson mode the viewport is away: nothing to draw on.
        w_->setLessonMode(true);
        QVERIFY(!panel()->drawRegionButton()->isEnabled());
        w_->setLessonMode(false);
        QVERIFY(panel()->drawRegionButton()->isEnabled());
    }

    void regionText() {
        using R = std::optional<std::optional<PixelRect>>;
        QCOMPARE(ui::parseRegionText(QString()), R(std::optional<PixelRect>()));
        QCOMPARE(ui::parseRegionText(QStringLiteral(" 1,2, 3 ,4 ")), R(PixelRect{1, 2, 3, 4}));
        QCOMPARE(ui::parseRegionText(QStringLiteral("-5,2,3,4")), R(PixelRect{-5, 2, 3, 4}));
        QVERIFY(!ui::parseRegionText(QStringLiteral("1,2,3")));
        QVERIFY(!ui::parseRegionText(QStringLiteral("1,2,3,0")));
        QVERIFY(!ui::parseRegionText(QStringLiteral("a,2,3,4")));
    }
};

QTEST_MAIN(TestGranulometryPanel)
#include "test_granulometry_panel.moc"
