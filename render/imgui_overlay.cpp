#include "render/imgui_overlay.h"

#include "compute/image.h"

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui_internal.h>  // the panel's content size (ImGuiWindow), 1.86 as packaged

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

// Debian's libimgui 1.86 OpenGL 3 backend brings its own loader (imgui_impl_opengl3_loader.h,
// "imgl3w"): ImGui_ImplOpenGL3_Init() dlopens libGL.so.1 and resolves its entry points through
// glXGetProcAddressARB, then reads GL_MAJOR_VERSION, so it needs libGL.so.1 present and a
// context (≥ 3.0) current, else it returns false. Through libglvnd those GLX-resolved entry
// points dispatch to whatever context is current, EGL's included; to depend on that nowhere,
// initialize() re-resolves them right after Init with the host's own proc-address function
// (QOpenGLContext::getProcAddress, eglGetProcAddress) through the loader's public second
// entry point. The table is process-wide: every overlay re-points it to its host's loader,
// which resolves the same driver's functions.
extern "C" {
using ImGl3wProc = void (*)();
int imgl3wInit2(ImGl3wProc (*getProcAddress)(const char* name));
}

namespace linescope::render {

namespace {

// The loader imgl3wInit2 calls back; it takes no user data, so the host's loader waits here
// for the duration of that one call.
thread_local GlProcLoader tHostLoader = nullptr;
ImGl3wProc viaHostLoader(const char* name) { return reinterpret_cast<ImGl3wProc>(tHostLoader(name)); }

constexpr const char* kDefaultFonts[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",  // Debian, Ubuntu
    "/usr/share/fonts/TTF/DejaVuSans.ttf",              // Arch
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf", // Fedora
};

// The whole file when it starts like a TrueType/OpenType font (ImGui asserts on anything
// else), else empty.
std::vector<char> readFont(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return {};
    std::vector<char> data{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
    if (data.size() < 12) return {};
    const std::string tag(data.data(), 4);
    const bool sfnt = tag == std::string("\0\1\0\0", 4) || tag == "true" || tag == "OTTO";
    return sfnt ? data : std::vector<char>{};
}

// The OpenGL state the backend leaves changed when it (re)creates its font texture in
// NewFrame: it uploads from client memory (a bound pixel-unpack buffer would be read
// instead) and sets GL_UNPACK_ROW_LENGTH to 0 without restoring it.
class UnpackStateGuard {
public:
    explicit UnpackStateGuard(const GlFunctions& gl) : gl_(gl) {
        gl_.GetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &buffer_);
        gl_.GetIntegerv(GL_UNPACK_ROW_LENGTH, &rowLength_);
        if (buffer_) gl_.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    }
    ~UnpackStateGuard() {
        gl_.PixelStorei(GL_UNPACK_ROW_LENGTH, rowLength_);
        if (buffer_) gl_.BindBuffer(GL_PIXEL_UNPACK_BUFFER, static_cast<GLuint>(buffer_));
    }
    UnpackStateGuard(const UnpackStateGuard&) = delete;
    UnpackStateGuard& operator=(const UnpackStateGuard&) = delete;

private:
    const GlFunctions& gl_;
    GLint buffer_ = 0, rowLength_ = 0;
};

// Dear ImGui 1.86 reads io.MouseDown / io.KeysDown / io.MousePos once per NewFrame (the input
// queue came in 1.87): a press released before the next frame would vanish. A release whose
// press no frame has seen yet waits for one.
template <std::size_t N>
struct HeldButtons {
    std::array<bool, N> unseen{}, releaseWaiting{};
    void press(bool* down, std::size_t i) {
        down[i] = true;
        unseen[i] = true;
        releaseWaiting[i] = false;
    }
    void release(bool* down, std::size_t i) {
        if (unseen[i]) releaseWaiting[i] = true;
        else down[i] = false;
    }
    void frameSeen() { unseen.fill(false); }
    void applyWaiting(bool* down) {  // before a NewFrame: releases whose press a frame saw
        for (std::size_t i = 0; i < N; ++i)
            if (releaseWaiting[i] && !unseen[i]) down[i] = releaseWaiting[i] = false;
    }
    bool waiting() const { return std::find(releaseWaiting.begin(), releaseWaiting.end(), true) != releaseWaiting.end(); }
    bool anyUnseen() const { return std::find(unseen.begin(), unseen.end(), true) != unseen.end(); }
    void clear() { unseen.fill(false); releaseWaiting.fill(false); }
};

// A table cell's value, right-aligned in a column at least minWidth wide, so the panel keeps
// its width as the digits change.
void valueCell(const std::string& s, float minWidth) {
    const float w = ImGui::CalcTextSize(s.c_str()).x;
    const float column = std::max(minWidth, ImGui::GetContentRegionAvail().x);
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, column - w));
    ImGui::TextUnformatted(s.c_str());
}

