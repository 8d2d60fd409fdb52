// The engine thread: takes the pending request of the most interactive kind first, runs it
// with checkpoints, and publishes a snapshot unless a newer request of its kind came.
#include "app/session/engine_queue.h"

#include "app/session/chunked_sweep.h"
#include "app/session/kind_difference.h"
#include "app/session/lesson.h"
#include "app/session/orientation_workbench.h"
#include "app/session/planes.h"
#include "app/session/progressive_sweep.h"
#include "app/session/resident_engine.h"

#include "compute/sweep_in_progress.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <exception>
#include <new>
#include <utility>

namespace linescope::session {

namespace {

double msSince(std::chrono::steady_clock::time_point t0, std::chrono::steady_clock::time_point t1) {
    return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

// The order the engine thread takes pending kinds in: what a dragged slider shows first.
// A granulometry at one angle is one pass over the image (tens of milliseconds); over an angle
// set it is one sweep a length and gives way to the kinds before it between lengths.
// A lesson follows a dragged pin, so it comes right after the result; the orientation-field
// workbench follows its block-size and λ sliders, so it comes next.
constexpr RequestKind kPriority[kRequestKindCount] = {RequestKind::Result,       RequestKind::Lesson,
                                                      RequestKind::Field,        RequestKind::Contours,
                                                      RequestKind::Skew,         RequestKind::Granulometry,
                                                      RequestKind::Sweep};

std::size_t slot(RequestKind k) { return static_cast<std::size_t>(k); }

// The binary image "pixel > threshold" (255 / 0) that contours are traced on.
template <class T>
Image<std::uint8_t> thresholded(ImageView<const T> img, double threshold) {
    requireNoNaN(img);
    Image<std::uint8_t> bin(img.width, img.height);
    for (int y = 0; y < img.height; ++y) {
        const T* src = img.row(y);
        std::uint8_t* dst = bin.view().row(y);
        for (int x = 0; x < img.width; ++x) dst[x] = static_cast<double>(src[x]) > threshold ? 255 : 0;
    }
    return bin;
}

// The binary image contours are traced on: the request's image, or a host plane of its
// source snapshot (taken where it is, not copied).
Image<std::uint8_t> contourBinary(const Request& request, double threshold) {
    if (request.contourSource == Plane::Original)
        return std::visit([&](const auto& img) { return thresholded(img.cview(), threshold); }, *request.image);
    const auto plane = request.sourceSnapshot ? planeOf(*request.sourceSnapshot, request.contourSource) : std::nullopt;
    if (!plane) throw Error(std::string("the ") + planeName(request.contourSource) + " is not available yet");
    return std::visit([&](const auto& v) { return thresholded(v, threshold); }, plane->view);
}

}  // namespace

int widthOf(const AnyImage& img) {
    return std::visit([](const auto& i) { return i.width(); }, img);
}
int heightOf(const AnyImage& img) {
    return std::visit([](const auto& i) { return i.height(); }, img);
}

const char* requestKindName(RequestKind k) {
    switch (k) {
    case RequestKind::Result: return "result";
    case RequestKind::Sweep: return "sweep";
    case RequestKind::Contours: return "contours";
    case RequestKind::Skew: return "skew";
    case RequestKind::Granulometry: return "granulometry";
    case RequestKind::Lesson: return "lesson";
    case RequestKind::Field: return "field";
    }
    return "?";
}

EngineQueue::EngineQueue(const Options& options, QObject* parent) : QObject(parent), options_(options) {
    qRegisterMetaType<linescope::session::RequestKind>();
    qRegisterMetaType<linescope::session::SnapshotPtr>();
    std::string notice;
    if (options.forceBackendForTests) {
        backend_ = *options.forceBackendForTests;
    } else {
        try {
            backend_ = resolveBackend(options.engine.backend, &notice);
        } catch (const Error& e) {  // CUDA asked for explicitly and not usable: the app goes on
            backend_ = Backend::Cpu;
            notice = std::string(e.what()) + "; using the CPU backend";
        }
    }
    if (!notice.empty()) notice_ = QString::fromStdString(notice);
    deviceResident_ = options.deviceResident;
    thread_ = std::thread([this] { runLoop(); });
}

EngineQueue::~EngineQueue() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
        for (auto& p : pending_) p.reset();
        for (auto& c : current_) c.store(++nextId_);  // every running job is now stale
    }
    wake_.notify_all();
    thread_.join();
}

