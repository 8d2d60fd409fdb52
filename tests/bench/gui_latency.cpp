// linescope-gui-latency: the whole window on the CPU path (under Xvfb here), driven as a user
// drags: each slider value is set, and the time runs until the viewport has drawn the frame
// of exactly that value (its Result snapshot shown and painted). Prints p50/p95 per drag and
// saves screenshots of the complete window for each view. With --live N, the whole window on a
// big image (gui_live_latency.h): N changes of λ, operator, angle set and angle, each timed to
// the first complete frame of every open view (sweep previews count), and the time to the
// exact sweep; with --shots, screenshots of a preview and of the final state at 1280×800 and
// 1920×1080. IMAGE may be ridges:WxH (the ridge pattern of latency_support.h, written to OUTDIR).
//
//   linescope-gui-latency IMAGE OUTDIR [--frames N] [--live N] [--shots] [--no-drags]
#include "tests/bench/gui_live_latency.h"
#include "tests/bench/latency_support.h"

#include "app/io/image_io.h"
#include "ui/contour_panel.h"
#include "ui/main_window.h"
#include "ui/view_controls.h"
#include "ui/viewport_widget.h"

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QSlider>
#include <QSurfaceFormat>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace linescope;
using linescope::ui::MainWindow;

namespace {

double percentile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1)];
}

// Sets a value and waits until the viewport painted the result of exactly that request.
double timeOneChange(MainWindow& w, const std::function<void()>& change) {
    QElapsedTimer t;
    t.start();
    change();
    const auto& p = w.session().parameters();
    for (;;) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
        const auto snap = w.viewport()->snapshot();
        if (snap && w.viewport()->shownResultId() == snap->id) {
            const auto& r = std::get<session::ResultParams>(snap->request.params);
            if (r.line.angle == p.angle && r.line.length == p.length && r.op == p.op) break;
        }
        if (t.elapsed() > 30000) return -1;
    }
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

void report(const char* name, const std::vector<double>& ms) {
    std::printf("| %s | %zu | %.1f | %.1f | %.1f |\n", name, ms.size(), percentile(ms, 0.5), percentile(ms, 0.95),
                *std::max_element(ms.begin(), ms.end()));
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    QSurfaceFormat f;
    f.setRenderableType(QSurfaceFormat::OpenGL);
    f.setVersion(3, 3);
    f.setProfile(QSurfaceFormat::CoreProfile);
    QSurfaceFormat::setDefaultFormat(f);
    QApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: linescope-gui-latency IMAGE OUTDIR [--frames N] [--live N] [--shots] [--no-drags]\n");
        return 2;
    }
    QString image = QString::fromLocal8Bit(argv[1]);
    const QString out = QString::fromLocal8Bit(argv[2]);
    int frames = 60, live = 0;
    bool shots = false, drags = true;
    for (int i = 3; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--frames" && i + 1 < argc) frames = std::max(2, std::atoi(argv[++i]));
        else if (a == "--live" && i + 1 < argc) live = std::max(1, std::atoi(argv[++i]));
        else if (a == "--shots") shots = true;
        else if (a == "--no-drags") drags = false;
    }
    int gw = 0, gh = 0;
    if (image.startsWith("ridges:") && bench::parseSize(image.mid(7).toLatin1().constData(), &gw, &gh)) {
        image = out + QStringLiteral("/ridges-%1x%2.pgm").arg(gw).arg(gh);
        io::writeImage(image.toStdString(), io::matOf(bench::ridges(gw, gh)));
    }

    MainWindow::Options options;
    options.engine.engine.backend = Backend::Cpu;
    options.useSettings = false;
    MainWindow w(options);
    w.resize(1600, 1000);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) return 1;
    QSignalSpy opened(&w.session(), &session::Session::imageOpened);
    w.openFile(image);  // read in the background
    if (!opened.wait(60000)) return 1;
    if (live > 0) bench::measureLiveWindow(w, live);
    if (shots)
        for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)})
            bench::shootProgressiveSweep(w, size.width(), size.height(), out);
    if (!drags) return 0;
    w.resize(1600, 1000);
    w.viewControls()->setView(ui::Plane::Result);
    w.spectrumDock()->hide();
    w.contourDock()->hide();
    QTest::qWait(500);

    std::printf("| drag (Result view, %dx%d, CPU) | frames | p50 ms | p95 ms | max ms |\n|---|---:|---:|---:|---:|\n",
                session::widthOf(*w.session().image()), session::heightOf(*w.session().image()));
    std::vector<double> angle, length;
    timeOneChange(w, [&] { w.angleSlider()->setValue(1); });  // warm-up
    for (int i = 0; i < frames; ++i) angle.push_back(timeOneChange(w, [&] { w.angleSlider()->setValue(5 * i % 1800); }));
    for (int i = 0; i < frames; ++i)
        length.push_back(timeOneChange(w, [&] { w.lengthSlider()->setValue(3 + 2 * (i % 60)); }));
    report("angle slider", angle);
    report("length slider", length);

    // Screenshots of the complete window, one per view, with the docks shown.
    w.spectrumDock()->show();
    w.contourDock()->show();
    w.contourPanel()->setContoursVisible(true);
    w.setAngle(30);
    w.setLength(21);
    auto shoot = [&](ui::Plane view, ui::CompareMode mode, const char* name) {
        w.viewControls()->setView(view);
        w.viewControls()->setCompareMode(mode);
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 60000) {
            QTest::qWait(100);
            if (!w.session().queue().busy() && t.elapsed() > 600) break;
        }
        QTest::qWait(300);
        w.grab().save(out + "/" + name + ".png");
        std::printf("screenshot %s\n", name);
    };
    w.viewport()->setGlyph(30, 21);
    shoot(ui::Plane::Result, ui::CompareMode::SideBySide, "result-side-by-side");
    shoot(ui::Plane::Supremum, ui::CompareMode::Split, "supremum-split");
    w.viewControls()->setBlend(true, 0.75);
    w.viewControls()->setNeedleStep(16);
    shoot(ui::Plane::Orientation, ui::CompareMode::Single, "orientation");
    return 0;
}