OverlayRect lastItemRect() {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    return {a.x, a.y, b.x - a.x, b.y - a.y};
}

std::size_t toggleIndex(OverlayChange which) {
    switch (which) {
    case ChangedContours: return 0;
    case ChangedSeGlyph: return 1;
    case ChangedOrientationBlend: return 2;
    case ChangedNeedles: return 3;
    case ChangedDetails: return 4;
    }
    return 0;
}

}  // namespace

struct ImGuiOverlay::Internals {
    HeldButtons<5> mouse;
    HeldButtons<ImGuiKey_COUNT> keys;
    // Where the mouse went after a press no frame has seen: the frame must see the press
    // where it happened (a drag begun off the panel must not click what it ends on).
    std::optional<ImVec2> positionWaiting;
    void moveTo(ImVec2 p) {
        if (mouse.anyUnseen()) positionWaiting = p;
        else {
            ImGui::GetIO().MousePos = p;
            positionWaiting.reset();
        }
    }
    void applyWaiting() {  // before a NewFrame
        ImGuiIO& io = ImGui::GetIO();
        if (positionWaiting && !mouse.anyUnseen()) {
            io.MousePos = *positionWaiting;
            positionWaiting.reset();
        }
        mouse.applyWaiting(io.MouseDown);
        keys.applyWaiting(io.KeysDown);
    }
    std::vector<char> fontData;   // the atlas reads it at Build (FontDataOwnedByAtlas false)
    ImVector<ImWchar> glyphRanges;  // Latin-1 and the few symbols the panel shows
};

class ImGuiOverlay::Current {
public:
    explicit Current(ImGuiContext* context) : previous_(ImGui::GetCurrentContext()) { ImGui::SetCurrentContext(context); }
    ~Current() { ImGui::SetCurrentContext(previous_); }
    Current(const Current&) = delete;
    Current& operator=(const Current&) = delete;

private:
    ImGuiContext* previous_;
};

ImGuiOverlay::ImGuiOverlay(OverlayOptions options) : options_(std::move(options)), in_(std::make_unique<Internals>()) {
    ImGuiContext* previous = ImGui::GetCurrentContext();
    context_ = ImGui::CreateContext();
    ImGui::SetCurrentContext(context_);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini in the user's working directory
    io.LogFilename = nullptr;
    io.BackendPlatformName = "linescope";
    io.BackendFlags |= ImGuiBackendFlags_HasMouseCursors;  // ui/imgui_qt_input.h maps them
    for (int k = 0; k < ImGuiKey_COUNT; ++k) io.KeyMap[k] = k;  // key() takes ImGuiKey_ values
    ImGui::StyleColorsDark();
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowRounding = 6;
    style.WindowBorderSize = 0;
    style.WindowPadding = ImVec2(10, 8);
    style.FrameRounding = 3;
    style.ItemSpacing = ImVec2(8, 4);
    style.CellPadding = ImVec2(6, 1);

    ImFontGlyphRangesBuilder ranges;
    ranges.AddRanges(io.Fonts->GetGlyphRangesDefault());
    ranges.AddText("\xe2\x80\x94\xce\xbb\xce\xb8");  // — λ θ
    ranges.BuildRanges(&in_->glyphRanges);
    ImGui::SetCurrentContext(previous);
}

ImGuiOverlay::~ImGuiOverlay() {
    ImGuiContext* previous = ImGui::GetCurrentContext();
    ImGui::SetCurrentContext(context_);
    // Without a context current the backend's objects cannot be deleted: forget them (they
    // die with their context) rather than let ImGui call OpenGL.
    if (initialized_) ImGui::GetIO().BackendRendererUserData = nullptr;
    ImGui::DestroyContext(context_);
    ImGui::SetCurrentContext(previous == context_ ? nullptr : previous);
}

void ImGuiOverlay::initialize(GlProcLoader loader) {
    if (initialized_) release();
    Current current(context_);
    gl_.load(loader);
    if (!ImGui_ImplOpenGL3_Init("#version 330 core"))
        throw Error("Dear ImGui's OpenGL 3 backend did not start (it needs libGL.so.1 and an OpenGL 3.3 context current)");
    tHostLoader = loader;
    const int loaded = imgl3wInit2(&viaHostLoader);
    tHostLoader = nullptr;
    if (loaded != 0) {
        ImGui_ImplOpenGL3_Shutdown();
        throw Error("Dear ImGui's OpenGL 3 backend: the context's entry points did not load");
    }
    initialized_ = true;
    deviceObjects_ = false;  // made at the first frame, when the font atlas is known
    framesShown_ = 0;
}

