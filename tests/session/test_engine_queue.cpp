// The engine queue and the session (label session): results equal to the engine's,
// coalescing of rapid changes, cancellation of superseded sweeps, error snapshots, the CUDA
// fallback, and submission that never waits for the engine. No sleeps decide anything: the
// engine thread is held at its checkpoints by a gate, and results are awaited on signals
// delivered to this (the "UI") thread, with generous timeouts.
#include "app/io/deskew.h"
#include "app/session/chunked_sweep.h"
#include "app/session/engine_queue.h"
#include "app/session/planes.h"
#include "app/session/progressive_sweep.h"
#include "app/session/remaining_time.h"
#include "app/session/session.h"
#include "app/session/shown_state.h"
#include "app/session/sweep_plan.h"
#include "compute/box_reduce.h"
#include "compute/faults/fault_injection.h"
#include "tests/support/engine_gate.h"
#include "tests/support/random_images.h"

#include <QObject>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <condition_variable>
#include <limits>
#include <mutex>

using namespace linescope;
using namespace linescope::session;

namespace {

constexpr int kTimeoutMs = 120000;  // generous: CI has 2 cores and runs suites in parallel

// Holds the engine thread at a checkpoint until released.
using Gate = test::EngineGate;

// Installs a hook that holds the engine once, at checkpoint `step` of the first request of `kind`.
void holdAt(EngineQueue& q, Gate& gate, RequestKind kind, int step) {
    auto done = std::make_shared<std::atomic<bool>>(false);
    q.setCheckpointHookForTests([&gate, kind, step, done](RequestKind k, std::uint64_t, int s) {
        if (k == kind && s == step && !done->exchange(true)) gate.hold();
    });
}

// Records, on the test thread, what the queue emits on the engine thread.
class Recorder : public QObject {
public:
    explicit Recorder(EngineQueue& q) {
        connect(&q, &EngineQueue::published, this, [this](const SnapshotPtr& s) { published.push_back(s); },
                Qt::QueuedConnection);
        connect(&q, &EngineQueue::cancelled, this,
                [this](RequestKind, quint64 id, int done, int total) { cancelled.push_back({id, done, total}); },
                Qt::QueuedConnection);
        connect(&q, &EngineQueue::progress, this,
                [this](RequestKind, quint64 id, int done, int total) { progress.push_back({id, done, total}); },
                Qt::QueuedConnection);
        connect(&q, &EngineQueue::backendNotice, this, [this](const QString& l) { notices.push_back(l); },
                Qt::QueuedConnection);
    }
    SnapshotPtr find(std::uint64_t id) const {
        for (const auto& s : published)
            if (s->id == id) return s;
        return nullptr;
    }
    struct Step {
        std::uint64_t id;
        int done, total;
    };
    std::vector<SnapshotPtr> published;
    std::vector<Step> cancelled, progress;
    std::vector<QString> notices;
};

// Waits on this thread's event loop for the snapshot of `id`.
SnapshotPtr awaitSnapshot(const Recorder& r, std::uint64_t id) {
    (void)QTest::qWaitFor([&] { return r.find(id) != nullptr; }, kTimeoutMs);
    return r.find(id);
}

template <class T>
std::shared_ptr<const AnyImage> share(Image<T> img) {
    return std::make_shared<const AnyImage>(std::move(img));
}

Request resultRequest(std::shared_ptr<const AnyImage> img, MorphOp op, double angle, int length) {
    return Request{std::move(img), ResultParams{op, LineParams{angle, length}}};
}
Request sweepRequest(std::shared_ptr<const AnyImage> img, MorphOp op, int length, AngleSet angles) {
    return Request{std::move(img), SweepParams{SweepRequest{op, length, angles}}};
}

template <class T>
void compareSweeps(const SweepResult<T>& expected, const SweepResult<T>& actual) {
    if (auto d = test::firstDifference(expected.sup, actual.sup)) QFAIL(("sup: " + *d).c_str());
    if (auto d = test::firstDifference(expected.inf, actual.inf)) QFAIL(("inf: " + *d).c_str());
    if (auto d = test::firstDifference(expected.strength, actual.strength)) QFAIL(("strength: " + *d).c_str());
    if (auto d = test::firstDifference(expected.argIndex, actual.argIndex)) QFAIL(("argIndex: " + *d).c_str());
    QCOMPARE(actual.spectrumExact, expected.spectrumExact);
    QCOMPARE(actual.spectrum, expected.spectrum);
    QCOMPARE(actual.angles.count, expected.angles.count);
    QCOMPARE(actual.angles.start, expected.angles.start);
    QCOMPARE(actual.op, expected.op);
}

void compareContours(const Contours& e, const Contours& a) {
    QCOMPARE(a.size(), e.size());
    QVERIFY(a.points == e.points);
    QCOMPARE(a.offsets, e.offsets);
    QCOMPARE(a.next, e.next);
    QCOMPARE(a.previous, e.previous);
    QCOMPARE(a.firstChild, e.firstChild);
    QCOMPARE(a.parent, e.parent);
    QCOMPARE(a.hole, e.hole);
}

template <class T>
Image<T> testImage(int w, int h, std::uint64_t seed) {
    if constexpr (std::is_same_v<T, float>) return test::finiteFloatImage(w, h, seed, test::ImageKind::Blocky);
    else return test::randomImage<T>(w, h, seed, test::ImageKind::Blocky);
}

EngineQueue::Options cpuOptions(int chunk = 8) {
    EngineQueue::Options o;
    o.engine.backend = Backend::Cpu;
    o.sweepChunkAngles = chunk;
    return o;
}

// Progressive sweeps on a small image: a coarse preview on the image reduced 4 times (a
// 192×160 image has more than 4096 pixels, its quarter 1920 fewer), then three passes (every
// 4th angle, every 2nd, the rest) with a preview after each of the first two, a checkpoint
// after every `chunk` angles.
EngineQueue::Options progressiveOptions(int chunk = 2) {
    EngineQueue::Options o = cpuOptions(chunk);
    o.progressive.previewPixels = 4096;
    o.progressive.reducedAbovePixels = 0;
    o.progressive.passWork = 1;
    return o;
}

}  // namespace

class TestEngineQueue : public QObject {
    Q_OBJECT

