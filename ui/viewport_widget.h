// The central viewport: a QOpenGLWidget (OpenGL 3.3 core) hosting render/'s ViewportRenderer.
// It shows one view — the original, the result, or a plane of the sweep (supremum, infimum,
// strength, orientation map) — alone, side by side with the original, or split with it, with
// pan (drag), zoom (wheel about the cursor, fit, 1:1), the contours, the orientation needles
// and the structuring-element glyph at the cursor. It never computes: it shows the session's
// snapshots when it paints. Host snapshots (the CPU path) are uploaded; GPU-mode snapshots,
// whose planes the engine left on the device, are written into the textures by CUDA
// (render/gpu_views.h) with the GPU path on (setGpuPath), or downloaded when interop fails.
//
// Thread: UI thread only.
#pragma once

#include "app/session/snapshot.h"
#include "render/viewport_renderer.h"
#if defined(LINESCOPE_HAVE_IMGUI)
#include "render/imgui_overlay.h"
#include "ui/imgui_qt_input.h"
#endif

#include <QElapsedTimer>
#include <QOpenGLWidget>
#include <QPointF>
#include <QRectF>

#include <functional>

class QLabel;
#include <memory>
#include <optional>

namespace linescope::render {
class GpuViews;
}

namespace linescope::ui {

enum class ViewKind { Original, Result, Supremum, Infimum, Orientation, Strength };
inline constexpr int kViewKindCount = 6;
const char* viewKindName(ViewKind v);  // "Original", "Result", …

enum class CompareMode { Single, SideBySide, Split };

// What the probe reads under the cursor: NaN where a view is not available yet.
struct ProbeValues {
    bool inside = false;
    int x = 0, y = 0;
    double value = 0, result = 0, supremum = 0, orientation = 0, strength = 0;
};

// Milliseconds of the last frame's stages (0 when the stage did not run).
struct FrameTimings {
    double upload = 0;   // CPU path: pixel buffer uploads
    double gpu = 0;      // GPU path: enqueueing the engine and interop work
    double draw = 0;     // the renderers' draw calls and the overlay
    double fps = 0;      // frames per second over the last second
};

class ViewportWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit ViewportWidget(QWidget* parent = nullptr);
    ~ViewportWidget() override;

    // --- what to show -------------------------------------------------------------------
    void setView(ViewKind view);
    ViewKind view() const { return view_; }
    void setCompareMode(CompareMode mode);
    CompareMode compareMode() const { return compare_; }
    // The split's position as a fraction of the width (Split mode); also dragged with the mouse.
    void setSplitPosition(double fraction);
    double splitPosition() const { return split_; }

    // The session's data. Each is uploaded at the next paint if the current view uses it.
    void setOriginal(std::shared_ptr<const session::AnyImage> image);
    void showSnapshot(session::SnapshotPtr snapshot);  // Result or Sweep snapshots
    void setContours(std::shared_ptr<const Contours> contours);
    void setContoursVisible(bool visible);
    void setHighlightedContour(int index);
    // The snapshot shown in the Result view (or to be shown at the next paint).
    session::SnapshotPtr snapshot() const { return result_; }
    session::SnapshotPtr sweepSnapshot() const { return sweep_; }

    // Orientation map: blended over the original (blend > 0) or alone; needles every `step`
    // image pixels (0: none).
    void setOrientationBlend(bool on, double blend = 0.7);
    void setNeedles(int step);

    // The SE glyph at the cursor: the segment of the current angle and λ.
    void setGlyph(double angleDegrees, int length);
    void setGlyphVisible(bool visible);

    // --- GPU path -----------------------------------------------------------------------
    // Turns the CUDA-OpenGL path on or off; false (and why) when CUDA cannot run here.
    bool setGpuPath(bool on, QString* why = nullptr);
    bool gpuPath() const { return gpuOn_; }

    // --- pan and zoom -------------------------------------------------------------------
    void zoomOneToOne();
    void zoomToFit();
    const render::ViewTransform& viewTransform() const { return transform_; }

    // The display range of an image: uint8 0…255, uint16 0…65535, float its min…max.
    static void rangeOf(const session::AnyImage& img, double* lo, double* hi);

