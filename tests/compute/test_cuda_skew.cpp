// The skew estimate on the GPU (compute/cuda/skew_device.h): integer pages stay in device
// memory from their upload to the last spectrum, and the estimate is the CPU's bit for bit —
// every field, on pages of words, dark lines and bright, at several reductions, with
// and without the fine stage. The page crosses to the device once (the engine's host traffic
// says so); a device memory cap too small for the stages sends them through the host path,
// with the same estimate. The spectrum-only sweep (sweepSpectrumDevice, which the stages use:
// the tile sweep, the warp kernel of long lines for integer pixels, or the band kernel's sums)
// equals the full sweep's spectrum and the CPU's. On a machine without a GPU every test skips
// and says why.
#include "compute/backend.h"
#include "compute/cuda/cuda_context.h"
#include "compute/cuda/cuda_line_api.h"
#include "compute/cuda/resident.h"
#include "compute/skew.h"
#include "compute/sweep.h"
#include "tests/support/cuda_checks.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numbers>
#include <random>
#include <string>
#include <vector>

using namespace linescope;

namespace {

using test::cpu;
using test::gpu;

// A page of `rows` lines of words (dark bars 20–80 pixels long with gaps) turned by angleDeg,
// on light paper with a little noise; `bright` inverts it (light lines on dark).
template <class T>
Image<T> wordPage(int w, int h, double angleDeg, std::uint64_t seed, bool bright, double scale) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> noise(-6, 6);
    const double t = std::tan(angleDeg * std::numbers::pi / 180);
    const double period = std::max(12.0, h / 40.0), thick = std::max(3.0, period / 4);
    Image<T> img(w, h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const double v = y + (x - w / 2.0) * t;
            const long row = static_cast<long>(std::floor(v / period));
            const double within = v - static_cast<double>(row) * period;
            const long word = (x + row * 37) / 90, inWord = (x + row * 37) % 90;
            const bool ink = x > w / 12 && x < w - w / 12 && row > 2 && row < static_cast<long>(h / period) - 2 &&
                             within < thick && inWord < 20 + (word * 7919 + row * 104729) % 60;
            int level = (ink ? 40 : 225) + noise(rng);
            if (bright) level = 255 - level;
            img.at(x, y) = static_cast<T>(std::lround(level * scale));
        }
    return img;
}

// A page's side: half of it in reduced runs (LINESCOPE_TEST_SCALE < 1, the sanitizers' runs,
// where a full A4 page at 150 dpi takes racecheck minutes), still far above the smallest page.
int pageSide(int side) { return test::testScale() < 1 ? side / 2 : side; }

// Every field of two estimates, compared exactly; the differences as one line.
std::string differences(const SkewEstimate& g, const SkewEstimate& c) {
    std::string d;
    auto field = [&](const char* name, double a, double b) {
        if (!(a == b) && !(std::isnan(a) && std::isnan(b)))
            d += std::string(" ") + name + " " + test::num(a) + " vs " + test::num(b);
    };
    field("angle", g.angle, c.angle);
    field("confidence", g.confidence, c.confidence);
    field("separation", g.separation, c.separation);
    field("prominence", g.prominence, c.prominence);
    field("atRangeEdge", g.atRangeEdge, c.atRangeEdge);
    field("peakIndex", g.peakIndex, c.peakIndex);
    field("reduction", g.reduction, c.reduction);
    field("coarseLength", g.coarseLength, c.coarseLength);
    field("length", g.length, c.length);
    field("coarseAngle", g.coarseAngle, c.coarseAngle);
    field("fine.angle", g.fine.angle, c.fine.angle);
    field("fine.confidence", g.fine.confidence, c.fine.confidence);
    field("fine.separation", g.fine.separation, c.fine.separation);
    field("fine.peakIndex", g.fine.peakIndex, c.fine.peakIndex);
    if (g.spectrum != c.spectrum) d += " coarse spectra differ";
    return d;
}

}  // namespace

