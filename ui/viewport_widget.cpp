#include "ui/viewport_widget.h"

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QSurfaceFormat>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <exception>
#include <type_traits>
#include <variant>

namespace linescope::ui {

namespace {

void* loadGl(const char* name) {
    QOpenGLContext* ctx = QOpenGLContext::currentContext();
    return ctx ? reinterpret_cast<void*>(ctx->getProcAddress(name)) : nullptr;
}

}  // namespace

ViewportWidget::ViewportWidget(QWidget* parent) : QOpenGLWidget(parent) {
    QSurfaceFormat f = format();
    f.setRenderableType(QSurfaceFormat::OpenGL);
    f.setVersion(3, 3);
    f.setProfile(QSurfaceFormat::CoreProfile);
    setFormat(f);
    setMinimumSize(200, 150);
    setFocusPolicy(Qt::StrongFocus);
}

ViewportWidget::~ViewportWidget() {
    // The renderer touches no OpenGL in its destructor: release while the context lives.
    if (context()) {
        makeCurrent();
        releaseGl();
        doneCurrent();
    }
}

void ViewportWidget::releaseGl() {
    if (renderer_.initialized()) renderer_.release();
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
        renderer_.initialize(&loadGl);
        uploadPending_ = snapshot_ != nullptr;  // textures do not survive a new context
    } catch (const std::exception& e) {
        fail(QString::fromStdString(e.what()));
    }
}

void ViewportWidget::rangeOf(const session::AnyImage& img, double* lo, double* hi) {
    std::visit([&](const auto& im) {
        using T = std::remove_const_t<std::remove_pointer_t<decltype(im.cview().data)>>;
        if constexpr (std::is_same_v<T, std::uint8_t>) {
            *lo = 0; *hi = 255;
        } else if constexpr (std::is_same_v<T, std::uint16_t>) {
            *lo = 0; *hi = 65535;
        } else {
            const auto px = im.pixels();
            if (px.empty()) { *lo = 0; *hi = 1; return; }
            const auto [mn, mx] = std::minmax_element(px.begin(), px.end());
            *lo = *mn; *hi = *mx;
        }
    }, img);
}

void ViewportWidget::showSnapshot(session::SnapshotPtr snapshot) {
    if (!snapshot || !snapshot->ok() || !snapshot->result) return;
    const int w = session::widthOf(*snapshot->result), h = session::heightOf(*snapshot->result);
    const bool newSize = w != imageW_ || h != imageH_;
    snapshot_ = std::move(snapshot);
    imageW_ = w;
    imageH_ = h;
    uploadPending_ = true;
    if (newSize && followWindow_) refit();
    update();
}

void ViewportWidget::refit() {
    view_ = render::ViewTransform::fit(imageW_, imageH_, framebufferWidth(), framebufferHeight());
}

void ViewportWidget::zoomOneToOne() {
    followWindow_ = false;
    view_ = render::ViewTransform::oneToOne(imageW_, imageH_, framebufferWidth(), framebufferHeight());
    update();
}

void ViewportWidget::zoomToFit() {
    followWindow_ = true;
    refit();
    update();
}

void ViewportWidget::resizeGL(int, int) {
    if (followWindow_) refit();
}

void ViewportWidget::paintGL() {
    if (!renderer_.initialized()) return;
    try {
        if (uploadPending_ && snapshot_) {
            std::visit([&](const auto& im) { renderer_.uploadImage(im.cview()); }, *snapshot_->result);
            double lo = 0, hi = 255;
            rangeOf(*snapshot_->result, &lo, &hi);
            renderer_.setDisplayRange(lo, hi);
            uploadPending_ = false;
        }
        renderer_.setView(view_);
        renderer_.render({defaultFramebufferObject(), framebufferWidth(), framebufferHeight()});
    } catch (const std::exception& e) {
        fail(QString::fromStdString(e.what()));
    }
}

void ViewportWidget::wheelEvent(QWheelEvent* e) {
    const double dpr = devicePixelRatioF();
    followWindow_ = false;
    view_.wheel(e->position().x() * dpr, e->position().y() * dpr, e->angleDelta().y());
    update();
    e->accept();
}

void ViewportWidget::mousePressEvent(QMouseEvent* e) {
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
    if (!dragging_) return QOpenGLWidget::mouseMoveEvent(e);
    const double dpr = devicePixelRatioF();
    const QPointF d = e->position() - lastPos_;
    lastPos_ = e->position();
    followWindow_ = false;
    view_.drag(d.x() * dpr, d.y() * dpr);
    update();
}

void ViewportWidget::mouseReleaseEvent(QMouseEvent* e) {
    if (dragging_) {
        dragging_ = false;
        unsetCursor();
        return;
    }
    QOpenGLWidget::mouseReleaseEvent(e);
}

void ViewportWidget::mouseDoubleClickEvent(QMouseEvent*) { zoomToFit(); }

}  // namespace linescope::ui
