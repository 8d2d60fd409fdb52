// The main window end to end (label gui, under Xvfb without a display): open a sample, move
// each control, wait for the Result snapshot, read the viewport's framebuffer back at 1:1
// and compare every visible pixel with the engine's own lineMorph of the image in grey; a
// file that is not an image shows an error dialog and the window carries on.
#include "ui/angle_dial.h"
#include "ui/contour_panel.h"
#include "ui/contour_table_model.h"
#include "ui/main_window.h"
#include "ui/orientation_legend.h"
#include "ui/spectrum_panel.h"
#include "ui/view_controls.h"
#include "ui/viewport_widget.h"

#include "app/io/image_io.h"
#include "compute/contours/contours.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"

#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineSeries>
#include <opencv2/imgcodecs.hpp>

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QComboBox>
#include <QDial>
#include <QDoubleSpinBox>
#include <QMenu>
#include <QMessageBox>
#include <QOpenGLContext>
#include <QPushButton>
#include <QRegularExpression>
#include <QSlider>
#include <QSignalSpy>
#include <QSpinBox>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace linescope;
using linescope::ui::MainWindow;

class TestMainWindow : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<MainWindow> window_;

    // Whether the viewport holds the Result snapshot of exactly these parameters.
    bool shows(MorphOp op, double angle, int length) const {
        const auto snap = window_->viewport()->snapshot();
        if (!snap) return false;
        const auto& p = std::get<session::ResultParams>(snap->request.params);
        return p.op == op && p.line.angle == angle && p.line.length == length;
    }

    // The framebuffer at 1:1 against the engine's result on the CPU, pixel for pixel.
    void compareWithEngine(MorphOp op, double angle, int length) {
        QTRY_VERIFY_WITH_TIMEOUT(shows(op, angle, length), 30000);
        const auto image = window_->session().image();
        QVERIFY(image);
        const auto* src = std::get_if<Image<std::uint8_t>>(image.get());
        QVERIFY2(src, "the samples are 8-bit grey");
        EngineOptions cpu;
        cpu.backend = Backend::Cpu;
        const Image<std::uint8_t> expected = lineMorph<std::uint8_t>(op, src->cview(), {angle, length}, cpu);
        compareFrame([&](int x, int y) { const int v = expected.cview().at(x, y); return qRgb(v, v, v); }, 0,
                     "result");
    }

private slots:
    void init() {
        MainWindow::Options options;
        options.engine.engine.backend = Backend::Cpu;
        options.samplesDir = QStringLiteral(LINESCOPE_SAMPLES_DIR);
        options.useSettings = false;
        window_ = std::make_unique<MainWindow>(options);
        window_->resize(1200, 800);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QOpenGLContext* ctx = window_->viewport()->context();
        if (!ctx || !ctx->isValid())
            QSKIP("no OpenGL context for the viewport here");
        const auto f = ctx->format();
        if (f.majorVersion() * 10 + f.minorVersion() < 33)
            QSKIP(qPrintable(QString("OpenGL %1.%2 < 3.3 here").arg(f.majorVersion()).arg(f.minorVersion())));
        QVERIFY2(window_->viewport()->glError().isEmpty(), qPrintable(window_->viewport()->glError()));
        // The overlay's panel and the glyph at the cursor would cover pixels compared below.
        window_->viewport()->setOverlayVisible(false);
        window_->viewControls()->setGlyphVisible(false);
        window_->spectrumDock()->hide();
        window_->contourDock()->hide();
    }
    void cleanup() { window_.reset(); }