class TestCudaSkew : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        std::string why;
        if (!backendAvailable(Backend::Cuda, &why)) QSKIP(("no CUDA device: " + why).c_str());
    }

    // sweepSpectrumDevice against the full sweep on the device and the CPU's sweep: random
    // images of every type, random angle sets and lengths short enough for the tile sweep and
    // long enough for the band kernel (and the band kernel for all, forced), every operator.
    void spectrumAloneIsTheSweeps_data() {
        QTest::addColumn<int>("type");
        QTest::newRow("uint8") << 0;
        QTest::newRow("uint16") << 1;
        QTest::newRow("float32") << 2;
    }
    void spectrumAloneIsTheSweeps() {
        QFETCH(int, type);
        test::byType(type, [&](auto tag) {
            using T = decltype(tag);
            std::mt19937 rng(4242 + type);
            const MorphOp ops[] = {MorphOp::Open, MorphOp::Close, MorphOp::Erode, MorphOp::Dilate};
            test::Failures failures;
            const int cases = test::scaled(24);
            auto check = [&](const Image<T>& img, const SweepRequest& req, bool band) {
                const int count = req.angles.count, w = img.width(), h = img.height();
                if (band) setenv("LINESCOPE_SWEEP_KERNEL", "band", 1);
                const SweepResult<T> c = sweep<T>(img.cview(), req, cpu());
                cuda::CudaContext& ctx = cuda::CudaContext::get();
                std::vector<double> full(count), alone(count);
                std::vector<std::int64_t> fullExact(count), aloneExact(count);
                {
                    auto lock = ctx.lock();
                    const auto src = cuda::uploadResident<T>(img.cview(), ctx);
                    const cuda::DeviceSweepResult<T> f = cuda::sweepDevice<T>(src->template view<T>(), req, ctx);
                    cudaMemcpyAsync(full.data(), f.spectrum, count * sizeof(double), cudaMemcpyDeviceToHost, ctx.stream());
                    if (f.spectrumExact)
                        cudaMemcpyAsync(fullExact.data(), f.spectrumExact, count * sizeof(std::int64_t),
                                        cudaMemcpyDeviceToHost, ctx.stream());
                    ctx.synchronize();
                    const cuda::DeviceSpectrum a = cuda::sweepSpectrumDevice<T>(src->template view<T>(), req, ctx);
                    cudaMemcpyAsync(alone.data(), a.values, count * sizeof(double), cudaMemcpyDeviceToHost, ctx.stream());
                    if (a.exact)
                        cudaMemcpyAsync(aloneExact.data(), a.exact, count * sizeof(std::int64_t),
                                        cudaMemcpyDeviceToHost, ctx.stream());
                    ctx.synchronize();
                    QCOMPARE(cudaGetLastError(), cudaSuccess);
                }
                if (band) unsetenv("LINESCOPE_SWEEP_KERNEL");
                const std::string what = std::string(morphOpName(req.op)) + " " + std::to_string(w) + "×" +
                                         std::to_string(h) + " λ " + std::to_string(req.length) + ", " +
                                         std::to_string(count) + " angles from " + test::num(req.angles.start) +
                                         (band ? " (band)" : "");
                if (std::memcmp(full.data(), alone.data(), count * sizeof(double)) != 0)
                    failures.add(what + ": the spectrum alone differs from the sweep's");
                if constexpr (!std::is_floating_point_v<T>) {
                    if (aloneExact != fullExact) failures.add(what + ": the exact spectrum alone differs from the sweep's");
                    if (aloneExact != c.spectrumExact) failures.add(what + ": the exact spectrum differs from the CPU's");
                }
            };
            for (int i = 0; i < cases; ++i) {
                const int w = 40 + static_cast<int>(rng() % 300), h = 40 + static_cast<int>(rng() % 300);
                const Image<T> img = test::randomImage<T>(w, h, rng(), i % 2 ? test::ImageKind::Blocky
                                                                            : test::ImageKind::Noise);
                SweepRequest req;
                req.op = ops[i % 4];
                req.length = i % 3 == 0 ? 1 + static_cast<int>(rng() % 21) : 30 + static_cast<int>(rng() % 400);
                const int count = 1 + static_cast<int>(rng() % 60);
                req.angles = AngleSet{std::uniform_real_distribution<double>(-90, 90)(rng),
                                      std::uniform_real_distribution<double>(0.05, 6)(rng), count};
                check(img, req, i % 4 == 3);
            }
            // Lines as long as a warp holds (4096 positions) and one longer (the band kernel's),
            // both layouts, windows longer than the line.
            const struct {
                int w, h;
                double start;
                int length;
            } edges[] = {{4096, 23, -2, 300}, {4097, 19, -1, 700}, {21, 4096, 88, 5000}, {300, 260, 10, 4000}};
            for (const auto& e : edges)
                for (MorphOp op : {MorphOp::Close, MorphOp::Erode}) {
                    SweepRequest req;
                    req.op = op;
                    req.length = e.length;
                    req.angles = AngleSet{e.start, 0.5, 9};
                    check(test::randomImage<T>(e.w, e.h, rng(), test::ImageKind::Blocky), req, false);
                }
            QCOMPARE(failures.count(), 0);
        });
    }

    // The whole estimate: the GPU's equals the CPU's in every field, on pages of words, dark
    // lines and bright, uint8 and uint16, at reductions 1 to 3, with and without
    // the fine stage; the page goes to the device once and only spectra come back.
    void pagesOnTheDeviceAsOnTheHost_data() {
        QTest::addColumn<int>("type");
        QTest::newRow("uint8") << 0;
        QTest::newRow("uint16") << 1;
    }
    void pagesOnTheDeviceAsOnTheHost() {
        QFETCH(int, type);
        test::byType(type, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (!std::is_floating_point_v<T>) {
                const double scale = sizeof(T) == 1 ? 1.0 : 250.0;
                struct Case {
                    int w, h;
                    double angle;
                    bool bright;
                    int reduction;
                    double refine;
                };
                std::vector<Case> cases = {{1240, 1754, 1.3, false, 0, 1.0},  {1240, 1754, -0.04, false, 0, 1.0},
                                           {2480, 1754, 4.5, false, 0, 1.0},  {900, 700, -7.2, true, 0, 1.0},
                                           {1301, 999, 0.6, false, 3, 1.0},   {1000, 1411, -2.0, false, 1, 0.0},
                                           {777, 1033, 9.0, true, 2, 0.5}};
                cases.resize(static_cast<std::size_t>(std::min<int>(static_cast<int>(cases.size()), test::scaled(7))));
                for (std::size_t i = 0; i < cases.size(); ++i) {
                    const Case& k = cases[i];
                    const Image<T> pg = wordPage<T>(pageSide(k.w), pageSide(k.h), k.angle, 100 + i, k.bright, scale);
                    SkewParams p;
                    p.darkLines = !k.bright;
                    p.reduction = k.reduction;
                    p.refineRange = k.refine;
                    const SkewEstimate c = estimateSkew<T>(pg.cview(), p, cpu());
                    const std::uint64_t before = cuda::CudaContext::hostTraffic();
                    const SkewEstimate g = estimateSkew<T>(pg.cview(), p, gpu());
                    const std::uint64_t traffic = cuda::CudaContext::hostTraffic() - before;
                    const std::string what = std::to_string(pg.width()) + "×" + std::to_string(pg.height()) + " at " +
                                             test::num(k.angle) + "°" + (k.bright ? " bright" : "") + " reduction " +
                                             std::to_string(k.reduction) + " refine " + test::num(k.refine);
                    const std::string d = differences(g, c);
                    if (!d.empty()) QFAIL((what + ":" + d).c_str());
                    // The page once, then one number an angle of each spectrum.
                    const std::uint64_t pageBytes = static_cast<std::uint64_t>(pg.width()) * pg.height() * sizeof(T);
                    if (traffic > pageBytes + 64 * 1024)
                        QFAIL((what + ": " + std::to_string(traffic) + " bytes crossed for a page of " +
                               std::to_string(pageBytes))
                                  .c_str());
                }
            }
        });
    }

    // A cap too small for the stages at once: the host path runs them (in zones where needed)
    // and gives the same estimate.
    void aCapSendsTheStagesThroughTheHost() {
        const Image<std::uint8_t> pg = wordPage<std::uint8_t>(pageSide(1240), pageSide(1754), 2.2, 7, false, 1.0);
        const SkewParams p;
        const SkewEstimate c = estimateSkew<std::uint8_t>(pg.cview(), p, cpu());
        cuda::CudaContext::setDeviceMemoryCap(24u << 20);
        const std::uint64_t before = cuda::CudaContext::hostTraffic();
        SkewEstimate g;
        try {
            g = estimateSkew<std::uint8_t>(pg.cview(), p, gpu());
        } catch (...) {
            cuda::CudaContext::setDeviceMemoryCap(0);
            throw;
        }
        const std::uint64_t traffic = cuda::CudaContext::hostTraffic() - before;
        cuda::CudaContext::setDeviceMemoryCap(0);
        const std::string d = differences(g, c);
        if (!d.empty()) QFAIL(("under a 24 MiB cap:" + d).c_str());
        // The host path brings each stage's image back: more than the page's bytes crossed.
        QVERIFY2(traffic > static_cast<std::uint64_t>(pg.width()) * pg.height(),
                 ("only " + std::to_string(traffic) + " bytes crossed: the stages stayed on the device").c_str());
    }
};

QTEST_GUILESS_MAIN(TestCudaSkew)
#include "test_cuda_skew.moc"
