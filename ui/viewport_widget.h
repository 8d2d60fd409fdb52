// The central viewport: a QOpenGLWidget (OpenGL 3.3 core) hosting render/'s ViewportRenderer.
// It shows the newest Result snapshot in grey, with pan (left-button drag) and zoom (wheel,
// about the cursor). It never computes: it uploads the snapshot's pixels when it paints.
//
// Thread: UI thread only.
#pragma once

#include "app/session/snapshot.h"
#include "render/viewport_renderer.h"

#include <QOpenGLWidget>
#include <QPointF>

namespace linescope::ui {

class ViewportWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit ViewportWidget(QWidget* parent = nullptr);
    ~ViewportWidget() override;

    // Shows a Result snapshot (ignored when it carries no result image). The upload happens
    // at the next paint. A new image size refits the view when the view follows the window.
    void showSnapshot(session::SnapshotPtr snapshot);
    // The snapshot shown (or to be shown at the next paint).
    session::SnapshotPtr snapshot() const { return snapshot_; }

    // 1:1 (one image pixel per framebuffer pixel, centred) and "fit" (whole image, follows
    // the window's size until the user pans or zooms).
    void zoomOneToOne();
    void zoomToFit();
    const render::ViewTransform& view() const { return view_; }

    // The display range of float results (uint8 and uint16 show their full range).
    static void rangeOf(const session::AnyImage& img, double* lo, double* hi);

    // The last OpenGL failure ("" when none): shader, context or upload errors.
    QString glError() const { return glError_; }

signals:
    void glFailed(const QString& message);

protected:
    void initializeGL() override;
    void paintGL() override;
    void resizeGL(int w, int h) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;

private slots:
    void contextAboutToBeDestroyed();

private:
    void releaseGl();
    void fail(const QString& message);
    int framebufferWidth() const;
    int framebufferHeight() const;
    void refit();

    render::ViewportRenderer renderer_;
    session::SnapshotPtr snapshot_;
    bool uploadPending_ = false;
    int imageW_ = 0, imageH_ = 0;
    render::ViewTransform view_;
    bool followWindow_ = true;  // fit mode: refit on resize and on a new image size
    bool dragging_ = false;
    QPointF lastPos_;
    QString glError_;
};

}  // namespace linescope::ui