private:
    // The framebuffer at 1:1 against expected(x, y) for every visible image pixel.
    template <class F>
    void compareFrame(F expected, int tolerance, const char* what) {
        auto* vp = window_->viewport();
        vp->zoomOneToOne();
        const QImage fb = vp->grabFramebuffer();
        QVERIFY2(vp->glError().isEmpty(), qPrintable(vp->glError()));
        QCOMPARE(fb.width(), static_cast<int>(std::lround(vp->width() * vp->devicePixelRatioF())));
        const auto& view = vp->viewTransform();
        QCOMPARE(view.zoom, 1.0);
        const int w = session::widthOf(*window_->session().image()), h = session::heightOf(*window_->session().image());
        long compared = 0, wrong = 0;
        QString first;
        for (int sy = 0; sy < fb.height(); ++sy)
            for (int sx = 0; sx < fb.width(); ++sx) {
                const int x = view.pixelX(sx + 0.5), y = view.pixelY(sy + 0.5);
                if (x < 0 || y < 0 || x >= w || y >= h) continue;
                const QRgb c = fb.pixel(sx, sy);
                const QRgb want = expected(x, y);
                ++compared;
                if (std::abs(qRed(c) - qRed(want)) > tolerance || std::abs(qGreen(c) - qGreen(want)) > tolerance ||
                    std::abs(qBlue(c) - qBlue(want)) > tolerance) {
                    if (wrong++ == 0)
                        first = QString("image (%1, %2): shown %3, expected %4").arg(x).arg(y)
                                    .arg(c & 0xffffff, 6, 16).arg(want & 0xffffff, 6, 16);
                }
            }
        QVERIFY2(compared >= 100 * 100, qPrintable(QString("%1: only %2 pixels visible").arg(what).arg(compared)));
        QVERIFY2(wrong == 0, qPrintable(QString("%1: %2 of %3 pixels differ; first at %4").arg(what).arg(wrong).arg(compared).arg(first)));
    }

    // Writes a few bytes that are no image into a FIFO and closes it, if a reader has it open
    // or is waiting in open(); without a reader it does nothing (and never blocks).
    static void feedWaitingReader(const QString& fifo) {
        const int fd = ::open(QFile::encodeName(fifo).constData(), O_WRONLY | O_NONBLOCK);
        if (fd < 0) return;
        const char junk[] = "no image here\n";
        [[maybe_unused]] const auto n = ::write(fd, junk, sizeof junk - 1);
        ::close(fd);
    }

    const Image<std::uint8_t>& grey() const { return std::get<Image<std::uint8_t>>(*window_->session().image()); }

    SweepResult<std::uint8_t> cpuSweep(const AngleSet& angles, int length) const {
        EngineOptions cpu;
        cpu.backend = Backend::Cpu;
        return sweep<std::uint8_t>(grey().cview(), {MorphOp::Open, length, angles}, cpu);
    }

    // Opens a file (read in the background), waits for the outcome and checks it.
    void open(const QString& path, bool expectOpened) {
        QSignalSpy opened(&window_->session(), &session::Session::imageOpened);
        QSignalSpy failed(&window_->session(), &session::Session::openFailed);
        window_->openFile(path);
        QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty() || !failed.isEmpty(), 30000);
        QCOMPARE(opened.size(), expectOpened ? 1 : 0);
    }

    void openSample(const char* name) { open(QStringLiteral(LINESCOPE_SAMPLES_DIR "/") + name + ".png", true); }

