// The GPU path of the viewport (label gpu): the CUDA engine writes each view into the
// renderer's registered textures (render/gpu_views.h) and the frame read back from a bare
// EGL context must equal the frame of the CPU path, where the CPU engine's result is
// uploaded through pixel buffer objects: for every pixel type, random images, angles, λ and
// operators, every sweep plane, the orientation map alone and over the image, and after the
// context is recreated (as Qt does when a window moves between screens). Skips, with the
// reason, without a GPU or without EGL.
#include "compute/line_morph.h"
#include "compute/sweep.h"
#include "render/gpu_views.h"
#include "compute/cuda/resident.h"
#include "render/headless/egl_context.h"
#include "render/viewport_renderer.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

using namespace linescope;
using namespace linescope::render;

namespace {

// Largest channel difference between two RGBA frames, and where.
struct Difference {
    int max = 0;
    int x = -1, y = -1;
};

Difference compareFrames(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b, int width) {
    Difference d;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const int diff = std::abs(int(a[i]) - int(b[i]));
        if (diff > d.max) {
            d.max = diff;
            d.x = static_cast<int>((i / 4) % static_cast<std::size_t>(width));
            d.y = static_cast<int>((i / 4) / static_cast<std::size_t>(width));
        }
    }
    return d;
}

template <class T>
double maxOf(const Image<T>& img) {
    double m = 0;
    for (const T v : img.pixels()) m = std::max(m, static_cast<double>(v));
    return m;
}

template <class T>
void rangeOf(const Image<T>& img, double* lo, double* hi) {
    if constexpr (std::is_same_v<T, float>) {
        const auto px = img.pixels();
        const auto [mn, mx] = std::minmax_element(px.begin(), px.end());
        *lo = *mn;
        *hi = *mx;
    } else {
        *lo = 0;
        *hi = std::is_same_v<T, std::uint8_t> ? 255 : 65535;
    }
}

}  // namespace

class TestGpuViews : public QObject {
    Q_OBJECT

    std::unique_ptr<EglContext> egl_;
    std::unique_ptr<ViewportRenderer> gpuSide_, cpuSide_;
    std::unique_ptr<GpuViews> gpu_;
    std::shared_ptr<cuda::ResidentImage> source_;  // the engine's resident source

    // The engine's part (the session's engine thread in the app): resident planes.
    template <class T>
    void setSource(const Image<T>& img) {
        auto& ctx = cuda::CudaContext::get();
        auto lock = ctx.lock();
        source_ = cuda::uploadResident<T>(img.cview(), ctx);
    }
    void showSource() { gpu_->showPlane(*gpuSide_, *source_, source_); }
    void showResult(MorphOp op, const LineParams& line) {
        auto& ctx = cuda::CudaContext::get();
        auto lock = ctx.lock();
        const cuda::ResidentPtr r = cuda::lineMorphResident(op, *source_, line, LineAlgorithm::Auto, ctx);
        gpu_->showPlane(*gpuSide_, *r, r);
    }
    std::shared_ptr<const cuda::ResidentSweep> residentSweep(const SweepRequest& req, int chunkAngles = 45) {
        auto& ctx = cuda::CudaContext::get();
        auto lock = ctx.lock();
        return std::make_shared<const cuda::ResidentSweep>(cuda::sweepResident(*source_, req, chunkAngles, {}, ctx));
    }

    std::vector<std::uint8_t> draw(ViewportRenderer& r, int w, int h) {
        r.setView({1, 0, 0});
        r.render({egl_->framebuffer(w, h), w, h});
        return egl_->readPixels();
    }

    template <class T>
    void uploadGrey(const Image<T>& img) {
        cpuSide_->uploadImage<T>(img.cview());
        double lo = 0, hi = 0;
        rangeOf(img, &lo, &hi);
        cpuSide_->setDisplayRange(lo, hi);
        cpuSide_->setColourMap(ColourMap::Grey);
    }

