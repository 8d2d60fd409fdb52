// ViewportController: its state, the session's data, pan and zoom, pointer input, the probe.
// The frame itself (uploads, the GPU path, draws, the overlay) is viewport_controller_frame.cpp.
#include "ui/viewport_controller.h"

#include "compute/line_geometry.h"
#include "render/gl_vendor.h"
#include "render/gpu_views.h"
#include "app/session/planes.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <variant>

namespace linescope::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kSplitGrab = 6;  // logical pixels either side of the split line that grab it

double pixelAt(const session::AnyImage& img, int x, int y) {
    return std::visit([&](const auto& im) -> double {
        if (x < 0 || y < 0 || x >= im.width() || y >= im.height()) return kNaN;
        return static_cast<double>(im.at(x, y));
    }, img);
}

}  // namespace

ViewportController::ViewportController(ViewportHooks hooks) : hooks_(std::move(hooks)) {
    fpsClock_.start();
    frameClock_.start();
#if defined(LINESCOPE_HAVE_IMGUI)
    overlayState_.toggles.contours = contoursVisible_;
    overlayState_.toggles.seGlyph = glyphVisible_;
    overlayState_.toggles.details = false;  // one line until its arrow is clicked
#endif
}

ViewportController::~ViewportController() = default;

void ViewportController::requestFrame() {
    needsFrame_ = true;
    if (hooks_.repaint) hooks_.repaint();
}

void ViewportController::fail(const QString& message) {
    glError_ = message;
    if (hooks_.failed) hooks_.failed(message);
}

void ViewportController::loseGpuPath(const QString& why) {
    gpuOn_ = false;
    primaryStale_ = true;
    fail(why);
    if (hooks_.gpuPathLost) hooks_.gpuPathLost(why);
    requestFrame();
}

// --- the context ------------------------------------------------------------------------

void ViewportController::initialize(render::GlProcLoader loader) {
    try {
        primary_.initialize(loader);
        secondary_.initialize(loader);
        // Textures do not survive a new context: upload (or write) everything again.
        primaryStale_ = secondaryStale_ = contoursStale_ = needlesStale_ = true;
        originalInPrimary_ = false;
        gpuViewStale_ = true;
        const auto* vendor = reinterpret_cast<const char*>(primary_.gl().GetString(GL_VENDOR));
        glVendor_ = vendor ? vendor : "";
        if (gpuOn_)
            if (const auto refusal = render::interopRefusal(glVendor_)) loseGpuPath(QString::fromStdString(*refusal));
    } catch (const std::exception& e) {
        fail(QString::fromStdString(e.what()));
    }
#if defined(LINESCOPE_HAVE_IMGUI)
    try {
        overlay_.initialize(loader);
    } catch (const std::exception& e) {
        // The viewport works without its overlay: say why it is missing.
        fail(QCoreApplication::translate("ViewportController", "the overlay is not available: %1")
                 .arg(QString::fromStdString(e.what())));
    }
#endif
    needsFrame_ = true;
}

void ViewportController::release() {
#if defined(LINESCOPE_HAVE_IMGUI)
    if (overlay_.initialized()) overlay_.release();
#endif
#if defined(LINESCOPE_HAVE_CUDA)
    if (gpu_) {
        try {
            gpu_->releaseGl();
        } catch (const std::exception& e) {
            glError_ = QString::fromStdString(e.what());
        }
    }
#endif
    if (primary_.initialized()) primary_.release();
    if (secondary_.initialized()) secondary_.release();
}

// --- what to show -----------------------------------------------------------------------

void ViewportController::setView(Plane view) {
    if (view == view_) return;
    const bool twoHalves = sideBySide();
    view_ = view;
    primaryStale_ = gpuViewStale_ = needlesStale_ = true;
    secondaryStale_ = true;  // the kinds' modes show the other kind's result only in the Result view
    if (followWindow_ && sideBySide() != twoHalves) refit();
    requestFrame();
}

void ViewportController::setCompareMode(CompareMode mode) {
    if (mode == compare_) return;
    compare_ = mode;
    secondaryStale_ = contoursStale_ = true;  // the original's side draws the contours too
    primaryStale_ = gpuViewStale_ = true;     // the difference map is drawn from the primary
    if (followWindow_) refit();
    requestFrame();
}

bool ViewportController::comparingKinds() const { return comparesKinds(compare_) && view_ == Plane::Result; }

bool ViewportController::sideBySide() const {
    return compare_ == CompareMode::SideBySide || (compare_ == CompareMode::KindsSideBySide && view_ == Plane::Result);
}

void ViewportController::setSplitPosition(double fraction) {
    split_ = std::clamp(fraction, 0.0, 1.0);
    requestFrame();
}

