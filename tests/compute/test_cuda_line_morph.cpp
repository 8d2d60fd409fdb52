// The CUDA backend against the CPU engine, bit for bit (memcmp, so −0 and +0 differ): every
// operator, pixel type and GPU algorithm (the band kernel, Karas et al.'s FIFO and stack
// kernels) on random images, angles, segment lengths (beyond the image too) and sizes from
// 1×1 to 8K; sweeps (sup, inf, orientation, strength, spectra); strided host images. On a
// machine without a usable GPU every test skips and says why.
#include "compute/backend.h"
#include "compute/cuda/cuda_backend.h"
#include "compute/cuda/cuda_check.h"
#include "compute/cuda/cuda_context.h"
#include "compute/cuda/float_ranks.h"
#include "compute/line_morph.h"
#include "compute/pixel_rules.h"
#include "compute/reference/reference_line_morph.h"
#include "compute/sweep.h"
#include "compute/sweep_spectrum.h"
#include "tests/support/cuda_checks.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace linescope;

namespace {

const MorphOp kOps[] = {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close, MorphOp::TopHat};
const MorphOp kSweepOps[] = {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close};
const LineAlgorithm kGpuAlgorithms[] = {LineAlgorithm::Auto, LineAlgorithm::Fifo, LineAlgorithm::Stack};

using test::bitDifference;
using test::byType;
using test::cpu;
using test::Failures;
using test::gpu;
using test::num;

template <class T>
void checkOne(const Image<T>& img, MorphOp op, double angle, int length, LineAlgorithm alg, const char* kind,
              Failures& fails) {
    const LineParams p{angle, length};
    const std::string where = std::string(pixelTypeName(pixelTypeOf<T>())) + " " + morphOpName(op) + " " +
                              algorithmName(alg) + " angle " + num(angle) + " λ " + std::to_string(length) + " " +
                              std::to_string(img.width()) + "x" + std::to_string(img.height()) + " " + kind;
    try {
        const Image<T> want = lineMorph<T>(op, img.cview(), p, cpu());
        const Image<T> got = lineMorph<T>(op, img.cview(), p, gpu(alg));
        if (auto d = bitDifference(want, got)) fails.add(where + ": " + *d);
    } catch (const std::exception& e) {
        fails.add(where + ": threw " + e.what());
    }
}

template <class T>
void randomCases(int cases, std::uint64_t seed, Failures& fails) {
    std::mt19937_64 rng(seed);
    const int sizes[][2] = {{1, 1},   {1, 9},   {9, 1},   {2, 2},    {5, 3},    {33, 17},  {64, 64},
                            {97, 211}, {203, 151}, {640, 480}, {1000, 37}, {37, 1000}, {1023, 769}};
    const int lengths[] = {1, 2, 3, 4, 5, 10, 11, 40, 41, 100, 101, 251, 500, 501, 2000, INT_MAX};
    const auto angles = test::interestingAngles(24, seed);
    const auto kinds = test::allImageKinds();
    for (int i = 0; i < cases; ++i) {
        const auto& sz = sizes[rng() % std::size(sizes)];
        const auto kind = kinds[rng() % kinds.size()];
        const Image<T> img = test::randomImage<T>(sz[0], sz[1], rng(), kind);
        const MorphOp op = kOps[rng() % std::size(kOps)];
        const LineAlgorithm alg = kGpuAlgorithms[rng() % std::size(kGpuAlgorithms)];
        const double angle = rng() % 3 == 0 ? angles[rng() % angles.size()]
                                            : std::uniform_real_distribution<double>(-180, 360)(rng);
        const int length = rng() % 2 ? lengths[rng() % std::size(lengths)]
                                     : 1 + static_cast<int>(rng() % static_cast<unsigned>(std::max(sz[0], sz[1]) + 8));
        checkOne(img, op, angle, length, alg, test::imageKindName(kind), fails);
    }
}

// Sets (or, when empty, removes) an environment variable for one scope.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const QByteArray& value) : name_(name), had_(qEnvironmentVariableIsSet(name)) {
        if (had_) old_ = qgetenv(name);
        if (value.isEmpty()) qunsetenv(name);
        else qputenv(name, value);
    }
    ~ScopedEnv() {
        if (had_) qputenv(name_, old_);
        else qunsetenv(name_);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* name_;
    bool had_;
    QByteArray old_;
};