void ImGuiOverlay::release() {
    Current current(context_);
    if (inFrame_) {
        ImGui::EndFrame();
        inFrame_ = false;
    }
    if (initialized_) ImGui_ImplOpenGL3_Shutdown();
    initialized_ = deviceObjects_ = false;
}

void ImGuiOverlay::buildFonts(float devicePixelRatio) {
    ImGuiIO& io = ImGui::GetIO();
    if (deviceObjects_) ImGui_ImplOpenGL3_DestroyFontsTexture();
    io.Fonts->Clear();
    ImFont* font = nullptr;
    if (in_->fontData.empty()) {
        if (!options_.fontFile.empty()) in_->fontData = readFont(options_.fontFile);
        else
            for (const char* path : kDefaultFonts)
                if (!(in_->fontData = readFont(path)).empty()) break;
    }
    if (!in_->fontData.empty()) {
        ImFontConfig config;
        config.FontDataOwnedByAtlas = false;
        config.OversampleH = 2;
        const float size = options_.fontSize > 0 ? options_.fontSize : 14.0f;
        font = io.Fonts->AddFontFromMemoryTTF(in_->fontData.data(), static_cast<int>(in_->fontData.size()),
                                              size * devicePixelRatio, &config, in_->glyphRanges.Data);
        if (!io.Fonts->Build()) {  // not a usable font after all: the built-in one
            io.Fonts->Clear();
            in_->fontData.clear();
            font = nullptr;
        }
    }
    if (!font) {
        ImFontConfig config;
        config.SizePixels = (options_.fontSize > 0 ? options_.fontSize : 13.0f) * devicePixelRatio;
        font = io.Fonts->AddFontDefault(&config);
        io.Fonts->Build();
    }
    // Glyphs rasterized at device pixels and laid out at logical ones: sharp at any ratio.
    io.FontGlobalScale = 1.0f / devicePixelRatio;
    dash_ = font->FindGlyphNoFallback(0x2014) ? "\xe2\x80\x94" : "-";
    fontScale_ = devicePixelRatio;
    if (deviceObjects_) ImGui_ImplOpenGL3_CreateFontsTexture();
}

void ImGuiOverlay::beginFrame(float displayWidth, float displayHeight, float devicePixelRatio, float deltaSeconds) {
    if (!initialized_) throw Error("ImGuiOverlay::beginFrame before initialize()");
    Current current(context_);
    if (inFrame_) ImGui::EndFrame();  // the previous frame was never rendered
    const float ratio = std::isfinite(devicePixelRatio) && devicePixelRatio > 0.25f ? devicePixelRatio : 1.0f;
    ImGuiIO& io = ImGui::GetIO();
    in_->applyWaiting();
    io.DisplaySize = ImVec2(std::max(displayWidth, 0.0f), std::max(displayHeight, 0.0f));
    io.DisplayFramebufferScale = ImVec2(ratio, ratio);
    io.DeltaTime = deltaSeconds > 0 && std::isfinite(deltaSeconds) ? deltaSeconds : 1.0f / 60.0f;
    {
        const UnpackStateGuard unpack(gl_);
        if (ratio != fontScale_) buildFonts(ratio);
        ImGui_ImplOpenGL3_NewFrame();  // the first one makes the shaders and the font texture
        deviceObjects_ = true;
    }
    ImGui::NewFrame();
    in_->mouse.frameSeen();
    in_->keys.frameSeen();
    inputSinceFrame_ = false;
    inFrame_ = true;
}

std::string ImGuiOverlay::shown(const std::optional<double>& v, const char* format) const {
    if (!v || !std::isfinite(*v)) return dash_;
    char buf[48];
    if (format) std::snprintf(buf, sizeof buf, format, *v);
    else if (*v == std::round(*v) && std::abs(*v) < 1e7) std::snprintf(buf, sizeof buf, "%.0f", *v);
    else std::snprintf(buf, sizeof buf, "%.5g", *v);
    return buf;
}