    // Float views are normalised on the device and by the shader on the CPU path: one grey
    // level of rounding apart at most. Integer views are bit for bit.
    template <class T>
    static int tolerance() { return std::is_same_v<T, float> ? 1 : 0; }

    template <class T>
    void checkSame(const QString& what, int w, int h, int tol) {
        const auto a = draw(*gpuSide_, w, h);
        const auto b = draw(*cpuSide_, w, h);
        const Difference d = compareFrames(a, b, w);
        QVERIFY2(d.max <= tol, qPrintable(QString("%1: GPU and CPU frames differ by %2 at (%3, %4)")
                                              .arg(what).arg(d.max).arg(d.x).arg(d.y)));
    }

    template <class T>
    Image<T> sourceImage(int w, int h, std::uint64_t seed) {
        if constexpr (std::is_same_v<T, float>) return test::finiteFloatImage(w, h, seed, test::ImageKind::Noise);
        else return test::randomImage<T>(w, h, seed);
    }

    template <class T>
    void resultsMatch() {
        std::mt19937_64 rng(7);
        const int w = 203, h = 117;
        const Image<T> src = sourceImage<T>(w, h, 11);
        setSource(src);
        EngineOptions cpu;
        cpu.backend = Backend::Cpu;
        const MorphOp ops[] = {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close, MorphOp::TopHat};
        for (int trial = 0; trial < 12; ++trial) {
            const MorphOp op = ops[trial % 5];
            const double angle = std::uniform_real_distribution<double>(0, 180)(rng);
            const int length = std::uniform_int_distribution<int>(1, 61)(rng);
            showResult(op, {angle, length});
            gpuSide_->setColourMap(ColourMap::Grey);
            uploadGrey(lineMorph<T>(op, src.cview(), {angle, length}, cpu));
            checkSame<T>(QString("%1 at %2°, λ %3").arg(morphOpName(op)).arg(angle).arg(length), w + 9, h + 5,
                         tolerance<T>());
            if (QTest::currentTestFailed()) return;
        }
        showSource();
        uploadGrey(src);
        checkSame<T>("the source", w, h, tolerance<T>());
    }

