// linescope-window-latency: the whole window minus the widget toolkit, driven as a dragging
// user drives it, on a bare EGL context (design.md §4; on the GPU machine, NVIDIA's EGL with
// no window system). One Session (its engine thread, in GPU mode on CUDA: one computation a
// change, planes kept on the device), one ViewportController (the window's viewport: views,
// glyph, overlay, probe) and the docks' consumers (the spectrum's numbers, the contour list)
// wired as MainWindow wires them. Each frame is timed from the new parameter value to the
// frame painted (glFinish) with the new data, the probe read and the docks fed.
//
// Per drag it reports p50/p95/max (the first frame apart), engine computations per change,
// host↔device bytes per frame (CUDA), and the split between engine (the snapshot's compute),
// the textures (interop writes on the GPU path, pixel-buffer uploads on the CPU path) and draw.
//
//   linescope-window-latency [--backend cuda|cpu] [--size WxH] [--viewport WxH]
//                            [--frames N] [--sweep-frames N] [--sweep-chunk N] [--image ridges|page]
//                            [--out DIR]
#include "app/session/planes.h"
#include "app/session/session.h"
#include "render/headless/egl_context.h"
#include "tests/bench/latency_support.h"
#include "ui/viewport_controller.h"
#if defined(LINESCOPE_HAVE_CUDA)
#include "compute/cuda/cuda_context.h"
#endif

#include <QCoreApplication>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <numbers>
#include <random>
#include <string>
#include <vector>

using namespace linescope;
using namespace linescope::bench;
using namespace linescope::session;

namespace {

struct Options {
    std::string backend = "cuda";
    int width = 3840, height = 2160;
    int viewW = 1920, viewH = 1080;
    int frames = 60;
    int sweepFrames = 20;
    int sweepChunk = EngineQueue::Options{}.deviceSweepChunkAngles;  // angles between two cancellation checks (GPU)
    std::string image = "ridges";  // ridges (every pixel on a border) or page (letters)
    std::string out = ".";
};

Options parse(const QStringList& args) {
    Options o;
    for (int i = 1; i < args.size(); ++i) {
        const std::string a = args[i].toStdString();
        auto next = [&]() -> std::string {
            if (i + 1 >= args.size()) throw Error(a + " needs a value");
            return args[++i].toStdString();
        };
        if (a == "--backend") o.backend = next();
        else if (a == "--size") { if (!parseSize(next().c_str(), &o.width, &o.height)) throw Error("--size WxH"); }
        else if (a == "--viewport") { if (!parseSize(next().c_str(), &o.viewW, &o.viewH)) throw Error("--viewport WxH"); }
        else if (a == "--frames") o.frames = std::max(2, std::stoi(next()));
        else if (a == "--sweep-frames") o.sweepFrames = std::max(2, std::stoi(next()));
        else if (a == "--sweep-chunk") o.sweepChunk = std::stoi(next());
        else if (a == "--image") o.image = next();
        else if (a == "--out") o.out = next();
        else throw Error("unknown option " + a);
    }
    if (o.backend != "cuda" && o.backend != "cpu") throw Error("--backend cuda|cpu");
    if (o.image != "ridges" && o.image != "page") throw Error("--image ridges|page");
    return o;
}

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::uint64_t hostTraffic() {
#if defined(LINESCOPE_HAVE_CUDA)
    return cuda::CudaContext::hostTraffic();
#else
    return 0;
#endif
}

class Harness {
public:
    Harness(const Options& o, render::EglContext& egl) : o_(o), egl_(egl) {
        EngineQueue::Options eo;
        eo.engine.backend = o.backend == "cuda" ? Backend::Cuda : Backend::Cpu;
        eo.deviceResident = o.backend == "cuda";
        eo.deviceSweepChunkAngles = o.sweepChunk;
        session_ = std::make_unique<Session>(eo);
        gl_.load(&render::EglContext::procAddress);
        viewport_.initialize(&render::EglContext::procAddress);
        viewport_.resize(o.viewW, o.viewH, 1.0);
        if (o.backend == "cuda") {
            QString why;
            if (!viewport_.setGpuPath(true, &why)) throw Error("the GPU path is not available: " + why.toStdString());
        }
        viewport_.setOverlayInfo(o.backend == "cuda" ? "CUDA -> OpenGL" : "CPU", QString::fromStdString(egl.description()));
        // Wired as MainWindow wires them: the viewport and the docks read the snapshots.
        QObject::connect(session_.get(), &Session::imageChanged, [this] { viewport_.setOriginal(session_->image()); });
        QObject::connect(session_.get(), &Session::snapshotReady, [this](RequestKind kind, const SnapshotPtr& s) {
            if (!s->ok()) {
                std::fprintf(stderr, "engine error: %s\n", s->error.c_str());
                return;
            }
            switch (kind) {
            case RequestKind::Result:
            case RequestKind::Sweep:
                if (kind == RequestKind::Sweep) shownSweep_ = s;
                viewport_.showSnapshot(s);
                if (s->spectrum) spectrum_ = s->spectrum->exact;  // the spectrum dock's input
                break;
            case RequestKind::Contours:
                viewport_.setContours(s->contours);
                contourCount_ = s->contours->size();  // the contour list's rows
                contourPoints_ = s->contours->points.size();
                break;
            case RequestKind::Skew:
            case RequestKind::Granulometry:
            case RequestKind::Lesson:
            case RequestKind::Field: break;
            }
            engineMs_ = s->timings.compute;
        });
        session_->setLive(RequestKind::Skew, false);
        session_->setAngleSet(AngleSet{0, 1, 180});
        session_->setImage(AnyImage(o.image == "page" ? page(o.width, o.height) : ridges(o.width, o.height)));
    }
    ~Harness() { viewport_.release(); }

