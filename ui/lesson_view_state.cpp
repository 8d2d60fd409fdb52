#include "ui/lesson_view_state.h"

#include <algorithm>
#include <cmath>

namespace linescope::ui {

void LessonViewState::resize(double width, double height, double captionHeight) {
    // A zoomed view keeps the image point at the panes' centre there.
    const QRectF before = paneRect(0);
    const QPointF centre(transform_.imageX(before.width() / 2), transform_.imageY(before.height() / 2));
    width_ = width;
    height_ = height;
    caption_ = std::round(captionHeight);
    if (follow_) refit();
    else zoomTo(transform_.zoom, centre);
}

void LessonViewState::setImageSize(int width, int height) {
    if (width == imageW_ && height == imageH_) return;
    imageW_ = width;
    imageH_ = height;
    follow_ = true;  // a new image opens fitted
    refit();
}

// Whole pixels, so that a pane's pixels fall on the canvas's at integer zooms.
double LessonViewState::paneWidth() const { return std::max(0.0, std::floor((width_ - (kPanes - 1) * kGap) / kPanes)); }

QRectF LessonViewState::paneRect(int pane) const {
    const double w = paneWidth();
    return QRectF(pane * (w + kGap), caption_, w, std::max(0.0, height_ - caption_));
}

QRectF LessonViewState::captionRect(int pane) const {
    const double w = paneWidth();
    return QRectF(pane * (w + kGap), 0, w, caption_);
}

int LessonViewState::paneAt(QPointF position) const {
    for (int i = 0; i < kPanes; ++i)
        if (paneRect(i).contains(position)) return i;
    return -1;
}

void LessonViewState::refit() {
    const QRectF r = paneRect(0);
    transform_ = render::ViewTransform::fit(imageW_, imageH_, static_cast<int>(r.width()), static_cast<int>(r.height()));
}

void LessonViewState::zoomToFit() {
    follow_ = true;
    refit();
}

void LessonViewState::zoomTo(double zoom, QPointF centre) {
    follow_ = false;
    const QRectF r = paneRect(0);
    transform_.zoom = std::clamp(zoom, render::ViewTransform::kMinZoom, render::ViewTransform::kMaxZoom);
    // Whole screen pixels, so that integer zooms stay pixel-exact.
    transform_.panX = std::round(r.width() / 2 - transform_.zoom * centre.x());
    transform_.panY = std::round(r.height() / 2 - transform_.zoom * centre.y());
}

void LessonViewState::zoomAbout(QPointF position, int angleDelta) {
    const int pane = std::max(0, paneAt(position));
    const QPointF local = position - paneRect(pane).topLeft();
    follow_ = false;
    transform_.wheel(local.x(), local.y(), angleDelta);
}

void LessonViewState::panBy(QPointF delta) {
    follow_ = false;
    transform_.drag(delta.x(), delta.y());
}

QPointF LessonViewState::toImage(int pane, QPointF position) const {
    const QPointF local = position - paneRect(pane).topLeft();
    return {transform_.imageX(local.x()), transform_.imageY(local.y())};
}

QPointF LessonViewState::toCanvas(int pane, QPointF imagePoint) const {
    return paneRect(pane).topLeft() + QPointF(transform_.screenX(imagePoint.x()), transform_.screenY(imagePoint.y()));
}

std::optional<PixelAt> LessonViewState::pixelAt(QPointF position) const {
    const int pane = paneAt(position);
    if (pane < 0) return std::nullopt;
    const QPointF p = toImage(pane, position);
    const int x = static_cast<int>(std::floor(p.x())), y = static_cast<int>(std::floor(p.y()));
    if (x < 0 || y < 0 || x >= imageW_ || y >= imageH_) return std::nullopt;
    return PixelAt{x, y};
}

bool LessonViewState::press(QPointF position, Qt::MouseButton button) {
    last_ = position;
    if (button == Qt::LeftButton) {
        const auto pixel = pixelAt(position);
        if (!pixel) return false;
        grab_ = Grab::Pin;
        pin_ = pixel;
        if (pinMoved) pinMoved(*pixel);
        return true;
    }
    if (button == Qt::RightButton || button == Qt::MiddleButton) {
        grab_ = Grab::Pan;
        return true;
    }
    return false;
}

void LessonViewState::move(QPointF position) {
    if (grab_ == Grab::Pan) {
        panBy(position - last_);
    } else if (grab_ == Grab::Pin && imageW_ > 0 && imageH_ > 0) {
        // The pane the drag began in keeps mapping the cursor, even over a gap or another pane.
        const int pane = std::max(0, paneAt(last_));
        const QPointF p = toImage(pane, position);
        const PixelAt pixel{std::clamp(static_cast<int>(std::floor(p.x())), 0, imageW_ - 1),
                            std::clamp(static_cast<int>(std::floor(p.y())), 0, imageH_ - 1)};
        if (pixel != pin_) {
            pin_ = pixel;
            if (pinMoved) pinMoved(pixel);
        }
        return;  // last_ stays in the starting pane
    }
    last_ = position;
}

bool LessonViewState::release() {
    const bool was = grab_ != Grab::None;
    grab_ = Grab::None;
    return was;
}

}  // namespace linescope::ui