std::uint64_t EngineQueue::submit(Request request) {
    const RequestKind kind = request.kind();
    std::uint64_t id;
    {
        std::lock_guard lock(mutex_);
        id = ++nextId_;
        ++stats_.submitted;
        auto& p = pending_[slot(kind)];
        if (p) ++stats_.replaced;
        p = Job{id, std::move(request), std::chrono::steady_clock::now()};
        current_[slot(kind)].store(id);  // the running job of this kind (if any) is now stale
    }
    wake_.notify_one();
    return id;
}

void EngineQueue::cancel(RequestKind kind) {
    std::lock_guard lock(mutex_);
    pending_[slot(kind)].reset();
    current_[slot(kind)].store(++nextId_);  // an id no job has
}

SnapshotPtr EngineQueue::latest(RequestKind kind) const {
    std::lock_guard lock(mutex_);
    return latest_[slot(kind)];
}

QString EngineQueue::lastBackendNotice() const {
    std::lock_guard lock(mutex_);
    return notice_;
}

EngineQueue::Stats EngineQueue::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

bool EngineQueue::busy() const {
    std::lock_guard lock(mutex_);
    if (running_) return true;
    for (const auto& p : pending_)
        if (p) return true;
    return false;
}

void EngineQueue::setCheckpointHookForTests(CheckpointHook hook) {
    std::lock_guard lock(mutex_);
    hook_ = std::move(hook);
}

void EngineQueue::setNotice(const QString& line) {
    {
        std::lock_guard lock(mutex_);
        notice_ = line;
    }
    emit backendNotice(line);
}

void EngineQueue::runLoop() {
    for (;;) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            running_ = false;
            wake_.wait(lock, [&] {
                if (stop_) return true;
                for (const auto& p : pending_)
                    if (p) return true;
                return false;
            });
            if (stop_) return;
            for (RequestKind k : kPriority) {
                auto& p = pending_[slot(k)];
                if (p) {
                    job = std::move(*p);
                    p.reset();
                    break;
                }
            }
            running_ = true;
            ++stats_.started;
        }
        execute(job);
    }
}

bool EngineQueue::stale(const Job& job) const { return current_[slot(job.request.kind())].load() != job.id; }

void EngineQueue::checkpoint(const Job& job, int step, int done, int total) {
    CheckpointHook hook;
    {
        std::lock_guard lock(mutex_);
        hook = hook_;
    }
    if (hook) hook(job.request.kind(), job.id, step);
    if (stale(job)) {
        emit cancelled(job.request.kind(), job.id, done, total);
        throw Cancelled{};
    }
}

void EngineQueue::yieldToMoreUrgent(RequestKind running) {
    for (;;) {
        Job next;
        {
            std::lock_guard lock(mutex_);
            if (stop_) return;
            bool found = false;
            for (RequestKind k : kPriority) {
                if (k == running) break;
                auto& p = pending_[slot(k)];
                if (p) {
                    next = std::move(*p);
                    p.reset();
                    found = true;
                    break;
                }
            }
            if (!found) return;
            ++stats_.started;
        }
        execute(next);
    }
}

void EngineQueue::publishPreview(const Job& job, Backend backend, Snapshot&& payload) {
    if (stale(job)) return;  // its next checkpoint stops it
    auto snap = std::make_shared<Snapshot>(std::move(payload));
    snap->id = job.id;
    snap->request = job.request;
    snap->backend = backend;
    snap->timings.compute = msSince(job.submittedAt, std::chrono::steady_clock::now());
    SnapshotPtr published = std::move(snap);
    {
        std::lock_guard lock(mutex_);
        latest_[slot(RequestKind::Sweep)] = published;
        ++stats_.previews;
    }
    emit this->published(published);
    if (job.request.interactive) throw StoppedAtPreview{};
}

