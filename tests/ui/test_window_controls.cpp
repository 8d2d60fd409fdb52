// The main window's controls and defaults for a newcomer (label gui, under Xvfb): the angle
// dial points the way the segment lies; contours are off until asked for, remembered, and
// cleared with a new image; every dock is in the View menu; a new image opens fitted, below
// the collapsed overlay; the empty window says how to open an image; keys move the
// parameters from anywhere in the window; a cancelled sweep hides its progress for good and
// offers Recompute.
#include "ui/angle_dial.h"
#include "ui/contour_panel.h"
#include "ui/contour_table_model.h"
#include "ui/main_window.h"
#include "ui/view_controls.h"
#include "ui/viewport_widget.h"
#include "tests/support/engine_gate.h"
#include "tests/ui/window_fixture.h"

#include "compute/contours/contours.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QOpenGLContext>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <memory>
#include <mutex>

using namespace linescope;
using linescope::ui::AngleDial;
using linescope::ui::MainWindow;

namespace {

constexpr int kTimeoutMs = 120000;  // CI has 2 cores and runs suites in parallel

// Holds the engine thread at a checkpoint until released (as tests/session does).
using Gate = test::EngineGate;

QString sample(const char* name) { return QStringLiteral(LINESCOPE_SAMPLES_DIR "/") + name + ".png"; }

}  // namespace

class TestWindowControls : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<MainWindow> makeWindow(bool useSettings = false) {
        return test::makeTestWindow(QStringLiteral(LINESCOPE_SAMPLES_DIR), useSettings);
    }
    bool showWithGl(MainWindow& w) {
        w.show();
        if (!QTest::qWaitForWindowExposed(&w)) return false;
        QOpenGLContext* ctx = w.viewport()->context();
        return ctx && ctx->isValid();
    }
    void open(MainWindow& w, const QString& path) {
        QSignalSpy opened(&w.session(), &session::Session::imageOpened);
        w.openFile(path);
        QTRY_VERIFY_WITH_TIMEOUT(opened.size() == 1, kTimeoutMs);
    }
    static QAction* findAction(QMenu* menu, const QString& text) {
        for (QAction* a : menu->actions())
            if (a->text() == text) return a;
        return nullptr;
    }