    ProbeValues probe() const { return probe_; }
    FrameTimings timings() const { return timings_; }
    // Which data the last frame showed, for tests: the result snapshot's id, or 0.
    std::uint64_t shownResultId() const { return shownResultId_; }
    std::uint64_t shownSweepId() const { return shownSweepId_; }

    // The last OpenGL failure ("" when none): shader, context or upload errors.
    QString glError() const { return glError_; }

    // The Dear ImGui overlay (when built with it): backend and device names, the engine's
    // last compute time, and its toggles (contours, glyph, orientation blend, needles), which
    // the widget applies to itself and reports through overlayToggled().
    void setOverlayInfo(const QString& backend, const QString& device);
    void setComputeMs(double ms);
    void setOverlayVisible(bool visible);
    bool overlayAvailable() const;
    // The overlay's panel as last drawn, in logical pixels (empty when hidden or unavailable).
    QRectF overlayPanelRect() const;

signals:
    void glFailed(const QString& message);
    void probeChanged(const linescope::ui::ProbeValues& probe);
    void frameDrawn();
    // The user flipped a toggle in the overlay: contours shown, glyph, blend, needles on.
    void overlayToggled(bool contours, bool glyph, bool blend, bool needles);

protected:
    void initializeGL() override;
    void paintGL() override;
    void resizeGL(int w, int h) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent* e) override;

private slots:
    void contextAboutToBeDestroyed();

private:
    void releaseGl();
    void fail(const QString& message);
    int framebufferWidth() const;
    int framebufferHeight() const;
    void refit();
    void viewSizeChanged(int w, int h);
    void uploadPrimary();
    void uploadSecondary();
    bool drawGpuView();
    void updateNeedles();
    void updateGlyph();
    void updateProbe(QPointF logical);
    render::PixelRect primaryArea() const;
    // A logical x of the widget as a framebuffer x of the area it falls in.
    double areaX(double logicalX) const;
    void placeLabels();  // the compare modes' side labels
    void paintOverlay(unsigned framebuffer, int width, int height);

    render::ViewportRenderer primary_, secondary_;
    std::unique_ptr<render::GpuViews> gpu_;
    bool gpuOn_ = false;
    bool gpuViewStale_ = true;

    ViewKind view_ = ViewKind::Result;
    CompareMode compare_ = CompareMode::Single;
    double split_ = 0.5;
    bool draggingSplit_ = false;
    QLabel* leftLabel_ = nullptr;
    QLabel* rightLabel_ = nullptr;

    std::shared_ptr<const session::AnyImage> original_;
    session::SnapshotPtr result_, sweep_;
    std::shared_ptr<const Contours> contours_;
    bool contoursVisible_ = false;
    bool primaryStale_ = true, secondaryStale_ = true, contoursStale_ = true;
    bool blend_ = false;
    double blendAmount_ = 0.7;
    int needleStep_ = 0;
    bool needlesStale_ = true;
    std::uint64_t shownResultId_ = 0, shownSweepId_ = 0;

    double glyphAngle_ = 0;
    int glyphLength_ = 1;
    bool glyphVisible_ = true;
    std::optional<QPointF> cursor_;  // logical position while the mouse is over the view
    ProbeValues probe_;

    int imageW_ = 0, imageH_ = 0;
    render::ViewTransform transform_;
    bool followWindow_ = true;  // fit mode: refit on resize and on a new image size
    bool dragging_ = false;
    QPointF lastPos_;
    QString glError_;

    FrameTimings timings_;
    QElapsedTimer fpsClock_;
    int framesThisSecond_ = 0;

    bool overlayVisible_ = true;
    // Logical pixels kept clear above a fitted image for the collapsed overlay (its line,
    // about 36 px with its padding, its 10 px margin, and a little air).
    static constexpr int kOverlayBand = 52;
    static constexpr int kOverlayWidthGuess = 320;  // its width before it is first drawn
    double computeMs_ = 0;
    QString backendName_ = QStringLiteral("CPU"), deviceName_;
    QElapsedTimer frameClock_;
#if defined(LINESCOPE_HAVE_IMGUI)
    render::ImGuiOverlay overlay_;
    ImGuiQtInput overlayInput_{overlay_};  // after overlay_: it holds a reference
    render::OverlayState overlayState_;
#endif
};

}  // namespace linescope::ui
