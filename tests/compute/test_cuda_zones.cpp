// Image zones (compute/cuda/zones.h) on the GPU: a device memory cap forces a moderate image
// (700×523) into many zones (at least 5, counted by zones::zonesRun), and every result must be
// bit for bit the single pass's (the same call without a cap) and the CPU's: line operators
// of every kind and GPU algorithm, sweeps (sup, inf, orientation, strength, exact spectrum)
// for uint8, uint16 and float32, at the axes, diagonals and irregular angles, λ = 1, 2, 40,
// 41 and a λ whose reach (100 rows) exceeds the rows a zone keeps; the resident path (the
// session's GPU mode) likewise; and the one-line refusal when the cap cannot hold even one
// zone. On a machine without a usable GPU every test skips and says why.
#include "compute/cuda/cuda_backend.h"
#include "compute/cuda/cuda_context.h"
#include "compute/cuda/resident.h"
#include "compute/cuda/zones.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"
#include "tests/support/cuda_checks.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

using namespace linescope;

namespace {

constexpr int kWidth = 700, kHeight = 523;
constexpr int kMinZones = 5;
const double kAngles[] = {0, 45, 90, 135, 17.3, 63.7, 101.1, 158.9, 26.56505117707799};
const int kLengths[] = {1, 2, 40, 41, 101};

using test::byType;
using test::cpu;
using test::Failures;
using test::gpu;
using test::num;

// The largest cap under which the planner cuts the image into at least `want` strips (the
// strip count falls as the cap grows), or 0 when none does (a reach beyond half the image).
std::size_t capForZones(int want, const std::function<std::size_t()>& stripsUnderCurrentCap) {
    std::size_t lo = 0, hi = std::size_t(1) << 36;  // lo: many strips (or a refusal), hi: too few
    auto strips = [&](std::size_t cap) {
        cuda::CudaContext::setDeviceMemoryCap(cap);
        try {
            return stripsUnderCurrentCap();
        } catch (const Error&) {
            return std::size_t(0);  // refused: below the smallest strip
        }
    };
    while (hi - lo > 1) {
        const std::size_t mid = lo + (hi - lo) / 2;
        const std::size_t n = strips(mid);
        if (n == 0) lo = mid;  // refusals lie below every cap that zones
        else if (n >= static_cast<std::size_t>(want)) lo = mid;
        else hi = mid;
    }
    const std::size_t n = strips(lo);
    cuda::CudaContext::setDeviceMemoryCap(0);
    return n >= static_cast<std::size_t>(want) ? lo : 0;
}

// Runs `work` under `cap` and checks that it ran in at least kMinZones zones.
template <class F>
auto underCap(std::size_t cap, const std::string& where, Failures& fails, F&& work) {
    const std::uint64_t before = cuda::zones::zonesRun();
    cuda::CudaContext::setDeviceMemoryCap(cap);
    struct Reset {
        ~Reset() { cuda::CudaContext::setDeviceMemoryCap(0); }
    } reset;
    auto result = work();
    const std::uint64_t zones = cuda::zones::zonesRun() - before;
    if (zones < static_cast<std::uint64_t>(kMinZones))
        fails.add(where + ": ran in " + std::to_string(zones) + " zones under a cap of " + std::to_string(cap) + " bytes");
    return result;
}

template <class T>
void lineCase(const Image<T>& img, MorphOp op, double angle, int length, LineAlgorithm alg, Failures& fails) {
    const LineParams p{angle, length};
    const std::string where = std::string(pixelTypeName(pixelTypeOf<T>())) + " " + morphOpName(op) + " " +
                              algorithmName(alg) + " angle " + num(angle) + " λ " + std::to_string(length);
    try {
        cuda::CudaContext& ctx = cuda::CudaContext::get();
        const std::size_t cap = capForZones(kMinZones, [&] {
            auto lock = ctx.lock();
            return cuda::zones::lineMorphStrips<T>(op, lineFamily(angle, img.width(), img.height()), segmentOf(length),
                                                    alg, cuda::zones::Input::Host, ctx)
                .size();
        });
        if (cap == 0) {
            fails.add(where + ": no cap makes " + std::to_string(kMinZones) + " zones");
            return;
        }
        const Image<T> want = lineMorph<T>(op, img.cview(), p, cpu());
        const Image<T> single = lineMorph<T>(op, img.cview(), p, gpu(alg));
        const Image<T> zoned = underCap(cap, where, fails, [&] { return lineMorph<T>(op, img.cview(), p, gpu(alg)); });
        if (auto d = test::bitDifference(want, single)) fails.add(where + ", single pass against the CPU: " + *d);
        if (auto d = test::bitDifference(single, zoned)) fails.add(where + ", zones against the single pass: " + *d);
    } catch (const std::exception& e) {
        fails.add(where + ": threw " + e.what());
    }
}

template <class T>
void sweepCase(const Image<T>& img, MorphOp op, int length, const AngleSet& angles, Failures& fails) {
    SweepRequest req;
    req.op = op;
    req.length = length;
    req.angles = angles;
    const std::string where = std::string(pixelTypeName(pixelTypeOf<T>())) + " " + morphOpName(op) + " sweep λ " +
                              std::to_string(length) + " angles " + num(angles.start) + "+k*" + num(angles.step) +
                              " x" + std::to_string(angles.count);
    try {
        cuda::CudaContext& ctx = cuda::CudaContext::get();
        const std::size_t cap = capForZones(kMinZones, [&] {
            auto lock = ctx.lock();
            return cuda::zones::sweepStrips<T>(img.width(), img.height(), req, cuda::zones::Input::Host, ctx).size();
        });
        if (cap == 0) {
            fails.add(where + ": no cap makes " + std::to_string(kMinZones) + " zones");
            return;
        }
        const SweepResult<T> want = sweep<T>(img.cview(), req, cpu());
        const SweepResult<T> single = sweep<T>(img.cview(), req, gpu());
        const SweepResult<T> zoned = underCap(cap, where, fails, [&] { return sweep<T>(img.cview(), req, gpu()); });
        if (auto d = test::sweepDifference(want, single)) fails.add(where + ", single pass against the CPU: " + *d);
        if (auto d = test::sweepDifference(want, zoned)) fails.add(where + ", zones against the CPU: " + *d);
        if (auto d = test::sweepDifference(single, zoned)) fails.add(where + ", zones against the single pass: " + *d);
        // A run repeats itself: the spectra of the zones are added in one order.
        const SweepResult<T> again = underCap(cap, where, fails, [&] { return sweep<T>(img.cview(), req, gpu()); });
        if (again.spectrum.size() != zoned.spectrum.size() ||
            std::memcmp(again.spectrum.data(), zoned.spectrum.data(), zoned.spectrum.size() * sizeof(double)) != 0)
            fails.add(where + ": two zoned runs give different spectra");
    } catch (const std::exception& e) {
        fails.add(where + ": threw " + e.what());
    }
}

void typeRows() {
    QTest::addColumn<int>("type");
    QTest::newRow("uint8") << 0;
    QTest::newRow("uint16") << 1;
    QTest::newRow("float32") << 2;
}

}  // namespace