private slots:

    void samplesMenuListsTheSamples() {
        QStringList names;
        for (QAction* a : window_->samplesMenu()->actions()) names << a->text();
        QVERIFY2(names.contains("oriented_texture"), qPrintable(names.join(", ")));
        QVERIFY(names.contains("fingerprint"));
    }

    void slidersChangeTheViewToTheEngineResult() {
        // Opened as a file, not from the Samples menu, whose entries also apply their task's
        // recipe (test_task_recipes): the sliders start from the defaults here.
        openSample("oriented_texture");

        // Defaults first (opening, 0°, λ 21).
        compareWithEngine(MorphOp::Open, 0.0, 21);

        // The angle slider, in 0.1° steps: the dial and spin box follow.
        window_->angleSlider()->setValue(375);
        QCOMPARE(window_->angleSpin()->value(), 37.5);
        QCOMPARE(window_->angleDial()->value(), 375);
        compareWithEngine(MorphOp::Open, 37.5, 21);

        // An arrow key on the slider: +0.1°.
        window_->angleSlider()->setFocus();
        QTest::keyClick(window_->angleSlider(), Qt::Key_Right);
        QCOMPARE(window_->angleSlider()->value(), 376);
        compareWithEngine(MorphOp::Open, 37.6, 21);

        // The λ slider; the spin box follows.
        window_->lengthSlider()->setValue(41);
        QCOMPARE(window_->lengthSpin()->value(), 41);
        compareWithEngine(MorphOp::Open, 37.6, 41);

        // A drag: many values in a row, the newest wins.
        for (int v = 3; v <= 61; v += 2) window_->lengthSlider()->setValue(v);
        compareWithEngine(MorphOp::Open, 37.6, 61);

        // The spin box drives the slider, and the operator combo.
        window_->angleSpin()->setValue(122.3);
        QCOMPARE(window_->angleSlider()->value(), 1223);
        window_->operatorCombo()->setCurrentIndex(window_->operatorCombo()->findText("Top-hat"));
        compareWithEngine(MorphOp::TopHat, 122.3, 61);
        window_->operatorCombo()->setCurrentIndex(window_->operatorCombo()->findText("Erosion"));
        compareWithEngine(MorphOp::Erode, 122.3, 61);
    }

    void badFileShowsAnErrorAndTheWindowSurvives() {
        openSample("fingerprint");
        compareWithEngine(MorphOp::Open, 0.0, 21);
        const auto before = window_->session().image();

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString bad = dir.filePath("not_an_image.png");
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("this is not a PNG file\n");
        }
        open(bad, false);
        QMessageBox* box = window_->errorDialog();
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        QVERIFY2(box->text().contains("not_an_image.png"), qPrintable(box->text()));
        QCOMPARE(window_->session().image(), before);  // the current image is kept
        box->accept();
        QTRY_VERIFY(!window_->errorDialog());

        open(dir.filePath("missing.png"), false);
        QVERIFY(window_->errorDialog());
        window_->errorDialog()->accept();

        // Still alive and working.
        QVERIFY(window_->isVisible());
        window_->lengthSlider()->setValue(9);
        compareWithEngine(MorphOp::Open, 0.0, 9);
    }

    // The sweep views: supremum and the orientation map (alone and over the image) equal the
    // engine's sweep of the current angle set, shown when the sweep snapshot arrives.
    void sweepViewsShowTheEngineSweep() {
        openSample("fingerprint");
        window_->viewControls()->angleCountSpin()->setValue(36);
        window_->setLength(15);
        window_->viewControls()->setView(ui::Plane::Supremum);
        QTRY_VERIFY_WITH_TIMEOUT(window_->viewport()->sweepSnapshot() &&
                                     window_->viewport()->shownSweepId() == window_->viewport()->sweepSnapshot()->id &&
                                     std::get<session::SweepParams>(window_->viewport()->sweepSnapshot()->request.params)
                                             .sweep.length == 15,
                                 60000);
        const auto s = cpuSweep(AngleSet{0, 5, 36}, 15);
        compareFrame([&](int x, int y) { const int v = s.sup.at(x, y); return qRgb(v, v, v); }, 0, "supremum");

        const RgbImage colours = orientationColours(s);
        window_->viewControls()->setView(ui::Plane::Orientation);
        auto colourAt = [&](int x, int y) {
            const std::uint8_t* p = &colours.rgb[(static_cast<std::size_t>(y) * colours.width + x) * 3];
            return qRgb(p[0], p[1], p[2]);
        };
        // The shader's float HSV against the engine's: one level of rounding apart at most.
        compareFrame(colourAt, 1, "orientation map");
    }

    // The spectrum dock plots the sweep's spectrum and the skew estimate appears.
    void spectrumAndSkewFollowTheSession() {
        window_->spectrumDock()->show();
        openSample("music_sheet");
        window_->viewControls()->angleCountSpin()->setValue(18);
        window_->setLength(31);
        auto* panel = window_->spectrumPanel();
        QTRY_VERIFY_WITH_TIMEOUT(panel->spectrumSeries(ui::SpectrumPanel::Form::Cartesian)->count() == 18, 60000);
        const auto s = cpuSweep(AngleSet{0, 10, 18}, 31);
        // Plotted per pixel: the mean grey level of each opening.
        const double pixels = double(s.sup.width()) * s.sup.height();
        QTRY_VERIFY_WITH_TIMEOUT(
            panel->spectrumSeries(ui::SpectrumPanel::Form::Cartesian)->at(3).y() == s.spectrum[3] / pixels, 60000);
        for (int k = 0; k < 18; ++k) {
            const QPointF p = panel->spectrumSeries(ui::SpectrumPanel::Form::Cartesian)->at(k);
            QCOMPARE(p.x(), s.angles.angle(k));
            QCOMPARE(p.y(), s.spectrum[static_cast<std::size_t>(k)] / pixels);
        }
        // File > Export Data > Spectrum as CSV carries the sweep's recipe (the dialog answered
        // here: the proposed name, in a temporary folder).
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("music_sheet-spectrum.csv"));
        QTimer answer;
        QObject::connect(&answer, &QTimer::timeout, [&] {
            if (auto* d = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
                d->setDirectory(dir.path());
                QMetaObject::invokeMethod(d, "accept");
            }
        });
        answer.start(50);
        QAction* exportCsv = nullptr;
        for (QAction* a : window_->findChildren<QAction*>())
            if (a->text() == QStringLiteral("Spectrum as &CSV…")) exportCsv = a;
        QVERIFY(exportCsv);
        exportCsv->trigger();
        answer.stop();
        QFile written(csv);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray head = written.readAll().left(200);
        QVERIFY2(head.startsWith("# op=open\n# length=31\n# angles=0:180:10\n# lines=paths\n# source=music_sheet.png\n"),
                 head.constData());

        // The music sheet (made at +1.5°) is confident: an angle and Deskew.
        // "Skew +1.51° (confidence 0.97)": the angle within 0.02° of the truth.
        const auto skewShown = [&] {
            const QRegularExpressionMatch m =
                QRegularExpression(QStringLiteral("^Skew ([+-][0-9.]+)°")).match(panel->skewLabel()->text());
            return m.hasMatch() && std::abs(m.captured(1).toDouble() - 1.5) <= 0.02;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(skewShown(), qPrintable(panel->skewLabel()->text()), 60000);
        QVERIFY(panel->deskewButton()->isEnabled());

        // Deskew replaces the image and marks the window modified; Edit > Undo Deskew (and the
        // dock's Undo) bring the opened image back.
        const auto opened = window_->session().image();
        QVERIFY(!window_->isWindowModified());
        panel->deskewButton()->click();
        QVERIFY(window_->session().image() != opened);
        QVERIFY(window_->isWindowModified());
        QAction* undo = nullptr;
        for (QAction* a : window_->findChildren<QAction*>())
            if (a->text() == QStringLiteral("&Undo Deskew")) undo = a;
        QVERIFY(undo && undo->isEnabled());
        QVERIFY(panel->undoDeskewButton()->isEnabled());
        undo->trigger();
        QCOMPARE(window_->session().image(), opened);
        QVERIFY(!window_->isWindowModified());
        QVERIFY(!undo->isEnabled());

        // The dock's search range and polarity reach the session.
        SkewParams bright = window_->session().parameters().skew;
        bright.darkLines = false;
        bright.angles = AngleSet{-5, 0.25, 41};
        emit panel->skewParamsChanged(bright);
        QCOMPARE(window_->session().parameters().skew.darkLines, false);
        QCOMPARE(window_->session().parameters().skew.angles.count, 41);
    }

    // The contour dock's count equals the engine's findContours of the thresholded image.
    void contourCountMatchesTheEngine() {
        window_->contourDock()->show();
        window_->contourPanel()->setContoursVisible(true);  // off by default
        openSample("fingerprint");
        window_->contourPanel()->setThreshold(100);
        QTRY_VERIFY_WITH_TIMEOUT(window_->session().latest(session::RequestKind::Contours) &&
                                     std::get<session::ContourParams>(
                                         window_->session().latest(session::RequestKind::Contours)->request.params)
                                             .threshold == 100,
                                 60000);
        Image<std::uint8_t> binary(grey().width(), grey().height());
        for (int y = 0; y < binary.height(); ++y)
            for (int x = 0; x < binary.width(); ++x) binary.at(x, y) = grey().at(x, y) > 100 ? 1 : 0;
        EngineOptions cpu;
        cpu.backend = Backend::Cpu;
        const auto& cp = window_->session().parameters().contours;
        const Contours expected = findContours(binary.cview(), cp.mode, cp.approx, cpu);
        QVERIFY(expected.size() > 10);
        QTRY_COMPARE_WITH_TIMEOUT(window_->contourPanel()->model()->rowCount(), static_cast<int>(expected.size()), 30000);
        QVERIFY2(window_->contourPanel()->countLabel()->text().contains(QString::number(expected.size())),
                 qPrintable(window_->contourPanel()->countLabel()->text()));
    }

    // The legend's wheel: the direction from the centre is the angle on screen, in the
    // engine's colours, and opposite directions (the same orientation) share a colour.
    void legendWheelIsTheEngineColours() {
        const int size = 201;
        const QImage wheel = ui::OrientationLegend::wheel(size);
        const double c = (size - 1) / 2.0;
        for (double angle : {0.0, 30.0, 75.0, 120.0, 165.0}) {
            const double rad = angle * std::acos(-1.0) / 180.0, d = 0.8 * size / 2.0;
            const int x = static_cast<int>(std::lround(c + d * std::cos(rad)));
            const int y = static_cast<int>(std::lround(c - d * std::sin(rad)));
            const int xo = static_cast<int>(std::lround(c - d * std::cos(rad)));
            const int yo = static_cast<int>(std::lround(c + d * std::sin(rad)));
            const double exact = std::atan2(c - y, x - c) * 180.0 / std::acos(-1.0);
            std::uint8_t rgb[3];
            orientationColour(exact, std::hypot(x - c, c - y) / (size / 2.0), rgb);
            QCOMPARE(wheel.pixel(x, y), qRgb(rgb[0], rgb[1], rgb[2]));
            const QRgb a = wheel.pixel(x, y), b = wheel.pixel(xo, yo);
            QVERIFY2(std::abs(qRed(a) - qRed(b)) <= 12 && std::abs(qGreen(a) - qGreen(b)) <= 12 &&
                         std::abs(qBlue(a) - qBlue(b)) <= 12,
                     qPrintable(QString("angle %1: opposite pixels differ").arg(angle)));
        }
        window_->viewControls()->setView(ui::Plane::Orientation);
        QVERIFY(window_->viewControls()->findChild<ui::OrientationLegend*>()->isVisibleTo(window_.get()));
    }

    // A FIFO (like any file whose read blocks) must not hold the UI thread: openFile returns
    // while nobody writes to it, the event loop runs on, and the failure comes as a dialog.
    void openingAFifoKeepsTheWindowResponsive() {
        openSample("fingerprint");
        const auto before = window_->session().image();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString fifo = dir.filePath("pipe.png");
        QCOMPARE(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QSignalSpy failed(&window_->session(), &session::Session::openFailed);

        // Were the file read on the UI thread, openFile would wait for a writer for ever: this
        // thread becomes that writer if openFile has not returned after a minute, and says so.
        std::atomic<bool> returned{false}, rescued{false};
        std::thread rescuer([&] {
            for (int i = 0; i < 600 && !returned; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
            if (returned) return;
            rescued = true;
            feedWaitingReader(fifo);
        });
        window_->openFile(fifo);
        returned = true;
        rescuer.join();
        QVERIFY2(!rescued, "openFile waited on the UI thread for the FIFO's writer");
        QVERIFY(window_->session().opening());

        bool ticked = false;  // the event loop keeps running while the file is read
        QTimer::singleShot(0, window_.get(), [&] { ticked = true; });
        QTRY_VERIFY(ticked);

        // The reader refuses the FIFO, or waits for a writer: then it gets a few bytes that are
        // no image, and end of file.
        for (int i = 0; i < 300 && failed.isEmpty(); ++i) {
            feedWaitingReader(fifo);
            failed.wait(100);
        }
        QCOMPARE(failed.size(), 1);
        QVERIFY(!window_->session().opening());
        QMessageBox* box = window_->errorDialog();
        QVERIFY(box);
        QVERIFY2(box->text().contains("pipe.png"), qPrintable(box->text()));
        box->accept();
        QCOMPARE(window_->session().image(), before);  // the current image is kept
    }

    // Destroying the window with its docks shown or hidden, while the engine works: Qt hides
    // and deletes the docks in ~QWidget, after ~MainWindow has run, and their visibilityChanged
    // reached the half-destroyed window (a use after free that ASan/UBSan caught at every exit).
    void destroyingTheWindowWithDocksShownOrHidden_data() {
        QTest::addColumn<bool>("spectrum");
        QTest::addColumn<bool>("contours");
        QTest::newRow("both docks shown") << true << true;
        QTest::newRow("spectrum dock shown") << true << false;
        QTest::newRow("contour dock shown") << false << true;
        QTest::newRow("both docks hidden") << false << false;
    }
    void destroyingTheWindowWithDocksShownOrHidden() {
        QFETCH(bool, spectrum);
        QFETCH(bool, contours);
        openSample("fingerprint");
        window_->spectrumDock()->setVisible(spectrum);
        window_->contourDock()->setVisible(contours);
        window_->lengthSlider()->setValue(31);  // work under way when the window goes
        QTRY_VERIFY(window_->spectrumDock()->isVisible() == spectrum && window_->contourDock()->isVisible() == contours);
        window_.reset();  // shown, as when --screenshot quits the application
        QVERIFY(!window_);
    }

    // Export View writes the view's data (not the screen) and it reads back equal.
    void exportViewRoundTrips() {
        openSample("fingerprint");
        compareWithEngine(MorphOp::Open, 0.0, 21);
        QTemporaryDir dir;
        const QString path = dir.filePath("result.png");
        QString error;
        QVERIFY2(window_->writeView(path, &error), qPrintable(error));
        const cv::Mat back = cv::imread(path.toStdString(), cv::IMREAD_UNCHANGED);
        QCOMPARE(back.type(), CV_8UC1);
        const auto& result = std::get<Image<std::uint8_t>>(*window_->viewport()->snapshot()->result);
        for (int y = 0; y < result.height(); ++y)
            for (int x = 0; x < result.width(); ++x)
                if (back.at<std::uint8_t>(y, x) != result.at(x, y)) QFAIL(qPrintable(QString("(%1, %2) differs").arg(x).arg(y)));
        QFile written(path);  // with its recipe (app/io/export_recipe.h), uncompressed in an iTXt chunk
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray bytes = written.readAll();
        QVERIFY2(bytes.contains("op=open\nangle=0\nlength=21\nlines=paths\nview=result\nsource=fingerprint"),
                 bytes.right(300).constData());
        QVERIFY(!window_->writeView(dir.filePath("missing-folder/x.png"), &error));
        QVERIFY(!error.isEmpty());
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