void ImGuiOverlay::drawTimings(const OverlayTimings& t) {
    // Two label–value pairs a row, a spacer column between them.
    if (!ImGui::BeginTable("##timings", 5, ImGuiTableFlags_SizingFixedFit)) return;
    const float valueWidth = ImGui::CalcTextSize("000.00 ms").x;
    int cells = 0;
    auto cell = [&](const char* label, const std::optional<double>& ms) {
        if (cells++ % 2 == 1) {
            ImGui::TableNextColumn();
            ImGui::Dummy(ImVec2(ImGui::GetFontSize() * 0.5f, 0));
        }
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%s", label);
        ImGui::TableNextColumn();
        valueCell(shown(ms, "%.2f ms"), valueWidth);
    };
    cell("compute", t.computeMs);
    cell("interop", t.interopMs);
    cell("upload", t.uploadMs);
    cell("draw", t.drawMs);
    ImGui::EndTable();
}

void ImGuiOverlay::drawProbe(const OverlayProbe& p) {
    if (p.valid) ImGui::Text("Pixel (%d, %d)", p.x, p.y);
    else ImGui::Text("Pixel %s", dash_.c_str());
    if (!ImGui::BeginTable("##probe", 2, ImGuiTableFlags_SizingFixedFit)) return;
    const float valueWidth = ImGui::CalcTextSize("-000000.0").x;
    auto row = [&](const char* label, const std::optional<double>& v, const char* format) {
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%s", label);
        ImGui::TableNextColumn();
        valueCell(p.valid ? shown(v, format) : dash_, valueWidth);
    };
    row("value", p.value, nullptr);
    row(p.resultLabel.c_str(), p.result, nullptr);
    row("supremum", p.supremum, nullptr);
    row("orientation", p.orientationDeg, "%.1f\xc2\xb0");
    row("strength", p.strength, "%.3f");
    ImGui::EndTable();
}

unsigned ImGuiOverlay::drawToggles(OverlayToggles& t) {
    unsigned changed = 0;
    if (!ImGui::BeginTable("##toggles", 2, ImGuiTableFlags_SizingFixedFit)) return 0;
    auto box = [&](const char* label, bool* value, OverlayChange bit) {
        ImGui::TableNextColumn();
        if (ImGui::Checkbox(label, value)) changed |= bit;
        toggleRects_[toggleIndex(bit)] = lastItemRect();
    };
    box("Contours", &t.contours, ChangedContours);
    box("SE glyph", &t.seGlyph, ChangedSeGlyph);
    box("Orientation map", &t.orientationBlend, ChangedOrientationBlend);
    box("Needles", &t.needles, ChangedNeedles);
    ImGui::EndTable();
    return changed;
}

unsigned ImGuiOverlay::draw(OverlayState& state) {
    state.changed = 0;
    if (!inFrame_) return 0;
    Current current(context_);
    const ImGuiIO& io = ImGui::GetIO();
    const float m = options_.margin;
    const bool right = options_.corner == OverlayCorner::TopRight || options_.corner == OverlayCorner::BottomRight;
    const bool bottom = options_.corner == OverlayCorner::BottomLeft || options_.corner == OverlayCorner::BottomRight;
    ImGui::SetNextWindowPos(ImVec2(right ? io.DisplaySize.x - m : m, bottom ? io.DisplaySize.y - m : m),
                            ImGuiCond_Always, ImVec2(right ? 1.0f : 0.0f, bottom ? 1.0f : 0.0f));
    ImGui::SetNextWindowBgAlpha(options_.backgroundAlpha);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
    toggleRects_.fill({});
    unsigned changed = 0;
    if (ImGui::Begin("##linescope-overlay", nullptr, flags)) {
        // Header: the expand arrow, backend, device, frames per second.
        OverlayToggles& t = state.toggles;
        if (ImGui::ArrowButton("##details", t.details ? ImGuiDir_Down : ImGuiDir_Right)) {
            t.details = !t.details;
            changed |= ChangedDetails;
        }
        toggleRects_[toggleIndex(ChangedDetails)] = lastItemRect();
        ImGui::SameLine();
        ImGui::TextUnformatted(state.backend.empty() ? dash_.c_str() : state.backend.c_str());
        if (!state.device.empty()) {
            ImGui::SameLine();
            ImGui::TextDisabled("%s", state.device.c_str());
        }
        ImGui::SameLine();
        const std::optional<double>& fps = state.timings.fps;
        ImGui::TextUnformatted((shown(fps, fps && *fps < 10 ? "%.1f" : "%.0f") + " fps").c_str());
        if (t.details) {
            ImGui::Separator();
            drawTimings(state.timings);
            ImGui::Separator();
            drawProbe(state.probe);
            ImGui::Separator();
            changed |= drawToggles(t);
        }
        const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
        panel_ = {pos.x, pos.y, size.x, size.y};
        // AlwaysAutoResize sizes the panel from the previous frame's content (as 1.86's
        // CalcWindowContentSizes measures it): content that differs now (details folded, a
        // wider label) gives the next frame another size, so another frame is needed.
        const ImGuiWindow* w = ImGui::GetCurrentWindow();
        const ImVec2 ideal(static_cast<float>(static_cast<int>(std::max(w->DC.CursorMaxPos.x, w->DC.IdealMaxPos.x) - w->DC.CursorStartPos.x)),
                           static_cast<float>(static_cast<int>(std::max(w->DC.CursorMaxPos.y, w->DC.IdealMaxPos.y) - w->DC.CursorStartPos.y)));
        resizing_ = ideal.x != w->ContentSizeIdeal.x || ideal.y != w->ContentSizeIdeal.y;
    }
    ImGui::End();
    state.changed = lastChanged_ = changed;
    return changed;
}