    template <class T>
    void resultsEqualEngineFor() {
        EngineQueue q(cpuOptions());
        Recorder rec(q);
        const Image<T> img = testImage<T>(97, 61, 11);
        const auto shared = share(img);
        for (MorphOp op : {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close, MorphOp::TopHat}) {
            const auto id = q.submit(resultRequest(shared, op, 30, 15));
            const SnapshotPtr s = awaitSnapshot(rec, id);
            QVERIFY(s);
            QVERIFY2(s->ok(), s->error.c_str());
            QCOMPARE(s->kind(), RequestKind::Result);
            QCOMPARE(s->backend, Backend::Cpu);
            QVERIFY(s->result && !s->sweep && !s->contours && !s->skew);
            QVERIFY(s->timings.compute >= 0 && s->timings.queued >= 0);
            const Image<T> expected = lineMorph<T>(op, img.cview(), LineParams{30, 15}, EngineOptions{Backend::Cpu});
            if (auto d = test::firstDifference(expected, std::get<Image<T>>(*s->result))) QFAIL(d->c_str());
        }
    }

    template <class T>
    void sweepsEqualEngineFor() {
        const Image<T> img = testImage<T>(83, 57, 5);
        const auto shared = share(img);
        for (int chunk : {0, 1, 7, 64}) {
            EngineQueue q(cpuOptions(chunk));
            Recorder rec(q);
            for (MorphOp op : {MorphOp::Open, MorphOp::Close}) {
                const AngleSet angles{-12.5, 3, 60};
                const auto id = q.submit(sweepRequest(shared, op, 11, angles));
                const SnapshotPtr s = awaitSnapshot(rec, id);
                QVERIFY(s);
                QVERIFY2(s->ok(), s->error.c_str());
                QVERIFY(s->sweep);
                const SweepResult<T> expected =
                    sweep<T>(img.cview(), SweepRequest{op, 11, angles}, EngineOptions{Backend::Cpu});
                compareSweeps(expected, std::get<SweepResult<T>>(*s->sweep));
                if (QTest::currentTestFailed()) return;
            }
        }
    }

private slots:
    void resultsEqualEngine_u8() { resultsEqualEngineFor<std::uint8_t>(); }
    void resultsEqualEngine_u16() { resultsEqualEngineFor<std::uint16_t>(); }
    void resultsEqualEngine_f32() { resultsEqualEngineFor<float>(); }
    void sweepsEqualEngine_u8() { sweepsEqualEngineFor<std::uint8_t>(); }
    void sweepsEqualEngine_u16() { sweepsEqualEngineFor<std::uint16_t>(); }
    void sweepsEqualEngine_f32() { sweepsEqualEngineFor<float>(); }

    void skewEqualsEngine() {
        EngineQueue q(cpuOptions(5));
        Recorder rec(q);
        const Image<std::uint8_t> page = test::randomImage<std::uint8_t>(160, 90, 3, test::ImageKind::Blocky);
        SkewParams p;
        p.length = 0;  // the default for the width
        const auto id = q.submit(Request{share(page), SkewRequestParams{p}});
        const SnapshotPtr s = awaitSnapshot(rec, id);
        QVERIFY(s);
        QVERIFY2(s->ok(), s->error.c_str());
        QVERIFY(s->skew);
        const EngineOptions cpu{Backend::Cpu};
        const SkewEstimate expected = estimateSkew<std::uint8_t>(page.cview(), p, cpu);
        QCOMPARE(s->skew->skew.angle, expected.angle);
        QCOMPARE(s->skew->skew.confidence, expected.confidence);
        QCOMPARE(s->skew->skew.peakIndex, expected.peakIndex);
        QCOMPARE(s->skew->length, expected.coarseLength);
        QCOMPARE(s->skew->angles.count, p.angles.count);
        QCOMPARE(s->skew->spectrum, expected.spectrum);
    }

