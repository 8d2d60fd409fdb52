// The one object the UI talks to: it holds the image and the current parameters, submits
// engine requests when they change, and hands out the latest published snapshots. The UI
// never computes and never waits: it sets parameters and reads snapshots.
#pragma once

#include "app/session/engine_queue.h"
#include "app/session/remaining_time.h"
#include "app/session/view_options.h"

#include <QObject>
#include <QString>

#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace linescope::session {

// The granulometry dock's own settings (the angle, angle set and line kind are the views').
struct GranulometrySettings {
    int maxLength = 64;              // Λ: S(λ) for λ = 1 … Λ+1
    bool supremum = false;           // over the sweep's angle set rather than at the angle
    std::optional<PixelRect> region; // the rectangle summed, or the whole image
    bool operator==(const GranulometrySettings&) const = default;
};

// Everything the views depend on.
struct Parameters {
    double angle = 0;                 // the result view's angle, degrees
    int length = 21;                  // λ of the result view and of the sweep
    MorphOp op = MorphOp::Open;       // the result view's operator; the sweep uses it too (top-hat sweeps openings)
    LineKind kind = LineKind::Paths;  // the digital line of every view: result, sweep, skew, granulometry (line_kind.h)
    AngleSet angles{0, 1, 180};       // the sweep's angle set
    GranulometrySettings granulometry;
    ContourParams contours;           // threshold (of the input image), mode, approximation
    SkewParams skew;                  // the skew estimate's λ, angles and polarity
    // The orientation-field workbench's block size, λ, smoothing, singular points' smoothing and
    // structure tensor (its own line kind: the workbench puts the toolbar away).
    FieldParams field{OrientationFieldParams{}, SingularPointParams{}, analysis::StructureTensorParams{}};
};

class Session : public QObject {
    Q_OBJECT
public:
    // [UI thread] Starts the engine queue (see EngineQueue: backend resolution and its notice).
    explicit Session(const EngineQueue::Options& options = {}, QObject* parent = nullptr);
    ~Session() override;

    // [UI thread] Starts reading an image file on a worker thread and returns at once: a slow
    // disk, a FIFO or a huge file never holds the UI thread. Once decoded (colour becomes grey:
    // one notice each) the image becomes current (imageChanged, every live view submitted) and
    // imageOpened follows; otherwise openFailed says why in one sentence (io::IoError's text)
    // and the current image stays. A float image holding NaN is refused with the engine's
    // reason: no view could be computed from it. A newer call supersedes one still reading,
    // whose outcome is dropped.
    void openImage(const QString& path);
    // [UI thread] Whether the newest openImage is still reading.
    bool opening() const { return opening_; }
    // [UI thread] Makes `image` current and submits every live view.
    void setImage(AnyImage image);
    // [any thread] The current image (nullptr before the first).
    std::shared_ptr<const AnyImage> image() const { return image_; }

    // [UI thread] Rotates the current image by −skewAngle about its centre (io::deskew, edges
    // replicated) and makes it current, keeping the one before for undoDeskew; the image is
    // then modified. False, with `error` set and nothing changed, without an image or when the
    // rotation fails.
    bool deskew(double skewAngle, QString* error = nullptr);
    // [UI thread] Back to the image before the last deskew; false when there is none.
    bool undoDeskew();
    bool canUndoDeskew() const { return !beforeDeskew_.empty(); }
    // [UI thread] Whether the current image differs from the file it was opened from (deskewed).
    bool modified() const { return !beforeDeskew_.empty(); }

    // [UI thread] A slider that moves the sweep is held (true) or released (false). Sweeps
    // submitted while it is held are interactive (Request::interactive): one that publishes
    // previews stops at its first, which is what a drag can show at its pace. On release,
    // a sweep that stopped so is submitted again, to be finished.
    void setDragging(bool held);
    bool dragging() const { return dragging_; }

    // [UI thread] Parameter setters: each submits only the views that depend on what changed,
    // and returns at once (the engine coalesces a dragged slider to its newest value).
    void setAngle(double angle);
    void setLength(int length);
    void setOp(MorphOp op);
    // The line kind of the result, the sweep, the skew and the granulometry (and so of
    // contours traced from them).
    void setLineKind(LineKind kind);
    void setAngleSet(const AngleSet& angles);
    void setContourParams(const ContourParams& p);
    void setThreshold(double threshold);
    void setSkewParams(const SkewParams& p);
    void setGranulometrySettings(const GranulometrySettings& s);
    // [UI thread] The orientation-field workbench's parameters: submits only the field, which a
    // dragged slider coalesces to its newest value on the engine thread.
    void setFieldParams(const FieldParams& p);
    // [UI thread] The lesson's pinned pixel (nullopt: none). Only the lesson is submitted: its
    // stages are reused (lesson.h), and a drag coalesces to its newest pixel. A pixel outside a
    // newly opened image is dropped from the requests.
    void setLessonPin(std::optional<PixelAt> pin);
    std::optional<PixelAt> lessonPin() const { return lessonPin_; }
    // [UI thread] The plane contours are traced from: the current image, or the result or a
    // sweep plane of the newest snapshot of its kind, read where it lives (on the device in
    // GPU mode). Submits the contours, and again whenever a new snapshot of that kind comes.
    void setContourSource(Plane source);
    Plane contourSource() const { return contourSource_; }
    const Parameters& parameters() const { return params_; }

