// The main window's layout at the smallest screen it is made for (label gui, under Xvfb,
// issue 20): at 1280×800 every control of the Controls dock shows without scrolling, the angle
// slider is wide, the spectrum dock leaves the viewport most of the height; a combo in a dock
// ignores the wheel until it has the focus; the default size fits a 1280×800 screen.
#include "ui/main_window.h"
#include "ui/view_controls.h"
#include "ui/viewport_widget.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <QWheelEvent>

#include <memory>

using namespace linescope;
using linescope::ui::MainWindow;

namespace {

constexpr int kTimeoutMs = 120000;  // CI has 2 cores and runs suites in parallel

std::unique_ptr<MainWindow> makeWindow(QSize size) {
    MainWindow::Options options;
    options.engine.engine.backend = Backend::Cpu;
    options.useSettings = false;
    options.preferGpu = false;
    auto w = std::make_unique<MainWindow>(options);
    w->resize(size);
    return w;
}

// A wheel notch down over the middle of `w`, as the window system sends it.
void wheelDown(QWidget* w) {
    const QPointF at = QRectF(w->rect()).center();
    QWheelEvent e(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase,
                  false);
    QApplication::sendEvent(w, &e);
}

}  // namespace

class TestWindowLayout : public QObject {
    Q_OBJECT
private slots:
    // The orientation view (the tallest: colour wheel, needles) and the range of sweep angles.
    void controlsDockFitsAt1280x800() {
        auto w = makeWindow(QSize(1280, 800));
        w->viewControls()->setView(ui::Plane::Orientation);
        w->viewControls()->setAngleSet(AngleSet{-10, 0.25, 81});
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QSignalSpy opened(&w->session(), &session::Session::imageOpened);
        w->openFile(QStringLiteral(LINESCOPE_SAMPLES_DIR "/fingerprint.png"));  // the image's name and size show
        QTRY_VERIFY_WITH_TIMEOUT(opened.size() == 1, kTimeoutMs);
        QApplication::processEvents();
        QCOMPARE(w->size(), QSize(1280, 800));

        auto* scroll = w->controlsDock()->findChild<QScrollArea*>();
        QVERIFY(scroll);
        QCOMPARE(scroll->verticalScrollBar()->maximum(), 0);
        const QRect viewport = scroll->viewport()->rect();
        int checked = 0;
        for (QWidget* child : scroll->widget()->findChildren<QWidget*>()) {
            if (!child->isVisibleTo(scroll->widget()) || child->parentWidget() != w->viewControls()) continue;
            const QRect r(child->mapTo(scroll->viewport(), QPoint()), child->size());
            QVERIFY2(viewport.contains(r), qPrintable(QStringLiteral("%1 %2 at %3,%4 %5×%6 outside %7×%8")
                                                          .arg(QString::fromLatin1(child->metaObject()->className()),
                                                               child->objectName())
                                                          .arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height())
                                                          .arg(viewport.width()).arg(viewport.height())));
            ++checked;
        }
        QVERIFY(checked >= 10);
        QVERIFY(w->viewControls()->rangeStepSpin()->isVisible());

        // The angle slider has real width: at least 0.5° a pixel.
        QVERIFY(w->angleSlider()->isVisible());
        QVERIFY2(w->angleSlider()->width() >= 360, qPrintable(QString::number(w->angleSlider()->width())));
        // The spectrum leaves the viewport most of the height.
        QVERIFY(w->spectrumDock()->isVisible());
        QVERIFY2(w->spectrumDock()->height() <= 800 * 30 / 100, qPrintable(QString::number(w->spectrumDock()->height())));
        QVERIFY(w->viewport()->height() >= 800 / 2);
    }

    void comboTakesTheWheelOnlyWhenFocused() {
        auto w = makeWindow(QSize(1280, 800));
        w->show();
        w->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        for (QComboBox* combo : {w->viewControls()->viewCombo(), w->operatorCombo()}) {
            combo->setCurrentIndex(1);
            w->angleSpin()->setFocus();
            QTRY_VERIFY(!combo->hasFocus());
            wheelDown(combo);
            QCOMPARE(combo->currentIndex(), 1);
            combo->setFocus();
            QTRY_VERIFY(combo->hasFocus());
            wheelDown(combo);
            QCOMPARE(combo->currentIndex(), 2);
        }
    }

    void defaultSizeFitsTheScreen() {
        const QSize small = MainWindow::defaultSize(QRect(0, 0, 1280, 800));
        QCOMPARE(small, QSize(1152, 720));
        QCOMPARE(MainWindow::defaultSize(QRect(0, 0, 2560, 1440)), QSize(1440, 900));
        // The window can be as small as that (its docks' minimum sizes allow it).
        auto w = makeWindow(small);
        const QSize least = w->minimumSizeHint();
        QVERIFY2(least.width() <= small.width() && least.height() <= small.height(),
                 qPrintable(QStringLiteral("%1×%2").arg(least.width()).arg(least.height())));
    }
};

QTEST_MAIN(TestWindowLayout)
#include "test_window_layout.moc"
