// linescope-view-latency: parameter change to finished frame, as a slider drag produces
// them, through render/'s whole pipeline in a bare EGL context (design.md §4): on the GPU
// path the CUDA engine writes the textures (render/gpu_views.h); on the CPU path the CPU
// engine computes and the result is uploaded through pixel buffer objects. Each frame is
// timed from the new parameter to glFinish (so the GPU's work is inside the figure), and
// the last frame of each drag is saved as a PPM screenshot.
//
//   linescope-view-latency [--path gpu|cpu|both] [--size WxH] [--viewport WxH]
//                          [--frames N] [--sweep-frames N] [--out DIR]
#include "compute/line_morph.h"
#include "compute/sweep.h"
#include "render/headless/egl_context.h"
#include "tests/bench/latency_support.h"
#include "render/viewport_renderer.h"
#if defined(LINESCOPE_HAVE_CUDA)
#include "compute/cuda/resident.h"
#include "render/gpu_views.h"
#endif
#if defined(LINESCOPE_HAVE_IMGUI)
#include "render/imgui_overlay.h"
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <numbers>
#include <random>
#include <string>
#include <vector>

using namespace linescope;
using namespace linescope::bench;
using namespace linescope::render;

namespace {

struct Options {
    std::string path = "both";
    int width = 3840, height = 2160;
    int viewW = 1920, viewH = 1080;
    int frames = 120;
    int sweepFrames = 20;
    std::string out = ".";
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> const char* {
            if (i + 1 >= argc) throw Error(a + " needs a value");
            return argv[++i];
        };
        if (a == "--path") o.path = next();
        else if (a == "--size") { if (!parseSize(next(), &o.width, &o.height)) throw Error("--size WxH"); }
        else if (a == "--viewport") { if (!parseSize(next(), &o.viewW, &o.viewH)) throw Error("--viewport WxH"); }
        else if (a == "--frames") o.frames = std::max(1, std::atoi(next()));
        else if (a == "--sweep-frames") o.sweepFrames = std::max(1, std::atoi(next()));
        else if (a == "--out") o.out = next();
        else throw Error("unknown option " + a);
    }
    return o;
}

struct Stats {
    double p50 = 0, p95 = 0, max = 0;
    int frames = 0;
};

Stats statsOf(std::vector<double> ms) {
    Stats s;
    s.frames = static_cast<int>(ms.size());
    if (ms.empty()) return s;
    s.p50 = percentile(ms, 0.5);
    s.p95 = percentile(ms, 0.95);
    s.max = percentile(ms, 1.0);
    return s;
}

class Bench {
public:
    Bench(const Options& o, EglContext& egl) : o_(o), egl_(egl), source_(ridges(o.width, o.height)) {
        renderer_.initialize(&EglContext::procAddress);
        renderer_.setView(ViewTransform::fit(o.width, o.height, o.viewW, o.viewH));
        gl_.load(&EglContext::procAddress);
#if defined(LINESCOPE_HAVE_IMGUI)
        overlay_.initialize(&EglContext::procAddress);
#endif
    }
    ~Bench() {
#if defined(LINESCOPE_HAVE_IMGUI)
        overlay_.release();
#endif
#if defined(LINESCOPE_HAVE_CUDA)
        if (gpu_) gpu_->releaseGl();
#endif
        renderer_.release();
    }

    // One drag: `frames` parameter values, each computed, drawn and finished.
    void drag(const std::string& path, const std::string& name, int frames,
              const std::function<void(int)>& produce) {
        std::vector<double> ms;
        for (int i = 0; i < frames; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            produce(i);
            drawFrame(path, name);
            gl_.Finish();
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            lastMs_ = ms.back();
        }
        // The first frame allocates (textures, device buffers): reported apart.
        const double first = ms.front();
        if (ms.size() > 1) ms.erase(ms.begin());
        const Stats s = statsOf(ms);
        std::printf("| %s | %s | %dx%d | %d | %.2f | %.2f | %.2f | %.2f |\n", path.c_str(), name.c_str(), o_.width,
                    o_.height, s.frames, s.p50, s.p95, s.max, first);
        std::fflush(stdout);
        writePpm(o_.out + "/" + path + "-" + name + ".ppm", egl_.readPixels(), o_.viewW, o_.viewH);
    }

