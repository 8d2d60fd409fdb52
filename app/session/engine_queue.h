// The one engine thread of the application (RenderDoc's replay manager, for LineScope):
// requests are tagged by kind, a new request replaces the queued one of its kind, a running
// one of its kind is cancelled at its next checkpoint, and results are published as
// immutable snapshots. Nothing here ever makes the calling thread wait for the engine.
//
// Cancellation granularity. The engine has no cancellation hooks, so the queue checks an
// atomic generation per kind at checkpoints it owns:
//  - sweeps and skew estimates run as chunks of Options::sweepChunkAngles angles
//    (chunked_sweep.h) and are checked before the first chunk and after each one;
//  - a result (one line operator) and contours are one engine call each: checked before the
//    call and after it (a superseded result is dropped, never published).
// So a superseded request stops within one chunk or one call. The destructor waits for that.
#pragma once

#include "app/session/snapshot.h"
#include "app/session/sweep_plan.h"

#include <QObject>
#include <QString>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace linescope::session {

class EngineQueue : public QObject {
    Q_OBJECT
public:
    struct Options {
        EngineOptions engine;       // backend (Auto: CUDA when usable), algorithm, CPU threads
        int sweepChunkAngles = 8;   // angles between two cancellation checks of a sweep
        // GPU mode (the window's CUDA path): with the CUDA backend, results, sweeps and
        // contours are computed on the device and their planes stay there (device_planes.h),
        // read by every consumer where they are; off, snapshots hold host planes.
        bool deviceResident = false;
        int deviceSweepChunkAngles = 45;  // a device sweep's angles between two checks
        // Device sweeps of images of at least this many pixels publish previews: the chunks
        // take interleaved angles (sweep_chunks.h), and after those that leave every d-th
        // angle done (45 and 90 of 180) the sweep so far is published as a preview, so that
        // a 4K sweep view follows a λ drag at the first chunk's pace.
        long long devicePreviewMinPixels = 4'000'000;
        // Host sweeps of big images: the exact sweep in passes of interleaved angles with a
        // preview after each (and a reduced preview first on huge images: sweep_plan.h); each
        // preview is published as a Sweep snapshot with Snapshot::preview set, before the
        // exact one of the same id.
        ProgressiveOptions progressive;
        // Tests only: start on this backend without resolving it (Cuda on a machine without
        // a GPU exercises the fallback: the first request fails there and retries on the CPU).
        std::optional<Backend> forceBackendForTests;
    };

    // Counters since construction, for tests and the status bar.
    struct Stats {
        std::uint64_t submitted = 0;  // submit() calls
        std::uint64_t replaced = 0;   // queued requests dropped by a newer one of their kind
        std::uint64_t started = 0;    // requests the engine thread took
        std::uint64_t cancelled = 0;  // started requests stopped or dropped because superseded
        std::uint64_t published = 0;  // snapshots published (successes and errors)
        std::uint64_t previews = 0;   // preview snapshots published (not counted in published)
        std::uint64_t stoppedAtPreview = 0;  // interactive sweeps ended at their first preview
    };

    // Called on the engine thread at every cancellation checkpoint (step 0 before any work),
    // with no lock held: tests block it to hold the engine deterministically.
    using CheckpointHook = std::function<void(RequestKind kind, std::uint64_t id, int step)>;

    // [UI thread] Resolves the backend and starts the engine thread. Never throws for want of
    // a GPU: Auto, or an explicit CUDA that cannot run here, falls back to the CPU with a
    // one-line notice (lastBackendNotice()).
    explicit EngineQueue(const Options& options, QObject* parent = nullptr);
    explicit EngineQueue(QObject* parent = nullptr) : EngineQueue(Options{}, parent) {}
    // [UI thread] Cancels everything and waits for the running chunk or call to end.
    ~EngineQueue() override;

    // [any thread, never waits for the engine] Queues the request, replacing the queued one
    // of its kind and cancelling the running one of its kind. Returns the request's id.
    std::uint64_t submit(Request request);
    // [any thread] Drops the queued request of this kind and cancels the running one.
    void cancel(RequestKind kind);

