// The viewport's logic without a window system: it holds what is shown (the view, the
// compare mode, the split, pan and zoom) and the session's data (the original, the newest
// Result and Sweep snapshots, contours, needles, the SE glyph), owns the two renderers (the
// view, and the original beside it in the compare modes), the GPU path and the Dear ImGui
// overlay, and draws a frame into whatever OpenGL context is current: the QOpenGLWidget's in
// the app (ViewportWidget is its host), a bare EGL context in tests and benchmarks.
//
// Positions are logical pixels, as a window system reports them; the framebuffer has
// logical size × device pixel ratio pixels (resize()). Each change that needs a new frame
// sets needsFrame() and calls the host's repaint hook; render() draws it.
//
// Thread: one thread, the one whose OpenGL context is current at initialize() and render().
#pragma once

#include "app/session/snapshot.h"
#include "compute/granulometry.h"
#include "render/viewport_renderer.h"
#include "ui/view_kind.h"
#if defined(LINESCOPE_HAVE_IMGUI)
#include "render/imgui_overlay.h"
#endif

#include <QElapsedTimer>
#include <QPoint>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QtCore/qnamespace.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

namespace linescope::render {
class GpuViews;
}

namespace linescope::ui {

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

// What the host hears from the controller; any of them may be left empty.
struct ViewportHooks {
    std::function<void()> repaint;                         // a new frame is needed
    std::function<void(const QString&)> failed;            // an OpenGL, GPU or overlay failure
    std::function<void(const ProbeValues&)> probeChanged;  // the cursor moved or left
    // The user flipped a toggle in the overlay: contours shown, glyph, blend, needles on.
    std::function<void(bool contours, bool glyph, bool blend, bool needles)> overlayToggled;
    // The GPU path turned itself off (an OpenGL that is not NVIDIA's, a failing interop
    // write): why, in one sentence. The views are uploaded from the host from then on.
    std::function<void(const QString&)> gpuPathLost;
    // The user drew a region (setRegionDrawing): its pixels, within the image.
    std::function<void(const PixelRect&)> regionDrawn;
};

// Which drag a press started.
enum class PointerGrab { None, Split, Pan, Region };

class ViewportController {
public:
    explicit ViewportController(ViewportHooks hooks = {});
    ~ViewportController();  // touches no OpenGL: release() first while the context lives
    ViewportController(const ViewportController&) = delete;
    ViewportController& operator=(const ViewportController&) = delete;

    // --- the frame ----------------------------------------------------------------------
    // Creates the renderers' and the overlay's OpenGL objects in the current context; a
    // failure is reported through glError() and the failed hook. After a new context,
    // everything is uploaded (or written) again at the next frame.
    void initialize(render::GlProcLoader loader);
    // Deletes every OpenGL object (the context that initialize() saw must be current).
    void release();
    bool initialized() const { return primary_.initialized(); }
    // The logical size of the view and its device pixel ratio: the framebuffer is their
    // product, rounded. A fitted view refits.
    void resize(int logicalWidth, int logicalHeight, double devicePixelRatio);
    // Draws a frame into `framebuffer` (width × height pixels): stale uploads or the GPU
    // path, contours, needles, the view(s) of the compare mode, the overlay, the timings.
    // False when nothing was drawn (not initialized).
    bool render(GLuint framebuffer, int width, int height);
    // Whether something changed since the last render() (or the overlay wants a frame more).
    bool needsFrame() const { return needsFrame_; }

    // --- what to show -------------------------------------------------------------------
    void setView(Plane view);
    Plane view() const { return view_; }
    void setCompareMode(CompareMode mode);
    CompareMode compareMode() const { return compare_; }
    // The split's position as a fraction of the width (Split mode).
    void setSplitPosition(double fraction);
    double splitPosition() const { return split_; }

    // The session's data. Each is uploaded at the next frame if the current view uses it.
    void setOriginal(std::shared_ptr<const session::AnyImage> image);
    void showSnapshot(session::SnapshotPtr snapshot);  // Result or Sweep snapshots; others ignored
    void setContours(std::shared_ptr<const Contours> contours);
    void setContoursVisible(bool visible);
    void setHighlightedContour(int index);
    session::SnapshotPtr snapshot() const { return result_; }
    session::SnapshotPtr sweepSnapshot() const { return sweep_; }

    // Orientation map: blended over the original (blend > 0) or alone; needles every `step`
    // image pixels (0: none).
    void setOrientationBlend(bool on, double blend = 0.7);
    void setNeedles(int step);

    // The SE glyph at the cursor: the line of the current angle, λ and kind (render/se_glyph.h).
    void setGlyph(double angleDegrees, int length, LineKind kind = LineKind::Paths);
    // The kind the kinds' compare modes show beside (or subtract from) the session's: the
    // left half's glyph is drawn in it.
    void setOtherKind(LineKind kind);
    LineKind glyphKind() const { return glyphKind_; }
    LineKind otherKind() const { return otherKind_; }
    void setGlyphVisible(bool visible);

    // --- GPU path -----------------------------------------------------------------------
    // Turns the CUDA-OpenGL path on or off; false (and why) when CUDA cannot run here.
    bool setGpuPath(bool on, QString* why = nullptr);
    bool gpuPath() const { return gpuOn_; }
    // The current context's GL_VENDOR ("" before initialize()).
    const std::string& glVendor() const { return glVendor_; }