void ImGuiOverlay::render() {
    if (!inFrame_) return;
    Current current(context_);
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    inFrame_ = false;
    ++framesShown_;
}

void ImGuiOverlay::mouseMoved(float x, float y) {
    Current current(context_);
    in_->moveTo(ImVec2(x, y));
    inputSinceFrame_ = true;
}

void ImGuiOverlay::mouseLeft() {
    Current current(context_);
    in_->moveTo(ImVec2(-FLT_MAX, -FLT_MAX));  // ImGui's "no mouse"
    inputSinceFrame_ = true;
}

void ImGuiOverlay::mouseButton(int button, bool down) {
    if (button < 0 || button >= 5) return;
    Current current(context_);
    bool* state = ImGui::GetIO().MouseDown;
    if (down) in_->mouse.press(state, static_cast<std::size_t>(button));
    else in_->mouse.release(state, static_cast<std::size_t>(button));
    inputSinceFrame_ = true;
}

void ImGuiOverlay::mouseWheel(float horizontal, float vertical) {
    Current current(context_);
    ImGuiIO& io = ImGui::GetIO();
    io.MouseWheelH += horizontal;
    io.MouseWheel += vertical;
    inputSinceFrame_ = true;
}

void ImGuiOverlay::key(int imguiKey, bool down) {
    if (imguiKey < 0 || imguiKey >= ImGuiKey_COUNT) return;
    Current current(context_);
    bool* state = ImGui::GetIO().KeysDown;  // KeyMap is the identity: index = ImGuiKey_
    if (down) in_->keys.press(state, static_cast<std::size_t>(imguiKey));
    else in_->keys.release(state, static_cast<std::size_t>(imguiKey));
    inputSinceFrame_ = true;
}

void ImGuiOverlay::modifiers(bool ctrl, bool shift, bool alt, bool super) {
    Current current(context_);
    ImGuiIO& io = ImGui::GetIO();
    io.KeyCtrl = ctrl;
    io.KeyShift = shift;
    io.KeyAlt = alt;
    io.KeySuper = super;
}

void ImGuiOverlay::text(const char* utf8) {
    if (!utf8 || !*utf8) return;
    Current current(context_);
    ImGui::GetIO().AddInputCharactersUTF8(utf8);
    inputSinceFrame_ = true;
}

void ImGuiOverlay::focus(bool focused) {
    Current current(context_);
    ImGui::GetIO().AddFocusEvent(focused);  // losing focus releases every key
    if (!focused) in_->keys.clear();
    inputSinceFrame_ = true;
}

bool ImGuiOverlay::wantCaptureMouse() const {
    Current current(context_);
    return ImGui::GetIO().WantCaptureMouse;
}

bool ImGuiOverlay::wantCaptureKeyboard() const {
    Current current(context_);
    return ImGui::GetIO().WantCaptureKeyboard;
}

bool ImGuiOverlay::capturesMouseAt(float x, float y) const {
    Current current(context_);
    return (framesShown_ > 1 && panel_.contains(x, y)) || ImGui::IsAnyItemActive();
}

bool ImGuiOverlay::needsAnotherFrame() const {
    const bool settling = framesShown_ < 2 || resizing_ || lastChanged_ != 0;
    return inputSinceFrame_ || in_->mouse.waiting() || in_->keys.waiting() || in_->positionWaiting || settling;
}

OverlayRect ImGuiOverlay::toggleRect(OverlayChange which) const { return toggleRects_[toggleIndex(which)]; }

}  // namespace linescope::render