private slots:
    void initTestCase() {
        // Settings in a test-only location, never the user's.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("LineScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("test_window_controls"));
        QSettings().clear();
    }
    void cleanupTestCase() { QSettings().clear(); }

    // Angles run counter-clockwise from East: the knob (and the line) point that way.
    void dialPointsTheWayOfTheAngle() {
        const double h = std::sqrt(0.5);
        const struct { double deg; double x, y; } cases[] = {{0, 1, 0}, {45, h, -h}, {90, 0, -1}, {135, -h, -h}};
        for (const auto& c : cases) {
            const QPointF d = AngleDial::direction(c.deg);
            QVERIFY2(std::abs(d.x() - c.x) < 1e-9 && std::abs(d.y() - c.y) < 1e-9, qPrintable(QString::number(c.deg)));
        }
        AngleDial dial;
        dial.setRange(0, MainWindow::kAngleSteps);
        dial.resize(100, 100);
        const QPointF centre(50, 50);
        for (const auto& c : cases) {
            dial.setValue(static_cast<int>(c.deg * 10));
            QCOMPARE(dial.degrees(), c.deg);
            // The knob lies from the centre in the angle's screen direction …
            const QPointF k = dial.knobCentre() - centre;
            QVERIFY2(std::abs(std::atan2(-k.y(), k.x()) - c.deg * std::acos(-1.0) / 180) < 1e-6,
                     qPrintable(QString::number(c.deg)));
            // … and the painted dial has its line there and at the opposite end, not across.
            const QImage img = dial.grab().toImage();
            const QColor ink = dial.palette().color(QPalette::Highlight);
            auto inkAt = [&](double deg, double r) {
                const QPointF p = centre + r * AngleDial::direction(deg);
                const QColor px = img.pixelColor(static_cast<int>(p.x()), static_cast<int>(p.y()));
                return std::abs(px.red() - ink.red()) + std::abs(px.green() - ink.green()) + std::abs(px.blue() - ink.blue()) < 60;
            };
            QVERIFY2(inkAt(c.deg, 25) && inkAt(c.deg + 180, 25), qPrintable(QString::number(c.deg)));
            QVERIFY2(!inkAt(c.deg + 90, 25), qPrintable(QString::number(c.deg)));
        }
        // A click points the line there; either half picks the same orientation.
        dial.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dial));
        QTest::mouseClick(&dial, Qt::LeftButton, {}, QPoint(80, 20));  // up and right: 45°
        QCOMPARE(dial.value(), 450);
        QTest::mouseClick(&dial, Qt::LeftButton, {}, QPoint(20, 50));  // West: 0°
        QCOMPARE(dial.value(), 0);
        QTest::mouseClick(&dial, Qt::LeftButton, {}, QPoint(50, 90));  // South: 90°
        QCOMPARE(dial.value(), 900);
    }

    void contoursAreOffByDefault() {
        auto w = makeWindow();
        QVERIFY(!w->contourPanel()->contoursVisible());
        QVERIFY(!w->session().isLive(session::RequestKind::Contours));
        // The legend shows the SVG export's colours.
        const QString legend = w->contourPanel()->legendLabel()->text();
        QVERIFY2(legend.contains(QStringLiteral("#ff2020")) && legend.contains(QStringLiteral("#0050ff")), qPrintable(legend));
    }

    void legendColoursAreTheSvgExports() {
        ui::ContourPanel panel;
        Contours c;  // one outer square with a hole
        c.points = {{0, 0}, {4, 0}, {4, 4}, {0, 4}, {1, 1}, {1, 2}, {2, 2}};
        c.offsets = {0, 4, 7};
        c.hole = {0, 1};
        c.parent = {-1, 0};
        c.next = {-1, -1};
        c.previous = {-1, -1};
        c.firstChild = {1, -1};
        panel.setContours(std::make_shared<const Contours>(c));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.svg"));
        QString error;
        QVERIFY2(panel.exportSvg(path, 5, 5, {}, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString svg = QString::fromUtf8(f.readAll());
        QVERIFY(svg.contains(QStringLiteral("stroke=\"%1\"").arg(ui::ContourPanel::outerColour().name())));
        QVERIFY(svg.contains(QStringLiteral("stroke=\"%1\"").arg(ui::ContourPanel::holeColour().name())));
    }

    void contoursChoiceIsRemembered() {
        QSettings().clear();
        {
            auto w = makeWindow(true);
            QVERIFY(!w->contourPanel()->contoursVisible());
            w->contourPanel()->setContoursVisible(true);
            w->close();  // saves the settings
        }
        {
            auto w = makeWindow(true);
            QVERIFY(w->contourPanel()->contoursVisible());
            w->contourPanel()->setContoursVisible(false);
            w->close();
        }
        auto w = makeWindow(true);
        QVERIFY(!w->contourPanel()->contoursVisible());
        QSettings().clear();
    }

    void contourListIsClearedOnANewImage() {
        auto w = makeWindow();
        if (!showWithGl(*w)) QSKIP("no OpenGL context here");
        w->contourDock()->show();
        w->contourPanel()->setContoursVisible(true);
        open(*w, sample("fingerprint"));
        QTRY_VERIFY_WITH_TIMEOUT(w->contourPanel()->model()->rowCount() > 0, kTimeoutMs);
        w->contourPanel()->setContoursVisible(false);  // not recomputed for the next image
        open(*w, sample("music_sheet"));
        QCOMPARE(w->contourPanel()->model()->rowCount(), 0);
        QVERIFY(!w->contourPanel()->contours());
    }

    void viewMenuShowsEveryClosedDock() {
        auto w = makeWindow();
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        for (QDockWidget* dock : {w->controlsDock(), w->spectrumDock(), w->contourDock()}) {
            dock->close();
            QTRY_VERIFY(!dock->isVisible());
            QAction* a = findAction(w->viewMenu(), dock->windowTitle());
            QVERIFY2(a, qPrintable(dock->windowTitle()));
            a->trigger();
            QTRY_VERIFY(dock->isVisible());
        }
    }

    void emptyWindowSaysHowToOpenAnImage() {
        auto w = makeWindow();
        if (!showWithGl(*w)) QSKIP("no OpenGL context here");
        QVERIFY(w->emptyHint()->isVisible());
        QVERIFY(w->emptyHint()->text().contains(QStringLiteral("Ctrl+O")));
        // Centred in the viewport.
        const QPoint hintCentre = w->emptyHint()->geometry().center(), viewCentre = w->viewport()->rect().center();
        QVERIFY(std::abs(hintCentre.x() - viewCentre.x()) <= 2 && std::abs(hintCentre.y() - viewCentre.y()) <= 2);
        open(*w, sample("fingerprint"));
        QVERIFY(!w->emptyHint()->isVisible());
    }

    // A second image opens whole (at the fit zoom), not at the zoom left by the first, and
    // below the collapsed overlay's line.
    void secondImageOpensFitted() {
        auto w = makeWindow();
        if (!showWithGl(*w)) QSKIP("no OpenGL context here");
        open(*w, sample("fingerprint"));
        w->viewport()->zoomOneToOne();
        QTest::mouseDClick(w->viewport(), Qt::LeftButton);  // (fit) …
        w->viewport()->zoomOneToOne();                      // … and back to a magnified 1:1
        open(*w, sample("music_sheet"));  // wide: fitted, it would reach under the overlay
        const double zoom = w->viewport()->viewTransform().zoom;
        w->viewport()->zoomToFit();
        QCOMPARE(zoom, w->viewport()->viewTransform().zoom);
        QVERIFY(zoom != 1.0);
        if (w->viewport()->overlayAvailable()) {
            QTRY_VERIFY(!w->viewport()->overlayPanelRect().isEmpty());
            const QRectF panel = w->viewport()->overlayPanelRect();
            const auto& t = w->viewport()->viewTransform();
            const double dpr = w->viewport()->devicePixelRatioF();
            const auto img = w->session().image();
            const QRectF image(t.panX / dpr, t.panY / dpr, session::widthOf(*img) * t.zoom / dpr,
                               session::heightOf(*img) * t.zoom / dpr);
            QVERIFY2(!panel.intersects(image), qPrintable(QString("panel bottom %1, image top %2")
                                                              .arg(panel.bottom()).arg(image.top())));
            QVERIFY2(panel.height() < 40, "the overlay starts collapsed to one line");
        }
    }

    // Keys sent to the window, with the focus on a control that does not take them.
    void keysMoveTheParametersFromAnywhere() {
        auto w = makeWindow();
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        w->activateWindow();
        if (!QTest::qWaitForWindowActive(w.get(), 2000))
            QApplication::setActiveWindow(w.get());  // Xvfb without a window manager
        QCOMPARE(QApplication::activeWindow(), w.get());
        w->lengthSlider()->setFocus();
        w->setAngle(10);
        w->setLength(5);
        QTest::keyClick(w.get(), Qt::Key_BracketRight);
        QCOMPARE(w->session().parameters().angle, 11.0);
        QTest::keyClick(w.get(), Qt::Key_BracketRight, Qt::ShiftModifier);
        QCOMPARE(w->session().parameters().angle, 21.0);
        QTest::keyClick(w.get(), Qt::Key_BracketLeft);
        QCOMPARE(w->session().parameters().angle, 20.0);
        QCOMPARE(w->angleSpin()->value(), 20.0);
        w->setAngle(0.5);
        QTest::keyClick(w.get(), Qt::Key_BracketLeft);  // wraps around the half-turn
        QCOMPARE(w->session().parameters().angle, 179.5);
        QTest::keyClick(w.get(), Qt::Key_Plus);
        QCOMPARE(w->session().parameters().length, 6);
        QTest::keyClick(w.get(), Qt::Key_Equal);
        QCOMPARE(w->session().parameters().length, 7);
        QTest::keyClick(w.get(), Qt::Key_Minus);
        QCOMPARE(w->session().parameters().length, 6);
        QTest::keyClick(w.get(), Qt::Key_Up, Qt::ShiftModifier);
        QCOMPARE(w->session().parameters().length, 16);
        QCOMPARE(w->lengthSpin()->value(), 16);
        QTest::keyClick(w.get(), Qt::Key_3);
        QCOMPARE(w->viewControls()->view(), ui::Plane::Supremum);
        QTest::keyClick(w.get(), Qt::Key_1);
        QCOMPARE(w->viewControls()->view(), ui::Plane::Original);
        const MorphOp op = w->session().parameters().op;
        QTest::keyClick(w.get(), Qt::Key_O);
        QVERIFY(w->session().parameters().op != op);
        QTest::keyClick(w.get(), Qt::Key_M);
        QCOMPARE(w->viewControls()->compareMode(), ui::CompareMode::SideBySide);
        QTest::keyClick(w.get(), Qt::Key_C);
        QVERIFY(w->contourPanel()->contoursVisible());
        QTest::keyClick(w.get(), Qt::Key_C);
        QVERIFY(!w->contourPanel()->contoursVisible());
        // Typing into a spin box keeps its digits.
        w->angleSpin()->setFocus();
        w->angleSpin()->selectAll();
        QTest::keyClicks(w->angleSpin(), QStringLiteral("45"));
        QTest::keyClick(w->angleSpin(), Qt::Key_Enter);
        QCOMPARE(w->session().parameters().angle, 45.0);
        QCOMPARE(w->viewControls()->view(), ui::Plane::Original);
    }

    void helpListsTheShortcuts() {
        auto w = makeWindow();
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        w->shortcutsAction()->trigger();
        auto* dialog = w->findChild<QDialog*>(QStringLiteral("shortcutsDialog"));
        QVERIFY(dialog);
        const QString text = dialog->findChild<QLabel*>(QStringLiteral("shortcutsTable"))->text();
        for (const char* s : {"Angle +1°", "]", "λ +1", "Next Operator", "Original", "Show Contours", "Ctrl+O"})
            QVERIFY2(text.contains(QString::fromUtf8(s)), s);
    }

    // Cancel while a progress signal is still queued: the bar and button stay hidden, the
    // sweep views are marked stale, and Recompute computes the sweep.
    void cancelledSweepStaysHiddenAndOffersRecompute() {
        auto w = makeWindow();
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        auto& queue = w->session().queue();
        Gate gate;
        auto once = std::make_shared<std::atomic<bool>>(false);
        // At the second chunk (step 1 comes before any angle; the first chunk's progress is
        // then queued to the UI thread).
        queue.setCheckpointHookForTests([&gate, once](session::RequestKind k, std::uint64_t, int step) {
            if (k == session::RequestKind::Sweep && step == 2 && !once->exchange(true)) gate.hold();
        });
        w->viewControls()->setView(ui::Plane::Supremum);  // the sweep is live
        Image<std::uint8_t> img(96, 80);
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) img.at(x, y) = static_cast<std::uint8_t>((x * 7 + y * 13) % 251);
        w->session().setImage(session::AnyImage(std::move(img)));  // submits the sweep at once
        QVERIFY(gate.waitHeld());  // no event processed since: the progress is still queued
        w->cancelButton()->click();
        gate.release();
        QTRY_VERIFY_WITH_TIMEOUT(queue.stats().cancelled >= 1, kTimeoutMs);
        for (int k = 0; k < 5; ++k) QCoreApplication::processEvents();
        qDebug() << "DBG" << w->progressBar()->isVisible() << queue.stats().cancelled << queue.stats().started;
        QVERIFY(!w->progressBar()->isVisible());
        QVERIFY(!w->cancelButton()->isVisible());
        QVERIFY(w->sweepStaleLabel()->isVisible());
        QVERIFY(w->sweepStaleLabel()->text().contains(QStringLiteral("cancelled")));
        QVERIFY(w->recomputeAction()->isEnabled());
        QVERIFY(!w->session().latest(session::RequestKind::Sweep));

        w->recomputeAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(w->session().latest(session::RequestKind::Sweep) &&
                                     w->session().latest(session::RequestKind::Sweep)->ok(),
                                 kTimeoutMs);
        QTRY_VERIFY(!w->sweepStaleLabel()->isVisible());
        QVERIFY(!w->recomputeAction()->isEnabled());
        QTRY_VERIFY(!w->progressBar()->isVisible());
    }
};

QTEST_MAIN(TestWindowControls)
#include "test_window_controls.moc"