    void contoursEqualEngine() {
        EngineQueue q(cpuOptions());
        Recorder rec(q);
        const Image<std::uint16_t> img = test::randomImage<std::uint16_t>(140, 90, 9, test::ImageKind::Blocky);
        const double threshold = 30000;
        for (ContourMode mode : {ContourMode::External, ContourMode::Tree}) {
            const auto id = q.submit(Request{share(img), ContourParams{threshold, mode, ContourApprox::Simple}});
            const SnapshotPtr s = awaitSnapshot(rec, id);
            QVERIFY(s);
            QVERIFY2(s->ok(), s->error.c_str());
            QVERIFY(s->contours);
            Image<std::uint8_t> bin(img.width(), img.height());
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x) bin.at(x, y) = img.at(x, y) > threshold ? 1 : 0;
            const Contours expected =
                findContours(bin.cview(), mode, ContourApprox::Simple, EngineOptions{Backend::Cpu});
            QVERIFY(expected.size() > 0);
            compareContours(expected, *s->contours);
        }
    }

    // 100 rapid changes while the engine is busy: one computation for all of them, and the
    // published result is the last one's.
    void coalescesToTheNewest() {
        EngineQueue q(cpuOptions());
        Recorder rec(q);
        Gate gate;
        holdAt(q, gate, RequestKind::Result, 0);
        const Image<std::uint8_t> img = testImage<std::uint8_t>(128, 96, 21);
        const auto shared = share(img);
        const auto first = q.submit(resultRequest(shared, MorphOp::Open, 0, 3));
        QVERIFY(gate.waitHeld());
        std::uint64_t last = 0;
        for (int i = 1; i <= 100; ++i) last = q.submit(resultRequest(shared, MorphOp::Open, 1.5 * i, i));
        gate.release();
        const SnapshotPtr s = awaitSnapshot(rec, last);
        QVERIFY(s);
        QVERIFY2(s->ok(), s->error.c_str());
        (void)QTest::qWaitFor([&] { return !q.busy(); }, kTimeoutMs);
        QCoreApplication::processEvents();

        const auto st = q.stats();
        QCOMPARE(st.submitted, std::uint64_t{101});
        QCOMPARE(st.replaced, std::uint64_t{99});
        QCOMPARE(st.started, std::uint64_t{2});    // the held first request and the newest one
        QCOMPARE(st.cancelled, std::uint64_t{1});  // the first, superseded while held
        QCOMPARE(st.published, std::uint64_t{1});
        QCOMPARE(rec.published.size(), std::size_t{1});
        QVERIFY(!rec.find(first));
        QCOMPARE(q.latest(RequestKind::Result), s);
        const auto& params = std::get<ResultParams>(s->request.params);
        QCOMPARE(params.line.length, 100);
        QCOMPARE(params.line.angle, 150.0);
        const Image<std::uint8_t> expected =
            lineMorph<std::uint8_t>(MorphOp::Open, img.cview(), LineParams{150.0, 100}, EngineOptions{Backend::Cpu});
        if (auto d = test::firstDifference(expected, std::get<Image<std::uint8_t>>(*s->result))) QFAIL(d->c_str());
    }

    // A long sweep superseded after its first chunk stops there; the newer one is published
    // with progress up to its full angle count.
    void cancelsASupersededSweep() {
        EngineQueue q(cpuOptions(1));  // a checkpoint after every angle
        Recorder rec(q);
        Gate gate;
        holdAt(q, gate, RequestKind::Sweep, 2);  // step 1: before the first chunk; 2: after it
        const Image<std::uint8_t> img = testImage<std::uint8_t>(160, 120, 8);
        const auto shared = share(img);
        const auto first = q.submit(sweepRequest(shared, MorphOp::Open, 31, AngleSet{0, 1, 180}));
        QVERIFY(gate.waitHeld());
        const auto second = q.submit(sweepRequest(shared, MorphOp::Open, 9, AngleSet{0, 10, 18}));
        gate.release();
        const SnapshotPtr s = awaitSnapshot(rec, second);
        QVERIFY(s);
        QVERIFY2(s->ok(), s->error.c_str());
        (void)QTest::qWaitFor([&] { return !q.busy() && rec.progress.size() >= 19; }, kTimeoutMs);

        QVERIFY(!rec.find(first));
        QCOMPARE(rec.cancelled.size(), std::size_t{1});
        QCOMPARE(rec.cancelled[0].id, first);
        QCOMPARE(rec.cancelled[0].done, 1);  // one angle of 180 was computed
        QCOMPARE(rec.cancelled[0].total, 180);
        // Progress: one step of the first sweep, then all 18 of the second, in order.
        int lastDone = 0;
        for (const auto& p : rec.progress) {
            if (p.id != second) continue;
            QCOMPARE(p.total, 18);
            QVERIFY(p.done > lastDone);
            lastDone = p.done;
        }
        QCOMPARE(lastDone, 18);
        const SweepResult<std::uint8_t> expected =
            sweep<std::uint8_t>(img.cview(), SweepRequest{MorphOp::Open, 9, AngleSet{0, 10, 18}}, EngineOptions{Backend::Cpu});
        compareSweeps(expected, std::get<SweepResult<std::uint8_t>>(*s->sweep));
    }

    // cancel() stops a running sweep and nothing is published.
    void cancelStopsARunningSweep() {
        EngineQueue q(cpuOptions(1));
        Recorder rec(q);
        Gate gate;
        holdAt(q, gate, RequestKind::Sweep, 3);
        const auto id = q.submit(sweepRequest(share(testImage<std::uint8_t>(64, 64, 1)), MorphOp::Close, 15,
                                              AngleSet{0, 1, 90}));
        QVERIFY(gate.waitHeld());
        q.cancel(RequestKind::Sweep);
        gate.release();
        (void)QTest::qWaitFor([&] { return !rec.cancelled.empty(); }, kTimeoutMs);
        QCOMPARE(rec.cancelled.size(), std::size_t{1});
        QCOMPARE(rec.cancelled[0].id, id);
        QCOMPARE(rec.cancelled[0].done, 2);
        (void)QTest::qWaitFor([&] { return !q.busy(); }, kTimeoutMs);
        QCoreApplication::processEvents();
        QVERIFY(rec.published.empty());
        QVERIFY(!q.latest(RequestKind::Sweep));
    }

    // Bad input becomes an error snapshot with the engine's sentence, for every kind, and
    // the queue goes on.
    void errorsBecomeSnapshots() {
        EngineQueue q(cpuOptions());
        Recorder rec(q);
        Image<float> nanImage(20, 10, 1.0f);
        nanImage.at(3, 4) = std::numeric_limits<float>::quiet_NaN();
        const auto nan = share(std::move(nanImage));
        const auto empty = share(Image<std::uint8_t>());
        const std::vector<RequestParams> params = {
            ResultParams{MorphOp::Open, LineParams{10, 5}},
            SweepParams{SweepRequest{MorphOp::Open, 5, AngleSet{0, 10, 18}}},
            ContourParams{0.5, ContourMode::List, ContourApprox::None},
            SkewRequestParams{SkewParams{}},
        };
        for (const auto& p : params) {
            for (const auto& [img, word] : {std::pair{nan, "NaN"}, std::pair{empty, "empty"}}) {
                const auto id = q.submit(Request{img, p});
                const SnapshotPtr s = awaitSnapshot(rec, id);
                QVERIFY(s);
                QVERIFY2(!s->ok(), requestKindName(s->kind()));
                QVERIFY2(s->error.find(word) != std::string::npos, s->error.c_str());
                QVERIFY(!s->result && !s->sweep && !s->contours && !s->skew);
            }
        }
        // No image, and a sweep of top-hats.
        auto id = q.submit(Request{nullptr, ResultParams{}});
        SnapshotPtr s = awaitSnapshot(rec, id);
        QVERIFY(s && !s->ok());
        QVERIFY2(s->error.find("no image") != std::string::npos, s->error.c_str());
        const auto good = share(testImage<std::uint8_t>(30, 20, 2));
        id = q.submit(sweepRequest(good, MorphOp::TopHat, 5, AngleSet{0, 10, 18}));
        s = awaitSnapshot(rec, id);
        QVERIFY(s && !s->ok());
        QVERIFY2(s->error.find("tophat") != std::string::npos, s->error.c_str());
        // And the queue goes on.
        id = q.submit(resultRequest(good, MorphOp::Close, 45, 7));
        s = awaitSnapshot(rec, id);
        QVERIFY(s);
        QVERIFY2(s->ok(), s->error.c_str());
    }

    // An allocation that fails on the engine thread (here the first of at least 50 kB after
    // submission, which only the engine makes) becomes an error snapshot, and the queue goes
    // on. Before parallelFor joined its workers, a failing sweep crashed the app instead.
    void allocationFailureBecomesAnErrorSnapshot() {
        EngineQueue::Options o = cpuOptions();
        o.engine.threads = 3;
        EngineQueue q(o);
        Recorder rec(q);
        const auto img = share(testImage<std::uint8_t>(320, 240, 9));
        for (int n = 1; n <= 4; ++n) {
            faults::failNthAllocation(n, 50000);
            auto id = q.submit(sweepRequest(img, MorphOp::Close, 9, AngleSet{0, 15, 12}));
            SnapshotPtr s = awaitSnapshot(rec, id);
            const bool fired = !faults::allocationFaultPending();
            faults::failNthAllocation(0);
            QVERIFY(s);
            QVERIFY(fired);
            QVERIFY(!s->ok());
            QVERIFY2(s->error.find("not enough memory") != std::string::npos, s->error.c_str());
            QVERIFY(!s->sweep);
            id = q.submit(sweepRequest(img, MorphOp::Close, 9, AngleSet{0, 15, 12}));
            s = awaitSnapshot(rec, id);
            QVERIFY(s);
            QVERIFY2(s->ok(), s->error.c_str());
        }
    }

    // On a GPU: the nth CUDA call of a result or a sweep fails, for every n the request
    // makes; the request is answered by the CPU with a notice, equal to the CPU's result.
    void failingCudaCallFallsBackToCpu() {
        if (!backendAvailable(Backend::Cuda)) QSKIP("no usable GPU: the CUDA calls cannot be made to fail");
        EngineQueue::Options o = cpuOptions();
        o.engine.backend = Backend::Cuda;
        const Image<std::uint16_t> img = testImage<std::uint16_t>(150, 90, 4);
        const auto shared = share(img);
        const auto want = sweep<std::uint16_t>(img.cview(), SweepRequest{MorphOp::Open, 11, AngleSet{0, 10, 18}},
                                               EngineOptions{Backend::Cpu});
        int fellBack = 0;
        for (int n = 1; n <= 60; ++n) {
            EngineQueue q(o);
            Recorder rec(q);
            QCOMPARE(q.backend(), Backend::Cuda);
            faults::failNthCudaCall(n);
            const auto id = q.submit(sweepRequest(shared, MorphOp::Open, 11, AngleSet{0, 10, 18}));
            const SnapshotPtr s = awaitSnapshot(rec, id);
            faults::failNthCudaCall(0);
            QVERIFY(s);
            QVERIFY2(s->ok(), s->error.c_str());
            const auto& got = std::get<SweepResult<std::uint16_t>>(*s->sweep);
            if (auto d = test::firstDifference(want.sup, got.sup)) QFAIL(d->c_str());
            if (auto d = test::firstDifference(want.argIndex, got.argIndex)) QFAIL(d->c_str());
            if (s->backend == Backend::Cpu) {
                ++fellBack;
                QVERIFY2(s->notice.find("CUDA failed") != std::string::npos, s->notice.c_str());
            }
        }
        QVERIFY(fellBack > 0);
    }

    // Submitting, reading snapshots and setting session parameters return while the engine
    // thread is held inside a request: the caller never waits for the engine.
    void submissionNeverWaits() {
        Session session(cpuOptions(1));
        EngineQueue& q = session.queue();
        Gate gate;
        holdAt(q, gate, RequestKind::Sweep, 1);
        session.setLive(RequestKind::Skew, false);
        session.setLive(RequestKind::Contours, false);
        session.setImage(testImage<std::uint8_t>(96, 64, 4));  // result, then the sweep (held)
        QVERIFY(gate.waitHeld());
        for (int i = 0; i < 1000; ++i) {
            session.setAngle(i * 0.37);
            session.setLength(1 + i % 50);
            (void)session.latest(RequestKind::Result);
            (void)q.stats();
            (void)q.busy();
        }
        QVERIFY(gate.isHeld());  // all of that happened while the engine could not move
        QVERIFY(q.busy());
        gate.release();
        (void)QTest::qWaitFor(
            [&] {
                const auto s = session.latest(RequestKind::Sweep);
                return s && std::get<SweepParams>(s->request.params).sweep.length == session.parameters().length &&
                       !q.busy();
            },
            kTimeoutMs);
        QVERIFY(!q.busy());
        const auto st = q.stats();
        QVERIFY2(st.started <= 4, qPrintable(QString::number(st.started)));  // from 2001 submissions
    }

    // The session: 100 slider moves while the engine is busy give one computation, whose
    // snapshot holds the last value; snapshotReady arrives on the session's thread.
    void sessionCoalescesSliderMoves() {
        Session session(cpuOptions());
        Gate gate;
        holdAt(session.queue(), gate, RequestKind::Result, 0);
        for (auto k : {RequestKind::Sweep, RequestKind::Contours, RequestKind::Skew}) session.setLive(k, false);
        std::vector<SnapshotPtr> ready;
        connect(&session, &Session::snapshotReady, this, [&](RequestKind, const SnapshotPtr& s) {
            QCOMPARE(QThread::currentThread(), thread());
            ready.push_back(s);
        });
        const Image<std::uint16_t> img = testImage<std::uint16_t>(120, 80, 6);
        session.setImage(img);
        QVERIFY(gate.waitHeld());
        for (int i = 1; i <= 100; ++i) session.setLength(2 * i + 1);
        session.setAngle(33);
        gate.release();
        (void)QTest::qWaitFor([&] {
            if (ready.empty()) return false;
            const auto& p = std::get<ResultParams>(ready.back()->request.params);
            return p.line.length == 201 && p.line.angle == 33;
        },
                        kTimeoutMs);
        QCOMPARE(ready.size(), std::size_t{1});
        QCOMPARE(session.queue().stats().started, std::uint64_t{2});
        const SnapshotPtr s = session.latest(RequestKind::Result);
        QCOMPARE(s, ready.back());
        QVERIFY2(s->ok(), s->error.c_str());
        const auto expected =
            lineMorph<std::uint16_t>(MorphOp::Open, img.cview(), LineParams{33, 201}, EngineOptions{Backend::Cpu});
        if (auto d = test::firstDifference(expected, std::get<Image<std::uint16_t>>(*s->result))) QFAIL(d->c_str());
    }

    // A CUDA failure (here: CUDA forced on a machine without a usable GPU) retries on the CPU
    // once, says so, and the queue stays on the CPU.
    void cudaFailureFallsBackToCpu() {
        if (backendAvailable(Backend::Cuda)) QSKIP("a usable GPU is present: CUDA would not fail here");
        EngineQueue::Options o = cpuOptions();
        o.forceBackendForTests = Backend::Cuda;
        EngineQueue q(o);
        Recorder rec(q);
        QCOMPARE(q.backend(), Backend::Cuda);
        const Image<std::uint8_t> img = testImage<std::uint8_t>(50, 40, 7);
        auto id = q.submit(resultRequest(share(img), MorphOp::Open, 20, 9));
        SnapshotPtr s = awaitSnapshot(rec, id);
        QVERIFY(s);
        QVERIFY2(s->ok(), s->error.c_str());
        QCOMPARE(s->backend, Backend::Cpu);
        QVERIFY2(s->notice.find("CUDA failed") != std::string::npos, s->notice.c_str());
        QCOMPARE(q.backend(), Backend::Cpu);
        (void)QTest::qWaitFor([&] { return !rec.notices.empty(); }, kTimeoutMs);
        QCOMPARE(rec.notices.size(), std::size_t{1});
        QCOMPARE(q.lastBackendNotice(), QString::fromStdString(s->notice));
        const auto expected = lineMorph<std::uint8_t>(MorphOp::Open, img.cview(), LineParams{20, 9}, EngineOptions{Backend::Cpu});
        if (auto d = test::firstDifference(expected, std::get<Image<std::uint8_t>>(*s->result))) QFAIL(d->c_str());
        // Bad input under CUDA is the input's error (from the CPU retry), not a fallback.
        EngineQueue q2(o);
        Recorder rec2(q2);
        id = q2.submit(Request{share(Image<std::uint8_t>()), ResultParams{}});
        s = awaitSnapshot(rec2, id);
        QVERIFY(s && !s->ok());
        QVERIFY2(s->error.find("empty") != std::string::npos, s->error.c_str());
        QCOMPARE(q2.backend(), Backend::Cuda);
        // The next one then falls back.
        id = q2.submit(resultRequest(share(img), MorphOp::Open, 20, 9));
        s = awaitSnapshot(rec2, id);
        QVERIFY(s && s->ok());
        QCOMPARE(s->backend, Backend::Cpu);
    }

    // Explicit CUDA on a machine without it: the queue starts on the CPU with a notice.
    void explicitCudaWithoutGpuStartsOnCpu() {
        if (backendAvailable(Backend::Cuda)) QSKIP("a usable GPU is present");
        EngineQueue::Options o;
        o.engine.backend = Backend::Cuda;
        EngineQueue q(o);
        QCOMPARE(q.backend(), Backend::Cpu);
        QVERIFY(!q.lastBackendNotice().isEmpty());
        EngineQueue autoQueue;
        QCOMPARE(autoQueue.backend(), Backend::Cpu);
        QVERIFY(autoQueue.lastBackendNotice().contains("CPU"));
    }

    // The chunked sweep alone: stopping returns false after the asked-for chunk.
    void chunkedSweepStops() {
        const Image<std::uint8_t> img = testImage<std::uint8_t>(40, 30, 3);
        SweepResult<std::uint8_t> r;
        std::vector<int> seen;
        const bool finished = chunkedSweep<std::uint8_t>(
            img.cview(), SweepRequest{MorphOp::Open, 7, AngleSet{0, 1, 20}}, EngineOptions{Backend::Cpu}, 6,
            [&](int done, int total) {
                seen.push_back(done);
                return total == 20 && done < 12;
            },
            r);
        QVERIFY(!finished);
        QCOMPARE(seen, (std::vector<int>{0, 6, 12}));
    }

    // The session submits only what a change affects.
    void sessionSubmitsWhatChanged() {
        Session session(cpuOptions());
        session.setImage(testImage<std::uint8_t>(30, 20, 1));
        const auto submitted = [&] { return session.queue().stats().submitted; };
        QCOMPARE(submitted(), std::uint64_t{4});
        session.setAngle(12);
        QCOMPARE(submitted(), std::uint64_t{5});  // result
        session.setLength(9);
        QCOMPARE(submitted(), std::uint64_t{7});  // result and sweep
        session.setOp(MorphOp::TopHat);
        QCOMPARE(submitted(), std::uint64_t{8});  // result (the sweep stays on openings)
        session.setOp(MorphOp::Close);
        QCOMPARE(submitted(), std::uint64_t{10});  // result and sweep
        session.setThreshold(64);
        QCOMPARE(submitted(), std::uint64_t{11});  // contours
        session.setAngle(12);
        QCOMPARE(submitted(), std::uint64_t{11});  // no change
        (void)QTest::qWaitFor([&] { return !session.queue().busy(); }, kTimeoutMs);
        for (int k = 0; k < kRequestKindCount; ++k) {
            // The granulometry is computed only while its dock is shown (test_granulometry_session),
            // the lesson only in lesson mode (test_lesson_session), the field only in the
            // orientation-field workbench (test_field_workbench).
            if (static_cast<RequestKind>(k) == RequestKind::Granulometry || static_cast<RequestKind>(k) == RequestKind::Lesson ||
                static_cast<RequestKind>(k) == RequestKind::Field)
                continue;
            const auto s = session.latest(static_cast<RequestKind>(k));
            QVERIFY2(s && s->ok(), requestKindName(static_cast<RequestKind>(k)));
        }
    }

    // The readers of planes.h on host snapshots: a grey plane's pixels where they are, one
    // pixel, the extremes, and the needles' cell samples, all equal to the sweep's own planes.
    void planesReadHostSnapshots() {
        Session session(cpuOptions());
        ViewOptions o;
        o.view = Plane::Supremum;
        session.setViewOptions(o);
        session.setImage(testImage<std::uint8_t>(45, 37, 4));
        QVERIFY(QTest::qWaitFor([&] { return !session.queue().busy() && session.latest(RequestKind::Sweep); }, kTimeoutMs));
        const SnapshotPtr snap = session.latest(RequestKind::Sweep);
        QVERIFY(snap && snap->ok() && !onDevice(*snap));
        const auto& sw = std::get<SweepResult<std::uint8_t>>(*snap->sweep);
        const auto plane = planeOf(*snap, Plane::Infimum);
        QVERIFY(plane);
        const auto& view = std::get<ImageView<const std::uint8_t>>(plane->view);
        QCOMPARE(static_cast<const void*>(view.data), static_cast<const void*>(sw.inf.data()));  // not copied
        QCOMPARE(pixelOf(*snap, Plane::Strength, 7, 9), static_cast<double>(sw.strength.at(7, 9)));
        QVERIFY(std::isnan(pixelOf(*snap, Plane::Strength, 45, 0)));
        QVERIFY(!planeOf(*snap, Plane::Result));  // not in a sweep snapshot
        double lo = 0, hi = 0;
        QVERIFY(rangeOf(*snap, Plane::Supremum, &lo, &hi));
        const auto [mn, mx] = std::minmax_element(sw.sup.pixels().begin(), sw.sup.pixels().end());
        QCOMPARE(lo, static_cast<double>(*mn));
        QCOMPARE(hi, static_cast<double>(*mx));
        std::vector<double> angles, strengths;
        QVERIFY(cellSamples(*snap, 10, &angles, &strengths));
        QCOMPARE(angles.size(), std::size_t{4 * 4});  // centres at 5, 15, 25, 35 on both axes
        QCOMPARE(angles[5], sw.orientation(15, 15));
        QCOMPARE(strengths[5], static_cast<double>(sw.strength.at(15, 15)));
        QCOMPARE(orientationOf(*snap, 15, 15), sw.orientation(15, 15));
    }

    // The view options decide what is computed: a view nobody looks at is not, and one that
    // comes on screen is submitted; equal options change nothing.
    void viewOptionsDecideWhatIsComputed() {
        Session session(cpuOptions());
        QSignalSpy changed(&session, &Session::viewOptionsChanged);
        ViewOptions o;  // the result view alone, no docks
        session.setViewOptions(o);
        QCOMPARE(changed.count(), 1);
        QVERIFY(session.isLive(RequestKind::Result));
        QVERIFY(!session.isLive(RequestKind::Sweep));
        QVERIFY(!session.isLive(RequestKind::Skew));
        QVERIFY(!session.isLive(RequestKind::Contours));
        session.setImage(testImage<std::uint8_t>(30, 20, 1));
        QCOMPARE(session.queue().stats().submitted, std::uint64_t{1});  // the result alone

        o.view = Plane::Orientation;
        session.setViewOptions(o);
        QVERIFY(session.isLive(RequestKind::Sweep));
        QCOMPARE(session.queue().stats().submitted, std::uint64_t{2});  // the sweep, once on screen
        session.setViewOptions(o);
        QCOMPARE(changed.count(), 2);  // equal options: no signal, nothing submitted
        QCOMPARE(session.queue().stats().submitted, std::uint64_t{2});

        o.view = Plane::Result;
        o.spectrumShown = true;  // the spectrum dock needs the sweep and the skew
        session.setViewOptions(o);
        QVERIFY(session.isLive(RequestKind::Sweep));
        QVERIFY(session.isLive(RequestKind::Skew));

        o.spectrumShown = false;
        o.contoursVisible = true;  // drawn, but their dock is closed: not computed
        session.setViewOptions(o);
        QVERIFY(!session.isLive(RequestKind::Contours));
        QVERIFY(!session.isLive(RequestKind::Sweep));
        o.contoursShown = true;
        session.setViewOptions(o);
        QVERIFY(session.isLive(RequestKind::Contours));
        QVERIFY(!session.isLive(RequestKind::Sweep));
        session.setContourSource(Plane::Strength);  // contours of a sweep plane need the sweep
        QVERIFY(session.isLive(RequestKind::Sweep));
        QCOMPARE(session.viewOptions(), o);
    }

    // Deskew replaces the image by its rotation and marks it modified; undo brings back the
    // very image before (one step per deskew); a new image has nothing to undo.
    void sessionDeskewIsUndoable() {
        Session session(cpuOptions());
        QString error;
        QVERIFY(!session.deskew(2.0, &error));  // no image yet
        QVERIFY(!error.isEmpty());
        QList<bool> modified;
        connect(&session, &Session::modifiedChanged, this, [&](bool m) { modified.append(m); });
        session.setImage(testImage<std::uint8_t>(40, 30, 7));
        const auto original = session.image();
        QVERIFY(!session.modified() && !session.canUndoDeskew());

        QVERIFY(session.deskew(2.0));
        const auto& once = std::get<Image<std::uint8_t>>(*session.image());
        const auto& before = std::get<Image<std::uint8_t>>(*original);
        const Image<std::uint8_t> expected = io::deskew(before.cview(), 2.0, io::RotationBorder::Replicate);
        QCOMPARE(once.width(), expected.width());
        bool same = true;
        for (int y = 0; y < expected.height(); ++y)
            for (int x = 0; x < expected.width(); ++x) same = same && once.at(x, y) == expected.at(x, y);
        QVERIFY(same);
        QVERIFY(session.modified() && session.canUndoDeskew());
        QCOMPARE(modified, QList<bool>{true});

        const auto deskewedOnce = session.image();
        QVERIFY(session.deskew(-1.0));
        QCOMPARE(modified, QList<bool>{true});  // still modified: no second signal
        QVERIFY(session.undoDeskew());
        QCOMPARE(session.image(), deskewedOnce);
        QVERIFY(session.modified());
        QVERIFY(session.undoDeskew());
        QCOMPARE(session.image(), original);
        QVERIFY(!session.modified() && !session.canUndoDeskew());
        QCOMPARE(modified, (QList<bool>{true, false}));
        QVERIFY(!session.undoDeskew());

        QVERIFY(session.deskew(1.0));
        session.setImage(testImage<std::uint8_t>(40, 30, 8));  // e.g. another file opened
        QVERIFY(!session.modified() && !session.canUndoDeskew());
        QCOMPARE(modified, (QList<bool>{true, false, true, false}));
        (void)QTest::qWaitFor([&] { return !session.queue().busy(); }, kTimeoutMs);
    }

    // The plan of a big image: passes of every 20th, 4th and 2nd angle of 180 on 16 Mpx (the
    // first about a third of a second on 2 cores), a few angles a chunk, no reduced preview;
    // a 64 Mpx image gets a reduced preview at 1/8 first; a 1 Mpx image neither.
    void plansProgressiveSweeps() {
        const SweepPlan big = planSweep(4096, 4096, 180, ProgressiveOptions{}, 8);
        QCOMPARE(big.reduction, 1);
        QCOMPARE(big.strides, (std::vector<int>{20, 4, 2, 1}));
        QCOMPARE(big.chunkAngles, 1);
        QCOMPARE(passAngles(big, 0, 180).size(), std::size_t{9});
        QCOMPARE(passAngles(big, 1, 180).size(), std::size_t{36});
        QCOMPARE(passAngles(big, 1, 180)[0], 4);
        QCOMPARE(passAngles(big, 3, 180).size(), std::size_t{90});
        std::vector<int> ks;
        const AngleSet first = anglesAfterPasses(AngleSet{0, 1, 180}, big, 1, &ks);
        QCOMPARE(first.count, 9);
        QCOMPARE(first.step, 20.0);
        QCOMPARE(ks[1], 20);
        QCOMPARE(anglesAfterPasses(AngleSet{0, 1, 180}, big, 2, nullptr).count, 45);
        QCOMPARE(anglesAfterPasses(AngleSet{0, 1, 180}, big, 3, nullptr).count, 90);
        const SweepPlan huge = planSweep(8192, 8192, 180, ProgressiveOptions{}, 8);
        QCOMPARE(huge.reduction, 8);
        QCOMPARE(huge.coarseStride, 2);
        QCOMPARE(huge.strides.front() % 4, 0);
        const SweepPlan small = planSweep(1024, 1024, 180, ProgressiveOptions{}, 8);
        QCOMPARE(small.reduction, 1);
        QCOMPARE(small.strides, std::vector<int>{1});
        QCOMPARE(small.chunkAngles, 8);
    }

    // What users rely on while a big sweep is refined: previews come first, each marked as
    // one (coarse, then 9 and 18 of 36 angles), all of the request's id, the planes of the
    // image's size; the exact snapshot comes last, replaces them as latest(), and equals
    // sweep() bit for bit.