    // --- pan and zoom -------------------------------------------------------------------
    void zoomOneToOne();
    void zoomToFit();  // and follow the view's size until the user pans or zooms
    // Zooms by a wheel's angle delta (120 a notch) about a logical position.
    void zoomAbout(QPointF position, int angleDelta);
    // Moves the image by a logical distance.
    void panBy(QPointF delta);
    const render::ViewTransform& viewTransform() const { return transform_; }
    // Whether the frame compares two line kinds' results (a kinds compare mode in the Result
    // view), and whether it shows two halves side by side (the original's or a kind's).
    bool comparingKinds() const;
    bool sideBySide() const;
    // The framebuffer's part the view transform maps into: the right half side by side,
    // else the whole (framebuffer pixels).
    render::PixelRect primaryArea() const { return primaryArea(framebufferWidth(), framebufferHeight()); }

    // --- a region of pixels (the granulometry's) -----------------------------------------
    // Armed, the next left drag draws a rectangle of pixels instead of panning; its release
    // reports it (ViewportHooks::regionDrawn) and disarms. Escape-like cancel: disarm.
    void setRegionDrawing(bool armed);
    bool regionDrawing() const { return regionArmed_; }
    // The region drawn over the image (nullopt: none).
    void setRegion(std::optional<PixelRect> region);
    std::optional<PixelRect> region() const { return region_; }
    // The region, or the one being drawn, in logical widget coordinates (nullopt: none).
    std::optional<QRectF> regionOnScreen() const;
    // The pixel under a logical position (may lie outside the image).
    QPoint pixelUnder(QPointF position) const;

    // --- pointer input (logical positions) ----------------------------------------------
    // A press: the split's divider (left button near it, Split mode) or a pan (left or
    // middle button) starts a drag; other presses are not taken.
    PointerGrab press(QPointF position, Qt::MouseButton button);
    // The cursor is at `position`: drags what press() grabbed, moves the glyph and the probe.
    void move(QPointF position);
    // Ends a drag; false when none was going on.
    bool releaseButton();
    bool draggingSplit() const { return draggingSplit_; }
    // The cursor left the view: no glyph, the probe outside.
    void leave();

    // --- what the frame showed ----------------------------------------------------------
    // The values under a logical position (NaN where a view is not available).
    ProbeValues probeAt(QPointF position) const;
    ProbeValues probe() const { return probe_; }  // at the cursor's last position
    FrameTimings timings() const { return timings_; }
    // Which data the last frame showed: the result or sweep snapshot's id, or 0.
    std::uint64_t shownResultId() const { return shownResultId_; }
    std::uint64_t shownSweepId() const { return shownSweepId_; }
    // The last OpenGL failure ("" when none): shader, context, upload, GPU or overlay errors.
    QString glError() const { return glError_; }

    // The display range of an image: uint8 0…255, uint16 0…65535, float its min…max.
    static void rangeOf(const session::AnyImage& img, double* lo, double* hi);

    // --- the Dear ImGui overlay (when built with it) ------------------------------------
    // Backend and device names and the engine's last compute time, shown in its panel.
    void setOverlayInfo(const QString& backend, const QString& device);
    void setComputeMs(double ms);
    void setOverlayVisible(bool visible);
    bool overlayAvailable() const;
    // The overlay's panel as last drawn, in logical pixels (empty when hidden or unavailable).
    QRectF overlayPanelRect() const;
#if defined(LINESCOPE_HAVE_IMGUI)
    // For the host's input adapter (ui/imgui_qt_input.h).
    render::ImGuiOverlay& overlay() { return overlay_; }
#endif

private:
    void requestFrame();
    void fail(const QString& message);
    int framebufferWidth() const;
    int framebufferHeight() const;
    render::PixelRect primaryArea(int framebufferWidth, int framebufferHeight) const;
    // A logical x as a framebuffer x of the area it falls in.
    double areaX(double logicalX) const;
    void refit();
    void viewSizeChanged(int w, int h);
    void uploadPrimary();
    int uploadStep(const session::Snapshot& sweep) const;  // the orientation textures' pixel step
    void zoomChanged();
    void uploadSecondary();
    bool drawGpuView();
    void updateNeedles();
    void updateGlyph();
    void updateProbe(QPointF position);
    void drawViews(GLuint framebuffer, int width, int height);
    void paintOverlay();

    ViewportHooks hooks_;
    bool needsFrame_ = true;

    render::ViewportRenderer primary_, secondary_;
    std::unique_ptr<render::GpuViews> gpu_;
    bool gpuOn_ = false;
    bool gpuViewStale_ = true;
    bool originalInPrimary_ = false;  // the primary's Image texture holds original_
    void showOriginalInPrimary();
    std::string glVendor_;
    void loseGpuPath(const QString& why);

    Plane view_ = Plane::Result;
    CompareMode compare_ = CompareMode::Single;
    double split_ = 0.5;

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
    LineKind glyphKind_ = LineKind::Paths, otherKind_ = LineKind::Segment;
    bool glyphVisible_ = true;
    std::optional<QPointF> cursor_;  // logical position while the pointer is over the view
    ProbeValues probe_;

    int logicalWidth_ = 0, logicalHeight_ = 0;
    double devicePixelRatio_ = 1;
    int imageW_ = 0, imageH_ = 0;
    render::ViewTransform transform_;
    bool followWindow_ = true;  // fit mode: refit on resize and on a new image size
    bool draggingSplit_ = false, dragging_ = false;
    QPointF lastPos_;
    bool regionArmed_ = false;
    std::optional<QPoint> regionStart_, regionEnd_;  // pixels of a region being drawn
    std::optional<PixelRect> region_;
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
    render::OverlayState overlayState_;
#endif
};

}  // namespace linescope::ui