    void runCpu() {
        EngineOptions cpu;
        cpu.backend = Backend::Cpu;
        renderer_.setDisplayRange(0, 255);
        drag("cpu", "result-angle", o_.frames, [&](int i) {
            const auto r = lineMorph<std::uint8_t>(MorphOp::Open, source_.cview(), {i * 0.5, 21}, cpu);
            renderer_.uploadImage<std::uint8_t>(r.cview());
            renderer_.setColourMap(ColourMap::Grey);
            renderer_.setGlyph(i * 0.5, 21, o_.width / 2, o_.height / 2);
        });
        drag("cpu", "result-length", o_.frames, [&](int i) {
            const int len = 1 + 2 * (i % 250);
            const auto r = lineMorph<std::uint8_t>(MorphOp::Open, source_.cview(), {30, len}, cpu);
            renderer_.uploadImage<std::uint8_t>(r.cview());
            renderer_.setGlyph(30, len, o_.width / 2, o_.height / 2);
        });
        // The sweep view while λ moves: a whole 180-angle sweep each frame.
        drag("cpu", "sweep180-length", o_.sweepFrames, [&](int i) {
            const auto s = sweep<std::uint8_t>(source_.cview(), {MorphOp::Open, 11 + 2 * i, AngleSet{0, 1, 180}}, cpu);
            renderer_.uploadImage<std::uint8_t>(source_.cview());
            renderer_.uploadOrientation(s);
            renderer_.setOrientationBlend(0.7);
            renderer_.setColourMap(ColourMap::OrientationOverImage);
        });
        renderer_.clearGlyph();
    }

#if defined(LINESCOPE_HAVE_CUDA)
    // The engine's resident call and the interop write of each frame, as the session's
    // engine thread and the viewport do them in the app (synchronously here: render alone).
    void runGpu() {
        gpu_ = std::make_unique<GpuViews>();
        auto& ctx = cuda::CudaContext::get();
        std::shared_ptr<cuda::ResidentImage> src;
        {
            auto lock = ctx.lock();
            src = cuda::uploadResident<std::uint8_t>(source_.cview(), ctx);
        }
        auto result = [&](double angle, int len) {
            auto lock = ctx.lock();
            const cuda::ResidentPtr r = cuda::lineMorphResident(MorphOp::Open, *src, {angle, len}, LineAlgorithm::Auto, ctx);
            gpu_->showPlane(renderer_, *r, r);
        };
        auto orientation = [&](int len) {
            std::shared_ptr<const cuda::ResidentSweep> s;
            {
                auto lock = ctx.lock();
                s = std::make_shared<const cuda::ResidentSweep>(
                    cuda::sweepResident(*src, {MorphOp::Open, len, AngleSet{0, 1, 180}}, 0, {}, ctx));
            }
            gpu_->showOrientation(renderer_, *s, s);
        };
        drag("gpu", "result-angle", o_.frames, [&](int i) {
            result(i * 0.5, 21);
            renderer_.setColourMap(ColourMap::Grey);
            renderer_.setGlyph(i * 0.5, 21, o_.width / 2, o_.height / 2);
        });
        drag("gpu", "result-length", o_.frames, [&](int i) {
            const int len = 1 + 2 * (i % 250);
            result(30, len);
            renderer_.setGlyph(30, len, o_.width / 2, o_.height / 2);
        });
        gpu_->showPlane(renderer_, *src, src);
        drag("gpu", "sweep180-length", std::max(o_.sweepFrames, o_.frames / 2), [&](int i) {
            orientation(11 + 2 * (i % 100));
            renderer_.setOrientationBlend(0.7);
            renderer_.setColourMap(ColourMap::OrientationOverImage);
        });
        // The sweep view while the angle moves: the sweep is kept, the glyph follows.
        orientation(21);
        drag("gpu", "sweep180-angle", o_.frames, [&](int i) {
            renderer_.setGlyph(i * 0.5, 21, o_.width / 2, o_.height / 2);
        });
        renderer_.clearGlyph();
    }
#endif

private:
    void drawFrame(const std::string& path, const std::string& name) {
        const GLuint fb = egl_.framebuffer(o_.viewW, o_.viewH);
        renderer_.render({fb, o_.viewW, o_.viewH});
#if defined(LINESCOPE_HAVE_IMGUI)
        // The overlay as the app draws it: its panel's layout and text are part of the frame.
        OverlayState state;
        state.backend = path == "gpu" ? "CUDA -> OpenGL" : "CPU";
        state.device = name;
        state.timings.computeMs = lastMs_;
        state.probe.valid = true;
        state.probe.x = o_.width / 2;
        state.probe.y = o_.height / 2;
        state.probe.value = source_.at(o_.width / 2, o_.height / 2);
        overlay_.beginFrame(static_cast<float>(o_.viewW), static_cast<float>(o_.viewH), 1.0f, 1.0f / 60);
        overlay_.draw(state);
        overlay_.render();
#else
        (void)path;
        (void)name;
#endif
    }

    const Options& o_;
    EglContext& egl_;
    Image<std::uint8_t> source_;
    ViewportRenderer renderer_;
    GlFunctions gl_{};
    double lastMs_ = 0;
#if defined(LINESCOPE_HAVE_CUDA)
    std::unique_ptr<GpuViews> gpu_;
#endif
#if defined(LINESCOPE_HAVE_IMGUI)
    ImGuiOverlay overlay_;
#endif
};

}  // namespace

int main(int argc, char** argv) {
    try {
        const Options o = parse(argc, argv);
        EglContext egl;
        if (!egl.usable()) {
            std::fprintf(stderr, "no headless OpenGL: %s\n", egl.why().c_str());
            return 1;
        }
        std::printf("OpenGL: %s\n\n", egl.description().c_str());
        std::printf("| path | drag | image | frames | p50 ms | p95 ms | max ms | first ms |\n");
        std::printf("|---|---|---|---:|---:|---:|---:|---:|\n");
        Bench bench(o, egl);
        if (o.path == "cpu" || o.path == "both") bench.runCpu();
        if (o.path == "gpu" || o.path == "both") {
#if defined(LINESCOPE_HAVE_CUDA)
            std::string why;
            if (GpuViews::available(&why)) bench.runGpu();
            else std::printf("\nGPU path skipped: %s\n", why.c_str());
#else
            std::printf("\nGPU path skipped: this build has no CUDA backend\n");
#endif
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "linescope-view-latency: %s\n", e.what());
        return 1;
    }
}
