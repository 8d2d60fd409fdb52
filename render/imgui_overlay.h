// The Dear ImGui overlay drawn inside the viewport: backend and device, per-stage timings,
// the pixel probe under the cursor, and the display toggles. It owns its own ImGuiContext
// (two viewports, or a test beside the app, never share state) and draws with Debian's
// libimgui OpenGL 3 backend into whatever framebuffer is bound. It knows nothing of Qt:
// ui/imgui_qt_input.h turns Qt events into the input calls below.
//
// Thread: every method runs on the thread whose OpenGL context is current (the GUI thread in
// the app). initialize() and release() bracket one OpenGL context's life, as for
// ViewportRenderer; the ImGui state (toggles, fonts) survives a new context.
#pragma once

#include "render/gl_functions.h"

#include <array>
#include <memory>
#include <optional>
#include <string>

struct ImGuiContext;

namespace linescope::render {

// Milliseconds per stage of the last frame; an absent one shows "—".
struct OverlayTimings {
    std::optional<double> computeMs, interopMs, uploadMs, drawMs;
    std::optional<double> fps;
};

// The image pixel under the cursor and the views' values there; absent values show "—".
struct OverlayProbe {
    bool valid = false;                   // false: the cursor is off the image (all "—")
    int x = 0, y = 0;                     // image pixel
    std::optional<double> value;          // the source image
    std::string resultLabel = "result";   // what result is: "opening", "top-hat", …
    std::optional<double> result;         // the operator's result
    std::optional<double> supremum;       // the sweep's supremum over angles
    std::optional<double> orientationDeg; // design.md §1, 0…180°
    std::optional<double> strength;       // orientation strength
};

// What the user can switch in the overlay. draw() writes the user's clicks back here.
struct OverlayToggles {
    bool contours = false;
    bool seGlyph = false;
    bool orientationBlend = false;  // blend the orientation map over the image
    bool needles = false;           // orientation needles
    bool details = true;            // the panel expanded (timings, probe, toggles)
};

// Bits of OverlayState::changed: which toggles the user flipped in the last draw().
enum OverlayChange : unsigned {
    ChangedContours = 1u << 0,
    ChangedSeGlyph = 1u << 1,
    ChangedOrientationBlend = 1u << 2,
    ChangedNeedles = 1u << 3,
    ChangedDetails = 1u << 4,
};

// Everything the overlay shows: the owner fills it from the snapshot and its own clocks.
struct OverlayState {
    std::string backend;  // "CUDA", "CPU"
    std::string device;   // the GPU's name, or "CPU, 8 threads"
    OverlayTimings timings;
    OverlayProbe probe;
    OverlayToggles toggles;  // read by draw(); the user's clicks are written back
    unsigned changed = 0;    // OverlayChange bits flipped by the last draw()
};

enum class OverlayCorner { TopLeft, TopRight, BottomLeft, BottomRight };

struct OverlayOptions {
    // A TrueType font. Empty: DejaVu Sans where it is installed (fonts-dejavu-core, on every
    // Debian desktop), else ImGui's built-in ProggyClean (which has no "—": "-" is shown).
    std::string fontFile;
    float fontSize = 0;  // logical pixels; 0: 14 for a TrueType file, 13 for the built-in font
    OverlayCorner corner = OverlayCorner::TopLeft;
    float margin = 10;             // logical pixels from the corner
    float backgroundAlpha = 0.7f;  // the panel's background opacity
};

// A rectangle in logical pixels, origin top left (Qt's and ImGui's convention).
struct OverlayRect {
    float x = 0, y = 0, width = 0, height = 0;
    bool contains(float px, float py) const { return px >= x && py >= y && px < x + width && py < y + height; }
    bool empty() const { return width <= 0 || height <= 0; }
};

class ImGuiOverlay {
public:
    explicit ImGuiOverlay(OverlayOptions options = {});
    // Touches no OpenGL: call release() first while the context lives (else the backend's
    // objects leak with that context; nothing crashes).
    ~ImGuiOverlay();
    ImGuiOverlay(const ImGuiOverlay&) = delete;
    ImGuiOverlay& operator=(const ImGuiOverlay&) = delete;

