// The lesson mode in the window (label gui, issue 21): the mode's layout (large type, no
// overlay, the lesson's docks, fits 1280×800) and its return; each pane's pixels at 1:1 are
// the engine's stages (f, ε(f), γ(f) = δ(ε(f)); closings δ(f), φ(f)); the step control hides
// the later panes; the difference mode colours the sign of stage − f; a click pins a pixel
// and a drag moves it, the segment drawn is line_geometry's pixels; the profile dock plots the
// images' pixels along the path and the response dock marks the sweep's supremum and
// orientation at the pin; Export View writes the canvas with the pinned segment and its recipe,
// the lesson's data files hold the pin's numbers, and neither is written outside the mode.
#include "app/session/lesson.h"
#include "compute/line_morph.h"
#include "compute/line_window.h"
#include "compute/sweep.h"
#include "tests/ui/window_fixture.h"
#include "ui/lesson_panel.h"
#include "ui/lesson_profile_panel.h"
#include "ui/lesson_response_panel.h"

#include <opencv2/imgcodecs.hpp>

#include <QCheckBox>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QDockWidget>
#include <QLabel>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

#include <cmath>
#include <QToolButton>

using namespace linescope;
using namespace linescope::ui;

namespace {

constexpr int kTimeoutMs = 120000;

Image<std::uint8_t> loadSample(const session::Session& s) { return std::get<Image<std::uint8_t>>(*s.image()); }

}  // namespace

class TestLessonWindow : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;

    session::Session& session() { return window_->session(); }
    LessonView& view() { return *window_->lessonPanel()->view(); }

    // Waits until the lesson on screen answers the session's current parameters.
    bool awaitLesson() {
        return QTest::qWaitFor(
            [&] {
                const auto s = session().latest(session::RequestKind::Lesson);
                const auto want = session().requestFor(session::RequestKind::Lesson);
                if (!s || !want || !s->ok() || s->request.image != want->image || session().queue().busy()) return false;
                const auto& a = std::get<session::LessonParams>(s->request.params);
                const auto& b = std::get<session::LessonParams>(want->params);
                return a.op == b.op && a.line.angle == b.line.angle && a.line.length == b.line.length && a.pin == b.pin &&
                       view().shownLessonId() == s->id;
            },
            kTimeoutMs);
    }

    // The canvas position of the centre of image pixel p in pane `pane`.
    QPoint centreOf(int pane, PixelAt p) {
        const QPointF c = view().state().toCanvas(pane, QPointF(p.x + 0.5, p.y + 0.5));
        return QPoint(static_cast<int>(std::floor(c.x())), static_cast<int>(std::floor(c.y())));
    }

