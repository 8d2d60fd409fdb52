// The segment and periodic line kinds on the GPU (compute/cuda/kernel_line_morph.h) against
// the CPU engine, bit for bit: every operator and pixel type (the special values of each
// type included), angles on the axes, diagonals and between, lengths from 1 to past the image,
// long segments through the device's run decomposition against the brute-force definition,
// images smaller than the kernel, strided host views; through lineMorph on the CUDA backend
// (what the CLI and the Python package call), the resident path (the window's GPU mode), and
// sweeps of these kinds on the CUDA backend. Skips without a usable GPU.
#include "compute/backend.h"
#include "compute/cpu/digital_line_morph.h"
#include "compute/cuda/foreign_images.h"
#include "compute/cuda/kernel_line_morph.h"
#include "compute/cuda/resident.h"
#include "compute/line_kernel.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"
#include "tests/support/cuda_checks.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <random>
#include <string>

using namespace linescope;

namespace {

const MorphOp kOps[] = {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close, MorphOp::TopHat};

std::string where(LineKind kind, MorphOp op, double angle, int length, int w, int h) {
    char a[32];
    std::snprintf(a, sizeof a, "%.6g", angle);
    return std::string(lineKindName(kind)) + " " + morphOpName(op) + " angle " + a + " λ " + std::to_string(length) +
           " on " + std::to_string(w) + "x" + std::to_string(h);
}

template <class T>
Image<T> imageOf(int w, int h, std::uint64_t seed, test::ImageKind kind) {
    if constexpr (std::is_floating_point_v<T>) {
        // Top-hats subtract: infinities would give NaN on both sides, not a difference.
        if (kind == test::ImageKind::Specials) return test::finiteFloatImage(w, h, seed, kind);
    }
    return test::randomImage<T>(w, h, seed, kind);
}

}  // namespace

class TestCudaLineKinds : public QObject {
    Q_OBJECT

    template <class T>
    void randomCasesFor() {
        std::mt19937_64 rng(91 + sizeof(T));
        const EngineOptions cpu{Backend::Cpu}, gpu{Backend::Cuda};
        const int cases = test::scaled(120);
        for (int i = 0; i < cases; ++i) {
            const int w = std::uniform_int_distribution<int>(1, 90)(rng), h = std::uniform_int_distribution<int>(1, 70)(rng);
            const auto kinds = test::allImageKinds();
            const test::ImageKind imageKind = kinds[static_cast<std::size_t>(i) % kinds.size()];
            const Image<T> img = imageOf<T>(w, h, 1000 + static_cast<std::uint64_t>(i), imageKind);
            const LineKind kind = i % 2 ? LineKind::Periodic : LineKind::Segment;
            const auto angles = test::interestingAngles(4, static_cast<std::uint64_t>(i));
            const double angle = angles[static_cast<std::size_t>(i) % angles.size()];
            const int length = i % 5 == 0 ? std::uniform_int_distribution<int>(60, 130)(rng)
                                          : std::uniform_int_distribution<int>(1, 25)(rng);
            const MorphOp op = kOps[i % 5];
            const LineParams p{angle, length, kind};
            Image<T> want(w, h), got(w, h);
            lineMorph<T>(op, img.cview(), want.view(), p, cpu);
            lineMorph<T>(op, img.cview(), got.view(), p, gpu);
            if (auto d = test::firstDifference(want, got))
                QFAIL((where(kind, op, angle, length, w, h) + " " + test::imageKindName(imageKind) + ": " + *d).c_str());
        }
    }