void ViewportController::viewSizeChanged(int w, int h) {
    const bool newSize = w != imageW_ || h != imageH_;
    imageW_ = w;
    imageH_ = h;
    if (newSize && followWindow_) refit();
}

void ViewportController::setOriginal(std::shared_ptr<const session::AnyImage> image) {
    original_ = std::move(image);
    originalInPrimary_ = false;
    if (original_) viewSizeChanged(session::widthOf(*original_), session::heightOf(*original_));
    secondaryStale_ = primaryStale_ = true;
    gpuViewStale_ = true;
    updateGlyph();
    requestFrame();
}

void ViewportController::showSnapshot(session::SnapshotPtr snapshot) {
    if (!snapshot || !snapshot->ok()) return;
    // Host planes (the CPU path) or device planes (GPU mode: device_planes.h).
    const bool planes = snapshot->result || snapshot->sweep || snapshot->device;
    if (snapshot->kind() == session::RequestKind::Result && planes) {
        const auto& img = *snapshot->request.image;  // a result has its image's size
        viewSizeChanged(session::widthOf(img), session::heightOf(img));
        result_ = std::move(snapshot);
        if (view_ == Plane::Result) primaryStale_ = gpuViewStale_ = true;
        if (comparingKinds()) secondaryStale_ = true;  // the other kind's half
    } else if (snapshot->kind() == session::RequestKind::Sweep && planes) {
        sweep_ = std::move(snapshot);
        if (session::isSweepPlane(view_)) primaryStale_ = gpuViewStale_ = true;
        needlesStale_ = true;
    } else {
        return;
    }
    requestFrame();
}

void ViewportController::setContours(std::shared_ptr<const Contours> contours) {
    contours_ = std::move(contours);
    contoursStale_ = true;
    requestFrame();
}

void ViewportController::setContoursVisible(bool visible) {
    contoursVisible_ = visible;
    contoursStale_ = true;
    requestFrame();
}

void ViewportController::setHighlightedContour(int index) {
    primary_.setHighlightedContour(index);
    secondary_.setHighlightedContour(index);
    requestFrame();
}

void ViewportController::setOrientationBlend(bool on, double blend) {
    blend_ = on;
    blendAmount_ = blend;
    primaryStale_ = gpuViewStale_ = true;
    requestFrame();
}

void ViewportController::setNeedles(int step) {
    needleStep_ = step;
    needlesStale_ = true;
    requestFrame();
}

void ViewportController::setGlyph(double angleDegrees, int length, LineKind kind) {
    glyphAngle_ = angleDegrees;
    glyphLength_ = length;
    glyphKind_ = kind;
    updateGlyph();
    requestFrame();
}

void ViewportController::setOtherKind(LineKind kind) {
    otherKind_ = kind;
    updateGlyph();
    requestFrame();
}

void ViewportController::setGlyphVisible(bool visible) {
    glyphVisible_ = visible;
    updateGlyph();
    requestFrame();
}

void ViewportController::updateGlyph() {
    if (!glyphVisible_ || !cursor_ || imageW_ <= 0) {
        primary_.clearGlyph();
        secondary_.clearGlyph();
        return;
    }
    const int x = transform_.pixelX(areaX(cursor_->x())), y = transform_.pixelY(cursor_->y() * devicePixelRatio_);
    primary_.setGlyph(glyphAngle_, glyphLength_, x, y, glyphKind_);
    // Beside another kind's result, the glyph there is that kind's.
    secondary_.setGlyph(glyphAngle_, glyphLength_, x, y, sideBySide() && comparingKinds() ? otherKind_ : glyphKind_);
}

// --- GPU path ---------------------------------------------------------------------------

bool ViewportController::setGpuPath(bool on, QString* why) {
    if (on) {
        std::string reason;
        const auto refusal = glVendor_.empty() ? std::nullopt : render::interopRefusal(glVendor_);
        if (!render::GpuViews::available(&reason) || refusal) {
            if (why) *why = QString::fromStdString(refusal ? *refusal : reason);
            on = false;
        } else if (!gpu_) {
            gpu_ = std::make_unique<render::GpuViews>();
        }
    }
    if (on == gpuOn_) return on;
    gpuOn_ = on;
    gpuViewStale_ = primaryStale_ = true;
    requestFrame();
    return on;
}

// --- pan and zoom -----------------------------------------------------------------------

int ViewportController::framebufferWidth() const {
    return static_cast<int>(std::lround(logicalWidth_ * devicePixelRatio_));
}
int ViewportController::framebufferHeight() const {
    return static_cast<int>(std::lround(logicalHeight_ * devicePixelRatio_));
}