class TestCudaZones : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        std::string why;
        if (!cuda::deviceUsable(&why)) QSKIP(("no usable CUDA device: " + why).c_str());
        qInfo("GPU: %s", cuda::deviceDescription().c_str());
    }
    void cleanup() { cuda::CudaContext::setDeviceMemoryCap(0); }

    void lineOperators_data() { typeRows(); }
    void lineOperators() {
        QFETCH(int, type);
        Failures fails;
        byType(type, [&](auto t) {
            using T = decltype(t);
            const Image<T> img = test::randomImage<T>(kWidth, kHeight, 31 + type, test::ImageKind::Blocky);
            for (MorphOp op : {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close, MorphOp::TopHat})
                for (double angle : kAngles)
                    for (int length : kLengths) lineCase<T>(img, op, angle, length, LineAlgorithm::Auto, fails);
        });
        QCOMPARE(fails.count(), 0);
    }

    // Karas et al.'s kernels take the zone's lines too (their own offsets and extents).
    void queueKernels_data() { typeRows(); }
    void queueKernels() {
        QFETCH(int, type);
        Failures fails;
        byType(type, [&](auto t) {
            using T = decltype(t);
            const Image<T> img = test::randomImage<T>(kWidth, kHeight, 41 + type, test::ImageKind::Noise);
            for (LineAlgorithm alg : {LineAlgorithm::Fifo, LineAlgorithm::Stack})
                for (MorphOp op : {MorphOp::Erode, MorphOp::Open, MorphOp::Close})
                    for (double angle : {0.0, 63.7, 135.0, 101.1})
                        for (int length : {2, 41, 101}) lineCase<T>(img, op, angle, length, alg, fails);
        });
        QCOMPARE(fails.count(), 0);
    }

    void sweeps_data() { typeRows(); }
    void sweeps() {
        QFETCH(int, type);
        Failures fails;
        byType(type, [&](auto t) {
            using T = decltype(t);
            const Image<T> img = test::randomImage<T>(kWidth, kHeight, 51 + type, test::ImageKind::FewLevels);
            for (MorphOp op : {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close})
                for (int length : kLengths) {
                    sweepCase<T>(img, op, length, AngleSet{0, 7.5, 24}, fails);  // 0, 45, 90, 135 among them
                    sweepCase<T>(img, op, length, AngleSet{3.3, 11.9, 15}, fails);
                }
        });
        QCOMPARE(fails.count(), 0);
    }

    // The session's GPU mode: resident results and chunked resident sweeps in zones.
    void residentPath() {
        cuda::CudaContext& ctx = cuda::CudaContext::get();
        Failures fails;
        const Image<std::uint16_t> img = test::randomImage<std::uint16_t>(kWidth, kHeight, 61, test::ImageKind::Blocky);
        auto lock = ctx.lock();
        const auto src = cuda::uploadResident<std::uint16_t>(img.cview(), ctx);
        // Resident images count against the cap: the caps below leave room for those that the
        // calls allocate beside the source (the planner saw only the source).
        const std::size_t plane = src->bytes();
        for (double angle : {0.0, 63.7, 135.0}) {
            const LineParams p{angle, 41};
            const std::string where = "resident open angle " + num(angle);
            const std::size_t cap = capForZones(kMinZones, [&] {
                return cuda::zones::lineMorphStrips<std::uint16_t>(MorphOp::Open, lineFamily(angle, kWidth, kHeight),
                                                                   segmentOf(41), LineAlgorithm::Auto,
                                                                   cuda::zones::Input::Device, ctx)
                    .size();
            });
            const Image<std::uint16_t> want = lineMorph<std::uint16_t>(MorphOp::Open, img.cview(), p, cpu());
            const auto zoned = underCap(cap + plane, where, fails, [&] {  // + the result
                return cuda::lineMorphResident(MorphOp::Open, *src, p, LineAlgorithm::Auto, ctx);
            });
            if (auto d = test::bitDifference(want, cuda::downloadResident<std::uint16_t>(*zoned)))
                fails.add(where + ": " + *d);
        }
        SweepRequest req;
        req.op = MorphOp::Close;
        req.length = 40;
        req.angles = AngleSet{0, 7.5, 24};
        SweepRequest chunk = req;
        chunk.angles.count = 7;
        const std::size_t cap = capForZones(kMinZones, [&] {
            return cuda::zones::sweepStrips<std::uint16_t>(kWidth, kHeight, chunk, cuda::zones::Input::Device, ctx).size();
        });
        const SweepResult<std::uint16_t> want = sweep<std::uint16_t>(img.cview(), req, cpu());
        const cuda::ResidentSweep zoned = underCap(cap + 4 * plane, "resident close sweep", fails, [&] {  // + 4 planes
            return cuda::sweepResident(*src, req, 7, {}, ctx);
        });
        const SweepResult<std::uint16_t> got = cuda::downloadSweep<std::uint16_t>(zoned);
        if (auto d = test::sweepDifference(want, got)) fails.add("resident close sweep: " + *d);
        QCOMPARE(fails.count(), 0);
    }

    // A cap too small for one zone of 2R + 1 rows: one sentence naming the need and the cap.
    void refusesACapBelowOneZone() {
        const Image<std::uint8_t> img = test::randomImage<std::uint8_t>(kWidth, kHeight, 71);
        cuda::CudaContext::setDeviceMemoryCap(64 * 1024);
        try {
            lineMorph<std::uint8_t>(MorphOp::Open, img.cview(), {30, 41}, gpu());
            QFAIL("a 64 KiB cap was accepted");
        } catch (const Error& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("this line operator, even in zones of 81 rows, needs ") == 0, m.c_str());
            QVERIFY2(m.find("the device memory cap is 0.1 MiB") != std::string::npos, m.c_str());
            QVERIFY2(m.find("--device-memory-cap") != std::string::npos, m.c_str());
            QVERIFY2(m.find('\n') == std::string::npos, m.c_str());
        }
        SweepRequest req;
        req.op = MorphOp::Open;
        req.length = 301;  // the smallest zone is the whole image: no zones to offer
        req.angles = AngleSet{0, 30, 6};
        try {
            sweep<std::uint8_t>(img.cview(), req, gpu());
            QFAIL("a 64 KiB cap was accepted for a sweep");
        } catch (const Error& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("this sweep needs ") == 0, m.c_str());
            QVERIFY2(m.find("the device memory cap is 0.1 MiB") != std::string::npos, m.c_str());
        }
        cuda::CudaContext::setDeviceMemoryCap(0);
        QVERIFY(!lineMorph<std::uint8_t>(MorphOp::Open, img.cview(), {30, 41}, gpu()).pixels().empty());
    }
};

QTEST_APPLESS_MAIN(TestCudaZones)
#include "test_cuda_zones.moc"