    // One drag: `frames` values of a parameter, each waited for until the views that depend
    // on it show it (`shown`; by default until the engine is idle: the exact views), then
    // painted and finished.
    void drag(const std::string& name, int frames, const std::function<void(int)>& set,
              const std::function<bool()>& shown = {}) {
        std::vector<double> ms, engine, interop, draw;
        const auto computationsBefore = computations();
        const auto trafficBefore = hostTraffic();
        double first = 0;
        for (int i = 0; i < frames; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            set(i);
            if (shown) {
                while (!shown()) QCoreApplication::processEvents(QEventLoop::AllEvents);
            } else {
                waitForEngine();
            }
            viewport_.render(egl_.framebuffer(o_.viewW, o_.viewH), o_.viewW, o_.viewH);
            probe_ = viewport_.probeAt(QPointF(o_.viewW / 2.0, o_.viewH / 2.0));
            gl_.Finish();
            const double t = msSince(t0);
            if (i == 0) {
                first = t;  // allocations, registrations: apart
                continue;
            }
            ms.push_back(t);
            engine.push_back(engineMs_);
            interop.push_back(viewport_.timings().gpu + viewport_.timings().upload);
            draw.push_back(viewport_.timings().draw);
        }
        if (shown) waitForEngine();  // the drag's last request ends before the next drag
        const double perChange = static_cast<double>(computations() - computationsBefore) / frames;
        const double kbPerFrame = static_cast<double>(hostTraffic() - trafficBefore) / frames / 1024.0;
        std::printf("| %s | %s | %dx%d | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s |\n",
                    o_.backend.c_str(), name.c_str(), o_.width, o_.height, static_cast<int>(ms.size()),
                    percentile(ms, 0.5), percentile(ms, 0.95), percentile(ms, 1.0), first, perChange,
                    percentile(engine, 0.5), percentile(interop, 0.5), percentile(draw, 0.5),
                    o_.backend == "cuda" ? std::to_string(static_cast<int>(std::lround(kbPerFrame))).c_str() : "-");
        std::fflush(stdout);
        std::string file = o_.backend + "-" + o_.image + "-" + name;
        std::replace_if(file.begin(), file.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '-');
        writePpm(o_.out + "/" + file + ".ppm", egl_.readPixels(), o_.viewW, o_.viewH);
    }

