// Task recipes (label gui, under Xvfb): recipeFor's settings for each task; Task ▸ Page or
// score skew on the music sheet sets closing and the ±10° range; a sample opened from the
// Samples menu brings its recipe; the status bar warns while the operator does not fit the
// image's polarity.
#include "ui/contour_panel.h"
#include "ui/main_window.h"
#include "ui/task_recipes.h"
#include "ui/view_controls.h"
#include "tests/ui/window_fixture.h"

#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using namespace linescope;
using namespace linescope::ui;

namespace {

constexpr int kTimeoutMs = 120000;  // CI has 2 cores and runs suites in parallel

QString sample(const char* name) { return QStringLiteral(LINESCOPE_SAMPLES_DIR "/") + name + ".png"; }

QAction* findAction(QMenu* menu, const QString& text) {
    for (QAction* a : menu->actions())
        if (a->text() == text) return a;
    return nullptr;
}

}  // namespace

class TestTaskRecipes : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<MainWindow> makeWindow() { return test::makeTestWindow(QStringLiteral(LINESCOPE_SAMPLES_DIR)); }
    static bool waitOpened(QSignalSpy& opened) {
        return QTest::qWaitFor([&] { return opened.size() == 1; }, kTimeoutMs);
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("LineScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("test_task_recipes"));
    }

    void fingerprintRecipe() {
        const TaskRecipe r = recipeFor(Task::FingerprintOrientation, 480, 600, true);
        QCOMPARE(r.op, MorphOp::Close);  // dark ridges on light paper
        QCOMPARE(r.length, 16);          // 480 / 30
        QCOMPARE(r.angles.count, 60);
        QCOMPARE(r.angles.step, 3.0);
        QCOMPARE(r.view, Plane::Orientation);
        QVERIFY(r.blend);
        QCOMPARE(r.needleStep, 16);
        QVERIFY(r.showSpectrumDock);
        QVERIFY(!r.contours);
        QCOMPARE(recipeFor(Task::FingerprintOrientation, 100, 100, false).length, 9);    // clamped
        QCOMPARE(recipeFor(Task::FingerprintOrientation, 4000, 4000, false).length, 41);
        QCOMPARE(recipeFor(Task::FingerprintOrientation, 480, 600, false).op, MorphOp::Open);
    }
    void skewRecipe() {
        const TaskRecipe r = recipeFor(Task::PageSkew, 1600, 2200, true);
        QCOMPARE(r.op, MorphOp::Close);
        QCOMPARE(r.length, 200);  // W / 8
        QCOMPARE(r.angles.start, -10.0);
        QCOMPARE(r.angles.step, 0.25);
        QCOMPARE(r.angles.count, 81);
        QCOMPARE(r.angles.angle(80), 10.0);
        QCOMPARE(r.view, Plane::Result);
        QVERIFY(r.showSpectrumDock);
        QCOMPARE(recipeFor(Task::PageSkew, 8000, 100, true).length, 501);
    }
    void textureRecipe() {
        const TaskRecipe r = recipeFor(Task::TextureDirections, 512, 400, false);
        QCOMPARE(r.op, MorphOp::Open);
        QCOMPARE(r.length, 40);  // min(W, H) / 10
        QCOMPARE(r.angles.count, 90);
        QCOMPARE(r.view, Plane::Orientation);
        QVERIFY(r.showSpectrumDock);
    }
    void teachRecipe() {
        const TaskRecipe r = recipeFor(Task::TeachOpening, 512, 512, true);
        QCOMPARE(r.op, MorphOp::Open);  // the lesson is the opening, whatever the paper
        QCOMPARE(r.length, 21);
        QVERIFY(r.angle && *r.angle == 30.0);
        QCOMPARE(r.view, Plane::Result);
        QCOMPARE(r.compare, CompareMode::SideBySide);
        QVERIFY(r.glyph);
        QVERIFY(!r.contours);
        QVERIFY(!r.showSpectrumDock);
    }
    void samplesMapToTasks() {
        QCOMPARE(taskForSample("fingerprint"), std::optional(Task::FingerprintOrientation));
        QCOMPARE(taskForSample("task_fingerprint_whorl"), std::optional(Task::FingerprintOrientation));
        QCOMPARE(taskForSample("music_sheet"), std::optional(Task::PageSkew));
        QCOMPARE(taskForSample("text_page"), std::optional(Task::PageSkew));
        QCOMPARE(taskForSample("task_score_skew_2.567"), std::optional(Task::PageSkew));
        QCOMPARE(taskForSample("oriented_texture"), std::optional(Task::TextureDirections));
        QVERIFY(!taskForSample("holiday"));
    }
    void polarityOfAnImage() {
        Image<std::uint8_t> paper(10, 10, 250);
        paper.at(3, 3) = 0;  // one dark dot on light paper
        QVERIFY(meanLevelIsLight(session::AnyImage(paper)));
        Image<std::uint8_t> night(10, 10, 5);
        night.at(3, 3) = 255;
        QVERIFY(!meanLevelIsLight(session::AnyImage(night)));
        QVERIFY(!polarityWarning(MorphOp::Open, true).isEmpty());
        QVERIFY(polarityWarning(MorphOp::Close, true).isEmpty());
        QVERIFY(!polarityWarning(MorphOp::Close, false).isEmpty());
        QVERIFY(polarityWarning(MorphOp::Open, false).isEmpty());
    }

    // The music sheet is dark staves on light paper: opening draws the warning, the skew
    // task sets closing (and the warning goes) and the ±10° range.
    void skewTaskOnTheMusicSheet() {
        auto w = makeWindow();
        w->show();
        w->setOperator(MorphOp::Open);
        QSignalSpy opened(&w->session(), &session::Session::imageOpened);
        w->openFile(sample("music_sheet"));
        QVERIFY(waitOpened(opened));
        QVERIFY(w->polarityLabel()->isVisible());
        QVERIFY(w->polarityLabel()->text().contains("closing"));

        QAction* skew = findAction(w->taskMenu(), taskTitle(Task::PageSkew));
        QVERIFY(skew);
        skew->trigger();
        QCOMPARE(w->operatorCombo()->currentData().toInt(), static_cast<int>(MorphOp::Close));
        QCOMPARE(w->session().parameters().op, MorphOp::Close);
        const AngleSet a = w->viewControls()->angleSet();
        QCOMPARE(a.start, -10.0);
        QCOMPARE(a.step, 0.25);
        QCOMPARE(a.count, 81);
        QCOMPARE(w->session().parameters().angles.count, 81);
        QCOMPARE(w->viewControls()->view(), Plane::Result);
        QVERIFY(w->spectrumDock()->isVisible());
        QVERIFY(!w->polarityLabel()->isVisible());
    }

    // Samples ▸ fingerprint opens the print with the fingerprint task's settings.
    void sampleBringsItsRecipe() {
        auto w = makeWindow();
        w->show();
        w->setLength(77);
        QAction* fp = findAction(w->samplesMenu(), "fingerprint");
        QVERIFY(fp);
        QSignalSpy opened(&w->session(), &session::Session::imageOpened);
        fp->trigger();
        QVERIFY(waitOpened(opened));
        const auto img = w->session().image();
        const TaskRecipe r = recipeFor(Task::FingerprintOrientation, session::widthOf(*img), session::heightOf(*img),
                                       meanLevelIsLight(*img));
        QCOMPARE(w->lengthSpin()->value(), r.length);
        QCOMPARE(w->viewControls()->view(), Plane::Orientation);
        QCOMPARE(w->viewControls()->angleSet().count, 60);
        QCOMPARE(w->viewControls()->needleStep(), 16);
        QVERIFY(w->viewControls()->blend());
        QVERIFY(!w->polarityLabel()->isVisible());
        // A file opened otherwise keeps the settings it finds.
        w->setLength(33);
        QSignalSpy again(&w->session(), &session::Session::imageOpened);
        w->openFile(sample("fingerprint"));
        QVERIFY(waitOpened(again));
        QCOMPARE(w->lengthSpin()->value(), 33);
    }
};

QTEST_MAIN(TestTaskRecipes)
#include "test_task_recipes.moc"
