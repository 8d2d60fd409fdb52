// The session: parameters in, requests out, snapshots forwarded to the UI thread.
#include "app/session/session.h"

#include "app/io/deskew.h"
#include "app/io/image_io.h"
#include "app/session/any_image_mat.h"
#include "app/session/lesson.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace linescope::session {

namespace {

// What the reader thread hands back to the UI thread.
struct LoadedImage {
    std::optional<AnyImage> image;     // empty on failure
    std::vector<std::string> notices;  // emitted on the UI thread
    QString error;                     // one sentence naming the file
};

// [worker thread] Reads and checks one image file; never throws.
std::shared_ptr<LoadedImage> loadImage(const std::string& path) {
    auto out = std::make_shared<LoadedImage>();
    try {
        AnyImage image = anyImageOf(io::readImage(path, [&](const std::string& line) { out->notices.push_back(line); }));
        try {
            // Every view orders pixel values: refuse NaN here rather than fail each view.
            std::visit([](const auto& im) { requireNoNaN(im.cview()); }, image);
        } catch (const Error& e) {
            throw io::IoError("cannot use '" + path + "': " + e.what());
        }
        out->image = std::move(image);
    } catch (const std::exception& e) {
        out->error = QString::fromStdString(e.what());
    }
    return out;
}

// Seconds on the steady clock, for the remaining-time estimate.
double secondsNow() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

Session::Session(const EngineQueue::Options& options, QObject* parent)
    : QObject(parent), queue_(std::make_unique<EngineQueue>(options)) {
    // The queue emits on the engine thread; these connections are queued to this object's thread.
    connect(queue_.get(), &EngineQueue::published, this,
            [this](const SnapshotPtr& s) {
                // Contours traced from a plane follow that plane's newest snapshot.
                const RequestKind k = s->kind();
                if (s->ok() && s->request.image == image_ &&
                    ((k == RequestKind::Result && contourSource_ == Plane::Result) ||
                     (k == RequestKind::Sweep && isSweepPlane(contourSource_))))
                    submit(RequestKind::Contours);
                emit snapshotReady(k, s);
            },
            Qt::QueuedConnection);
    connect(queue_.get(), &EngineQueue::progress, this,
            [this](RequestKind kind, quint64 id, int done, int total) {
                if (id != lastId_[static_cast<std::size_t>(kind)]) return;
                if (kind == RequestKind::Sweep) sweepTime_.progress(secondsNow(), done, total);
                emit progress(kind, done, total);
            },
            Qt::QueuedConnection);
    connect(queue_.get(), &EngineQueue::backendNotice, this, &Session::notice, Qt::QueuedConnection);
}

Session::~Session() = default;

void Session::openImage(const QString& path) {
    const quint64 id = ++openId_;
    opening_ = true;
    // The watcher is this session's child: a session destroyed meanwhile hears nothing (the
    // read itself runs to its end on Qt's global pool, and its result is dropped).
    auto* watcher = new QFutureWatcher<std::shared_ptr<LoadedImage>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, path, id] {
        watcher->deleteLater();
        if (id != openId_) return;  // superseded by a newer openImage
        opening_ = false;
        const std::shared_ptr<LoadedImage> loaded = watcher->result();
        for (const std::string& line : loaded->notices) emit notice(QString::fromStdString(line));
        if (!loaded->image) {
            emit openFailed(path, loaded->error);
            return;
        }
        setImage(std::move(*loaded->image));
        emit imageOpened(path);
    });
    watcher->setFuture(QtConcurrent::run(loadImage, path.toStdString()));
}

void Session::setImage(AnyImage image) {
    const bool wasModified = modified();
    beforeDeskew_.clear();  // a new image: nothing to undo
    makeCurrent(std::make_shared<const AnyImage>(std::move(image)));
    if (wasModified) emit modifiedChanged(false);
}

void Session::makeCurrent(std::shared_ptr<const AnyImage> image) {
    image_ = std::move(image);
    emit imageChanged();
    for (int k = 0; k < kRequestKindCount; ++k) submit(static_cast<RequestKind>(k));
}