    // [any thread] The newest published snapshot of this kind, or nullptr.
    SnapshotPtr latest(RequestKind kind) const;
    // [any thread] The backend requests run on now (the CPU after a CUDA failure).
    Backend backend() const { return backend_.load(); }
    // [any thread] The last backend notice ("" when none): the fallback at start or after a failure.
    QString lastBackendNotice() const;
    Stats stats() const;
    // [any thread] Whether a request is queued or running.
    bool busy() const;
    // [any thread] Whether snapshots of results and sweeps hold device planes (GPU mode on
    // and the CUDA backend in use).
    bool deviceResident() const;
    // [any thread] GPU mode on or off (Options::deviceResident) for the requests taken from now on.
    void setDeviceResident(bool on) { deviceResident_.store(on); }
    // [any thread] Engine computations per kind since construction (published or not): the
    // one-computation-per-change check of GPU mode.
    std::uint64_t computations(RequestKind kind) const { return computations_[static_cast<std::size_t>(kind)].load(); }

    // [before the first submit] Installs the checkpoint hook (tests only).
    void setCheckpointHookForTests(CheckpointHook hook);

signals:
    // [engine thread] The engine took a request.
    void started(linescope::session::RequestKind kind, quint64 id);
    // [engine thread] A chunked request finished `done` of `total` steps (angles).
    void progress(linescope::session::RequestKind kind, quint64 id, int done, int total);
    // [engine thread] A snapshot was published (also readable through latest()): a preview
    // (Snapshot::preview) or the request's final one.
    void published(linescope::session::SnapshotPtr snapshot);
    // [engine thread] A started request was superseded and stopped after `done` of `total` steps.
    void cancelled(linescope::session::RequestKind kind, quint64 id, int done, int total);
    // [any thread] A backend notice: Auto fell back to the CPU, or CUDA failed and the CPU took over.
    void backendNotice(const QString& line);

private:
    struct Job {
        std::uint64_t id = 0;
        Request request;
        std::chrono::steady_clock::time_point submittedAt;
    };
    class Cancelled {};  // thrown by a checkpoint of a superseded request
    class StoppedAtPreview {};  // thrown after the first preview of an interactive sweep

    void runLoop();                 // [engine thread]
    void execute(Job& job);         // [engine thread]
    void compute(const Job& job, Backend backend, Snapshot& out);  // [engine thread] throws
    // [engine thread] Throws Cancelled when the job is stale; calls the hook first.
    void checkpoint(const Job& job, int step, int done, int total);
    bool stale(const Job& job) const;
    // [engine thread] Between two chunks of a host sweep: runs the queued requests of the
    // kinds taken before `running` (a result, contours, the skew), so that a slider moved
    // during a long sweep is answered within a chunk, not after the sweep.
    void yieldToMoreUrgent(RequestKind running);
    // [engine thread] Publishes a preview of a running sweep unless it is stale: `snap` holds
    // its payload (sweep or device, spectrum) and preview. Then throws StoppedAtPreview if
    // the sweep is interactive.
    void publishPreview(const Job& job, Backend backend, Snapshot&& snap);
    void setNotice(const QString& line);

    Options options_;
    std::atomic<Backend> backend_{Backend::Cpu};
    std::atomic<bool> deviceResident_{false};

    mutable std::mutex mutex_;  // guards everything below up to the thread
    std::condition_variable wake_;
    std::array<std::optional<Job>, kRequestKindCount> pending_;
    std::array<SnapshotPtr, kRequestKindCount> latest_;
    std::uint64_t nextId_ = 0;
    bool stop_ = false;
    bool running_ = false;
    Stats stats_;
    QString notice_;
    CheckpointHook hook_;

    // The newest id of each kind; a running job whose id differs is stale.
    std::array<std::atomic<std::uint64_t>, kRequestKindCount> current_{};
    std::array<std::atomic<std::uint64_t>, kRequestKindCount> computations_{};
    // Engine-thread state: the contour finder keeps its buffers across requests; GPU mode's
    // device work keeps the source image on the device (resident_engine.h).
    std::unique_ptr<ContourFinder> finder_;
    std::shared_ptr<class ResidentEngine> resident_;
    Backend finderBackend_ = Backend::Cpu;

    std::thread thread_;  // last: started when everything above exists
};

}  // namespace linescope::session

Q_DECLARE_METATYPE(linescope::session::RequestKind)
Q_DECLARE_METATYPE(linescope::session::SnapshotPtr)