private:
    template <class T>
    void previewsComeBeforeTheExactSweepFor() {
        EngineQueue q(progressiveOptions());
        Recorder rec(q);
        const Image<T> img = testImage<T>(192, 160, 12);
        const AngleSet angles{0, 5, 36};
        for (MorphOp op : {MorphOp::Open, MorphOp::Close}) {
            rec.published.clear();
            const auto id = q.submit(sweepRequest(share(img), op, 15, angles));
            (void)QTest::qWaitFor([&] { return !rec.published.empty() && !rec.published.back()->isPreview(); }, kTimeoutMs);
            QCOMPARE(rec.published.size(), std::size_t{4});
            for (const auto& s : rec.published) {
                QCOMPARE(s->id, id);
                QVERIFY2(s->ok(), s->error.c_str());
                const auto& sw = std::get<SweepResult<T>>(*s->sweep);
                QCOMPARE(sw.sup.width(), 192);
                QCOMPARE(sw.argIndex.height(), 160);
            }
            QVERIFY(rec.published[0]->preview);
            QCOMPARE(rec.published[0]->preview->reduction, 4);
            QCOMPARE(previewText(*rec.published[0]->preview), std::string("preview: 1/4 resolution"));
            QCOMPARE(rec.published[1]->preview->reduction, 1);
            QCOMPARE(rec.published[1]->preview->anglesDone, 9);
            QCOMPARE(previewText(*rec.published[1]->preview), std::string("preview: 9 of 36 angles"));
            QCOMPARE(rec.published[1]->spectrum->angles.count, 9);
            QCOMPARE(rec.published[2]->preview->anglesDone, 18);
            QCOMPARE(rec.published[2]->spectrum->angles.step, 10.0);
            const SnapshotPtr last = rec.published[3];
            QVERIFY(!last->isPreview());
            QCOMPARE(q.latest(RequestKind::Sweep), last);
            compareSweeps(sweep<T>(img.cview(), SweepRequest{op, 15, angles}, EngineOptions{Backend::Cpu}),
                          std::get<SweepResult<T>>(*last->sweep));
            QCOMPARE(last->spectrum->angles.count, 36);
            if (QTest::currentTestFailed()) return;
        }
        QCOMPARE(q.stats().previews, std::uint64_t{6});
        QCOMPARE(q.stats().published, std::uint64_t{2});
    }