    // Segments through the run decomposition on the device (digital_line_device.h) against the
    // brute-force definition, with leaves small enough that the recursion goes several levels
    // deep even for moderate λ (and at the CPU's default), every pixel type and operator.
    // Sweeps of these kinds folded on the device from a resident image (the Python package's
    // GPU arrays): the CPU's sweep bit for bit, the float spectrum too (summed in its order),
    // and the colour plane the CPU's orientationColours byte for byte.
    template <class T>
    void residentSweepsFor() {
        cuda::CudaContext& ctx = cuda::CudaContext::get();
        int seed = 40;
        for (const LineKind kind : {LineKind::Segment, LineKind::Periodic})
            for (const MorphOp op : {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close}) {
                const int w = 61 + 17 * seed % 90, h = 37 + 11 * seed % 70;
                const Image<T> img = imageOf<T>(w, h, static_cast<std::uint64_t>(++seed), test::ImageKind::Noise);
                const SweepRequest req{op, 3 + seed % 23, AngleSet{-20.0, 6.5, 31}, kind};
                const SweepResult<T> want = sweep<T>(img.cview(), req, {Backend::Cpu});
                const RgbImage wantColours = orientationColours(want);
                cuda::ResidentSweep r;
                std::shared_ptr<cuda::ResidentImage> colours;
                {
                    auto lock = ctx.lock();
                    const auto src = cuda::uploadResident<T>(img.cview(), ctx);
                    r = cuda::sweepResident(*src, req, 0, {}, ctx);
                    colours = cuda::orientationColoursPlane(*r.argIndex, *r.strength, r.maxStrength, req.angles, ctx);
                }
                const SweepResult<T> got = cuda::downloadSweep<T>(r);
                const std::string at = where(kind, op, -20, req.length, w, h);
                if (auto d = test::sweepDifference(want, got)) QFAIL((at + ": " + *d).c_str());
                QVERIFY2(got.spectrum == want.spectrum, (at + ": the spectrum is not the CPU's bit for bit").c_str());
                const Image<std::uint8_t> rgb = cuda::downloadResident<std::uint8_t>(*colours);
                QCOMPARE(rgb.width(), 3 * w);
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < 3 * w; ++x)
                        if (rgb.at(x, y) != wantColours.rgb[static_cast<std::size_t>(y) * 3 * w + x])
                            QFAIL((at + ": colour byte " + std::to_string(x) + " of row " + std::to_string(y)).c_str());
            }
    }

    template <class T>
    void decompositionFor() {
        const Image<T> img = imageOf<T>(301, 203, 17 + sizeof(T), test::ImageKind::Noise);
        std::mt19937_64 rng(23 + sizeof(T));
        int i = 0;
        for (const int leaf : {2, 5, 0}) {
            cpu::setDigitalLineLeafSize(leaf);
            for (const int length : {25, 57, 130}) {
                const double angle = std::uniform_real_distribution<double>(0, 180)(rng);
                const MorphOp op = kOps[i++ % 5];
                const LineParams p{angle, length, LineKind::Segment};
                EngineOptions reference{Backend::Cpu};
                reference.algorithm = LineAlgorithm::Reference;
                Image<T> want(301, 203), got(301, 203);
                lineMorph<T>(op, img.cview(), want.view(), p, reference);
                lineMorph<T>(op, img.cview(), got.view(), p, {Backend::Cuda});
                if (auto d = test::firstDifference(want, got)) {
                    cpu::setDigitalLineLeafSize(0);
                    QFAIL((where(LineKind::Segment, op, angle, length, 301, 203) + " leaf " + std::to_string(leaf) + ": " + *d).c_str());
                }
            }
        }
        cpu::setDigitalLineLeafSize(0);
    }
    // Angles near slopes of 1/2, 1/3 and 2 (63.4°: one run of two pixels a step, so the second
    // level is one long run off the pixel's line): end runs longer than the direct folds
    // take, read from the blocks of lattice_blocks.h, two shifts a launch.
    template <class T>
    void longEndRunsFor() {
        const int w = 347, h = 293;
        const Image<T> img = imageOf<T>(w, h, 29 + sizeof(T), test::ImageKind::Noise);
        int i = 0;
        for (const double angle : {63.4, 26.6, 116.6, 153.4, 71.6, 18.4, 243.4})
            for (const int length : {101, 201}) {
                const MorphOp op = kOps[i++ % 5];
                const LineParams p{angle, length, LineKind::Segment};
                EngineOptions reference{Backend::Cpu};
                reference.algorithm = LineAlgorithm::Reference;
                Image<T> want(w, h), got(w, h);
                lineMorph<T>(op, img.cview(), want.view(), p, reference);
                lineMorph<T>(op, img.cview(), got.view(), p, {Backend::Cuda});
                if (auto d = test::firstDifference(want, got))
                    QFAIL((where(LineKind::Segment, op, angle, length, w, h) + ": " + *d).c_str());
            }
    }