void ViewportController::resize(int logicalWidth, int logicalHeight, double devicePixelRatio) {
    if (logicalWidth == logicalWidth_ && logicalHeight == logicalHeight_ && devicePixelRatio == devicePixelRatio_)
        return;
    logicalWidth_ = logicalWidth;
    logicalHeight_ = logicalHeight;
    devicePixelRatio_ = devicePixelRatio;
    if (followWindow_) refit();
    requestFrame();
}

render::PixelRect ViewportController::primaryArea(int w, int h) const {
    if (sideBySide()) return {w / 2, 0, w - w / 2, h};
    return {0, 0, w, h};
}

double ViewportController::areaX(double logicalX) const {
    // Side by side, both halves share one transform relative to their own left edge.
    const double sx = logicalX * devicePixelRatio_;
    const render::PixelRect a = primaryArea();
    return sideBySide() && sx >= a.x ? sx - a.x : sx;
}

void ViewportController::refit() {
    const render::PixelRect a = primaryArea();
    transform_ = render::ViewTransform::fit(imageW_, imageH_, a.width, a.height);
#if defined(LINESCOPE_HAVE_IMGUI)
    // The overlay's collapsed line sits in the top-left corner. When the fitted image would
    // reach under it, the image is fitted below a band of the line's height instead (a tiny
    // view keeps the image whole).
    if (!overlayVisible_) return;
    const double dpr = devicePixelRatio_;
    const QRectF panel = overlayPanelRect();
    const double panelRight = (panel.isEmpty() ? kOverlayWidthGuess : panel.right()) * dpr;
    const int band = static_cast<int>(std::lround(kOverlayBand * dpr));
    if (transform_.panX >= panelRight || transform_.panY >= band || a.height < 4 * band) return;
    transform_ = render::ViewTransform::fit(imageW_, imageH_, a.width, a.height - band);
    transform_.panY += band;
#endif
}

void ViewportController::zoomOneToOne() {
    followWindow_ = false;
    zoomChanged();
    const render::PixelRect a = primaryArea();
    transform_ = render::ViewTransform::oneToOne(imageW_, imageH_, a.width, a.height);
    requestFrame();
}

void ViewportController::zoomToFit() {
    followWindow_ = true;
    zoomChanged();
    refit();
    requestFrame();
}

void ViewportController::zoomAbout(QPointF position, int angleDelta) {
    followWindow_ = false;
    zoomChanged();
    transform_.wheel(areaX(position.x()), position.y() * devicePixelRatio_, angleDelta);
    updateGlyph();
    requestFrame();
}

void ViewportController::zoomChanged() {
    // A preview's orientation textures hold every step-th pixel for the zoom it was shown at
    // (uploadStep): upload it again for the new one.
    if (sweep_ && sweep_->preview && view_ == Plane::Orientation) primaryStale_ = true;
}

void ViewportController::panBy(QPointF delta) {
    followWindow_ = false;
    transform_.drag(delta.x() * devicePixelRatio_, delta.y() * devicePixelRatio_);
    requestFrame();
}

// --- pointer input ----------------------------------------------------------------------

PointerGrab ViewportController::press(QPointF position, Qt::MouseButton button) {
    if (button == Qt::LeftButton && regionArmed_ && imageW_ > 0) {
        regionStart_ = regionEnd_ = pixelUnder(position);
        requestFrame();
        return PointerGrab::Region;
    }
    if (button == Qt::LeftButton && compare_ == CompareMode::Split &&
        std::abs(position.x() - split_ * logicalWidth_) <= kSplitGrab) {
        draggingSplit_ = true;
        return PointerGrab::Split;
    }
    if (button == Qt::LeftButton || button == Qt::MiddleButton) {
        dragging_ = true;
        lastPos_ = position;
        return PointerGrab::Pan;
    }
    return PointerGrab::None;
}

void ViewportController::move(QPointF position) {
    cursor_ = position;
    if (draggingSplit_) {
        setSplitPosition(position.x() / std::max(logicalWidth_, 1));
    } else if (regionStart_) {
        regionEnd_ = pixelUnder(position);
    } else if (dragging_) {
        const QPointF d = position - lastPos_;
        lastPos_ = position;
        panBy(d);
    }
    updateGlyph();
    updateProbe(position);
    requestFrame();
}

