// The one-pass granulometry on the GPU (compute/cuda/granulometry_cuda.h) against the CPU's
// buckets, exactly: uint8 and uint16 images, the axes, diagonals and odd angles, the whole
// image and rectangles (inside, across the border, thin), lengths past the longest line, and a
// range long enough for the buckets to leave shared memory. Skips without a usable GPU.
#include "compute/backend.h"
#include "compute/cuda/granulometry_cuda.h"
#include "compute/granulometry.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <optional>
#include <string>
#include <vector>

using namespace linescope;

class TestCudaGranulometry : public QObject {
    Q_OBJECT

    // S(λ) from the GPU's buckets equals the engine's (CPU) granulometry.
    template <class T>
    void compare(const Image<T>& img, double angle, int maxLength, const std::optional<PixelRect>& rect) {
        GranulometryRequest req;
        req.angle = angle;
        req.maxLength = maxLength;
        req.rect = rect;
        const Granulometry cpu = *granulometry<T>(img.cview(), req, EngineOptions{Backend::Cpu});
        const std::vector<std::int64_t> buckets =
            cuda::granulometryPathsBuckets<T>(img.cview(), lineFamily(angle, img.width(), img.height()), maxLength, rect);
        std::int64_t running = 0;
        for (int l = maxLength + 1; l >= 1; --l) {
            running += buckets[static_cast<std::size_t>(l)];
            QVERIFY2(running == cpu.sumsExact[static_cast<std::size_t>(l - 1)],
                     (test::describe(img) + " angle " + std::to_string(angle) + " λ " + std::to_string(l) + ": GPU " +
                      std::to_string(running) + ", CPU " + std::to_string(cpu.sumsExact[static_cast<std::size_t>(l - 1)]))
                         .c_str());
        }
    }

private slots:
    void initTestCase() {
        std::string why;
        if (!backendAvailable(Backend::Cuda, &why)) QSKIP(("no usable GPU: " + why).c_str());
    }

    void equalsTheCpu() {
        const std::vector<std::optional<PixelRect>> rects = {std::nullopt, PixelRect{5, 7, 40, 30},
                                                             PixelRect{-20, 50, 300, 3}, PixelRect{60, -5, 1, 200}};
        for (double angle : {0.0, 45.0, 90.0, 135.0, 12.5, 63.7, 101.0, 170.2}) {
            for (const auto& rect : rects) {
                compare(test::randomImage<std::uint8_t>(131, 97, 7, test::ImageKind::Blocky), angle, 64, rect);
                compare(test::randomImage<std::uint16_t>(97, 131, 8, test::ImageKind::Noise), angle, 200, rect);
            }
        }
        // 2048² at the range, and a range whose buckets leave shared memory.
        compare(test::randomImage<std::uint8_t>(2048, 2048, 9, test::ImageKind::Noise), 30.0, 256, std::nullopt);
        compare(test::randomImage<std::uint8_t>(700, 300, 10, test::ImageKind::Blocky), 0.0, 6000, std::nullopt);
        // Lines too long for a block's shared memory: the walk, its buckets in shared memory.
        compare(test::randomImage<std::uint16_t>(21000, 3, 13, test::ImageKind::FewLevels), 0.0, 64, std::nullopt);
        // Ramps and plateaus: the nearest smaller pixel far away (the chunk and superchunk skips),
        // and long runs of equal pixels (one node named by their leftmost pixel).
        for (const int period : {1, 7, 300}) {
            Image<std::uint8_t> ramps(1500, 40);
            for (int y = 0; y < ramps.height(); ++y)
                for (int x = 0; x < ramps.width(); ++x)
                    ramps.at(x, y) = static_cast<std::uint8_t>(y % 2 ? (x / period) % 256 : 255 - (x / period) % 256);
            for (double angle : {0.0, 3.0, 90.0}) compare(ramps, angle, 256, std::nullopt);
            compare(ramps, 0.0, 100, PixelRect{100, 5, 900, 20});
        }
    }

    // What users call: granulometry() on the CUDA backend gives the CPU's sums and spectrum;
    // float32 images and masks, which the GPU does not take, give them too (on the CPU), and
    // the notice says which runs where.
    void dispatcherOnCudaEqualsTheCpu() {
        const Image<std::uint16_t> img = test::randomImage<std::uint16_t>(257, 190, 11, test::ImageKind::FewLevels);
        Image<std::uint8_t> mask(257, 190, 0);
        for (int y = 20; y < 150; ++y)
            for (int x = 30; x < 200; x += 2) mask.at(x, y) = 1;
        for (const bool masked : {false, true}) {
            GranulometryRequest req;
            req.angle = 33.3;
            req.maxLength = 90;
            req.rect = PixelRect{10, 10, 200, 170};
            if (masked) req.mask = mask.cview();
            const Granulometry cpu = *granulometry<std::uint16_t>(img.cview(), req, EngineOptions{Backend::Cpu});
            const Granulometry gpu = *granulometry<std::uint16_t>(img.cview(), req, EngineOptions{Backend::Cuda});
            QCOMPARE(gpu.sumsExact, cpu.sumsExact);
            QCOMPARE(gpu.spectrumExact, cpu.spectrumExact);
            QCOMPARE(granulometryCpuNotice(req, Backend::Cuda, false).empty(), !masked);
        }
        const Image<float> f = test::finiteFloatImage(120, 80, 12, test::ImageKind::Noise);
        GranulometryRequest req;
        req.angle = 120;
        req.maxLength = 40;
        QCOMPARE(granulometry<float>(f.cview(), req, EngineOptions{Backend::Cuda})->sums,
                 granulometry<float>(f.cview(), req, EngineOptions{Backend::Cpu})->sums);
        QVERIFY(!granulometryCpuNotice(req, Backend::Cuda, true).empty());
    }
};

QTEST_MAIN(TestCudaGranulometry)
#include "test_cuda_granulometry.moc"