bool Session::deskew(double skewAngle, QString* error) {
    if (!image_) {
        if (error) *error = tr("There is no image to deskew.");
        return false;
    }
    std::shared_ptr<const AnyImage> rotated;
    try {
        rotated = std::make_shared<const AnyImage>(std::visit(
            [&](const auto& im) -> AnyImage { return io::deskew(im.cview(), skewAngle, io::RotationBorder::Replicate); },
            *image_));
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    const bool wasModified = modified();
    beforeDeskew_.push_back(image_);
    makeCurrent(std::move(rotated));
    if (!wasModified) emit modifiedChanged(true);
    return true;
}

bool Session::undoDeskew() {
    if (beforeDeskew_.empty()) return false;
    std::shared_ptr<const AnyImage> before = std::move(beforeDeskew_.back());
    beforeDeskew_.pop_back();
    makeCurrent(std::move(before));
    if (!modified()) emit modifiedChanged(false);
    return true;
}

MorphOp Session::sweepOp() const { return params_.op == MorphOp::TopHat ? MorphOp::Open : params_.op; }

void Session::setAngle(double angle) {
    if (angle == params_.angle) return;
    params_.angle = angle;
    submit(RequestKind::Result);
    submit(RequestKind::Lesson);
    if (!params_.granulometry.supremum) submit(RequestKind::Granulometry);
    emit parametersChanged();
}

void Session::setLength(int length) {
    if (length == params_.length) return;
    params_.length = length;
    submit(RequestKind::Result);
    submit(RequestKind::Sweep);
    submit(RequestKind::Lesson);
    emit parametersChanged();
}

void Session::setOp(MorphOp op) {
    if (op == params_.op) return;
    const MorphOp oldSweepOp = sweepOp();
    const MorphOp oldLessonOp = lessonOpOf(params_.op);
    params_.op = op;
    submit(RequestKind::Result);
    if (sweepOp() != oldSweepOp) submit(RequestKind::Sweep);
    if (lessonOpOf(op) != oldLessonOp) submit(RequestKind::Lesson);
    emit parametersChanged();
}

void Session::setLineKind(LineKind kind) {
    if (kind == params_.kind) return;
    params_.kind = kind;
    for (RequestKind k : {RequestKind::Result, RequestKind::Sweep, RequestKind::Skew, RequestKind::Granulometry,
                          RequestKind::Lesson})
        submit(k);
    emit parametersChanged();
}

void Session::setDragging(bool held) {
    if (held == dragging_) return;
    dragging_ = held;
    if (held) {
        interactiveSweepSubmitted_ = false;
        return;
    }
    // The last sweep of the drag may have stopped at a preview (or may still be running
    // towards it): submitted again, it is finished.
    const SnapshotPtr s = latest(RequestKind::Sweep);
    const bool finished = s && !s->isPreview() && s->id == lastId_[static_cast<std::size_t>(RequestKind::Sweep)];
    if (interactiveSweepSubmitted_ && !finished) submit(RequestKind::Sweep);
    interactiveSweepSubmitted_ = false;
}

void Session::setAngleSet(const AngleSet& angles) {
    params_.angles = angles;
    submit(RequestKind::Sweep);
    if (params_.granulometry.supremum) submit(RequestKind::Granulometry);
    submit(RequestKind::Lesson);  // the response's angles
    emit parametersChanged();
}

void Session::setContourParams(const ContourParams& p) {
    params_.contours = p;
    submit(RequestKind::Contours);
    emit parametersChanged();
}

void Session::setThreshold(double threshold) {
    if (threshold == params_.contours.threshold) return;
    params_.contours.threshold = threshold;
    submit(RequestKind::Contours);
    emit parametersChanged();
}

void Session::setSkewParams(const SkewParams& p) {
    params_.skew = p;
    submit(RequestKind::Skew);
    emit parametersChanged();
}

void Session::setGranulometrySettings(const GranulometrySettings& s) {
    if (s == params_.granulometry) return;
    params_.granulometry = s;
    submit(RequestKind::Granulometry);
    emit parametersChanged();
}

void Session::setFieldParams(const FieldParams& p) {
    params_.field = p;
    submit(RequestKind::Field);
    emit parametersChanged();
}

void Session::setLessonPin(std::optional<PixelAt> pin) {
    if (pin == lessonPin_) return;
    lessonPin_ = pin;
    submit(RequestKind::Lesson);
    emit parametersChanged();
}

void Session::setDeviceResident(bool on) {
    queue_->setDeviceResident(on);
    for (RequestKind k : {RequestKind::Result, RequestKind::Sweep, RequestKind::Contours}) submit(k);
}

void Session::setContourSource(Plane source) {
    contourSource_ = source;
    submit(RequestKind::Contours);
    updateLive();  // contours of a sweep plane need the sweep
}

void Session::setViewOptions(const ViewOptions& options) {
    const bool changed = !viewOptionsSet_ || !(options == view_);
    const std::optional<LineKind> compared = comparedKind();
    view_ = options;
    viewOptionsSet_ = true;
    updateLive();
    // The result request computes the other kind's result only while it is looked at.
    if (comparedKind() != compared) submit(RequestKind::Result);
    if (changed) emit viewOptionsChanged(view_);
}

std::optional<LineKind> Session::comparedKind() const {
    if (!viewOptionsSet_ || !comparesKinds(view_.compare) || view_.view != Plane::Result) return std::nullopt;
    return view_.otherKind;
}

void Session::updateLive() {
    if (!viewOptionsSet_) return;
    const bool contours = view_.contoursShown && view_.contoursVisible;
    setLive(RequestKind::Sweep,
            isSweepPlane(view_.view) || view_.spectrumShown || (contours && isSweepPlane(contourSource_)));
    setLive(RequestKind::Skew, view_.spectrumShown);
    setLive(RequestKind::Contours, contours);
    setLive(RequestKind::Granulometry, view_.granulometryShown);
    setLive(RequestKind::Lesson, view_.lesson);
    setLive(RequestKind::Field, view_.fieldWorkbench);
}

void Session::setLive(RequestKind kind, bool live) {
    const auto i = static_cast<std::size_t>(kind);
    if (live_[i] == live) return;
    live_[i] = live;
    if (live) submit(kind);
    else queue_->cancel(kind);
}

std::optional<Request> Session::requestFor(RequestKind kind) const {
    if (!image_) return std::nullopt;
    Request r;
    r.image = image_;
    switch (kind) {
    case RequestKind::Result:
        r.params = ResultParams{params_.op, LineParams{params_.angle, params_.length, params_.kind}, comparedKind()};
        break;
    case RequestKind::Sweep:
        r.params = SweepParams{SweepRequest{sweepOp(), params_.length, params_.angles, params_.kind}};
        r.interactive = dragging_;
        break;
    case RequestKind::Contours:
        r.params = params_.contours;
        r.contourSource = contourSource_;
        if (contourSource_ != Plane::Original) {
            // The newest snapshot of the plane's kind, when it is of the current image; until
            // one comes, none is submitted (its arrival submits the contours).
            const RequestKind from = contourSource_ == Plane::Result ? RequestKind::Result : RequestKind::Sweep;
            SnapshotPtr s = queue_->latest(from);
            if (!s || !s->ok() || s->request.image != image_) return std::nullopt;
            r.sourceSnapshot = std::move(s);
        }
        break;
    case RequestKind::Skew: {
        SkewParams skew = params_.skew;
        skew.kind = params_.kind;  // the skew box sets the search; the line is the session's
        r.params = SkewRequestParams{skew};
        break;
    }
    case RequestKind::Lesson: {
        LessonParams p;
        p.op = lessonOpOf(params_.op);
        p.line = LineParams{params_.angle, params_.length, params_.kind};
        p.angles = params_.angles;
        const int w = widthOf(*image_), h = heightOf(*image_);
        if (lessonPin_ && lessonPin_->x >= 0 && lessonPin_->y >= 0 && lessonPin_->x < w && lessonPin_->y < h)
            p.pin = lessonPin_;
        r.params = p;
        break;
    }
    case RequestKind::Field: r.params = params_.field; break;
    case RequestKind::Granulometry: {
        const GranulometrySettings& g = params_.granulometry;
        GranulometryParams p;
        p.angle = params_.angle;
        if (g.supremum) p.angles = params_.angles;
        p.maxLength = g.maxLength;
        p.kind = params_.kind;
        p.rect = g.region;
        r.params = p;
        break;
    }
    }
    return r;
}

void Session::submit(RequestKind kind) {
    if (!isLive(kind)) return;
    const auto k = static_cast<std::size_t>(kind);
    if (auto r = requestFor(kind)) {
        lastId_[k] = queue_->submit(std::move(*r));
        const bool wasCancelled = cancelled_[k];
        cancelled_[k] = false;
        if (wasCancelled) emit cancelledChanged(kind);
        if (kind == RequestKind::Sweep) {
            sweepTime_.start(secondsNow());
            interactiveSweepSubmitted_ = interactiveSweepSubmitted_ || dragging_;
        }
    }
}

void Session::cancel(RequestKind kind) {
    queue_->cancel(kind);
    // Ids start at 1: the cancelled request's queued progress no longer matches.
    lastId_[static_cast<std::size_t>(kind)] = 0;
    cancelled_[static_cast<std::size_t>(kind)] = true;
    emit cancelledChanged(kind);
}

}  // namespace linescope::session
