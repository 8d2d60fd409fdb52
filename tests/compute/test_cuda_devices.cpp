// The CUDA backend on several GPUs (CudaDeviceScope, what batch --devices gives each engine
// thread): every device's results equal the CPU's bit for bit, the calls of a thread go to its
// scope's device and a scope ends by giving back the one before, threads on different devices
// run at once without sharing a context, so do threads on different contexts of one device
// (what batch --devices 0,0 gives its two engine threads), resident images are read back from a thread of
// another device, and a device that is not there is refused in one sentence. On a machine
// without a GPU every test skips and says why; with one GPU the concurrent test skips.
#include "compute/backend.h"
#include "compute/cuda_devices.h"
#include "compute/cuda/cuda_context.h"
#include "compute/cuda/resident.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"
#include "compute/sweep_spectrum.h"
#include "tests/support/cuda_checks.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <vector>

using namespace linescope;

namespace {

using test::cpu;
using test::gpu;

// One device's share of the work: openings at a few angles and lengths, a sweep and a long
// segment's spectrum of a random image, each compared with the CPU's; the failures as
// sentences. Different sizes make the kernels ask for different shared memory.
std::vector<std::string> checkOnCurrentDevice(int seed, int rounds, int width = 331, int height = 277) {
    std::vector<std::string> failures;
    const Image<std::uint8_t> img = test::randomImage<std::uint8_t>(width, height, seed, test::ImageKind::Blocky);
    const double angles[] = {0, 30, 63.4, 117.5};
    const int lengths[] = {9, 41};
    for (int round = 0; round < rounds; ++round) {
        for (double a : angles)
            for (int L : lengths) {
                const LineParams p{a, L};
                Image<std::uint8_t> want(img.width(), img.height()), got(img.width(), img.height());
                lineMorph<std::uint8_t>(MorphOp::Open, img.cview(), want.view(), p, cpu());
                lineMorph<std::uint8_t>(MorphOp::Open, img.cview(), got.view(), p, gpu());
                if (auto d = test::bitDifference(want, got))
                    failures.push_back("open " + test::num(a) + "° λ " + std::to_string(L) + ": " + *d);
            }
        SweepRequest req;
        req.length = 21;
        req.angles = AngleSet::overHalfTurn(36);
        const SweepResult<std::uint8_t> want = sweep<std::uint8_t>(img.cview(), req, cpu());
        const SweepResult<std::uint8_t> got = sweep<std::uint8_t>(img.cview(), req, gpu());
        if (auto d = test::sweepDifference(want, got)) failures.push_back("sweep: " + *d);
        SweepRequest longer;
        longer.length = 201;
        longer.op = MorphOp::Close;
        longer.angles = AngleSet::overHalfTurn(12);
        if (sweepSpectrum<std::uint8_t>(img.cview(), longer, cpu()).spectrumExact !=
            sweepSpectrum<std::uint8_t>(img.cview(), longer, gpu()).spectrumExact)
            failures.push_back("the spectrum of closings by λ 201 differs");
    }
    return failures;
}

// check(k) for k = 0 … n − 1, each on a thread of its own, all at once; each one's failures.
// An exception in any thread is rethrown here, after every thread has ended.
std::vector<std::vector<std::string>> checkAtOnce(int n, const std::function<std::vector<std::string>(int)>& check) {
    std::vector<std::vector<std::string>> failures(static_cast<std::size_t>(n));
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(n));
    std::vector<std::thread> threads;
    for (int k = 0; k < n; ++k)
        threads.emplace_back([&, k] {
            try {
                failures[static_cast<std::size_t>(k)] = check(k);
            } catch (...) {
                errors[static_cast<std::size_t>(k)] = std::current_exception();
            }
        });
    for (std::thread& t : threads) t.join();
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
    return failures;
}

}  // namespace

class TestCudaDevices : public QObject {
    Q_OBJECT

    int devices_ = 0;

private slots:
    void initTestCase() {
        std::string why;
        if (!backendAvailable(Backend::Cuda, &why)) QSKIP(("no usable GPU: " + why).c_str());
        devices_ = cudaDeviceCount();
        QVERIFY(devices_ >= 1);
        qInfo("%d CUDA device(s); device 0: %s", devices_, cudaDeviceDescription().c_str());
    }

    void eachDeviceEqualsTheCpu() {
        for (int d = 0; d < devices_; ++d) {
            CudaDeviceScope scope(d);
            QCOMPARE(cuda::CudaContext::get().device(), d);
            int current = -1;
            QCOMPARE(cudaGetDevice(&current), cudaSuccess);
            QCOMPARE(current, d);
            const std::vector<std::string> failures = checkOnCurrentDevice(100 + d, 1);
            for (const std::string& f : failures) qWarning("device %d: %s", d, f.c_str());
            QVERIFY2(failures.empty(), qPrintable(QStringLiteral("device %1 differs from the CPU").arg(d)));
        }
    }

    void scopesNestAndEnd() {
        const int last = devices_ - 1;
        QCOMPARE(cuda::CudaContext::get().device(), 0);
        {
            CudaDeviceScope outer(last);
            QCOMPARE(cuda::CudaContext::get().device(), last);
            {
                CudaDeviceScope inner(0);
                QCOMPARE(cuda::CudaContext::get().device(), 0);
            }
            QCOMPARE(cuda::CudaContext::get().device(), last);
        }
        QCOMPARE(cuda::CudaContext::get().device(), 0);
    }