    void run() {
        waitForEngine();
        // The result view: every drag recomputes the result alone.
        viewport_.setView(ui::Plane::Result);
        session_->setLive(RequestKind::Sweep, false);
        drag("result, angle drag", o_.frames, [&](int i) { setAngle(10 + i * 0.5); });
        drag("result, length drag", o_.frames, [&](int i) { setLength(3 + 2 * (i % 120)); });
        // The orientation view of the 180-angle sweep, blended over the image, needles off.
        viewport_.setView(ui::Plane::Orientation);
        viewport_.setOrientationBlend(true, 0.7);
        session_->setLive(RequestKind::Sweep, true);
        setLength(21);
        waitForEngine();
        drag("sweep view, angle drag", o_.frames, [&](int i) { setAngle(40 + i * 0.5); });
        drag("sweep view, length drag", o_.sweepFrames, [&](int i) { setLength(11 + 2 * i); });
        // The same drag at a user's pace: the next λ as soon as this one is on screen, a
        // preview (the first chunk's angles) or the exact sweep; the next λ supersedes the
        // sweep still being refined, as a drag does.
        // With the slider held (Session::setDragging), a sweep stops at its first preview.
        session_->setDragging(true);
        drag("sweep view, length drag, first view", o_.sweepFrames, [&](int i) { setLength(11 + 2 * i); }, [&] {
            return shownSweep_ && std::get<SweepParams>(shownSweep_->request.params).sweep.length ==
                                      session_->parameters().length;
        });
        // The release: from it to the exact sweep on screen; then twice more, after a short
        // held drag, and a λ set without a drag, for comparison.
        const auto exactOnScreen = [&](const char* what) {
            const auto t0 = std::chrono::steady_clock::now();
            if (session_->dragging()) session_->setDragging(false);
            while (!shownSweep_ || shownSweep_->isPreview() ||
                   std::get<SweepParams>(shownSweep_->request.params).sweep.length != session_->parameters().length)
                QCoreApplication::processEvents(QEventLoop::AllEvents);
            viewport_.render(egl_.framebuffer(o_.viewW, o_.viewH), o_.viewW, o_.viewH);
            gl_.Finish();
            std::printf("(sweep view: %s to the exact sweep on screen %.2f ms; the engine's sweep: queued %.2f ms, "
                        "computed in %.2f ms)\n",
                        what, msSince(t0), shownSweep_->timings.queued, shownSweep_->timings.compute);
        };
        std::printf("\n");
        exactOnScreen("from the slider's release");
        for (int k = 0; k < 2; ++k) {
            session_->setDragging(true);
            setLength(31 + 2 * k);
            while (!shownSweep_ || std::get<SweepParams>(shownSweep_->request.params).sweep.length != 31 + 2 * k)
                QCoreApplication::processEvents(QEventLoop::AllEvents);
            waitForEngine();
            exactOnScreen("from another release");
        }
        for (int k = 0; k < 2; ++k) {
            setLength(41 + 2 * k);
            exactOnScreen("from a λ set without a drag");
        }
        std::printf("\n");
        // Contours of the original, shown over the result view, while the threshold moves.
        viewport_.setView(ui::Plane::Result);
        session_->setLive(RequestKind::Sweep, false);
        viewport_.setContoursVisible(true);
        session_->setLive(RequestKind::Contours, true);
        waitForEngine();
        drag("threshold drag, contours shown", o_.frames, [&](int i) { session_->setThreshold(60 + i % 130); });
        std::printf("\n(last frame: %zu contours of %zu points listed, %zu spectrum values, probe at the centre %.0f)\n",
                    contourCount_, contourPoints_, spectrum_.size(), probe_.value);
    }

private:
    void setAngle(double a) {
        session_->setAngle(a);
        viewport_.setGlyph(a, session_->parameters().length);
    }
    void setLength(int l) {
        session_->setLength(l);
        viewport_.setGlyph(session_->parameters().angle, l);
    }
    std::uint64_t computations() const {
        std::uint64_t n = 0;
        for (int k = 0; k < kRequestKindCount; ++k) n += session_->queue().computations(static_cast<RequestKind>(k));
        return n;
    }
    // Until the engine has nothing queued or running and its snapshots reached the viewport.
    void waitForEngine() {
        do {
            QCoreApplication::processEvents(QEventLoop::AllEvents);
        } while (session_->queue().busy());
        QCoreApplication::processEvents(QEventLoop::AllEvents);  // the last snapshot's signal
        while (session_->queue().busy()) QCoreApplication::processEvents(QEventLoop::AllEvents);  // contours it submitted
        QCoreApplication::processEvents(QEventLoop::AllEvents);
    }

    const Options& o_;
    render::EglContext& egl_;
    std::unique_ptr<Session> session_;
    ui::ViewportController viewport_;
    render::GlFunctions gl_{};
    std::vector<std::int64_t> spectrum_;
    std::size_t contourCount_ = 0, contourPoints_ = 0;
    ui::ProbeValues probe_;
    double engineMs_ = 0;
    SnapshotPtr shownSweep_;  // the newest sweep snapshot the viewport was given (a preview or exact)
};

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    try {
        const Options o = parse(app.arguments());
        render::EglContext egl;
        if (!egl.usable()) {
            std::fprintf(stderr, "no headless OpenGL: %s\n", egl.why().c_str());
            return 1;
        }
        std::printf("OpenGL: %s\n\n", egl.description().c_str());
        std::printf("| backend | drag | image | frames | p50 ms | p95 ms | max ms | first ms | computations/change "
                    "| engine ms (p50) | to textures ms (p50) | draw ms (p50) | host<->device KiB/frame |\n");
        std::printf("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        Harness h(o, egl);
        h.run();
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "linescope-window-latency: %s\n", e.what());
        return 1;
    }
}