void EngineQueue::execute(Job& job) {
    const RequestKind kind = job.request.kind();
    const auto t0 = std::chrono::steady_clock::now();
    emit started(kind, job.id);

    auto snap = std::make_shared<Snapshot>();
    snap->id = job.id;
    snap->request = job.request;
    snap->timings.queued = msSince(job.submittedAt, t0);
    try {
        checkpoint(job, 0, 0, 1);
        if (!job.request.image) throw Error("no image is loaded");
        // Every kind refuses an empty image with the same sentence (one contour finder
        // would return no contours for it).
        if (widthOf(*job.request.image) <= 0 || heightOf(*job.request.image) <= 0) throw Error("the image is empty");
        Backend backend = backend_.load();
        try {
            compute(job, backend, *snap);
        } catch (const Cancelled&) {
            throw;
        } catch (const StoppedAtPreview&) {
            throw;
        } catch (const std::exception& e) {
            if (backend != Backend::Cuda) throw;
            // Once: retry on the CPU. If the CPU succeeds the GPU was at fault (a failing
            // device, an image too large for it) and the CPU takes over from now on; if the
            // CPU fails too, the input was bad and its error is the one to show.
            const std::string cudaError = e.what();
            compute(job, Backend::Cpu, *snap);
            backend_ = Backend::Cpu;
            snap->notice = "CUDA failed (" + cudaError + "); using the CPU backend from now on";
            setNotice(QString::fromStdString(snap->notice));
        }
        if (stale(job)) {  // one engine call is not interruptible: drop its superseded result
            emit cancelled(kind, job.id, 1, 1);
            throw Cancelled{};
        }
    } catch (const Cancelled&) {
        std::lock_guard lock(mutex_);
        ++stats_.cancelled;
        return;
    } catch (const StoppedAtPreview&) {
        std::lock_guard lock(mutex_);
        ++stats_.stoppedAtPreview;
        return;
    } catch (const std::bad_alloc&) {
        snap->error = "not enough memory for this " + std::string(requestKindName(kind)) + " request";
    } catch (const std::exception& e) {
        snap->error = e.what();
    }
    if (!snap->ok()) {  // an error snapshot carries no payload
        snap->result.reset();
        snap->against.reset();
        snap->difference.reset();
        snap->sweep.reset();
        snap->device.reset();
        snap->spectrum.reset();
        snap->contours.reset();
        snap->skew.reset();
        snap->granulometry.reset();
        snap->lesson.reset();
        snap->field.reset();
    }
    snap->timings.compute = msSince(t0, std::chrono::steady_clock::now());
    SnapshotPtr published = std::move(snap);
    {
        std::lock_guard lock(mutex_);
        latest_[slot(kind)] = published;
        ++stats_.published;
    }
    emit this->published(published);
}

bool EngineQueue::deviceResident() const {
#if defined(LINESCOPE_HAVE_CUDA)
    return deviceResident_.load() && backend_.load() == Backend::Cuda;
#else
    return false;
#endif
}

