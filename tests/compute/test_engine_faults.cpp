// Every engine entry point under an allocation that fails (faults/fault_injection.h, the
// seam this suite links): for n = 1, 2, … the nth allocation of at least 4 KiB throws
// std::bad_alloc, wherever it happens — on the caller, inside a parallel body on a worker,
// in per-thread scratch. The call must report std::bad_alloc (never crash, hang or return a
// partial result), and the same call without a fault must then give the fault-free result.
// n grows until a call runs without reaching the armed allocation, so every allocation of
// every call is failed once.
#include "compute/contours/contours.h"
#include "compute/faults/fault_injection.h"
#include "compute/line_morph.h"
#include "compute/orientation_field.h"
#include "compute/skew.h"
#include "compute/sweep.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <exception>
#include <functional>
#include <new>
#include <thread>

using namespace linescope;

namespace {

constexpr std::size_t kMinBytes = 4096;

// Runs `call` with the nth allocation failing for n = 1, 2, … until it completes without
// reaching it; returns how many allocations were failed. `check` verifies a completed result.
int failEveryAllocation(const std::function<void()>& call, const std::function<void()>& check) {
    for (int n = 1; n < 10000; ++n) {
        faults::failNthAllocation(n, kMinBytes);
        bool threw = false;
        try {
            call();
        } catch (const std::bad_alloc&) {
            threw = true;
        }
        const bool reached = !faults::allocationFaultPending();
        faults::failNthAllocation(0);
        if (!threw) {
            if (reached) return -1;  // the fault fired but nothing reported it
            check();
            qInfo("%d allocations failed in turn, each reported", n - 1);
            return n - 1;
        }
    }
    return -2;
}

template <class T>
bool equal(const Image<T>& a, const Image<T>& b) {
    return !test::firstDifference<T>(a, b).has_value();
}

}  // namespace

class TestEngineFaults : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { faults::failNthAllocation(0); }

    void sweepsReportAllocationFailures_data() {
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("angles");
        QTest::addRow("1 thread, 12 angles") << 1 << 12;
        QTest::addRow("4 threads, 12 angles (shares of angles)") << 4 << 12;
        QTest::addRow("4 threads, 3 angles (shared strips)") << 4 << 3;
    }
    void sweepsReportAllocationFailures() {
        QFETCH(int, threads);
        QFETCH(int, angles);
        const auto img = test::randomImage<std::uint8_t>(97, 61, 7);
        EngineOptions opt;
        opt.backend = Backend::Cpu;
        opt.threads = threads;
        const SweepRequest req{MorphOp::Open, 9, AngleSet::overHalfTurn(angles)};
        const auto want = sweep<std::uint8_t>(img.cview(), req, opt);
        SweepResult<std::uint8_t> got;
        const int failed = failEveryAllocation([&] { got = sweep<std::uint8_t>(img.cview(), req, opt); },
                                               [&] {
                                                   QVERIFY(equal(got.sup, want.sup));
                                                   QVERIFY(equal(got.argIndex, want.argIndex));
                                                   QCOMPARE(got.spectrum, want.spectrum);
                                               });
        QVERIFY2(failed > 0, qPrintable(QString("result of the walk: %1").arg(failed)));
    }

    void lineOperatorsReportAllocationFailures() {
        const auto img = test::randomImage<float>(83, 70, 3);
        EngineOptions opt;
        opt.backend = Backend::Cpu;
        opt.threads = 3;
        for (double angle : {0.0, 30.0, 90.0, 150.0}) {
            const LineParams p{angle, 13};
            const auto want = lineMorph<float>(MorphOp::Close, img.cview(), p, opt);
            Image<float> got;
            const int failed = failEveryAllocation([&] { got = lineMorph<float>(MorphOp::Close, img.cview(), p, opt); },
                                                   [&] { QVERIFY(equal(got, want)); });
            QVERIFY2(failed > 0, qPrintable(QString("angle %1: %2").arg(angle).arg(failed)));
        }
    }

    // The segment and periodic kinds (cpu/digital_line_morph.h) on 3 threads: the padded
    // planes, the window scratch, the straight kernels' paths engine and the row bands.
    void lineKindsReportAllocationFailures() {
        const auto img = test::randomImage<std::uint8_t>(131, 97, 4);
        EngineOptions opt;
        opt.backend = Backend::Cpu;
        opt.threads = 3;
        for (LineKind kind : {LineKind::Segment, LineKind::Periodic})
            for (double angle : {30.0, 63.4, 45.0})
                for (int length : {9, 41}) {
                    const LineParams p{angle, length, kind};
                    const auto want = lineMorph<std::uint8_t>(MorphOp::Open, img.cview(), p, opt);
                    Image<std::uint8_t> got;
                    // On a new thread each time: its buffer pool and window scratch start
                    // empty, so every plane is allocated (and failed) again.
                    const auto call = [&] {
                        std::exception_ptr error;
                        std::thread t([&] {
                            try {
                                got = lineMorph<std::uint8_t>(MorphOp::Open, img.cview(), p, opt);
                            } catch (...) {
                                error = std::current_exception();
                            }
                        });
                        t.join();
                        if (error) std::rethrow_exception(error);
                    };
                    const int failed = failEveryAllocation(call, [&] { QVERIFY(equal(got, want)); });
                    QVERIFY2(failed > 0, qPrintable(QString("%1 angle %2 λ %3: %4")
                                                        .arg(lineKindName(kind))
                                                        .arg(angle)
                                                        .arg(length)
                                                        .arg(failed)));
                }
    }

    void contoursReportAllocationFailures() {
        Image<std::uint8_t> bin(120, 90);
        const auto noise = test::randomImage<std::uint8_t>(120, 90, 11);
        for (int y = 0; y < 90; ++y)
            for (int x = 0; x < 120; ++x) bin.at(x, y) = noise.at(x, y) > 128 ? 255 : 0;
        EngineOptions opt;
        opt.backend = Backend::Cpu;
        opt.threads = 4;
        const auto want = findContours(bin.cview(), ContourMode::Tree, ContourApprox::None, opt);
        Contours got;
        const int failed = failEveryAllocation(
            [&] { got = findContours(bin.cview(), ContourMode::Tree, ContourApprox::None, opt); },
            [&] {
                QCOMPARE(got.size(), want.size());
                QVERIFY(got.points == want.points);
            });
        QVERIFY2(failed > 0, qPrintable(QString::number(failed)));
    }

    void skewAndOrientationReportAllocationFailures() {
        const auto img = test::randomImage<std::uint16_t>(160, 120, 5, test::ImageKind::Blocky);
        EngineOptions opt;
        opt.backend = Backend::Cpu;
        opt.threads = 2;
        SkewParams sp;
        sp.angles = AngleSet{-4, 1, 9};
        const auto wantSkew = estimateSkew<std::uint16_t>(img.cview(), sp, opt);
        SkewEstimate gotSkew;
        QVERIFY(failEveryAllocation([&] { gotSkew = estimateSkew<std::uint16_t>(img.cview(), sp, opt); },
                                    [&] { QCOMPARE(gotSkew.angle, wantSkew.angle); }) > 0);
        OrientationFieldParams op;
        op.angleCount = 8;
        const auto wantField = estimateOrientationField<std::uint16_t>(img.cview(), op, opt);
        OrientationField gotField;
        QVERIFY(failEveryAllocation([&] { gotField = estimateOrientationField<std::uint16_t>(img.cview(), op, opt); },
                                    [&] { QCOMPARE(gotField.angle, wantField.angle); }) > 0);
    }
};

QTEST_MAIN(TestEngineFaults)
#include "test_engine_faults.moc"