private slots:
    void previewsComeBeforeTheExactSweep_u8() { previewsComeBeforeTheExactSweepFor<std::uint8_t>(); }
    void previewsComeBeforeTheExactSweep_u16() { previewsComeBeforeTheExactSweepFor<std::uint16_t>(); }
    void previewsComeBeforeTheExactSweep_f32() { previewsComeBeforeTheExactSweepFor<float>(); }

    // A superseded sweep publishes no preview after it is stale, and the newer one's previews
    // and exact result follow.
    void staleSweepPublishesNoMorePreviews() {
        EngineQueue q(progressiveOptions());
        Recorder rec(q);
        Gate gate;
        holdAt(q, gate, RequestKind::Sweep, 2);  // after the coarse preview and the first chunk
        const auto shared = share(testImage<std::uint8_t>(192, 160, 13));
        const auto first = q.submit(sweepRequest(shared, MorphOp::Open, 15, AngleSet{0, 5, 36}));
        QVERIFY(gate.waitHeld());
        const auto second = q.submit(sweepRequest(shared, MorphOp::Open, 9, AngleSet{0, 5, 36}));
        gate.release();
        (void)QTest::qWaitFor([&] { return rec.find(second) && !rec.published.back()->isPreview() && !q.busy(); },
                              kTimeoutMs);
        QCoreApplication::processEvents();
        int firstPreviews = 0;
        for (const auto& s : rec.published) firstPreviews += s->id == first ? 1 : 0;
        QCOMPARE(firstPreviews, 1);  // the coarse one, published before the hold
        QVERIFY(!q.latest(RequestKind::Sweep)->isPreview());
        QCOMPARE(q.latest(RequestKind::Sweep)->id, second);
    }

    // A result asked for while a long sweep runs is answered between two of its chunks, not
    // after the sweep: its snapshot is published before the sweep's exact one.
    void resultIsAnsweredBetweenSweepChunks() {
        EngineQueue q(progressiveOptions(1));
        Recorder rec(q);
        Gate gate;
        holdAt(q, gate, RequestKind::Sweep, 3);
        const Image<std::uint8_t> img = testImage<std::uint8_t>(192, 160, 14);
        const auto shared = share(img);
        const auto sweepId = q.submit(sweepRequest(shared, MorphOp::Open, 15, AngleSet{0, 5, 36}));
        QVERIFY(gate.waitHeld());
        const auto resultId = q.submit(resultRequest(shared, MorphOp::Open, 30, 7));
        gate.release();
        (void)QTest::qWaitFor([&] {
            return rec.find(resultId) && !rec.published.back()->isPreview() && rec.published.back()->id == sweepId;
        }, kTimeoutMs);
        std::size_t resultAt = 0, exactAt = 0;
        for (std::size_t i = 0; i < rec.published.size(); ++i) {
            if (rec.published[i]->id == resultId) resultAt = i;
            if (rec.published[i]->id == sweepId && !rec.published[i]->isPreview()) exactAt = i;
        }
        QVERIFY(rec.find(resultId));
        QVERIFY(resultAt < exactAt);
        const Image<std::uint8_t> expected =
            lineMorph<std::uint8_t>(MorphOp::Open, img.cview(), LineParams{30, 7}, EngineOptions{Backend::Cpu});
        if (auto d = test::firstDifference(expected, std::get<Image<std::uint8_t>>(*rec.find(resultId)->result)))
            QFAIL(d->c_str());
        compareSweeps(sweep<std::uint8_t>(img.cview(), SweepRequest{MorphOp::Open, 15, AngleSet{0, 5, 36}},
                                          EngineOptions{Backend::Cpu}),
                      std::get<SweepResult<std::uint8_t>>(*rec.published[exactAt]->sweep));
    }

    // The coarse preview is the sweep of the reduced image (λ reduced too), upscaled, its
    // orientation indices those of the whole set.
    void coarsePreviewIsTheReducedSweep() {
        const Image<std::uint8_t> img = testImage<std::uint8_t>(96, 64, 15);
        const SweepRequest req{MorphOp::Open, 13, AngleSet{0, 10, 18}};
        std::shared_ptr<const SweepSpectrum> spectrum;
        const SweepResult<std::uint8_t> up =
            coarseSweep<std::uint8_t>(img.cview(), req, EngineOptions{Backend::Cpu}, 2, 3, &spectrum);
        const Image<std::uint8_t> small = boxReduce<std::uint8_t>(img.cview(), 2);
        const SweepResult<std::uint8_t> want = sweep<std::uint8_t>(
            small.cview(), SweepRequest{MorphOp::Open, 7, AngleSet{0, 30, 6}}, EngineOptions{Backend::Cpu});
        bool same = true;
        for (int y = 0; y < 64; ++y)
            for (int x = 0; x < 96; ++x)
                same = same && up.sup.at(x, y) == want.sup.at(x / 2, y / 2) &&
                       up.argIndex.at(x, y) == 3 * want.argIndex.at(x / 2, y / 2);
        QVERIFY(same);
        QCOMPARE(spectrum->angles.count, 6);
        QCOMPARE(spectrum->values[1], want.spectrum[1] * 4);  // per whole-image pixel
    }

    // The shown sweep against the session's parameters: current, a preview of them, stale
    // after a change (naming what it shows) until the new sweep replaces it.
    void parameterChangeMarksTheShownSweepStale() {
        Session session(progressiveOptions());
        for (auto k : {RequestKind::Result, RequestKind::Contours, RequestKind::Skew}) session.setLive(k, false);
        std::vector<SnapshotPtr> ready;
        connect(&session, &Session::snapshotReady, this, [&](RequestKind, const SnapshotPtr& s) { ready.push_back(s); });
        session.setLength(15);
        session.setAngleSet(AngleSet{0, 5, 36});
        session.setImage(testImage<std::uint8_t>(192, 160, 16));
        (void)QTest::qWaitFor([&] { return !ready.empty() && !ready.back()->isPreview(); }, kTimeoutMs);
        const ShownState preview = shownStateOf(ready.front().get(), session.requestFor(RequestKind::Sweep));
        QCOMPARE(preview.freshness, Freshness::Preview);
        QCOMPARE(preview.text, std::string("preview: 1/4 resolution"));
        const SnapshotPtr exact = ready.back();
        QCOMPARE(shownStateOf(exact.get(), session.requestFor(RequestKind::Sweep)).freshness, Freshness::Current);
        QSignalSpy changed(&session, &Session::parametersChanged);
        session.setLength(21);
        QCOMPARE(changed.count(), 1);
        const ShownState stale = shownStateOf(exact.get(), session.requestFor(RequestKind::Sweep));
        QCOMPARE(stale.freshness, Freshness::Stale);
        QCOMPARE(stale.text, std::string("stale: shows λ = 15"));
        session.setOp(MorphOp::Close);
        QCOMPARE(shownStateOf(exact.get(), session.requestFor(RequestKind::Sweep)).text,
                 std::string("stale: shows open, λ = 15"));
        (void)QTest::qWaitFor([&] {
            const SnapshotPtr s = session.latest(RequestKind::Sweep);
            return s && !s->isPreview() && std::get<SweepParams>(s->request.params).sweep.length == 21;
        }, kTimeoutMs);
        QCOMPARE(shownStateOf(session.latest(RequestKind::Sweep).get(), session.requestFor(RequestKind::Sweep)).freshness,
                 Freshness::Current);
    }

    // A sweep submitted while a slider is held shows its first preview and stops there (the
    // drag's next value would supersede it); the same request not held is refined to the end.
    void interactiveSweepStopsAtItsFirstPreview() {
        EngineQueue q(progressiveOptions());
        Recorder rec(q);
        const auto img = share(testImage<std::uint8_t>(192, 160, 14));
        Request held = sweepRequest(img, MorphOp::Open, 15, AngleSet{0, 5, 36});
        held.interactive = true;
        q.submit(held);
        (void)QTest::qWaitFor([&] { return !q.busy() && !rec.published.empty(); }, kTimeoutMs);
        QCoreApplication::processEvents();  // anything queued after it
        QCOMPARE(rec.published.size(), std::size_t{1});
        QVERIFY(rec.published[0]->isPreview());
        QCOMPARE(rec.published[0]->preview->reduction, 4);
        QCOMPARE(q.stats().stoppedAtPreview, std::uint64_t{1});
        QCOMPARE(q.stats().published, std::uint64_t{0});
        QCOMPARE(q.stats().cancelled, std::uint64_t{0});
        q.submit(sweepRequest(img, MorphOp::Open, 15, AngleSet{0, 5, 36}));
        (void)QTest::qWaitFor([&] { return !rec.published.empty() && !rec.published.back()->isPreview(); }, kTimeoutMs);
        QCOMPARE(rec.published.size(), std::size_t{5});
    }

    // Dragging λ in the session: each value gets a preview at most, and the release finishes
    // the sweep of the last value (and only that one), equal to sweep().
    void releasingTheSliderFinishesTheSweep() {
        Session session(progressiveOptions());
        for (auto k : {RequestKind::Result, RequestKind::Contours, RequestKind::Skew}) session.setLive(k, false);
        session.setAngleSet(AngleSet{0, 5, 36});
        const Image<std::uint8_t> img = testImage<std::uint8_t>(192, 160, 17);
        session.setImage(Image<std::uint8_t>::copyOf(img.cview()));
        (void)QTest::qWaitFor([&] { return !session.queue().busy(); }, kTimeoutMs);
        const auto before = session.queue().stats();
        session.setDragging(true);
        for (int length : {9, 11, 13}) {
            session.setLength(length);
            (void)QTest::qWaitFor([&] { return !session.queue().busy(); }, kTimeoutMs);
            const SnapshotPtr s = session.latest(RequestKind::Sweep);
            QVERIFY(s && s->isPreview());
            QCOMPARE(std::get<SweepParams>(s->request.params).sweep.length, length);
        }
        QCOMPARE(session.queue().stats().published, before.published);  // no exact sweep while held
        session.setDragging(false);
        (void)QTest::qWaitFor([&] { return !session.queue().busy(); }, kTimeoutMs);
        const SnapshotPtr last = session.latest(RequestKind::Sweep);
        QVERIFY(last && !last->isPreview());
        QCOMPARE(std::get<SweepParams>(last->request.params).sweep.length, 13);
        QCOMPARE(session.queue().stats().published, before.published + 1);
        compareSweeps(sweep<std::uint8_t>(img.cview(), SweepRequest{MorphOp::Open, 13, AngleSet{0, 5, 36}},
                                          EngineOptions{Backend::Cpu}),
                      std::get<SweepResult<std::uint8_t>>(*last->sweep));
        session.setDragging(true);  // a drag that ends where the exact sweep already is: nothing more
        session.setDragging(false);
        QVERIFY(!session.queue().busy());
    }

    // The time left: the angles' rate since the first report; before a second one, the first
    // report's angles over the time since submission.
    void remainingTimeFollowsTheRate() {
        RemainingTime t;
        t.start(100);
        QVERIFY(!t.secondsLeft());
        t.progress(102, 10, 100);
        QCOMPARE(*t.secondsLeft(), 18.0);  // 10 angles in 2 s
        t.progress(103, 30, 100);
        QCOMPARE(*t.secondsLeft(), 3.5);   // 20 angles in 1 s
        t.progress(104, 100, 100);
        QCOMPARE(*t.secondsLeft(), 0.0);
        t.start(200);
        QVERIFY(!t.secondsLeft());
    }
};

QTEST_GUILESS_MAIN(TestEngineQueue)
#include "test_engine_queue.moc"
