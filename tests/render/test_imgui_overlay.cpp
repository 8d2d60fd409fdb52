// render/ headless: the Dear ImGui overlay drawn over the viewport renderer in a bare EGL
// context (the same context setup as test_viewport_render.cpp). The panel changes only its
// own pixels, leaves the OpenGL state the viewport uses as it was, shows the probe's values,
// scales with the device pixel ratio, survives a new context, and two overlays keep apart.
// Skips, with the reason, where no EGL OpenGL 3.3 context can be made.
#include "render/headless/egl_context.h"
#include "render/imgui_overlay.h"
#include "tests/support/overlay_state.h"
#include "render/viewport_renderer.h"

#include <QtTest>

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <memory>

using namespace linescope;
using namespace linescope::render;

namespace {

constexpr int kWidth = 360, kHeight = 260;  // logical pixels

struct Frame {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgba;
    bool differsAt(const Frame& o, int x, int y) const {
        const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 4;
        return rgba[i] != o.rgba[i] || rgba[i + 1] != o.rgba[i + 1] || rgba[i + 2] != o.rgba[i + 2];
    }
};

// The smallest rectangle holding every pixel where a and b differ (empty: none), in the
// frames' pixels, and how many differ.
struct Difference {
    int count = 0, x0 = 0, y0 = 0, x1 = -1, y1 = -1;  // inclusive bounds
    int width() const { return x1 - x0 + 1; }
    int height() const { return y1 - y0 + 1; }
};
Difference differences(const Frame& a, const Frame& b) {
    Difference d{0, a.width, a.height, -1, -1};
    for (int y = 0; y < a.height; ++y)
        for (int x = 0; x < a.width; ++x)
            if (a.differsAt(b, x, y)) {
                ++d.count;
                d.x0 = std::min(d.x0, x); d.y0 = std::min(d.y0, y);
                d.x1 = std::max(d.x1, x); d.y1 = std::max(d.y1, y);
            }
    return d;
}

QString describe(const Difference& d) {
    return QString("%1 pixels differ in x %2…%3, y %4…%5").arg(d.count).arg(d.x0).arg(d.x1).arg(d.y0).arg(d.y1);
}


}  // namespace

class TestImGuiOverlay : public QObject {
    Q_OBJECT

    std::unique_ptr<EglContext> egl_;
    std::unique_ptr<ViewportRenderer> renderer_;

    void startGl() {
        egl_ = std::make_unique<EglContext>();
        if (!egl_->usable()) QSKIP(qPrintable("no headless OpenGL: " + QString::fromStdString(egl_->why())));
        renderer_ = std::make_unique<ViewportRenderer>();
        renderer_->initialize(&EglContext::procAddress);
        // A gradient image filling the frame: "unchanged" means something outside the panel.
        Image<std::uint8_t> img(90, 65);
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) img.at(x, y) = static_cast<std::uint8_t>((x * 5 + y * 3) % 256);
        renderer_->uploadImage<std::uint8_t>(img.cview());
        renderer_->setDisplayRange(0, 255);
    }
    void stopGl() {
        if (renderer_) renderer_->release();
        renderer_.reset();
        egl_.reset();
    }

    // The viewport at ratio r (framebuffer kWidth·r × kHeight·r), then the overlay when given
    // (the viewport again after it when redrawViewport), read back.
    Frame frame(float r, ImGuiOverlay* overlay, OverlayState* state, bool redrawViewport = false) {
        const int w = static_cast<int>(std::lround(kWidth * r)), h = static_cast<int>(std::lround(kHeight * r));
        renderer_->setView(ViewTransform::fit(renderer_->viewWidth(), renderer_->viewHeight(), w, h));
        const RenderTarget target{egl_->framebuffer(w, h), w, h};
        renderer_->render(target);
        if (overlay) {
            overlay->beginFrame(kWidth, kHeight, r, 1.0f / 60);
            overlay->draw(*state);
            overlay->render();
            if (redrawViewport) renderer_->render(target);
        }
        return {w, h, egl_->readPixels()};
    }
    // Frames until the panel has settled (ImGui measures a new panel for one frame).
    Frame settled(float r, ImGuiOverlay& overlay, OverlayState& state) {
        Frame f = frame(r, &overlay, &state);
        for (int i = 0; i < 5 && overlay.needsAnotherFrame(); ++i) f = frame(r, &overlay, &state);
        return f;
    }
    // A click at (x, y), logical pixels, as Qt delivers one: move, press, release between frames.
    void click(ImGuiOverlay& overlay, OverlayState& state, float x, float y) {
        overlay.mouseMoved(x, y);
        overlay.mouseButton(0, true);
        overlay.mouseButton(0, false);
        settled(1, overlay, state);
    }