private slots:
    void initTestCase() {
        std::string why;
        if (!backendAvailable(Backend::Cuda, &why)) QSKIP(("no usable GPU: " + why).c_str());
    }

    void randomCasesU8() { randomCasesFor<std::uint8_t>(); }
    void randomCasesU16() { randomCasesFor<std::uint16_t>(); }
    void randomCasesF32() { randomCasesFor<float>(); }

    // A bigger image, so that most blocks take the interior path, every operator, both kinds.
    void largerImage() {
        const Image<std::uint8_t> img = test::randomImage<std::uint8_t>(700, 530, 5, test::ImageKind::Blocky);
        for (const LineKind kind : {LineKind::Segment, LineKind::Periodic})
            for (const double angle : {0.0, 30.0, 45.0, 63.4, 90.0, 153.0})
                for (const int length : {11, 41, 251})  // periodic 251: 8 levels; segments: the decomposition
                    for (const MorphOp op : kOps) {
                        Image<std::uint8_t> want(700, 530), got(700, 530);
                        lineMorph<std::uint8_t>(op, img.cview(), want.view(), {angle, length, kind}, {Backend::Cpu});
                        lineMorph<std::uint8_t>(op, img.cview(), got.view(), {angle, length, kind}, {Backend::Cuda});
                        if (auto d = test::firstDifference(want, got))
                            QFAIL((where(kind, op, angle, length, 700, 530) + ": " + *d).c_str());
                    }
    }

    void residentSweepsU8() { residentSweepsFor<std::uint8_t>(); }
    void residentSweepsU16() { residentSweepsFor<std::uint16_t>(); }
    void residentSweepsF32() { residentSweepsFor<float>(); }

    void decompositionU8() { decompositionFor<std::uint8_t>(); }
    void decompositionU16() { decompositionFor<std::uint16_t>(); }
    void decompositionF32() { decompositionFor<float>(); }
    void longEndRunsU8() { longEndRunsFor<std::uint8_t>(); }
    void longEndRunsU16() { longEndRunsFor<std::uint16_t>(); }
    void longEndRunsF32() { longEndRunsFor<float>(); }

    // A view into a bigger buffer (a stride that is not the width) in and out.
    void stridedViews() {
        Image<std::uint16_t> big = test::randomImage<std::uint16_t>(120, 80, 6);
        const ImageView<const std::uint16_t> src{big.view().row(3) + 7, 90, 60, big.view().stride};
        Image<std::uint16_t> outBig(130, 70, 0);
        const ImageView<std::uint16_t> got{outBig.view().row(2) + 5, 90, 60, outBig.view().stride};
        Image<std::uint16_t> want(90, 60);
        const LineParams p{27.5, 13, LineKind::Segment};
        lineMorph<std::uint16_t>(MorphOp::Open, src, want.view(), p, {Backend::Cpu});
        lineMorph<std::uint16_t>(MorphOp::Open, src, got, p, {Backend::Cuda});
        for (int y = 0; y < 60; ++y)
            for (int x = 0; x < 90; ++x) QCOMPARE(got.at(x, y), want.at(x, y));
        QCOMPARE(outBig.at(0, 0), std::uint16_t{0});  // nothing written outside the view
    }

    // The window's GPU mode: the result computed from a resident image, kept on the device.
    void residentResult() {
        const Image<float> img = test::finiteFloatImage(211, 97, 8, test::ImageKind::Noise);
        cuda::CudaContext& ctx = cuda::CudaContext::get();
        for (const LineKind kind : {LineKind::Segment, LineKind::Periodic})
            for (const MorphOp op : kOps) {
                const LineParams p{112.0, 17, kind};
                Image<float> want(211, 97);
                lineMorph<float>(op, img.cview(), want.view(), p, {Backend::Cpu});
                std::shared_ptr<cuda::ResidentImage> src, dst;
                {
                    auto lock = ctx.lock();
                    src = cuda::uploadResident<float>(img.cview(), ctx);
                    dst = cuda::lineMorphResident(op, *src, p, LineAlgorithm::Auto, ctx);
                }
                const Image<float> got = cuda::downloadResident<float>(*dst);
                if (auto d = test::firstDifference(want, got)) QFAIL((where(kind, op, 112, 17, 211, 97) + ": " + *d).c_str());
            }
    }

    // Sweeps of these kinds on the CUDA backend (an opening a angle on the device).
    void sweeps() {
        const Image<std::uint8_t> img = test::randomImage<std::uint8_t>(150, 110, 9, test::ImageKind::FewLevels);
        for (const LineKind kind : {LineKind::Segment, LineKind::Periodic}) {
            const SweepRequest req{MorphOp::Close, 9, AngleSet::overHalfTurn(36), kind};
            const SweepResult<std::uint8_t> want = sweep<std::uint8_t>(img.cview(), req, {Backend::Cpu});
            const SweepResult<std::uint8_t> got = sweep<std::uint8_t>(img.cview(), req, {Backend::Cuda});
            for (auto [a, b, name] : {std::tuple{&want.sup, &got.sup, "sup"}, std::tuple{&want.inf, &got.inf, "inf"}})
                if (auto d = test::firstDifference(*a, *b)) QFAIL((std::string(lineKindName(kind)) + " " + name + ": " + *d).c_str());
            if (auto d = test::firstDifference(want.argIndex, got.argIndex)) QFAIL(("arg: " + *d).c_str());
            QCOMPARE(got.spectrumExact, want.spectrumExact);
        }
    }
};

QTEST_MAIN(TestCudaLineKinds)
#include "test_cuda_line_kinds.moc"