    void missingDeviceIsRefused() {
        try {
            CudaDeviceScope scope(devices_);
            QFAIL("a scope on a device that is not there was accepted");
        } catch (const Error& e) {
            const std::string want = "there is no CUDA device " + std::to_string(devices_) + ": this machine has " +
                                     std::to_string(devices_);
            QVERIFY2(std::string(e.what()).rfind(want, 0) == 0, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(Error, CudaDeviceScope(-1));
        // The failed scope left the thread on device 0.
        QCOMPARE(cuda::CudaContext::get().device(), 0);
    }

    // A resident image made on the last device is read back by a thread that never chose a
    // device (its default is device 0): the reads follow the image, not the thread.
    void residentImagesAreReadOnTheirDevice() {
        const int last = devices_ - 1;
        const Image<std::uint16_t> img = test::randomImage<std::uint16_t>(97, 61, 7, test::ImageKind::Blocky);
        std::shared_ptr<cuda::ResidentImage> resident;
        {
            CudaDeviceScope scope(last);
            cuda::CudaContext& ctx = cuda::CudaContext::get();
            auto lock = ctx.lock();
            resident = cuda::uploadResident<std::uint16_t>(img.cview(), ctx);
            QCOMPARE(resident->context().device(), last);
        }
        Image<std::uint16_t> back(1, 1);
        double pixel = 0;
        std::exception_ptr error;
        std::thread reader([&] {
            try {
                back = cuda::downloadResident<std::uint16_t>(*resident);
                pixel = cuda::residentPixel(*resident, 5, 9);
            } catch (...) {
                error = std::current_exception();
            }
        });
        reader.join();
        if (error) std::rethrow_exception(error);
        QVERIFY(!test::bitDifference(img, back));
        QCOMPARE(pixel, static_cast<double>(img.at(5, 9)));
    }

    // A device's contexts are distinct (numbers taken modulo four), and threads on three
    // contexts of device 0 run at once, each with the CPU's results.
    void contextsOfOneDeviceRunAtOnce() {
        const cuda::CudaContext* first = nullptr;
        {
            CudaDeviceScope scope(0, 0);
            first = &cuda::CudaContext::get();
        }
        {
            CudaDeviceScope scope(0, 1);
            QVERIFY(&cuda::CudaContext::get() != first);
            QCOMPARE(cuda::CudaContext::get().device(), 0);
        }
        {
            CudaDeviceScope scope(0, cuda::kContextsPerDevice);
            QCOMPARE(&cuda::CudaContext::get(), first);
        }
        QVERIFY_THROWS_EXCEPTION(Error, CudaDeviceScope(0, -1));
        const auto failures = checkAtOnce(3, [](int c) {
            CudaDeviceScope scope(0, c);
            return checkOnCurrentDevice(300 + c, 6, 331 + 250 * c, 277 + 190 * c);
        });
        for (std::size_t c = 0; c < failures.size(); ++c) {
            for (const std::string& f : failures[c]) qWarning("context %zu: %s", c, f.c_str());
            QVERIFY2(failures[c].empty(), qPrintable(QStringLiteral("context %1 differs from the CPU").arg(c)));
        }
    }

    // Page-locked pixels (HostMemoryPin, as batch's decoders give the engine) go to the device
    // straight by DMA, with the same results; a sub-image's rows (a stride wider than the row)
    // too; and the memory is unlocked when the pin ends.
    void pinnedPixelsGiveTheSameResults() {
        const Image<std::uint8_t> img = test::randomImage<std::uint8_t>(403, 311, 77, test::ImageKind::Blocky);
        const ImageView<const std::uint8_t> inner{img.data() + 7 * img.width() + 5, 380, 290, img.width()};
        {
            HostMemoryPin pin(img.data(), img.pixels().size());
            QVERIFY(pin.pinned());
            for (const ImageView<const std::uint8_t>& v : {img.cview(), inner}) {
                const LineParams p{30, 41};
                Image<std::uint8_t> want(v.width, v.height), got(v.width, v.height);
                lineMorph<std::uint8_t>(MorphOp::Open, v, want.view(), p, cpu());
                lineMorph<std::uint8_t>(MorphOp::Open, v, got.view(), p, gpu());
                QVERIFY(!test::bitDifference(want, got));
            }
        }
        cudaPointerAttributes where{};
        QCOMPARE(cudaPointerGetAttributes(&where, img.data()), cudaSuccess);
        QVERIFY(where.type != cudaMemoryTypeHost);
    }

    // A failed runtime call of the caller's own leaves the thread's last error set; the next
    // engine call must neither report it as its own nor fail because of it.
    void aStaleErrorDoesNotFailTheNextCall() {
        if (qEnvironmentVariableIsSet("LINESCOPE_UNDER_SANITIZER"))
            QSKIP("the failed call is made on purpose, and the sanitizers report it as an error");
        QVERIFY(cudaMemcpy(nullptr, nullptr, 16, cudaMemcpyDeviceToDevice) != cudaSuccess);
        const std::vector<std::string> failures = checkOnCurrentDevice(400, 1);
        for (const std::string& f : failures) qWarning("%s", f.c_str());
        QVERIFY(failures.empty());
    }

    // Two threads, each on its own device, run at once; each device's results equal the CPU's.
    void devicesRunAtOnce() {
        if (devices_ < 2) QSKIP("one GPU: nothing to run side by side");
        const auto failures = checkAtOnce(devices_, [](int d) {
            CudaDeviceScope scope(d);
            return checkOnCurrentDevice(200 + d, 4);
        });
        for (std::size_t d = 0; d < failures.size(); ++d) {
            for (const std::string& f : failures[d]) qWarning("device %zu: %s", d, f.c_str());
            QVERIFY2(failures[d].empty(), qPrintable(QStringLiteral("device %1 differs from the CPU").arg(d)));
        }
    }
};

QTEST_MAIN(TestCudaDevices)
#include "test_cuda_devices.moc"
