// The central viewport: a QOpenGLWidget (OpenGL 3.3 core) hosting ViewportController, which
// holds the viewport's logic and draws its frames (ui/viewport_controller.h). The widget
// brings the window system to it: the context (its proc addresses, its framebuffer, its
// replacement), the size and device pixel ratio, mouse and wheel events, the Dear ImGui
// overlay's input (ImGuiQtInput), repaints when the controller asks, and the compare modes'
// side labels. Its API forwards to the controller, for MainWindow and the tests.
//
// Thread: UI thread only.
#pragma once

#include "ui/viewport_controller.h"
#if defined(LINESCOPE_HAVE_IMGUI)
#include "ui/imgui_qt_input.h"
#endif

#include <QOpenGLWidget>
#include <QPointF>
#include <QRectF>

#include <memory>

class QLabel;
class QRubberBand;

namespace linescope::session {
class Session;
}

namespace linescope::ui {

class FreshnessBadge;

class ViewportWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit ViewportWidget(QWidget* parent = nullptr);
    ~ViewportWidget() override;

    // The viewport's logic; the forwarders below are the window's and the tests' way in.
    ViewportController& controller() { return controller_; }
    const ViewportController& controller() const { return controller_; }

    // Shows the session's image and its result, sweep and contour snapshots as they are
    // published (ok ones; the window reports errors), and marks the shown view's data as a
    // preview or stale against the session's parameters. Once, at construction time.
    void follow(const session::Session& session);
    // The mark in the top right corner: what the shown Result or sweep plane is (a preview,
    // stale) when it is not the exact result of the current parameters.
    FreshnessBadge* freshnessBadge() const { return badge_; }

    // --- what to show (see ViewportController) ------------------------------------------
    void setView(Plane view);
    Plane view() const { return controller_.view(); }
    void setCompareMode(CompareMode mode);
    CompareMode compareMode() const { return controller_.compareMode(); }
    // The split's position as a fraction of the width (Split mode); also dragged with the mouse.
    void setSplitPosition(double fraction);
    double splitPosition() const { return controller_.splitPosition(); }

    void setOriginal(std::shared_ptr<const session::AnyImage> image) { controller_.setOriginal(std::move(image)); }
    void showSnapshot(session::SnapshotPtr snapshot) { controller_.showSnapshot(std::move(snapshot)); }
    void setContours(std::shared_ptr<const Contours> contours) { controller_.setContours(std::move(contours)); }
    void setContoursVisible(bool visible) { controller_.setContoursVisible(visible); }
    void setHighlightedContour(int index) { controller_.setHighlightedContour(index); }
    // The snapshot shown in the Result view (or to be shown at the next paint).
    session::SnapshotPtr snapshot() const { return controller_.snapshot(); }
    session::SnapshotPtr sweepSnapshot() const { return controller_.sweepSnapshot(); }

    void setOrientationBlend(bool on, double blend = 0.7) { controller_.setOrientationBlend(on, blend); }
    void setNeedles(int step) { controller_.setNeedles(step); }
    void setGlyph(double angleDegrees, int length, LineKind kind = LineKind::Paths) {
        controller_.setGlyph(angleDegrees, length, kind);
    }
    void setGlyphVisible(bool visible) { controller_.setGlyphVisible(visible); }

    // --- GPU path -----------------------------------------------------------------------
    bool setGpuPath(bool on, QString* why = nullptr) { return controller_.setGpuPath(on, why); }
    bool gpuPath() const { return controller_.gpuPath(); }

    // --- pan and zoom -------------------------------------------------------------------
    void zoomOneToOne() { controller_.zoomOneToOne(); }
    void zoomToFit() { controller_.zoomToFit(); }
    const render::ViewTransform& viewTransform() const { return controller_.viewTransform(); }

    static void rangeOf(const session::AnyImage& img, double* lo, double* hi) {
        ViewportController::rangeOf(img, lo, hi);
    }

    ProbeValues probe() const { return controller_.probe(); }
    FrameTimings timings() const { return controller_.timings(); }
    std::uint64_t shownResultId() const { return controller_.shownResultId(); }
    std::uint64_t shownSweepId() const { return controller_.shownSweepId(); }
    QString glError() const { return controller_.glError(); }

    // --- a region of pixels (the granulometry's; ViewportController) ---------------------
    // Armed, the next left drag draws the region (a crosshair cursor) and regionDrawn says
    // which; the region set here is outlined over the image, following pan and zoom.
    void setRegionDrawing(bool armed);
    bool regionDrawing() const { return controller_.regionDrawing(); }
    void setRegion(std::optional<PixelRect> region);
    // The outline as placed now (hidden: no region), for tests and screenshots.
    QWidget* regionOutline() const;

    // --- the Dear ImGui overlay ---------------------------------------------------------
    void setOverlayInfo(const QString& backend, const QString& device) { controller_.setOverlayInfo(backend, device); }
    void setComputeMs(double ms) { controller_.setComputeMs(ms); }
    void setOverlayVisible(bool visible) { controller_.setOverlayVisible(visible); }
    bool overlayAvailable() const { return controller_.overlayAvailable(); }
    QRectF overlayPanelRect() const { return controller_.overlayPanelRect(); }

signals:
    void glFailed(const QString& message);
    void probeChanged(const linescope::ui::ProbeValues& probe);
    void frameDrawn();
    // The user flipped a toggle in the overlay: contours shown, glyph, blend, needles on.
    void overlayToggled(bool contours, bool glyph, bool blend, bool needles);
    // The GPU path turned itself off (ViewportHooks::gpuPathLost): why.
    void gpuPathLost(const QString& why);
    // The user drew a region of pixels (setRegionDrawing), cut to the image.
    void regionDrawn(const linescope::PixelRect& region);

protected:
    void initializeGL() override;
    void paintGL() override;
    void resizeGL(int w, int h) override;
    void resizeEvent(QResizeEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent* e) override;

private slots:
    void contextAboutToBeDestroyed();

private:
    void syncSize();     // the controller's logical size and device pixel ratio, from the widget's
    void placeLabels();  // the compare modes' side labels and the freshness badge
    void placeRegion();  // the region's outline over the image
    void setOtherKind(LineKind kind);
    void updateMark(const session::Session& session);

    ViewportController controller_;
    QLabel* leftLabel_ = nullptr;
    QLabel* rightLabel_ = nullptr;
    FreshnessBadge* badge_ = nullptr;
    QRubberBand* regionBand_ = nullptr;
#if defined(LINESCOPE_HAVE_IMGUI)
    ImGuiQtInput overlayInput_{controller_.overlay()};  // after controller_: it holds a reference
#endif
};

}  // namespace linescope::ui