bool ViewportController::releaseButton() {
    if (regionStart_) {
        // Both corners' pixels belong to the region; it is cut to the image.
        const int x0 = std::clamp(std::min(regionStart_->x(), regionEnd_->x()), 0, imageW_ - 1);
        const int y0 = std::clamp(std::min(regionStart_->y(), regionEnd_->y()), 0, imageH_ - 1);
        const int x1 = std::clamp(std::max(regionStart_->x(), regionEnd_->x()), 0, imageW_ - 1);
        const int y1 = std::clamp(std::max(regionStart_->y(), regionEnd_->y()), 0, imageH_ - 1);
        regionStart_.reset();
        regionEnd_.reset();
        regionArmed_ = false;
        region_ = PixelRect{x0, y0, x1 - x0 + 1, y1 - y0 + 1};
        requestFrame();
        if (hooks_.regionDrawn) hooks_.regionDrawn(*region_);
        return true;
    }
    if (!draggingSplit_ && !dragging_) return false;
    draggingSplit_ = dragging_ = false;
    return true;
}

void ViewportController::leave() {
    cursor_.reset();
    updateGlyph();
    probe_.inside = false;
    if (hooks_.probeChanged) hooks_.probeChanged(probe_);
    requestFrame();
}

// --- a region ---------------------------------------------------------------------------

void ViewportController::setRegionDrawing(bool armed) {
    regionArmed_ = armed;
    if (!armed && regionStart_) {
        regionStart_.reset();
        regionEnd_.reset();
        requestFrame();
    }
}

void ViewportController::setRegion(std::optional<PixelRect> region) {
    if (region == region_) return;
    region_ = region;
    requestFrame();
}

QPoint ViewportController::pixelUnder(QPointF position) const {
    return {transform_.pixelX(areaX(position.x())), transform_.pixelY(position.y() * devicePixelRatio_)};
}

std::optional<QRectF> ViewportController::regionOnScreen() const {
    std::optional<PixelRect> r = region_;
    if (regionStart_)
        r = PixelRect{std::min(regionStart_->x(), regionEnd_->x()), std::min(regionStart_->y(), regionEnd_->y()),
                      std::abs(regionStart_->x() - regionEnd_->x()) + 1, std::abs(regionStart_->y() - regionEnd_->y()) + 1};
    if (!r || imageW_ <= 0) return std::nullopt;
    // The primary area's framebuffer pixels back to logical ones (side by side: the right half).
    const double dpr = devicePixelRatio_, left = primaryArea().x;
    return QRectF(QPointF((left + transform_.screenX(r->x)) / dpr, transform_.screenY(r->y) / dpr),
                  QPointF((left + transform_.screenX(r->x + r->width)) / dpr, transform_.screenY(r->y + r->height) / dpr));
}

// --- the probe --------------------------------------------------------------------------

ProbeValues ViewportController::probeAt(QPointF position) const {
    ProbeValues p;
    p.x = transform_.pixelX(areaX(position.x()));
    p.y = transform_.pixelY(position.y() * devicePixelRatio_);
    p.inside = p.x >= 0 && p.y >= 0 && p.x < imageW_ && p.y < imageH_;
    p.value = original_ ? pixelAt(*original_, p.x, p.y) : kNaN;
    // A few pixels read where the planes are (on the device in GPU mode), never the planes.
    p.result = result_ ? session::pixelOf(*result_, session::Plane::Result, p.x, p.y) : kNaN;
    p.supremum = p.orientation = p.strength = kNaN;
    if (sweep_ && p.inside) {
        p.supremum = session::pixelOf(*sweep_, session::Plane::Supremum, p.x, p.y);
        p.strength = session::pixelOf(*sweep_, session::Plane::Strength, p.x, p.y);
        const double a = session::orientationOf(*sweep_, p.x, p.y);
        p.orientation = std::isnan(a) ? kNaN : normalizeAngle(a);
    }
    return p;
}

void ViewportController::updateProbe(QPointF position) {
    probe_ = probeAt(position);
    if (hooks_.probeChanged) hooks_.probeChanged(probe_);
}

// --- the overlay's settings -------------------------------------------------------------

void ViewportController::setOverlayInfo(const QString& backend, const QString& device) {
    backendName_ = backend;
    deviceName_ = device;
    requestFrame();
}

void ViewportController::setComputeMs(double ms) { computeMs_ = ms; }

void ViewportController::setOverlayVisible(bool visible) {
    overlayVisible_ = visible;
    if (followWindow_) refit();  // the band kept for it
    requestFrame();
}

QRectF ViewportController::overlayPanelRect() const {
#if defined(LINESCOPE_HAVE_IMGUI)
    if (!overlayVisible_ || !overlay_.initialized()) return {};
    const render::OverlayRect r = overlay_.panelRect();
    return {r.x, r.y, r.width, r.height};
#else
    return {};
#endif
}

bool ViewportController::overlayAvailable() const {
#if defined(LINESCOPE_HAVE_IMGUI)
    return overlay_.initialized();
#else
    return false;
#endif
}

}  // namespace linescope::ui