private slots:
    void initTestCase() {
        startGl();
        qInfo("%s", egl_->description().c_str());
    }
    void cleanupTestCase() { stopGl(); }

    void changesOnlyItsPanel() {
        ImGuiOverlay overlay;
        overlay.initialize(&EglContext::procAddress);
        OverlayState state = test::sampleOverlayState();
        const Frame without = frame(1, nullptr, nullptr);
        const Frame with = settled(1, overlay, state);
        const Difference d = differences(without, with);
        const OverlayRect p = overlay.panelRect();
        QVERIFY2(!p.empty(), "no panel");
        QVERIFY2(d.count > 500, qPrintable(describe(d)));  // a panel of text, not a speck
        QVERIFY2(p.contains(static_cast<float>(d.x0), static_cast<float>(d.y0)) &&
                 p.contains(static_cast<float>(d.x1), static_cast<float>(d.y1)),
                 qPrintable(describe(d) + QString(", panel %1,%2 %3×%4").arg(p.x).arg(p.y).arg(p.width).arg(p.height)));
        // The viewport drawn again after the overlay is the viewport alone: the overlay left
        // its state (program, vertex array, textures, blend, scissor, viewport) usable.
        const Frame again = frame(1, &overlay, &state, true);
        QCOMPARE(differences(without, again).count, 0);
        overlay.release();
    }

    void restoresTheGlState() {
        // Odd state set on purpose, with a pixel-unpack buffer bound while the new overlay
        // creates its font texture in its first frame.
        const GlFunctions& gl = renderer_->gl();
        auto scissor = reinterpret_cast<PFNGLSCISSORPROC>(EglContext::procAddress("glScissor"));
        auto blendFuncSeparate = reinterpret_cast<PFNGLBLENDFUNCSEPARATEPROC>(EglContext::procAddress("glBlendFuncSeparate"));
        QVERIFY(scissor && blendFuncSeparate);
        egl_->framebuffer(kWidth, kHeight);
        GLuint vao = 0, vbo = 0, pbo = 0, tex = 0;
        gl.GenVertexArrays(1, &vao);
        gl.GenBuffers(1, &vbo);
        gl.GenBuffers(1, &pbo);
        gl.GenTextures(1, &tex);
        gl.BindVertexArray(vao);
        gl.BindBuffer(GL_ARRAY_BUFFER, vbo);
        gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
        gl.BufferData(GL_PIXEL_UNPACK_BUFFER, 16, nullptr, GL_STREAM_DRAW);
        gl.PixelStorei(GL_UNPACK_ROW_LENGTH, 7);
        gl.ActiveTexture(GL_TEXTURE2);
        gl.BindTexture(GL_TEXTURE_2D, tex);
        gl.Viewport(3, 5, 100, 80);
        gl.Enable(GL_SCISSOR_TEST);
        scissor(1, 2, 50, 40);
        gl.Enable(GL_BLEND);
        blendFuncSeparate(GL_ONE, GL_ZERO, GL_SRC_ALPHA, GL_ONE);
        const GLenum queried[] = {GL_VERTEX_ARRAY_BINDING, GL_ARRAY_BUFFER_BINDING, GL_PIXEL_UNPACK_BUFFER_BINDING,
                                  GL_UNPACK_ROW_LENGTH, GL_ACTIVE_TEXTURE, GL_TEXTURE_BINDING_2D, GL_CURRENT_PROGRAM,
                                  GL_FRAMEBUFFER_BINDING, GL_SCISSOR_TEST, GL_BLEND, GL_DEPTH_TEST, GL_CULL_FACE,
                                  GL_BLEND_SRC_RGB, GL_BLEND_DST_RGB, GL_BLEND_SRC_ALPHA, GL_BLEND_DST_ALPHA};
        auto snapshot = [&] {
            std::vector<GLint> v;
            for (GLenum e : queried) { GLint x = 0; gl.GetIntegerv(e, &x); v.push_back(x); }
            GLint box[8] = {};
            gl.GetIntegerv(GL_VIEWPORT, box);
            gl.GetIntegerv(GL_SCISSOR_BOX, box + 4);
            v.insert(v.end(), box, box + 8);
            return v;
        };
        const std::vector<GLint> before = snapshot();
        {
            ImGuiOverlay overlay;
            overlay.initialize(&EglContext::procAddress);
            OverlayState state = test::sampleOverlayState();
            for (int i = 0; i < 2; ++i) {
                overlay.beginFrame(kWidth, kHeight, 1, 1.0f / 60);
                overlay.draw(state);
                overlay.render();
            }
            const std::vector<GLint> after = snapshot();
            for (std::size_t i = 0; i < before.size(); ++i)
                QVERIFY2(before[i] == after[i], qPrintable(QString("state %1 (0x%2): %3 before, %4 after").arg(i)
                    .arg(i < std::size(queried) ? queried[i] : 0u, 0, 16).arg(before[i]).arg(after[i])));
            QCOMPARE(gl.GetError(), static_cast<GLenum>(GL_NO_ERROR));
            overlay.release();
        }
        gl.Disable(GL_SCISSOR_TEST);
        gl.Disable(GL_BLEND);
        gl.PixelStorei(GL_UNPACK_ROW_LENGTH, 0);
        gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        gl.BindBuffer(GL_ARRAY_BUFFER, 0);
        gl.BindVertexArray(0);
        gl.BindTexture(GL_TEXTURE_2D, 0);
        gl.ActiveTexture(GL_TEXTURE0);
        gl.DeleteVertexArrays(1, &vao);
        gl.DeleteBuffers(1, &vbo);
        gl.DeleteBuffers(1, &pbo);
        gl.DeleteTextures(1, &tex);
    }

    void showsTheProbe() {
        ImGuiOverlay overlay;
        overlay.initialize(&EglContext::procAddress);
        OverlayState state = test::sampleOverlayState();
        const Frame first = settled(1, overlay, state);
        QCOMPARE(differences(first, frame(1, &overlay, &state)).count, 0);  // same state, same pixels
        const OverlayRect p = overlay.panelRect();
        auto changedInsidePanel = [&](const char* what) {
            const Frame f = settled(1, overlay, state);
            const Difference d = differences(first, f);
            QVERIFY2(d.count > 0, qPrintable(QString(what) + ": no pixel changed"));
            QVERIFY2(p.contains(static_cast<float>(d.x0), static_cast<float>(d.y0)) &&
                     p.contains(static_cast<float>(d.x1), static_cast<float>(d.y1)), qPrintable(QString(what) + ": " + describe(d)));
        };
        state.probe.value = 37.0;
        changedInsidePanel("value");
        state = test::sampleOverlayState();
        state.probe.orientationDeg = 121.25;
        changedInsidePanel("orientation");
        state = test::sampleOverlayState();
        state.probe.strength.reset();  // shown as a dash
        changedInsidePanel("absent strength");
        state = test::sampleOverlayState();
        state.probe.valid = false;
        changedInsidePanel("off the image");
        overlay.release();
    }

    void scalesWithTheDevicePixelRatio() {
        // The same logical panel at 200% covers twice the framebuffer pixels each way, its
        // glyphs rasterized at that scale (a different, larger font texture).
        ImGuiOverlay overlay;
        overlay.initialize(&EglContext::procAddress);
        OverlayState state = test::sampleOverlayState();
        const Difference one = differences(frame(1, nullptr, nullptr), settled(1, overlay, state));
        const OverlayRect p1 = overlay.panelRect();
        const Difference two = differences(frame(2, nullptr, nullptr), settled(2, overlay, state));
        const OverlayRect p2 = overlay.panelRect();
        QVERIFY2(std::abs(p2.width - p1.width) <= 2 && std::abs(p2.height - p1.height) <= 2,
                 qPrintable(QString("logical panel %1×%2 at 100%, %3×%4 at 200%").arg(p1.width).arg(p1.height).arg(p2.width).arg(p2.height)));
        QVERIFY2(std::abs(two.width() - 2 * one.width()) <= 6 && std::abs(two.height() - 2 * one.height()) <= 6,
                 qPrintable("100%: " + describe(one) + "; 200%: " + describe(two)));
        QVERIFY2(two.count > 3 * one.count, qPrintable("100%: " + describe(one) + "; 200%: " + describe(two)));
        overlay.release();
    }

    void cornersAndCollapse() {
        OverlayOptions options;
        options.corner = OverlayCorner::BottomRight;
        ImGuiOverlay overlay(options);
        overlay.initialize(&EglContext::procAddress);
        OverlayState state = test::sampleOverlayState();
        settled(1, overlay, state);
        const OverlayRect expanded = overlay.panelRect();
        QVERIFY(std::abs(expanded.x + expanded.width - (kWidth - 10)) <= 1);
        QVERIFY(std::abs(expanded.y + expanded.height - (kHeight - 10)) <= 1);
        state.toggles.details = false;
        settled(1, overlay, state);
        const OverlayRect collapsed = overlay.panelRect();
        QVERIFY2(collapsed.height < expanded.height / 2, qPrintable(QString("%1 vs %2").arg(collapsed.height).arg(expanded.height)));
        QVERIFY(overlay.toggleRect(ChangedContours).empty());  // hidden with the details
        overlay.release();
    }

    void clickFlipsAToggle() {
        ImGuiOverlay overlay;
        overlay.initialize(&EglContext::procAddress);
        OverlayState state = test::sampleOverlayState();
        settled(1, overlay, state);
        const OverlayRect box = overlay.toggleRect(ChangedNeedles);
        QVERIFY(!box.empty());
        // The checkbox square is at the left of its item, as tall as the item.
        const float cx = box.x + box.height / 2, cy = box.y + box.height / 2;
        QVERIFY(overlay.capturesMouseAt(cx, cy));
        QVERIFY(!overlay.capturesMouseAt(kWidth - 5.0f, kHeight - 5.0f));
        unsigned seen = 0;
        overlay.mouseMoved(cx, cy);
        overlay.mouseButton(0, true);
        overlay.mouseButton(0, false);  // before any frame: the release waits for one
        QVERIFY(overlay.needsAnotherFrame());
        for (int i = 0; i < 4; ++i) {
            frame(1, &overlay, &state);
            seen |= state.changed;
        }
        QCOMPARE(seen, static_cast<unsigned>(ChangedNeedles));
        QVERIFY(state.toggles.needles);
        QVERIFY(!state.toggles.contours && !state.toggles.seGlyph && !state.toggles.orientationBlend);
        QVERIFY(overlay.wantCaptureMouse());
        // The arrow collapses the panel.
        const OverlayRect arrow = overlay.toggleRect(ChangedDetails);
        click(overlay, state, arrow.x + arrow.width / 2, arrow.y + arrow.height / 2);
        QVERIFY(!state.toggles.details);
        overlay.mouseMoved(kWidth - 5.0f, kHeight - 5.0f);
        settled(1, overlay, state);
        QVERIFY(!overlay.wantCaptureMouse());
        overlay.release();
    }

    void newContext() {
        // As when Qt recreates the widget's context: release, a new context, initialize.
        ImGuiOverlay overlay;
        overlay.initialize(&EglContext::procAddress);
        OverlayState state = test::sampleOverlayState();
        const Frame before = settled(1, overlay, state);
        overlay.release();
        QVERIFY(!overlay.initialized());
        stopGl();
        startGl();
        overlay.initialize(&EglContext::procAddress);
        const Frame after = settled(1, overlay, state);
        QCOMPARE(differences(before, after).count, 0);
        overlay.release();
    }

    void twoOverlaysKeepApart() {
        QVERIFY(ImGui::GetCurrentContext() == nullptr);
        OverlayOptions builtinFont;
        builtinFont.fontFile = "/nonexistent.ttf";  // b: ImGui's built-in font
        ImGuiOverlay a, b(builtinFont);
        QVERIFY(a.context() != b.context());
        a.initialize(&EglContext::procAddress);
        b.initialize(&EglContext::procAddress);
        QVERIFY(ImGui::GetCurrentContext() == nullptr);  // each call restores the caller's context
        OverlayState sa = test::sampleOverlayState(), sb = test::sampleOverlayState();
        sb.toggles.details = false;
        settled(1, a, sa);
        settled(1, b, sb);
        const OverlayRect pa = a.panelRect(), pb = b.panelRect();
        QVERIFY(pb.height < pa.height);
        // Input to a reaches a alone; frames of b in between change nothing of a's.
        const OverlayRect box = a.toggleRect(ChangedContours);
        a.mouseMoved(box.x + box.height / 2, box.y + box.height / 2);
        a.mouseButton(0, true);
        a.mouseButton(0, false);
        unsigned seenA = 0, seenB = 0;
        for (int i = 0; i < 4; ++i) {
            frame(1, &a, &sa);
            seenA |= sa.changed;
            frame(1, &b, &sb);
            seenB |= sb.changed;
        }
        QCOMPARE(seenA, static_cast<unsigned>(ChangedContours));
        QCOMPARE(seenB, 0u);
        QVERIFY(sa.toggles.contours && !sb.toggles.contours);
        QVERIFY(a.wantCaptureMouse() && !b.wantCaptureMouse());
        QCOMPARE(b.panelRect().height, pb.height);
        QVERIFY(ImGui::GetCurrentContext() == nullptr);
        a.release();
        b.release();
    }
};

QTEST_APPLESS_MAIN(TestImGuiOverlay)
#include "test_imgui_overlay.moc"
