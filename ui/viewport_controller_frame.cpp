// ViewportController's frame: the uploads of stale views (CPU path) or the GPU path's
// writes, contours and needles, the draws of the compare modes, and the overlay's panel.
#include "ui/viewport_controller.h"

#include "render/gpu_views.h"
#include "app/session/device_planes.h"
#include "app/session/kind_difference.h"
#include "app/session/planes.h"
#include "render/orientation_needles.h"

#include <QCoreApplication>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <type_traits>
#include <variant>

namespace linescope::ui {

namespace {

double msSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
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

void ViewportController::rangeOf(const session::AnyImage& img, double* lo, double* hi) {
    std::visit([&](const auto& im) { displayRange(im, lo, hi); }, img);
}

// --- uploads ----------------------------------------------------------------------------

int ViewportController::uploadStep(const session::Snapshot& sweep) const {
    if (!sweep.preview) return 1;  // the exact sweep: every pixel, for any zoom to come
    // A preview is replaced within seconds: every step-th pixel is enough while the view
    // shows step or more image pixels a screen pixel (a 16 Mpx map is 128 MB to upload), and
    // a reduced preview holds each pixel r × r times anyway.
    const int zoomStep = transform_.zoom > 0 ? static_cast<int>(std::floor(1.0 / transform_.zoom)) : 1;
    return std::clamp(std::max(zoomStep, sweep.preview->reduction), 1, 8);
}

void ViewportController::uploadPrimary() {
    primaryStale_ = false;
    primary_.setColourMap(render::ColourMap::Grey);
    switch (view_) {
    case Plane::Original:
        showOriginalInPrimary();
        return;
    case Plane::Result:
        if (result_) {
            // GPU-mode planes come down only when interop cannot write them (drawGpuView).
            if (const auto r = session::hostResult(*result_)) uploadGrey(primary_, *r);
            originalInPrimary_ = false;
            shownResultId_ = result_->id;
            // The two kinds' difference over the session's kind's result (until the request
            // that compares them is in, the result alone).
            if (compare_ == CompareMode::KindsDifference && result_->difference) {
                const session::KindDifference& d = *result_->difference;
                primary_.uploadDifference(d.signedDifference.cview(), d.maxAbs);
                primary_.setColourMap(render::ColourMap::SignedDifference);
            }
        }
        return;
    case Plane::Supremum:
    case Plane::Infimum:
    case Plane::Strength:
    case Plane::Orientation: break;
    }
    if (!sweep_) return;
    const auto sweep = session::hostSweep(*sweep_);
    if (!sweep) return;
    shownSweepId_ = sweep_->id;
    std::visit([&](const auto& s) {
        switch (view_) {
        case Plane::Supremum: uploadGrey(primary_, s.sup); originalInPrimary_ = false; return;
        case Plane::Infimum: uploadGrey(primary_, s.inf); originalInPrimary_ = false; return;
        case Plane::Strength: uploadGrey(primary_, s.strength); originalInPrimary_ = false; return;
        case Plane::Orientation: break;
        case Plane::Original:
        case Plane::Result: return;  // not sweep views: handled above
        }
        primary_.uploadOrientation(s, uploadStep(*sweep_));
        const bool over = blend_ && original_;
        if (over) showOriginalInPrimary();
        primary_.setOrientationBlend(blendAmount_);
        primary_.setColourMap(over ? render::ColourMap::OrientationOverImage : render::ColourMap::Orientation);
    }, *sweep);
}

void ViewportController::showOriginalInPrimary() {
    // The Image texture keeps the original until another view writes it: a λ drag over the
    // blended orientation map does not upload the image again with every sweep.
    if (!original_ || originalInPrimary_) return;
    uploadGrey(primary_, *original_);
    originalInPrimary_ = true;
}

void ViewportController::uploadSecondary() {
    secondaryStale_ = false;
    secondary_.setColourMap(render::ColourMap::Grey);
    // Beside the result: the other kind's, once the request comparing them is in.
    if (comparingKinds()) {
        if (result_ && result_->against) uploadGrey(secondary_, *result_->against);
        return;
    }
    if (!original_) return;
    uploadGrey(secondary_, *original_);
}

bool ViewportController::drawGpuView() {
#if defined(LINESCOPE_HAVE_CUDA)
    // GPU mode: the session's engine computed the view once, on the device; kernels write
    // its planes into the textures. Host snapshots (the CPU path) are uploaded instead.
    // The kinds' comparisons are computed on the host (resident_engine.cpp).
    if (!gpu_ || view_ == Plane::Original || comparingKinds()) return false;
    const session::SnapshotPtr& shown = view_ == Plane::Result ? result_ : sweep_;
    if (!shown || !shown->device) return false;
    if (!gpuViewStale_) return true;
    try {
        const session::DevicePlanes& d = *shown->device;
        primary_.setColourMap(render::ColourMap::Grey);
        switch (view_) {
        case Plane::Result:
            if (!d.result) return false;
            gpu_->showPlane(primary_, *d.result, shown);
            originalInPrimary_ = false;
            shownResultId_ = shown->id;
            break;
        case Plane::Supremum:
        case Plane::Infimum:
        case Plane::Strength: {
            const cuda::ResidentImage* plane = d.plane(view_);
            if (!plane) return false;
            gpu_->showPlane(primary_, *plane, shown);
            originalInPrimary_ = false;
            shownSweepId_ = shown->id;
            break;
        }
        case Plane::Orientation:
            if (!d.sweep) return false;
            // The image under the colours: the original, uploaded once per image (not per sweep).
            if (blend_) showOriginalInPrimary();
            gpu_->showOrientation(primary_, *d.sweep, shown);
            primary_.setOrientationBlend(blendAmount_);
            primary_.setColourMap(blend_ && original_ ? render::ColourMap::OrientationOverImage
                                                      : render::ColourMap::Orientation);
            shownSweepId_ = shown->id;
            break;
        case Plane::Original: return false;
        }
        gpuViewStale_ = primaryStale_ = false;
        return true;
    } catch (const std::exception& e) {
        // Interop failed: the planes come down instead.
        loseGpuPath(QCoreApplication::translate("ViewportController",
                                                "CUDA-OpenGL interop failed (%1); the views are copied through the host")
                        .arg(QString::fromStdString(e.what())));
        return false;
    }
#else
    return false;
#endif
}

void ViewportController::updateNeedles() {
    needlesStale_ = false;
    // One angle and one strength a cell: gathered on the device in GPU mode, not the planes.
    std::vector<double> angles, strengths;
    if (view_ != Plane::Orientation || needleStep_ < 2 || !sweep_ ||
        !session::cellSamples(*sweep_, needleStep_, &angles, &strengths)) {
        primary_.clearNeedles();
        return;
    }
    const auto& img = *sweep_->request.image;
    const int w = session::widthOf(img), h = session::heightOf(img), step = needleStep_;
    const int cols = w > step / 2 ? (w - step / 2 + step - 1) / step : 0;
    const auto cell = [&](int x, int y) { return static_cast<std::size_t>((y / step) * cols + x / step); };
    primary_.setNeedles(render::orientationNeedles(
        w, h, [&](int x, int y) { return angles[cell(x, y)]; }, [&](int x, int y) { return strengths[cell(x, y)]; },
        sweep_->spectrum->maxStrength, step));
}

// --- drawing ----------------------------------------------------------------------------

bool ViewportController::render(GLuint framebuffer, int width, int height) {
    if (!primary_.initialized()) return false;
    needsFrame_ = false;  // the overlay may ask for one more below
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
        if (compare_ != CompareMode::Single && compare_ != CompareMode::KindsDifference && secondaryStale_)
            uploadSecondary();
        if (contoursStale_) {
            contoursStale_ = false;
            // Shared with the snapshot, not copied; the original's side only when it is shown.
            const bool shown = contours_ && contoursVisible_;
            if (shown) primary_.setContours(contours_);
            else primary_.clearContours();
            if (shown && (sideBySide() || compare_ == CompareMode::Split)) secondary_.setContours(contours_);
            else secondary_.clearContours();
        }
        if (needlesStale_) updateNeedles();
        timings_.upload = msSince(t);

        const auto drawStart = std::chrono::steady_clock::now();
        drawViews(framebuffer, width, height);
        paintOverlay();
        timings_.draw = msSince(drawStart);
    } catch (const std::exception& e) {
        fail(QString::fromStdString(e.what()));
    }
    ++framesThisSecond_;
    if (fpsClock_.elapsed() >= 1000) {
        timings_.fps = framesThisSecond_ * 1000.0 / static_cast<double>(fpsClock_.restart());
        framesThisSecond_ = 0;
    }
    return true;
}

void ViewportController::drawViews(GLuint fb, int w, int h) {
    primary_.setView(transform_);
    secondary_.setView(transform_);
    // The kinds' modes outside the Result view show the view alone.
    switch (compare_) {
    case CompareMode::Single:
    case CompareMode::KindsDifference: primary_.render({fb, w, h}); break;
    case CompareMode::KindsSideBySide:
        if (!sideBySide()) {
            primary_.render({fb, w, h});
            break;
        }
        [[fallthrough]];
    case CompareMode::SideBySide: {
        const render::PixelRect right = primaryArea(w, h), left{0, 0, right.x, h};
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
}

// Draws into the framebuffer the views were drawn into (still bound).
void ViewportController::paintOverlay() {
#if defined(LINESCOPE_HAVE_IMGUI)
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
        overlay_.beginFrame(static_cast<float>(logicalWidth_), static_cast<float>(logicalHeight_),
                            static_cast<float>(devicePixelRatio_),
                            static_cast<float>(std::max<qint64>(frameClock_.restart(), 1)) / 1000.0f);
        if (overlay_.draw(st)) {
            contoursVisible_ = st.toggles.contours;
            contoursStale_ = true;
            glyphVisible_ = st.toggles.seGlyph;
            updateGlyph();
            if (hooks_.overlayToggled)
                hooks_.overlayToggled(st.toggles.contours, st.toggles.seGlyph, st.toggles.orientationBlend,
                                      st.toggles.needles);
        }
        overlay_.render();
        if (overlay_.needsAnotherFrame()) requestFrame();
    } catch (const std::exception& e) {
        overlayVisible_ = false;
        fail(QCoreApplication::translate("ViewportController", "the overlay failed: %1")
                 .arg(QString::fromStdString(e.what())));
    }
#endif
}

}  // namespace linescope::ui