    // Starts the OpenGL 3 backend ("#version 330 core") in the current context (3.3 core).
    // Throws linescope::Error when it cannot (no libGL.so.1, no context ≥ 3.0 current).
    void initialize(GlProcLoader loader);
    // Deletes the backend's OpenGL objects (shaders, buffers, font texture). Context current.
    void release();
    bool initialized() const { return initialized_; }

    // One frame: beginFrame, draw, render, in that order, with the context current.
    // displayWidth/Height are logical pixels (QWidget::width()), devicePixelRatio maps them
    // to the framebuffer's pixels (the glyphs are rasterized at that scale, so text is sharp
    // at 200%). deltaSeconds: time since the previous frame (ImGui's hover timers).
    void beginFrame(float displayWidth, float displayHeight, float devicePixelRatio, float deltaSeconds);
    // Lays out the panel from state; writes the user's toggle clicks back into
    // state.toggles and returns (and stores in state.changed) the OverlayChange bits.
    unsigned draw(OverlayState& state);
    // Draws the panel into the bound framebuffer (its size: display × devicePixelRatio).
    // The backend saves and restores the state it changes (program, textures, sampler,
    // buffers, vertex array, blend, cull, depth, stencil, scissor, viewport, polygon mode);
    // the framebuffer binding is never changed.
    void render();

    // Input, in logical pixels; ui/imgui_qt_input.h feeds these from Qt events. A press and
    // its release between two frames are both seen: the release waits for a frame.
    void mouseMoved(float x, float y);
    void mouseLeft();                            // the cursor left the viewport
    void mouseButton(int button, bool down);     // 0 left, 1 right, 2 middle, 3–4 extra
    void mouseWheel(float horizontal, float vertical);  // in notches (Qt: angleDelta / 120)
    void key(int imguiKey, bool down);           // an ImGuiKey_ value (ImGuiKey_Tab …)
    void modifiers(bool ctrl, bool shift, bool alt, bool super);
    void text(const char* utf8);                 // typed characters
    void focus(bool focused);                    // the viewport gained or lost focus

    // ImGui's wishes after the last frame (io.WantCaptureMouse / WantCaptureKeyboard).
    bool wantCaptureMouse() const;
    bool wantCaptureKeyboard() const;
    // Whether a mouse event at (x, y) belongs to the overlay: over the last frame's panel, or
    // while an overlay widget is held. Unlike wantCaptureMouse() it does not wait for a frame
    // to learn that the cursor moved.
    bool capturesMouseAt(float x, float y) const;
    // True when another frame is needed: input the last frame has not seen (a deferred
    // release), or the panel still settling (ImGui measures a new panel size for one frame).
    bool needsAnotherFrame() const;
    // The panel in the last frame (empty before the first frame that shows it).
    OverlayRect panelRect() const { return panel_; }
    // Where the toggle of one OverlayChange bit was in the last frame (empty when hidden).
    OverlayRect toggleRect(OverlayChange which) const;
    // The ImGuiMouseCursor ImGui asks for after the last frame (ImGuiMouseCursor_None: hide).

    // The overlay's own ImGui context (tests read its ImGuiIO).
    ImGuiContext* context() const { return context_; }

private:
    class Current;     // makes context_ current for one call, restores the previous one
    struct Internals;  // held input, font data and glyph ranges (ImGui types)
    void buildFonts(float devicePixelRatio);
    void drawTimings(const OverlayTimings& t);
    void drawProbe(const OverlayProbe& p);
    unsigned drawToggles(OverlayToggles& t);
    std::string shown(const std::optional<double>& v, const char* format) const;

    OverlayOptions options_;
    ImGuiContext* context_ = nullptr;
    std::unique_ptr<Internals> in_;
    GlFunctions gl_{};
    bool initialized_ = false;
    bool deviceObjects_ = false;  // the backend made its shaders and font texture (first frame)
    bool inFrame_ = false;
    bool inputSinceFrame_ = false;
    unsigned lastChanged_ = 0;
    float fontScale_ = 0;     // device pixel ratio the font atlas was rasterized for
    std::string dash_ = "-";  // "—" when the font has it
    OverlayRect panel_;
    bool resizing_ = false;  // the panel's content no longer fits its size: one more frame
    std::array<OverlayRect, 5> toggleRects_{};
    int framesShown_ = 0;
};

}  // namespace linescope::render