private slots:
    void init() {
        window_ = test::makeTestWindow(LINESCOPE_SAMPLES_DIR);
        window_->resize(1280, 800);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QSignalSpy opened(&session(), &session::Session::imageOpened);
        window_->openFile(QStringLiteral(LINESCOPE_SAMPLES_DIR "/oriented_texture.png"));
        QVERIFY(opened.wait(kTimeoutMs));
        window_->setOperator(MorphOp::Open);
        window_->setAngle(30);
        window_->setLength(9);
    }
    void cleanup() { window_.reset(); }

    // Started in lesson mode (--lesson), before the window shows: it still fits 1280 wide.
    void fitsWhenStartedInLessonMode() {
        auto w = test::makeTestWindow(LINESCOPE_SAMPLES_DIR);
        w->resize(1280, 800);
        w->setLessonMode(true);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QCoreApplication::processEvents();
        QVERIFY2(w->width() <= 1280, qPrintable(QString::number(w->width())));
    }

    // The projector's layout, and everything given back when the mode ends.
    void modeLayoutAndReturn() {
        QVERIFY(!session().isLive(session::RequestKind::Lesson));
        const double normalPoints = window_->font().pointSizeF();
        window_->lessonAction()->trigger();
        QVERIFY(window_->lessonMode());
        QVERIFY(session().isLive(session::RequestKind::Lesson));
        QVERIFY(window_->lessonPanel()->isVisible());
        QVERIFY(!window_->viewport()->isVisible());
        QVERIFY(window_->lessonProfileDock()->isVisible());
        QVERIFY(!window_->spectrumDock()->isVisible());
        QVERIFY(!window_->controlsDock()->isVisible());
        QVERIFY(window_->font().pointSizeF() >= normalPoints * 1.4);
        // It fits a 1280×800 projector.
        QCoreApplication::processEvents();
        QVERIFY2(window_->minimumSizeHint().width() <= 1280 && window_->width() <= 1280,
                 qPrintable(QString("%1 %2 granulometry %3 profile %4 response %5")
                                .arg(window_->minimumSizeHint().width())
                                .arg(window_->width())
                                .arg(window_->granulometryDock()->minimumSizeHint().width())
                                .arg(window_->lessonProfileDock()->minimumSizeHint().width())
                                .arg(window_->lessonResponseDock()->minimumSizeHint().width())));
        // A lesson starts pinned at the image's centre.
        QCOMPARE(session().lessonPin(), (PixelAt{256, 256}));
        QVERIFY(awaitLesson());

        window_->setLessonMode(false);
        QVERIFY(!session().isLive(session::RequestKind::Lesson));
        QVERIFY(window_->viewport()->isVisible());
        QVERIFY(window_->controlsDock()->isVisible());
        QVERIFY(window_->spectrumDock()->isVisible());
        QVERIFY(!window_->lessonProfileDock()->isVisible());
        QCOMPARE(window_->font().pointSizeF(), normalPoints);
    }

    // At 1:1 every visible pixel of each pane is the engine's: f, ε(f), γ(f); for a closing
    // f, δ(f), φ(f). No pin, so that no overlay covers a pixel.
    void panesAreTheEnginesStages() {
        window_->setLessonMode(true);
        session().setLessonPin(std::nullopt);
        for (const MorphOp op : {MorphOp::Open, MorphOp::Close}) {
            window_->setOperator(op);
            QVERIFY(awaitLesson());
            view().state().zoomTo(1, QPointF(250, 240));
            const QImage canvas = view().render();
            const Image<std::uint8_t> f = loadSample(session());
            const LineParams line{30, 9, LineKind::Paths};
            const Image<std::uint8_t> panes[] = {
                f, lineMorph<std::uint8_t>(op == MorphOp::Open ? MorphOp::Erode : MorphOp::Dilate, f.cview(), line),
                lineMorph<std::uint8_t>(op, f.cview(), line)};
            for (int pane = 0; pane < 3; ++pane) {
                int checked = 0;
                const QRect area = view().state().paneRect(pane).toRect();
                for (int y = 0; y < f.height(); ++y)
                    for (int x = 0; x < f.width(); ++x) {
                        const QPoint c = centreOf(pane, {x, y});
                        if (!area.contains(c)) continue;
                        const QRgb got = canvas.pixel(c);
                        const int want = panes[pane].at(x, y);
                        if (qRed(got) != want || qGreen(got) != want || qBlue(got) != want)
                            QFAIL(qPrintable(QString("%1 pane %2 at (%3, %4): %5, the engine %6")
                                                 .arg(morphOpName(op)).arg(pane).arg(x).arg(y).arg(qRed(got)).arg(want)));
                        ++checked;
                    }
                QVERIFY2(checked > 50000, qPrintable(QString::number(checked)));
            }
        }
    }

    // The step control reveals the panes in turn; the difference mode shows stage − f's sign.
    void stepsAndDifference() {
        window_->setLessonMode(true);
        session().setLessonPin(std::nullopt);
        QVERIFY(awaitLesson());
        view().state().zoomTo(1, QPointF(250, 240));
        const PixelAt probe{250, 240};
        window_->lessonPanel()->stepButton(LessonStep::Original)->click();
        QCOMPARE(view().state().step(), LessonStep::Original);
        QImage canvas = view().render();
        const QColor hidden(18, 18, 18);  // a pane not revealed yet: empty
        QCOMPARE(QColor(canvas.pixel(centreOf(1, probe))), hidden);
        QCOMPARE(QColor(canvas.pixel(centreOf(2, probe))), hidden);
        QTest::keyClick(&view(), Qt::Key_Right);
        QCOMPARE(view().state().step(), LessonStep::FirstStage);
        QVERIFY(window_->lessonPanel()->stepButton(LessonStep::FirstStage)->isChecked());

        window_->lessonPanel()->stepButton(LessonStep::SecondStage)->click();
        window_->lessonPanel()->differenceBox()->setChecked(true);
        canvas = view().render();
        const Image<std::uint8_t> f = loadSample(session());
        const Image<std::uint8_t> g = lineMorph<std::uint8_t>(MorphOp::Open, f.cview(), LineParams{30, 9, LineKind::Paths});
        int same = 0, removed = 0;
        for (int y = 200; y < 280; ++y)
            for (int x = 200; x < 300; ++x) {
                const QColor c(canvas.pixel(centreOf(2, {x, y})));
                if (g.at(x, y) == f.at(x, y)) {
                    QCOMPARE(c, QColor(40, 40, 40));  // unchanged: dark grey
                    ++same;
                } else {
                    QVERIFY(g.at(x, y) < f.at(x, y));  // the opening is anti-extensive
                    QVERIFY2(c.blue() > c.red(), "removed brightness is blue");
                    ++removed;
                }
            }
        QVERIFY(same > 0 && removed > 0);
    }

    // A click pins the pixel under it, a drag moves the pin; the segment is drawn on
    // line_geometry's pixels; the docks plot the pin's profile and response.
    void pinClickDragAndDocks() {
        window_->setLessonMode(true);
        QVERIFY(awaitLesson());
        view().state().zoomTo(24, QPointF(200, 180));
        view().update();
        const PixelAt first{200, 180};
        QTest::mouseClick(&view(), Qt::LeftButton, {}, centreOf(0, first));
        QCOMPARE(session().lessonPin(), first);
        QVERIFY(awaitLesson());
        const PixelAt moved{203, 178};
        QTest::mousePress(&view(), Qt::LeftButton, {}, centreOf(1, first));
        QTest::mouseMove(&view(), centreOf(1, moved));
        QTest::mouseRelease(&view(), Qt::LeftButton, {}, centreOf(1, moved));
        QCOMPARE(session().lessonPin(), moved);
        QVERIFY(awaitLesson());

        const auto s = session().latest(session::RequestKind::Lesson);
        const session::LessonPin& pin = *s->lesson->pin;
        const Image<std::uint8_t> f = loadSample(session());
        const auto want = stageWindow(true, LineKind::Paths, 30, 9, f.width(), f.height(), moved.x, moved.y);
        QCOMPARE(pin.first.pixels.size(), want.size());
        // The segment drawn: each window pixel's square is outlined in the segment's yellow
        // (its left edge, a little inside), and the pixel that gave the min is marked.
        const QImage canvas = view().render();
        for (std::size_t i = 0; i < want.size(); ++i) {
            QCOMPARE(pin.first.pixels[i].x, want[i].x);
            QCOMPARE(pin.first.pixels[i].y, want[i].y);
            const QPointF edge = view().state().toCanvas(0, QPointF(want[i].x, want[i].y + 0.5));
            bool yellow = false;
            for (int dx = -1; dx <= 2 && !yellow; ++dx) {
                const QColor c(canvas.pixel(edge.toPoint() + QPoint(dx, 0)));
                yellow = c == QColor(255, 212, 0) || c == QColor(0, 230, 255);
            }
            QVERIFY2(yellow, qPrintable(QString("window pixel (%1, %2) not outlined").arg(want[i].x).arg(want[i].y)));
        }
        const auto& e = pin.first.pixels[static_cast<std::size_t>(pin.first.extreme)];
        QCOMPARE(e.value, static_cast<double>(lineMorph<std::uint8_t>(MorphOp::Erode, f.cview(),
                                                                      LineParams{30, 9, LineKind::Paths}).at(moved.x, moved.y)));
        QVERIFY(window_->lessonPanel()->storyLabel()->text().contains(QStringLiteral("At (203, 178)")));

        // The profile dock: γ(f) along the path through the pin, x counted from the pin.
        const Image<std::uint8_t> g = lineMorph<std::uint8_t>(MorphOp::Open, f.cview(), LineParams{30, 9, LineKind::Paths});
        const LinePathThrough path = linePathThrough(30, f.width(), f.height(), moved.x, moved.y);
        const QList<QPointF> points = window_->lessonProfile()->plot()->line(QStringLiteral("γ(f)"))->points();
        QVERIFY(points.size() >= 19);
        for (const QPointF& p : points) {
            const PixelAt q = path.pixels[static_cast<std::size_t>(path.index + static_cast<int>(p.x()))];
            QCOMPARE(p.y(), static_cast<double>(g.at(q.x, q.y)));
        }
        // The response dock's mark: the sweep's orientation and supremum at the pin.
        const AngleSet angles = session().parameters().angles;
        const SweepResult<std::uint8_t> sw = sweep<std::uint8_t>(f.cview(), SweepRequest{MorphOp::Open, 9, angles});
        const auto best = window_->lessonResponse()->bestPoint();
        QVERIFY(best);
        QCOMPARE(best->x(), sw.orientation(moved.x, moved.y));
        QCOMPARE(best->y(), static_cast<double>(sw.sup.at(moved.x, moved.y)));
        QCOMPARE(window_->lessonResponse()->responseSeries()->count(), angles.count);
    }

    // What a teacher takes away: the canvas as shown (its pinned segment included) with the
    // recipe inside, and the pin's numbers as JSON; outside lesson mode no lesson file, and a
    // failed write leaves the old file whole.
    void exportsTheCanvasAndThePinsData() {
        window_->setLessonMode(true);
        session().setLessonPin(PixelAt{200, 180});
        QVERIFY(awaitLesson());
        window_->lessonPanel()->view()->zoomOnPin(LessonPanel::kPixelsZoom);
        QTemporaryDir dir;
        const QString png = dir.filePath("lesson.png");
        QString error;
        QVERIFY2(window_->writeView(png, &error), qPrintable(error));
        const QImage canvas = view().render().convertToFormat(QImage::Format_RGB888);
        const cv::Mat back = cv::imread(png.toStdString(), cv::IMREAD_UNCHANGED);
        QCOMPARE(back.type(), CV_8UC3);
        QCOMPARE(back.cols, canvas.width());
        QCOMPARE(back.rows, canvas.height());
        for (int y = 0; y < back.rows; ++y)
            for (int x = 0; x < back.cols; ++x) {
                const cv::Vec3b bgr = back.at<cv::Vec3b>(y, x);
                const QRgb want = canvas.pixel(x, y);
                if (bgr[2] != qRed(want) || bgr[1] != qGreen(want) || bgr[0] != qBlue(want))
                    QFAIL(qPrintable(QString("canvas pixel (%1, %2) differs").arg(x).arg(y)));
            }
        QFile written(png);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray bytes = written.readAll();
        QVERIFY2(bytes.contains("op=open\nangle=30\nlength=9\nlines=paths\nview=lesson\nsource=oriented_texture.png"),
                 bytes.right(300).constData());

        const QString json = dir.filePath("lesson.json");
        QVERIFY2(window_->writeLessonData(json, MainWindow::LessonData::Json, &error), qPrintable(error));
        QFile jf(json);
        QVERIFY(jf.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(jf.readAll()).object();
        QCOMPARE(o["pin"].toObject()["x"].toInt(), 200);
        QCOMPARE(o["pin"].toObject()["first"].toObject()["output"].toDouble(),
                 static_cast<double>(lineMorph<std::uint8_t>(MorphOp::Erode, loadSample(session()).cview(),
                                                             LineParams{30, 9, LineKind::Paths}).at(200, 180)));
        QVERIFY(window_->writeLessonData(dir.filePath("profile.csv"), MainWindow::LessonData::ProfileCsv, &error));
        QVERIFY(window_->writeLessonData(dir.filePath("response.csv"), MainWindow::LessonData::ResponseCsv, &error));
        // A folder that does not exist: an error, and the JSON written before is untouched.
        QVERIFY(!window_->writeLessonData(dir.filePath("missing/x.json"), MainWindow::LessonData::Json, &error));
        QVERIFY(error.contains("missing"));

        window_->setLessonMode(false);
        QVERIFY(!window_->writeLessonData(dir.filePath("after.json"), MainWindow::LessonData::Json, &error));
        QVERIFY2(error.contains("Lesson Mode"), qPrintable(error));
        QVERIFY(!QFile::exists(dir.filePath("after.json")));
    }
};

QTEST_MAIN(TestLessonWindow)
#include "test_lesson_window.moc"