    // [UI thread] GPU mode: results, sweeps and contours computed on the device and their
    // planes kept there (EngineQueue::Options::deviceResident), when the engine runs on CUDA.
    // A change resubmits those views.
    void setDeviceResident(bool on);
    bool deviceResident() const { return queue_->deviceResident(); }

    // [UI thread] How the window shows the data (view_options.h): the viewport and the docks
    // follow viewOptionsChanged, exports read viewOptions(). It also decides what is
    // computed: the sweep while a sweep plane, the spectrum dock or contours of a sweep plane
    // are shown, the skew with the spectrum dock, the contours while drawn and their dock is
    // shown, the granulometry with its dock, the lesson in lesson mode, the field in the
    // orientation-field workbench; a view turned on is
    // submitted, one turned off
    // cancelled. A compare mode of two line kinds (comparesKinds) with the Result view makes
    // the result request compute the result by ViewOptions::otherKind too, and compare the
    // two (Snapshot::difference).
    void setViewOptions(const ViewOptions& options);
    const ViewOptions& viewOptions() const { return view_; }

    // [UI thread] Whether a view is computed (all but the granulometry are by default: it is
    // computed only while its dock is shown, or when turned on here). Turning one on submits it;
    // turning one off cancels its work and keeps its last snapshot.
    void setLive(RequestKind kind, bool live);
    bool isLive(RequestKind kind) const { return live_[static_cast<std::size_t>(kind)]; }
    // [UI thread] The user stopped a view (a sweep's Cancel): its work is dropped, its
    // progress no longer reported (not even signals already queued), and isCancelled(kind)
    // holds until the view is submitted again, by a parameter change or recompute().
    void cancel(RequestKind kind);
    bool isCancelled(RequestKind kind) const { return cancelled_[static_cast<std::size_t>(kind)]; }
    // [UI thread] Submits the view again with the current parameters (when live, with an image).
    void recompute(RequestKind kind) { submit(kind); }

    // [any thread] The newest snapshot of a view, or nullptr.
    SnapshotPtr latest(RequestKind kind) const { return queue_->latest(kind); }
    EngineQueue& queue() { return *queue_; }

    // The request a view would submit now (nullopt without an image): what the views compare
    // their snapshots with (shown_state.h), tests and tools.
    std::optional<Request> requestFor(RequestKind kind) const;

    // [UI thread] The running sweep's progress and the estimated seconds it still needs
    // (remaining_time.h): nullopt before its first progress report.
    const RemainingTime& sweepProgress() const { return sweepTime_; }

signals:
    // [UI thread] A new snapshot of `kind` is available (also through latest()).
    void snapshotReady(linescope::session::RequestKind kind, linescope::session::SnapshotPtr snapshot);
    // [UI thread] A parameter setter changed a parameter (the views compare what they show
    // with requestFor() again: a result of older parameters is stale).
    void parametersChanged();
    // [UI thread] isCancelled(kind) changed: the user cancelled the view, or it was submitted
    // again (the marks of a cancelled preview follow it).
    void cancelledChanged(linescope::session::RequestKind kind);
    // [UI thread] A chunked view's progress: `done` of `total` angles.
    void progress(linescope::session::RequestKind kind, int done, int total);
    // [UI thread] One line for the status bar: image conversions, backend fallbacks.
    void notice(const QString& line);
    // [UI thread] The current image changed.
    void imageChanged();
    // [UI thread] openImage's outcome: `path`'s image is current, or why it could not be opened.
    void imageOpened(const QString& path);
    void openFailed(const QString& path, const QString& error);
    // [UI thread] setViewOptions changed them.
    void viewOptionsChanged(const linescope::session::ViewOptions& options);
    // [UI thread] modified() changed: a deskew, its undo, or a new image (the window's '*').
    void modifiedChanged(bool modified);

private:
    void submit(RequestKind kind);  // when live and an image is loaded
    void makeCurrent(std::shared_ptr<const AnyImage> image);  // and submit every live view
    MorphOp sweepOp() const;
    // The kind the result is compared with, when the view options ask for a comparison.
    std::optional<LineKind> comparedKind() const;

    std::unique_ptr<EngineQueue> queue_;
    std::shared_ptr<const AnyImage> image_;
    Plane contourSource_ = Plane::Original;
    ViewOptions view_;
    bool viewOptionsSet_ = false;  // until the first setViewOptions every view is live
    void updateLive();
    std::vector<std::shared_ptr<const AnyImage>> beforeDeskew_;  // the images deskew replaced, oldest first
    Parameters params_;
    std::array<bool, kRequestKindCount> live_{true, true, true, true, false, false, false};
    std::optional<PixelAt> lessonPin_;
    bool dragging_ = false;
    bool interactiveSweepSubmitted_ = false;  // since the slider was taken
    std::array<quint64, kRequestKindCount> lastId_{};  // the newest submitted id of each kind (0: cancelled)
    std::array<bool, kRequestKindCount> cancelled_{};
    RemainingTime sweepTime_;
    quint64 openId_ = 0;  // the newest openImage's number: older ones finish unheard
    bool opening_ = false;
};

}  // namespace linescope::session
