#include "ui/viewport_widget.h"

#include "compute/line_geometry.h"
#include "render/orientation_needles.h"
#include "render/gpu_views.h"
#include "app/session/device_planes.h"
#include "app/session/planes.h"

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QLabel>
#include <QSurfaceFormat>
#include <QWheelEvent>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <type_traits>
#include <variant>

namespace linescope::ui {

namespace {

void* loadGl(const char* name) {
    QOpenGLContext* ctx = QOpenGLContext::currentContext();
    return ctx ? reinterpret_cast<void*>(ctx->getProcAddress(name)) : nullptr;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kSplitGrab = 6;  // logical pixels either side of the split line that grab it

double msSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

double pixelAt(const session::AnyImage& img, int x, int y) {
    return std::visit([&](const auto& im) -> double {
        if (x < 0 || y < 0 || x >= im.width() || y >= im.height()) return kNaN;
        return static_cast<double>(im.at(x, y));
    }, img);
}

// The grey view's display range: uint8 0…255, uint16 0…65535, float its min…max.
template <class T>
void displayRange(const Image<T>& img, double* lo, double* hi) {
    if constexpr (std::is_same_v<T, float>) {
        const auto px = img.pixels();
        *lo = 0;
        *hi = 1;
        if (px.empty()) return;
        const auto [mn, mx] = std::minmax_element(px.begin(), px.end());
        *lo = *mn;
        *hi = *mx;
    } else {
        *lo = 0;
        *hi = std::is_same_v<T, std::uint8_t> ? 255 : 65535;
    }
}

// Uploads a grey view with its display range.
template <class T>
void uploadGrey(render::ViewportRenderer& r, const Image<T>& img) {
    r.uploadImage(img.cview());
    double lo = 0, hi = 0;
    displayRange(img, &lo, &hi);
    r.setDisplayRange(lo, hi);
}

void uploadGrey(render::ViewportRenderer& r, const session::AnyImage& img) {
    std::visit([&](const auto& im) { uploadGrey(r, im); }, img);
}

}  // namespace

const char* viewKindName(ViewKind v) {
    switch (v) {
    case ViewKind::Original: return "Original";
    case ViewKind::Result: return "Result";
    case ViewKind::Supremum: return "Supremum";
    case ViewKind::Infimum: return "Infimum";
    case ViewKind::Orientation: return "Orientation";
    case ViewKind::Strength: return "Strength";
    }
    return "?";
}

ViewportWidget::ViewportWidget(QWidget* parent) : QOpenGLWidget(parent) {
    QSurfaceFormat f = format();
    f.setRenderableType(QSurfaceFormat::OpenGL);
    f.setVersion(3, 3);
    f.setProfile(QSurfaceFormat::CoreProfile);
    setFormat(f);
    setMinimumSize(200, 150);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);  // the glyph and the probe follow the cursor
    // Which side is which in the compare modes: child labels, composited over the OpenGL
    // frame by Qt, at the bottom (the overlay holds the top left).
    for (QLabel** l : {&leftLabel_, &rightLabel_}) {
        *l = new QLabel(this);
        (*l)->setStyleSheet(QStringLiteral("QLabel { background: rgba(0, 0, 0, 170); color: white; padding: 2px 6px; }"));
        (*l)->setAttribute(Qt::WA_TransparentForMouseEvents);
        (*l)->hide();
    }
    fpsClock_.start();
    frameClock_.start();
#if defined(LINESCOPE_HAVE_IMGUI)
    // The overlay sees input first: a click on its panel never pans the image.
    installEventFilter(&overlayInput_);
    overlayState_.toggles.contours = contoursVisible_;
    overlayState_.toggles.seGlyph = glyphVisible_;
    overlayState_.toggles.details = false;  // one line until its arrow is clicked
#endif
}

ViewportWidget::~ViewportWidget() {
    // The renderers touch no OpenGL in their destructors: release while the context lives.
    if (context()) {
        // ~QOpenGLWidget destroys the context after this destructor: its aboutToBeDestroyed
        // must not reach contextAboutToBeDestroyed() on what is by then a QOpenGLWidget.
        disconnect(context(), nullptr, this, nullptr);
        makeCurrent();
        releaseGl();
        doneCurrent();
    }
}

void ViewportWidget::releaseGl() {
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

void ViewportWidget::contextAboutToBeDestroyed() {
    makeCurrent();
    releaseGl();
    doneCurrent();
}

void ViewportWidget::fail(const QString& message) {
    glError_ = message;
    emit glFailed(message);
}

int ViewportWidget::framebufferWidth() const { return static_cast<int>(std::lround(width() * devicePixelRatioF())); }
int ViewportWidget::framebufferHeight() const { return static_cast<int>(std::lround(height() * devicePixelRatioF())); }

void ViewportWidget::initializeGL() {
    // Qt may recreate the context (e.g. the widget moves to another window): release the
    // old objects with the old context current, then start over in the new one.
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &ViewportWidget::contextAboutToBeDestroyed,
            Qt::UniqueConnection);
    try {
        primary_.initialize(&loadGl);
        secondary_.initialize(&loadGl);
        // Textures do not survive a new context: upload (or write) everything again.
        primaryStale_ = secondaryStale_ = contoursStale_ = needlesStale_ = true;
        gpuViewStale_ = true;
    } catch (const std::exception& e) {
        fail(QString::fromStdString(e.what()));
    }
#if defined(LINESCOPE_HAVE_IMGUI)
    try {
        overlay_.initialize(&loadGl);
    } catch (const std::exception& e) {
        // The viewport works without its overlay: say why it is missing.
        fail(tr("the overlay is not available: %1").arg(QString::fromStdString(e.what())));
    }
#endif
}

void ViewportWidget::rangeOf(const session::AnyImage& img, double* lo, double* hi) {
    std::visit([&](const auto& im) { displayRange(im, lo, hi); }, img);
}

// --- inputs ---------------------------------------------------------------------------

void ViewportWidget::setView(ViewKind view) {
    if (view == view_) return;
    view_ = view;
    primaryStale_ = gpuViewStale_ = needlesStale_ = true;
    placeLabels();
    update();
}

void ViewportWidget::setCompareMode(CompareMode mode) {
    if (mode == compare_) return;
    compare_ = mode;
    secondaryStale_ = true;
    placeLabels();
    if (followWindow_) refit();
    update();
}

void ViewportWidget::setSplitPosition(double fraction) {
    split_ = std::clamp(fraction, 0.0, 1.0);
    placeLabels();
    update();
}

void ViewportWidget::placeLabels() {
    const bool on = compare_ != CompareMode::Single;
    leftLabel_->setVisible(on);
    rightLabel_->setVisible(on);
    if (!on) return;
    leftLabel_->setText(tr("Original"));
    rightLabel_->setText(tr(viewKindName(view_)));
    for (QLabel* l : {leftLabel_, rightLabel_}) l->adjustSize();
    const int rightX = compare_ == CompareMode::Split ? static_cast<int>(split_ * width())
                                                      : static_cast<int>(primaryArea().x / devicePixelRatioF());
    const int y = height() - leftLabel_->height() - 8;
    leftLabel_->move(8, y);
    rightLabel_->move(rightX + 8, y);
}

void ViewportWidget::viewSizeChanged(int w, int h) {
    const bool newSize = w != imageW_ || h != imageH_;
    imageW_ = w;
    imageH_ = h;
    if (newSize && followWindow_) refit();
}

void ViewportWidget::setOriginal(std::shared_ptr<const session::AnyImage> image) {
    original_ = std::move(image);
    if (original_) viewSizeChanged(session::widthOf(*original_), session::heightOf(*original_));
    secondaryStale_ = primaryStale_ = true;
    gpuViewStale_ = true;
    updateGlyph();
    update();
}

void ViewportWidget::showSnapshot(session::SnapshotPtr snapshot) {
    if (!snapshot || !snapshot->ok()) return;
    const bool planes = snapshot->result || snapshot->sweep || snapshot->device;
    if (snapshot->kind() == session::RequestKind::Result && planes) {
        const auto& img = *snapshot->request.image;  // a result has its image's size
        viewSizeChanged(session::widthOf(img), session::heightOf(img));
        result_ = std::move(snapshot);
        if (view_ == ViewKind::Result) primaryStale_ = gpuViewStale_ = true;
    } else if (snapshot->kind() == session::RequestKind::Sweep && planes) {
        sweep_ = std::move(snapshot);
        if (view_ != ViewKind::Original && view_ != ViewKind::Result) primaryStale_ = gpuViewStale_ = true;
        needlesStale_ = true;
    } else {
        return;
    }
    update();
}

void ViewportWidget::setContours(std::shared_ptr<const Contours> contours) {
    contours_ = std::move(contours);
    contoursStale_ = true;
    update();
}

void ViewportWidget::setContoursVisible(bool visible) {
    contoursVisible_ = visible;
    contoursStale_ = true;
    update();
}

void ViewportWidget::setHighlightedContour(int index) {
    primary_.setHighlightedContour(index);
    secondary_.setHighlightedContour(index);
    update();
}

void ViewportWidget::setOrientationBlend(bool on, double blend) {
    blend_ = on;
    blendAmount_ = blend;
    primaryStale_ = gpuViewStale_ = true;
    update();
}

void ViewportWidget::setNeedles(int step) {
    needleStep_ = step;
    needlesStale_ = true;
    update();
}

void ViewportWidget::setGlyph(double angleDegrees, int length) {
    glyphAngle_ = angleDegrees;
    glyphLength_ = length;
    updateGlyph();
    update();
}

void ViewportWidget::setGlyphVisible(bool visible) {
    glyphVisible_ = visible;
    updateGlyph();
    update();
}

bool ViewportWidget::setGpuPath(bool on, QString* why) {
    if (on) {
        std::string reason;
        if (!render::GpuViews::available(&reason)) {
            if (why) *why = QString::fromStdString(reason);
            on = false;
        } else if (!gpu_) {
            gpu_ = std::make_unique<render::GpuViews>();
        }
    }
    if (on == gpuOn_) return on;
    gpuOn_ = on;
    gpuViewStale_ = primaryStale_ = true;
    update();
    return on;
}

// --- pan and zoom ---------------------------------------------------------------------

render::PixelRect ViewportWidget::primaryArea() const {
    const int w = framebufferWidth(), h = framebufferHeight();
    if (compare_ == CompareMode::SideBySide) return {w / 2, 0, w - w / 2, h};
    return {0, 0, w, h};
}

double ViewportWidget::areaX(double logicalX) const {
    // Side by side, both halves share one transform relative to their own left edge.
    const double sx = logicalX * devicePixelRatioF();
    const render::PixelRect a = primaryArea();
    return compare_ == CompareMode::SideBySide && sx >= a.x ? sx - a.x : sx;
}

void ViewportWidget::refit() {
    const render::PixelRect a = primaryArea();
    transform_ = render::ViewTransform::fit(imageW_, imageH_, a.width, a.height);
#if defined(LINESCOPE_HAVE_IMGUI)
    // The overlay's collapsed line sits in the top-left corner. When the fitted image would
    // reach under it, the image is fitted below a band of the line's height instead (a tiny
    // view keeps the image whole).
    if (!overlayVisible_) return;
    const double dpr = devicePixelRatioF();
    const QRectF panel = overlayPanelRect();
    const double panelRight = (panel.isEmpty() ? kOverlayWidthGuess : panel.right()) * dpr;
    const int band = static_cast<int>(std::lround(kOverlayBand * dpr));
    if (transform_.panX >= panelRight || transform_.panY >= band || a.height < 4 * band) return;
    transform_ = render::ViewTransform::fit(imageW_, imageH_, a.width, a.height - band);
    transform_.panY += band;
#endif
}

void ViewportWidget::zoomOneToOne() {
    followWindow_ = false;
    const render::PixelRect a = primaryArea();
    transform_ = render::ViewTransform::oneToOne(imageW_, imageH_, a.width, a.height);
    update();
}

void ViewportWidget::zoomToFit() {
    followWindow_ = true;
    refit();
    update();
}

void ViewportWidget::resizeGL(int, int) {
    if (followWindow_) refit();
    placeLabels();
}

// --- uploads --------------------------------------------------------------------------

void ViewportWidget::uploadPrimary() {
    primaryStale_ = false;
    primary_.setColourMap(render::ColourMap::Grey);
    switch (view_) {
    case ViewKind::Original:
        if (original_) uploadGrey(primary_, *original_);
        return;
    case ViewKind::Result:
        if (result_) {
            // GPU-mode planes come down only when interop cannot write them (drawGpuView).
            if (const auto r = session::hostResult(*result_)) uploadGrey(primary_, *r);
            shownResultId_ = result_->id;
        }
        return;
    default: break;
    }
    if (!sweep_) return;
    const auto sweep = session::hostSweep(*sweep_);
    if (!sweep) return;
    shownSweepId_ = sweep_->id;
    std::visit([&](const auto& s) {
        switch (view_) {
        case ViewKind::Supremum: uploadGrey(primary_, s.sup); return;
        case ViewKind::Infimum: uploadGrey(primary_, s.inf); return;
        case ViewKind::Strength: uploadGrey(primary_, s.strength); return;
        default: break;
        }
        primary_.uploadOrientation(s);
        const bool over = blend_ && original_;
        if (over) uploadGrey(primary_, *original_);
        primary_.setOrientationBlend(blendAmount_);
        primary_.setColourMap(over ? render::ColourMap::OrientationOverImage : render::ColourMap::Orientation);
    }, *sweep);
}

void ViewportWidget::uploadSecondary() {
    secondaryStale_ = false;
    if (!original_) return;
    uploadGrey(secondary_, *original_);
    secondary_.setColourMap(render::ColourMap::Grey);
}

bool ViewportWidget::drawGpuView() {
#if defined(LINESCOPE_HAVE_CUDA)
    // GPU mode: the session's engine computed the view once, on the device; kernels write
    // its planes into the textures. Host snapshots (the CPU path) are uploaded instead.
    if (!gpu_ || view_ == ViewKind::Original) return false;
    const session::SnapshotPtr& shown = view_ == ViewKind::Result ? result_ : sweep_;
    if (!shown || !shown->device) return false;
    if (!gpuViewStale_) return true;
    try {
        const session::DevicePlanes& d = *shown->device;
        primary_.setColourMap(render::ColourMap::Grey);
        switch (view_) {
        case ViewKind::Result:
            if (!d.result) return false;
            gpu_->showPlane(primary_, *d.result, shown);
            shownResultId_ = shown->id;
            break;
        case ViewKind::Supremum:
        case ViewKind::Infimum:
        case ViewKind::Strength:
            if (!d.sweep) return false;
            gpu_->showPlane(primary_,
                            view_ == ViewKind::Supremum  ? *d.sweep->sup
                            : view_ == ViewKind::Infimum ? *d.sweep->inf
                                                         : *d.sweep->strength,
                            shown);
            shownSweepId_ = shown->id;
            break;
        case ViewKind::Orientation:
            if (!d.sweep) return false;
            // The image under the colours: the original, uploaded once per image (not per frame).
            if (blend_ && original_ && primaryStale_) uploadGrey(primary_, *original_);
            gpu_->showOrientation(primary_, *d.sweep, shown);
            primary_.setOrientationBlend(blendAmount_);
            primary_.setColourMap(blend_ && original_ ? render::ColourMap::OrientationOverImage
                                                      : render::ColourMap::Orientation);
            shownSweepId_ = shown->id;
            break;
        case ViewKind::Original: return false;
        }
        gpuViewStale_ = primaryStale_ = false;
        return true;
    } catch (const std::exception& e) {
        // Interop failed (an OpenGL that is not NVIDIA's, say): the planes come down instead.
        gpuOn_ = false;
        primaryStale_ = true;
        fail(tr("CUDA-OpenGL interop failed (%1); the views are copied through the host")
                 .arg(QString::fromStdString(e.what())));
        return false;
    }
#else
    return false;
#endif
}

void ViewportWidget::updateNeedles() {
    needlesStale_ = false;
    // GPU mode: the needles need the whole argmax and strength planes on the host (once a sweep).
    const auto sweep = view_ == ViewKind::Orientation && needleStep_ >= 2 && sweep_ ? session::hostSweep(*sweep_) : nullptr;
    if (!sweep) {
        primary_.clearNeedles();
        return;
    }
    std::visit([&](const auto& s) {
        double maxStrength = 0;
        for (const auto v : s.strength.pixels()) maxStrength = std::max(maxStrength, static_cast<double>(v));
        primary_.setNeedles(render::orientationNeedles(
            s.strength.width(), s.strength.height(), [&](int x, int y) { return s.orientation(x, y); },
            [&](int x, int y) { return static_cast<double>(s.strength.at(x, y)); }, maxStrength, needleStep_));
    }, *sweep);
}

void ViewportWidget::updateGlyph() {
    if (!glyphVisible_ || !cursor_ || imageW_ <= 0) {
        primary_.clearGlyph();
        secondary_.clearGlyph();
        return;
    }
    const int x = transform_.pixelX(areaX(cursor_->x())), y = transform_.pixelY(cursor_->y() * devicePixelRatioF());
    primary_.setGlyph(glyphAngle_, glyphLength_, x, y);
    secondary_.setGlyph(glyphAngle_, glyphLength_, x, y);
}

void ViewportWidget::updateProbe(QPointF logical) {
    ProbeValues p;
    p.x = transform_.pixelX(areaX(logical.x()));
    p.y = transform_.pixelY(logical.y() * devicePixelRatioF());
    p.inside = p.x >= 0 && p.y >= 0 && p.x < imageW_ && p.y < imageH_;
    p.value = original_ ? pixelAt(*original_, p.x, p.y) : kNaN;
    // A few pixels read where the planes are (on the device in GPU mode), never the planes.
    p.result = result_ ? session::pixelOf(*result_, session::ContourSource::Result, p.x, p.y) : kNaN;
    p.supremum = p.orientation = p.strength = kNaN;
    if (sweep_ && p.inside) {
        p.supremum = session::pixelOf(*sweep_, session::ContourSource::Supremum, p.x, p.y);
        p.strength = session::pixelOf(*sweep_, session::ContourSource::Strength, p.x, p.y);
        const double a = session::orientationOf(*sweep_, p.x, p.y);
        p.orientation = std::isnan(a) ? kNaN : normalizeAngle(a);
    }
    probe_ = p;
    emit probeChanged(probe_);
}

// --- drawing --------------------------------------------------------------------------

void ViewportWidget::paintGL() {
    if (!primary_.initialized()) return;
    timings_.upload = timings_.gpu = 0;
    try {
        bool gpuDrew = false;
        if (gpuOn_) {
            const auto t = std::chrono::steady_clock::now();
            gpuDrew = drawGpuView();
            timings_.gpu = msSince(t);
        }
        const auto t = std::chrono::steady_clock::now();
        if (!gpuDrew && primaryStale_) uploadPrimary();
        if (compare_ != CompareMode::Single && secondaryStale_) uploadSecondary();
        if (contoursStale_) {
            contoursStale_ = false;
            for (render::ViewportRenderer* r : {&primary_, &secondary_}) {
                if (contours_ && contoursVisible_) r->setContours(*contours_);
                else r->clearContours();
            }
        }
        if (needlesStale_) updateNeedles();
        timings_.upload = msSince(t);

        const auto drawStart = std::chrono::steady_clock::now();
        const int w = framebufferWidth(), h = framebufferHeight();
        const GLuint fb = defaultFramebufferObject();
        primary_.setView(transform_);
        secondary_.setView(transform_);
        switch (compare_) {
        case CompareMode::Single: primary_.render({fb, w, h}); break;
        case CompareMode::SideBySide: {
            const render::PixelRect right = primaryArea(), left{0, 0, right.x, h};
            secondary_.render({fb, w, h, left, left});
            primary_.render({fb, w, h, right, right});
            primary_.fill({fb, w, h}, {right.x - 1, 0, 2, h}, {0.9f, 0.9f, 0.9f, 1});
            break;
        }
        case CompareMode::Split: {
            const int sx = static_cast<int>(std::lround(split_ * w));
            const render::PixelRect whole{0, 0, w, h};
            secondary_.render({fb, w, h, whole, {0, 0, sx, h}});
            primary_.render({fb, w, h, whole, {sx, 0, w - sx, h}});
            primary_.fill({fb, w, h}, {sx - 1, 0, 2, h}, {0.9f, 0.9f, 0.9f, 1});
            break;
        }
        }
        paintOverlay(fb, w, h);
        timings_.draw = msSince(drawStart);
    } catch (const std::exception& e) {
        fail(QString::fromStdString(e.what()));
    }
    ++framesThisSecond_;
    if (fpsClock_.elapsed() >= 1000) {
        timings_.fps = framesThisSecond_ * 1000.0 / static_cast<double>(fpsClock_.restart());
        framesThisSecond_ = 0;
    }
    emit frameDrawn();
}

// --- overlay --------------------------------------------------------------------------

void ViewportWidget::setOverlayInfo(const QString& backend, const QString& device) {
    backendName_ = backend;
    deviceName_ = device;
    update();
}

void ViewportWidget::setComputeMs(double ms) { computeMs_ = ms; }

void ViewportWidget::setOverlayVisible(bool visible) {
    overlayVisible_ = visible;
    if (followWindow_) refit();  // the band kept for it
    update();
}

QRectF ViewportWidget::overlayPanelRect() const {
#if defined(LINESCOPE_HAVE_IMGUI)
    if (!overlayVisible_ || !overlay_.initialized()) return {};
    const render::OverlayRect r = overlay_.panelRect();
    return {r.x, r.y, r.width, r.height};
#else
    return {};
#endif
}

bool ViewportWidget::overlayAvailable() const {
#if defined(LINESCOPE_HAVE_IMGUI)
    return overlay_.initialized();
#else
    return false;
#endif
}

void ViewportWidget::paintOverlay(unsigned framebuffer, int width, int height) {
#if defined(LINESCOPE_HAVE_IMGUI)
    (void)framebuffer;  // still bound: the renderers drew into it
    (void)width;
    (void)height;
    if (!overlayVisible_ || !overlay_.initialized()) return;
    render::OverlayState& st = overlayState_;
    st.backend = backendName_.toStdString();
    st.device = deviceName_.toStdString();
    st.timings.computeMs = computeMs_;
    st.timings.interopMs = gpuOn_ ? std::optional<double>(timings_.gpu) : std::nullopt;
    st.timings.uploadMs = gpuOn_ ? std::nullopt : std::optional<double>(timings_.upload);
    st.timings.drawMs = timings_.draw;
    st.timings.fps = timings_.fps > 0 ? std::optional<double>(timings_.fps) : std::nullopt;
    auto opt = [](double v) { return std::isnan(v) ? std::nullopt : std::optional<double>(v); };
    st.probe.valid = probe_.inside;
    st.probe.x = probe_.x;
    st.probe.y = probe_.y;
    st.probe.value = opt(probe_.value);
    st.probe.result = opt(probe_.result);
    st.probe.supremum = opt(probe_.supremum);
    st.probe.orientationDeg = opt(probe_.orientation);
    st.probe.strength = opt(probe_.strength);
    st.toggles.contours = contoursVisible_;
    st.toggles.seGlyph = glyphVisible_;
    st.toggles.orientationBlend = blend_;
    st.toggles.needles = needleStep_ > 0;
    try {
        overlay_.beginFrame(static_cast<float>(this->width()), static_cast<float>(this->height()),
                            static_cast<float>(devicePixelRatioF()),
                            static_cast<float>(std::max<qint64>(frameClock_.restart(), 1)) / 1000.0f);
        if (overlay_.draw(st)) {
            contoursVisible_ = st.toggles.contours;
            contoursStale_ = true;
            glyphVisible_ = st.toggles.seGlyph;
            updateGlyph();
            emit overlayToggled(st.toggles.contours, st.toggles.seGlyph, st.toggles.orientationBlend,
                                st.toggles.needles);
        }
        overlay_.render();
        if (overlay_.needsAnotherFrame()) update();
    } catch (const std::exception& e) {
        overlayVisible_ = false;
        fail(tr("the overlay failed: %1").arg(QString::fromStdString(e.what())));
    }
#else
    (void)framebuffer;
    (void)width;
    (void)height;
#endif
}

// --- input ----------------------------------------------------------------------------

void ViewportWidget::wheelEvent(QWheelEvent* e) {
    followWindow_ = false;
    transform_.wheel(areaX(e->position().x()), e->position().y() * devicePixelRatioF(), e->angleDelta().y());
    updateGlyph();
    update();
    e->accept();
}

void ViewportWidget::mousePressEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton && compare_ == CompareMode::Split &&
        std::abs(e->position().x() - split_ * width()) <= kSplitGrab) {
        draggingSplit_ = true;
        e->accept();
        return;
    }
    if (e->button() == Qt::LeftButton || e->button() == Qt::MiddleButton) {
        dragging_ = true;
        lastPos_ = e->position();
        setCursor(Qt::ClosedHandCursor);
        e->accept();
        return;
    }
    QOpenGLWidget::mousePressEvent(e);
}

void ViewportWidget::mouseMoveEvent(QMouseEvent* e) {
    cursor_ = e->position();
    if (draggingSplit_) {
        setSplitPosition(e->position().x() / std::max(width(), 1));
    } else if (dragging_) {
        const double dpr = devicePixelRatioF();
        const QPointF d = e->position() - lastPos_;
        lastPos_ = e->position();
        followWindow_ = false;
        transform_.drag(d.x() * dpr, d.y() * dpr);
    }
    updateGlyph();
    updateProbe(e->position());
    update();
}

void ViewportWidget::mouseReleaseEvent(QMouseEvent* e) {
    if (draggingSplit_ || dragging_) {
        draggingSplit_ = dragging_ = false;
        unsetCursor();
        return;
    }
    QOpenGLWidget::mouseReleaseEvent(e);
}

void ViewportWidget::mouseDoubleClickEvent(QMouseEvent*) { zoomToFit(); }

void ViewportWidget::leaveEvent(QEvent* e) {
    cursor_.reset();
    updateGlyph();
    probe_.inside = false;
    emit probeChanged(probe_);
    update();
    QOpenGLWidget::leaveEvent(e);
}

}  // namespace linescope::ui