template <class T>
void compareSweeps(const SweepResult<T>& want, const SweepResult<T>& got, const std::string& where, Failures& fails) {
    if (auto d = test::sweepDifference(want, got)) fails.add(where + ": " + *d);
}

template <class T>
void sweepCase(int w, int h, std::uint64_t seed, MorphOp op, int length, const AngleSet& angles, Failures& fails,
               test::ImageKind kind = test::ImageKind::Noise) {
    const Image<T> img = test::randomImage<T>(w, h, seed, kind);
    SweepRequest req;
    req.op = op;
    req.length = length;
    req.angles = angles;
    const std::string where = std::string(pixelTypeName(pixelTypeOf<T>())) + " " + morphOpName(op) + " sweep λ " +
                              std::to_string(length) + " " + std::to_string(w) + "x" + std::to_string(h) + " angles " +
                              num(angles.start) + "+k*" + num(angles.step) + " x" + std::to_string(angles.count) +
                              " " + test::imageKindName(kind);
    try {
        const SweepResult<T> want = sweep<T>(img.cview(), req, cpu());
        const SweepResult<T> got = sweep<T>(img.cview(), req, gpu());
        compareSweeps(want, got, where, fails);
        // The spectrum alone (the skew estimate's stages): the GPU sweep's very bits (float
        // spectra are summed in a fixed order, but not the CPU's), its images left on the device.
        const SweepSpectrum alone = sweepSpectrum<T>(img.cview(), req, gpu());
        const bool sameValues = alone.spectrum.size() == got.spectrum.size() &&
                                std::memcmp(alone.spectrum.data(), got.spectrum.data(),
                                            got.spectrum.size() * sizeof(double)) == 0;
        if (!sameValues || alone.spectrumExact != got.spectrumExact)
            fails.add(where + ": sweepSpectrum differs from the sweep's spectrum");
    } catch (const std::exception& e) {
        fails.add(where + ": threw " + e.what());
    }
}

// A 256×257 float image holding `distinct` different values (all of them when ≤ 65,792),
// the rest repeats, shuffled: −∞, +∞, a denormal, +0, and −0 beside +0 (one value to the
// engine).
Image<float> imageWithDistinctValues(int distinct, std::uint64_t seed) {
    Image<float> img(256, 257);
    std::vector<float> values(static_cast<std::size_t>(distinct));
    for (int i = 0; i < distinct; ++i) values[static_cast<std::size_t>(i)] = static_cast<float>(i - 30000) * 0.5f;
    values.front() = -std::numeric_limits<float>::infinity();
    values.back() = std::numeric_limits<float>::infinity();
    values[1] = -std::numeric_limits<float>::denorm_min();
    std::mt19937_64 rng(seed);
    std::vector<float> px(static_cast<std::size_t>(img.width()) * img.height());
    for (std::size_t i = 0; i < px.size(); ++i) px[i] = i < values.size() ? values[i] : values[rng() % values.size()];
    px[values.size()] = -0.0f;  // +0 is values[30000]
    std::shuffle(px.begin(), px.end(), rng);
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) img.at(x, y) = px[static_cast<std::size_t>(y) * img.width() + x];
    return img;
}

}  // namespace