    template <class T>
    void sweepPlanesMatch() {
        const int w = 160, h = 97;
        const Image<T> src = sourceImage<T>(w, h, 23);
        setSource(src);
        EngineOptions cpu;
        cpu.backend = Backend::Cpu;
        for (const SweepRequest req : {SweepRequest{MorphOp::Open, 15, AngleSet{0, 1, 180}},
                                       SweepRequest{MorphOp::Close, 9, AngleSet{-10, 0.25, 81}}}) {
            const SweepResult<T> s = sweep<T>(src.cview(), req, cpu);
            const QString what = QString("%1 sweep, λ %2, %3 angles from %4°")
                                     .arg(morphOpName(req.op)).arg(req.length).arg(req.angles.count).arg(req.angles.start);
            // Chunks of 45 and of 7 angles fold to the same planes as the CPU's one sweep.
            const auto rs = residentSweep(req, req.angles.count == 180 ? 45 : 7);
            gpu_->showPlane(*gpuSide_, *rs->sup, rs);
            gpuSide_->setColourMap(ColourMap::Grey);
            uploadGrey(s.sup);
            checkSame<T>(what + ": supremum", w, h, tolerance<T>());
            gpu_->showPlane(*gpuSide_, *rs->inf, rs);
            uploadGrey(s.inf);
            checkSame<T>(what + ": infimum", w, h, tolerance<T>());
            gpu_->showPlane(*gpuSide_, *rs->strength, rs);
            uploadGrey(s.strength);
            checkSame<T>(what + ": strength", w, h, tolerance<T>());

            // Hue from the angle and value from strength / max, in float on both paths:
            // one level of rounding apart at most.
            gpu_->showOrientation(*gpuSide_, *rs, rs);
            gpuSide_->setColourMap(ColourMap::Orientation);
            cpuSide_->uploadOrientation(s);
            cpuSide_->setColourMap(ColourMap::Orientation);
            checkSame<T>(what + ": orientation map", w, h, 1);

            showSource();
            gpu_->showOrientation(*gpuSide_, *rs, rs);
            gpuSide_->setOrientationBlend(0.7);
            gpuSide_->setColourMap(ColourMap::OrientationOverImage);
            cpuSide_->uploadImage<T>(src.cview());
            double lo = 0, hi = 0;
            rangeOf(src, &lo, &hi);
            cpuSide_->setDisplayRange(lo, hi);
            cpuSide_->setOrientationBlend(0.7);
            cpuSide_->setColourMap(ColourMap::OrientationOverImage);
            checkSame<T>(what + ": orientation over the image", w, h, 1);
            if (QTest::currentTestFailed()) return;
            QVERIFY(maxOf(s.strength) > 0);  // the planes compared are not blank
        }
    }

private slots:
    void initTestCase() {
        std::string why;
        if (!GpuViews::available(&why)) QSKIP(qPrintable("no usable CUDA device: " + QString::fromStdString(why)));
        egl_ = std::make_unique<EglContext>();
        if (!egl_->usable()) QSKIP(qPrintable("no headless OpenGL: " + QString::fromStdString(egl_->why())));
        qInfo("%s", egl_->description().c_str());
        gpuSide_ = std::make_unique<ViewportRenderer>();
        cpuSide_ = std::make_unique<ViewportRenderer>();
        gpuSide_->initialize(&EglContext::procAddress);
        cpuSide_->initialize(&EglContext::procAddress);
        gpuSide_->setBackground({0, 0, 0, 1});
        cpuSide_->setBackground({0, 0, 0, 1});
        gpu_ = std::make_unique<GpuViews>();
    }
    void cleanupTestCase() {
        source_.reset();
        if (gpu_) gpu_->releaseGl();
        gpu_.reset();
        if (gpuSide_) gpuSide_->release();
        if (cpuSide_) cpuSide_->release();
        egl_.reset();
    }

    void resultsU8() { resultsMatch<std::uint8_t>(); }
    void resultsU16() { resultsMatch<std::uint16_t>(); }
    void resultsF32() { resultsMatch<float>(); }
    void sweepPlanesU8() { sweepPlanesMatch<std::uint8_t>(); }
    void sweepPlanesU16() { sweepPlanesMatch<std::uint16_t>(); }
    void sweepPlanesF32() { sweepPlanesMatch<float>(); }

    // Qt recreates the context when a window moves between screens: the registrations are
    // dropped with the old textures and the next frame registers the new ones.
    void contextRecreation() {
        const Image<std::uint8_t> src = test::randomImage<std::uint8_t>(64, 48, 5);
        setSource(src);
        showResult(MorphOp::Open, {30, 7});
        gpu_->releaseGl();
        gpuSide_->release();
        gpuSide_->initialize(&EglContext::procAddress);
        showResult(MorphOp::Open, {30, 7});
        gpuSide_->setColourMap(ColourMap::Grey);
        EngineOptions cpu;
        cpu.backend = Backend::Cpu;
        uploadGrey(lineMorph<std::uint8_t>(MorphOp::Open, src.cview(), {30, 7}, cpu));
        checkSame<std::uint8_t>("after the context was recreated", 64, 48, 0);
    }

    // A new image of another size and type reallocates the textures and registrations.
    void newImageSizeAndType() {
        const Image<std::uint16_t> a = test::randomImage<std::uint16_t>(33, 301, 3);
        setSource(a);
        showSource();
        const Image<std::uint8_t> b = test::randomImage<std::uint8_t>(311, 29, 4);
        setSource(b);
        showSource();
        gpuSide_->setColourMap(ColourMap::Grey);
        uploadGrey(b);
        checkSame<std::uint8_t>("after a new image", 311, 29, 0);
    }
};

QTEST_GUILESS_MAIN(TestGpuViews)
#include "test_gpu_views.moc"