void EngineQueue::compute(const Job& job, Backend backend, Snapshot& out) {
    EngineOptions opt = options_.engine;
    opt.backend = backend;
    out.backend = backend;
    const RequestKind kind = job.request.kind();
    computations_[slot(kind)].fetch_add(1);
    // A chunk's checkpoint: progress, then the stale check.
    int step = 0;
    const SweepStepFn onChunk = [&](int done, int total) {
        if (done > 0) emit progress(kind, job.id, done, total);
        checkpoint(job, ++step, done, total);
        return true;
    };

#if defined(LINESCOPE_HAVE_CUDA)
    if (deviceResident_.load() && backend == Backend::Cuda) {
        if (!resident_) resident_ = std::make_shared<ResidentEngine>();
        const long long pixels = std::visit([](const auto& img) { return static_cast<long long>(img.width()) * img.height(); },
                                            *job.request.image);
        ResidentEngine::PreviewFn onPreview;
        if (pixels >= options_.devicePreviewMinPixels)
            onPreview = [&](Snapshot&& preview) { publishPreview(job, backend, std::move(preview)); };
        if (resident_->compute(job.request, opt, options_.deviceSweepChunkAngles, onChunk, onPreview, out)) return;
    }
#endif

    const AnyImage& image = *job.request.image;
    std::visit(
        [&](const auto& img) {
            using T = std::remove_cvref_t<decltype(*img.data())>;
            std::visit(
                [&](const auto& p) {
                    using P = std::decay_t<decltype(p)>;
                    if constexpr (std::is_same_v<P, ResultParams>) {
                        out.result = std::make_shared<const AnyImage>(lineMorph<T>(p.op, img.cview(), p.line, opt));
                        if (p.against) {
                            // Both kinds in one request, so a drag coalesces them together; a
                            // superseded one stops between the two.
                            checkpoint(job, ++step, 1, 2);
                            LineParams other = p.line;
                            other.kind = *p.against;
                            out.against = std::make_shared<const AnyImage>(lineMorph<T>(p.op, img.cview(), other, opt));
                            out.difference = std::make_shared<const KindDifference>(
                                kindDifference(*out.result, *out.against, p.line.kind, *p.against));
                        }
                    } else if constexpr (std::is_same_v<P, SweepParams>) {
                        SweepResult<T> r;
                        if (SweepInProgress<T>::supports(p.sweep, opt)) {
                            // On the CPU: previews of a big image, and other kinds answered
                            // between chunks.
                            const SweepPlan plan = planSweep(img.width(), img.height(), p.sweep.angles.count,
                                                             options_.progressive, options_.sweepChunkAngles);
                            const SweepStepFn onChunkYielding = [&](int done, int total) {
                                onChunk(done, total);
                                yieldToMoreUrgent(kind);
                                return true;
                            };
                            const PreviewFn onPreview = [&](std::shared_ptr<const AnySweep> sweep,
                                                            std::shared_ptr<const SweepSpectrum> spectrum,
                                                            const SweepPreview& preview) {
                                Snapshot snap;
                                snap.sweep = std::move(sweep);
                                snap.spectrum = std::move(spectrum);
                                snap.preview = preview;
                                publishPreview(job, backend, std::move(snap));
                            };
                            progressiveSweep<T>(img.cview(), p.sweep, opt, plan, onChunkYielding, onPreview, r);
                        } else {
                            chunkedSweep<T>(img.cview(), p.sweep, opt, options_.sweepChunkAngles, onChunk, r);
                        }
                        out.sweep = std::make_shared<const AnySweep>(std::move(r));
                        out.spectrum = spectrumOf(*out.sweep);
                    } else if constexpr (std::is_same_v<P, ContourParams>) {
                        const Image<std::uint8_t> bin = contourBinary(job.request, p.threshold);
                        if (!finder_ || finderBackend_ != backend) {
                            EngineOptions fopt = opt;
                            finder_ = std::make_unique<ContourFinder>(fopt);
                            finderBackend_ = backend;
                        }
                        auto contours = std::make_shared<Contours>();
                        finder_->find(bin.cview(), p.mode, p.approx, *contours, &out.timings.contours);
                        out.contours = std::move(contours);
                    } else if constexpr (std::is_same_v<P, LessonParams>) {
                        // Host images, which the lesson reads pixel by pixel; in GPU mode the
                        // stages are computed on the device from the resident source.
                        const SnapshotPtr previous = latest(RequestKind::Lesson);
                        LessonStagesFn onDevice;
#if defined(LINESCOPE_HAVE_CUDA)
                        if (resident_ && deviceResident_.load() && backend == Backend::Cuda)
                            onDevice = [&](const Request& r) { return resident_->lessonStages(r, opt); };
#endif
                        out.lesson = std::make_shared<const LessonOutput>(
                            computeLesson(job.request, opt, previous.get(), onDevice));
                    } else if constexpr (std::is_same_v<P, FieldParams>) {
                        // Host images (in GPU mode too: ResidentEngine leaves fields to this path).
                        out.field = std::make_shared<const FieldOutput>(computeField(job.request, opt));
                    } else if constexpr (std::is_same_v<P, GranulometryParams>) {
                        // Checked between lengths (the supremum and the other line kinds take
                        // one sweep or opening a length), the more urgent kinds run there.
                        const GranulometryStepFn onLength = [&](int done, int total) {
                            onChunk(done, total);
                            if (done > 0) yieldToMoreUrgent(kind);
                            return true;
                        };
                        auto g = granulometry<T>(img.cview(), p.request(), opt, onLength);
                        out.granulometry = std::make_shared<const Granulometry>(std::move(*g));
                    } else {
                        auto o = std::make_shared<SkewOutput>();
                        o->skew = estimateSkew<T>(img.cview(), p.skew, opt);
                        o->length = o->skew.coarseLength;
                        o->angles = o->skew.angles;
                        o->spectrum = o->skew.spectrum;
                        out.skew = std::move(o);
                    }
                },
                job.request.params);
        },
        image);
}

}  // namespace linescope::session