class TestCudaLineMorph : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        std::string why;
        if (!cuda::deviceUsable(&why)) QSKIP(("no usable CUDA device: " + why).c_str());
        qInfo("GPU: %s", cuda::deviceDescription().c_str());
    }

    void backendResolves() {
        std::string notice;
        QCOMPARE(resolveBackend(Backend::Auto, &notice), Backend::Cuda);
        QVERIFY(notice.empty());
        QVERIFY(backendAvailable(Backend::Cuda));
    }

    // The band kernel against the literal definition on small images (independent of the CPU).
    void againstReference() {
        Failures fails;
        std::mt19937_64 rng(7);
        for (int i = 0; i < test::scaled(300); ++i) {
            const int w = 1 + static_cast<int>(rng() % 40), h = 1 + static_cast<int>(rng() % 40);
            const double angle = std::uniform_real_distribution<double>(0, 180)(rng);
            const int length = 1 + static_cast<int>(rng() % 50);
            const MorphOp op = kOps[rng() % std::size(kOps)];
            const Image<std::uint8_t> img = test::randomImage<std::uint8_t>(w, h, rng(), test::ImageKind::FewLevels);
            const Image<std::uint8_t> want = reference::referenceLineMorph<std::uint8_t>(op, img.cview(), angle, length);
            const Image<std::uint8_t> got = lineMorph<std::uint8_t>(op, img.cview(), {angle, length}, gpu());
            if (auto d = bitDifference(want, got))
                fails.add(std::string(morphOpName(op)) + " angle " + num(angle) + " λ " + std::to_string(length) + ": " + *d);
        }
        QCOMPARE(fails.count(), 0);
    }

    void randomImages_data() {
        QTest::addColumn<int>("type");
        QTest::newRow("uint8") << 0;
        QTest::newRow("uint16") << 1;
        QTest::newRow("float32") << 2;
    }
    void randomImages() {
        QFETCH(int, type);
        Failures fails;
        byType(type, [&](auto t) { randomCases<decltype(t)>(test::scaled(700), 100 + type, fails); });
        QCOMPARE(fails.count(), 0);
    }

    // Every whole degree and the exact diagonals, on a non-square image, for each algorithm.
    void everyDegree() {
        Failures fails;
        const Image<std::uint8_t> img = test::randomImage<std::uint8_t>(301, 157, 5, test::ImageKind::Blocky);
        for (int d = 0; d < 180; ++d)
            for (LineAlgorithm alg : kGpuAlgorithms)
                checkOne(img, d % 2 ? MorphOp::Open : MorphOp::Close, d, 3 + d % 60, alg, "blocky", fails);
        QCOMPARE(fails.count(), 0);
    }

    // Large images: the band kernel's zones (lines longer than shared memory holds), the
    // device-memory arrays (λ in the thousands), and 8K frames.
    void largeImages() {
        Failures fails;
        const Image<std::uint8_t> big = test::randomImage<std::uint8_t>(4096, 4096, 11, test::ImageKind::Noise);
        for (double angle : {0.0, 30.0, 45.0, 90.0, 135.0, 170.0})
            for (int length : {11, 501, 3001})
                checkOne(big, MorphOp::Open, angle, length, LineAlgorithm::Auto, "noise 4096²", fails);
        const Image<float> wide = test::randomImage<float>(7680, 4320, 12, test::ImageKind::Noise);
        for (double angle : {0.0, 12.5, 60.0, 91.0})
            checkOne(wide, MorphOp::Close, angle, 251, LineAlgorithm::Auto, "float 8K", fails);
        checkOne(wide, MorphOp::TopHat, 44.0, 7001, LineAlgorithm::Auto, "float 8K", fails);
        const Image<std::uint16_t> tall = test::randomImage<std::uint16_t>(300, 9000, 13, test::ImageKind::Blocky);
        for (double angle : {0.0, 45.0, 89.0, 100.0})
            for (LineAlgorithm alg : kGpuAlgorithms)
                checkOne(tall, MorphOp::Open, angle, 1201, alg, "uint16 300x9000", fails);
        QCOMPARE(fails.count(), 0);
    }

    // Host images with a stride: read through the stride, padding never written.
    void stridedImages() {
        const Image<float> img = test::randomImage<float>(123, 77, 3, test::ImageKind::Noise);
        auto src = test::PaddedImage<float>::copyOf(img, 5, -7.0f);
        test::PaddedImage<float> dst(123, 77, 9, 42.0f);
        lineMorph<float>(MorphOp::Open, src.cview(), dst.view(), {33.0, 17}, gpu());
        const Image<float> want = lineMorph<float>(MorphOp::Open, img.cview(), {33.0, 17}, cpu());
        Image<float> got(123, 77);
        for (int y = 0; y < 77; ++y)
            for (int x = 0; x < 123; ++x) got.at(x, y) = dst.cview().at(x, y);
        const auto d = bitDifference(want, got);
        QVERIFY2(!d, d ? d->c_str() : "");
        QVERIFY(dst.paddingIntact());
    }

    // Each sweep kernel on every case: the tile sweep where it applies (the default), the band
    // kernel everywhere, and the tile sweep forced onto small squares with wide margins.
    void sweeps_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<QByteArray>("kernel");
        QTest::addColumn<QByteArray>("side");
        const char* types[] = {"uint8", "uint16", "float32"};
        for (int type = 0; type < 3; ++type) {
            QTest::addRow("%s default", types[type]) << type << QByteArray() << QByteArray();
            QTest::addRow("%s band", types[type]) << type << QByteArray("band") << QByteArray();
            QTest::addRow("%s tile 32", types[type]) << type << QByteArray() << QByteArray("32");
        }
    }
    void sweeps() {
        QFETCH(int, type);
        QFETCH(QByteArray, kernel);
        QFETCH(QByteArray, side);
        const ScopedEnv kernelChoice("LINESCOPE_SWEEP_KERNEL", kernel);
        const ScopedEnv sideChoice("LINESCOPE_TILE_SIDE", side);
        Failures fails;
        byType(type, [&](auto t) {
            using T = decltype(t);
            std::mt19937_64 rng(900 + type);
            for (MorphOp op : kSweepOps) {
                // Reduced runs (compute-sanitizer) shrink the images, not the angle sets: more than
                // 256 angles still take several tile-sweep launches.
                const bool small = test::testScale() < 0.5;
                sweepCase<T>(small ? 40 : 96, small ? 30 : 64, rng(), op, 11, AngleSet{0, 1, 180}, fails,
                             test::ImageKind::FewLevels);
                sweepCase<T>(1, 1, rng(), op, 5, AngleSet{0, 30, 6}, fails);
                sweepCase<T>(37, 5, rng(), op, 100, AngleSet{-10, 0.25, 81}, fails, test::ImageKind::Blocky);
                sweepCase<T>(5, 53, rng(), op, 2, AngleSet{44, 0.5, 5}, fails, test::ImageKind::Specials);
                sweepCase<T>(small ? 45 : 200, small ? 33 : 150, rng(), op, 41, AngleSet{0, 0.25, 720}, fails,
                             test::ImageKind::FewLevels);
                sweepCase<T>(77, 130, rng(), op, 9, AngleSet{50, 2, 40}, fails);  // y-major angles only
            }
            if (test::testScale() < 0.5) return;  // reduced runs (compute-sanitizer) keep the small cases
            sweepCase<T>(640, 640, rng(), MorphOp::Open, 41, AngleSet{0, 1, 180}, fails);
            sweepCase<T>(1000, 1411, rng(), MorphOp::Close, 250, AngleSet{-10, 0.25, 81}, fails, test::ImageKind::Blocky);
            sweepCase<T>(900, 300, rng(), MorphOp::Open, 3000, AngleSet{0, 7, 26}, fails);
        });
        QCOMPARE(fails.count(), 0);
    }

    // Float images of at most 65,536 distinct values run as 16-bit ranks (float_ranks.h): the
    // ranks and their table give back every pixel (−0 as +0), one value more is refused, and
    // the sweeps at the limit and past it (the float kernels) equal the CPU's.
    void floatRanks() {
        for (const int distinct : {65536, 65537}) {
            const Image<float> img = imageWithDistinctValues(distinct, 5 + distinct);
            const int W = img.width(), H = img.height();
            {
                cuda::CudaContext& ctx = cuda::CudaContext::get();
                const auto lock = ctx.lock();
                const cuda::DeviceImageView<float> src = ctx.image<float>(cuda::BufferSlot::Source, W, H);
                LS_CUDA_CHECK(cudaMemcpy2D(src.data, src.pitch, img.pixels().data(), W * sizeof(float),
                                           W * sizeof(float), H, cudaMemcpyHostToDevice));
                cuda::FloatRanks ranks;
                const bool ranked = cuda::rankFloats(src, ctx, ranks);
                ctx.synchronize();  // the copies below run on the legacy stream, not the engine's
                QCOMPARE(ranked, distinct <= cuda::kMaxFloatRanks);
                if (ranked) {
                    QCOMPARE(ranks.distinct, distinct);  // −0 is +0
                    std::vector<std::uint16_t> r(static_cast<std::size_t>(W) * H);
                    std::vector<float> table(static_cast<std::size_t>(ranks.distinct));
                    LS_CUDA_CHECK(cudaMemcpy2D(r.data(), W * sizeof(std::uint16_t), ranks.ranks.data,
                                               ranks.ranks.pitch, W * sizeof(std::uint16_t), H,
                                               cudaMemcpyDeviceToHost));
                    LS_CUDA_CHECK(cudaMemcpy(table.data(), ranks.values, table.size() * sizeof(float),
                                             cudaMemcpyDeviceToHost));
                    for (std::size_t i = 1; i < table.size(); ++i) QVERIFY(table[i - 1] < table[i]);
                    for (std::size_t i = 0; i < r.size(); ++i) {
                        const float want = canonical(img.pixels()[i]);
                        QCOMPARE(std::bit_cast<std::uint32_t>(table[r[i]]), std::bit_cast<std::uint32_t>(want));
                    }
                }
            }
            Failures fails;
            std::mt19937_64 rng(31);
            for (MorphOp op : kSweepOps) {
                SweepRequest req;
                req.op = op;
                req.length = 1 + static_cast<int>(rng() % 41);
                req.angles = AngleSet{-5, 2.5, 75};
                const std::string where = std::to_string(distinct) + " distinct values, " + morphOpName(op) +
                                          " sweep λ " + std::to_string(req.length);
                try {
                    compareSweeps(sweep<float>(img.cview(), req, cpu()), sweep<float>(img.cview(), req, gpu()), where,
                                  fails);
                } catch (const std::exception& e) {
                    fails.add(where + ": threw " + e.what());
                }
            }
            QCOMPARE(fails.count(), 0);
        }
    }

    // Work larger than the device is refused with a sentence that says how much was needed.
    void refusesWorkLargerThanTheDevice() {
        try {
            cuda::CudaContext::get().requireDeviceMemory(std::size_t(1) << 50, "this test");
            QFAIL("a petabyte request was accepted");
        } catch (const Error& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("this test needs 1073741824 MiB of GPU memory") != std::string::npos, m.c_str());
            QVERIFY2(m.find("--backend cpu") != std::string::npos, m.c_str());
        }
    }

    // The GPU never returns silent garbage: bad input is refused as on the CPU.
    void errors() {
        Image<float> nan(8, 8, 1.0f);
        nan.at(3, 4) = std::numeric_limits<float>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(Error, lineMorph<float>(MorphOp::Open, nan.cview(), {0, 3}, gpu()));
        Image<std::uint8_t> img(8, 8, 1);
        QVERIFY_THROWS_EXCEPTION(Error, lineMorph<std::uint8_t>(MorphOp::Open, img.cview(), {0, 0}, gpu()));
        SweepRequest req;
        req.op = MorphOp::TopHat;
        QVERIFY_THROWS_EXCEPTION(Error, sweep<std::uint8_t>(img.cview(), req, gpu()));
    }
};

QTEST_APPLESS_MAIN(TestCudaLineMorph)
#include "test_cuda_line_morph.moc"
