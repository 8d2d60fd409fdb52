// The overlay's Qt input adapter (label gui): synthetic Qt events reach the overlay's ImGuiIO
// (mouse position, buttons, wheel, keys, modifiers, text, focus, leave), and in a Qt OpenGL
// context (GLX under Xvfb: the context the app's viewport has) a click on a checkbox of a
// rendered panel flips it, is taken from the viewport, and clicks and drags off the panel are
// not. Skips where Qt gives no OpenGL 3.3 context.
#include "render/imgui_overlay.h"
#include "tests/support/overlay_state.h"
#include "ui/imgui_qt_input.h"

#include <QtTest>

#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>

#include <imgui.h>

#include <cfloat>
#include <memory>

using namespace linescope;
using namespace linescope::render;
using linescope::ui::ImGuiQtInput;

namespace {

constexpr int kWidth = 360, kHeight = 260;

void* qtProcAddress(const char* name) {
    QOpenGLContext* c = QOpenGLContext::currentContext();
    return c ? reinterpret_cast<void*>(c->getProcAddress(name)) : nullptr;
}

QMouseEvent mouse(QEvent::Type type, QPointF p, Qt::MouseButton button, Qt::MouseButtons buttons,
                  Qt::KeyboardModifiers mods = Qt::NoModifier) {
    return QMouseEvent(type, p, p, button, buttons, mods);
}

// The overlay's ImGuiIO, its context current while this lives.
class IoOf {
public:
    explicit IoOf(const ImGuiOverlay& o) : previous_(ImGui::GetCurrentContext()) { ImGui::SetCurrentContext(o.context()); }
    ~IoOf() { ImGui::SetCurrentContext(previous_); }
    ImGuiIO* operator->() const { return &ImGui::GetIO(); }

private:
    ImGuiContext* previous_;
};


}  // namespace

class TestImGuiQtInput : public QObject {
    Q_OBJECT

    QOpenGLContext context_;
    QOffscreenSurface surface_;
    std::unique_ptr<QOpenGLFramebufferObject> fbo_;
    std::unique_ptr<ImGuiOverlay> overlay_;
    std::unique_ptr<ImGuiQtInput> input_;
    OverlayState state_;

    QImage frame() {
        fbo_->bind();
        QOpenGLFunctions* f = context_.functions();
        f->glViewport(0, 0, kWidth, kHeight);
        f->glClearColor(0.5f, 0.5f, 0.5f, 1);
        f->glClear(GL_COLOR_BUFFER_BIT);
        overlay_->beginFrame(kWidth, kHeight, 1, 1.0f / 60);
        overlay_->draw(state_);
        overlay_->render();
        return fbo_->toImage();
    }
    // Frames until the overlay needs none; the toggles flipped on the way.
    unsigned settle(QImage* last = nullptr) {
        unsigned changed = 0;
        QImage img = frame();
        changed |= state_.changed;
        for (int i = 0; i < 6 && overlay_->needsAnotherFrame(); ++i) {
            img = frame();
            changed |= state_.changed;
        }
        if (last) *last = img;
        return changed;
    }
    bool send(QEvent&& e) { return input_->feed(&e); }

private slots:
    void initTestCase() {
        QSurfaceFormat format;
        format.setRenderableType(QSurfaceFormat::OpenGL);
        format.setVersion(3, 3);
        format.setProfile(QSurfaceFormat::CoreProfile);
        context_.setFormat(format);
        if (!context_.create()) QSKIP("Qt gives no OpenGL 3.3 core context here");
        surface_.setFormat(context_.format());
        surface_.create();
        if (!context_.makeCurrent(&surface_)) QSKIP("the OpenGL context does not become current");
        const auto* renderer = reinterpret_cast<const char*>(context_.functions()->glGetString(GL_RENDERER));
        qInfo("Qt platform %s, OpenGL %d.%d, %s", qPrintable(QGuiApplication::platformName()),
              context_.format().majorVersion(), context_.format().minorVersion(), renderer ? renderer : "?");
        fbo_ = std::make_unique<QOpenGLFramebufferObject>(kWidth, kHeight);
        overlay_ = std::make_unique<ImGuiOverlay>();
        overlay_->initialize(&qtProcAddress);
        input_ = std::make_unique<ImGuiQtInput>(*overlay_);
        state_ = test::sampleOverlayState();
        settle();
    }
    void cleanupTestCase() {
        if (overlay_ && context_.makeCurrent(&surface_)) overlay_->release();
        input_.reset();
        overlay_.reset();
        fbo_.reset();
        context_.doneCurrent();
    }

    void mouseReachesImGui() {
        send(mouse(QEvent::MouseMove, {kWidth - 20.5, kHeight - 30.25}, Qt::NoButton, Qt::NoButton));
        QCOMPARE(IoOf(*overlay_)->MousePos.x, kWidth - 20.5f);
        QCOMPARE(IoOf(*overlay_)->MousePos.y, kHeight - 30.25f);
        // A right click whose release comes before any frame: ImGui still sees the press.
        send(mouse(QEvent::MouseButtonPress, {kWidth - 20.0, kHeight - 30.0}, Qt::RightButton, Qt::RightButton));
        QVERIFY(IoOf(*overlay_)->MouseDown[1]);
        QCOMPARE(IoOf(*overlay_)->MousePos.x, kWidth - 20.0f);
        // Moved and released before any frame: the frame sees the press where it happened.
        send(mouse(QEvent::MouseMove, {15, 25}, Qt::NoButton, Qt::RightButton));
        send(mouse(QEvent::MouseButtonRelease, {15, 25}, Qt::RightButton, Qt::NoButton));
        QCOMPARE(IoOf(*overlay_)->MousePos.x, kWidth - 20.0f);
        QVERIFY(IoOf(*overlay_)->MouseDown[1]);  // waits for a frame
        frame();
        QVERIFY(IoOf(*overlay_)->MouseDown[1]);  // that frame saw it down …
        frame();
        QVERIFY(!IoOf(*overlay_)->MouseDown[1]);  // … the next one released, where it was
        QCOMPARE(IoOf(*overlay_)->MousePos.x, 15.0f);
        QCOMPARE(IoOf(*overlay_)->MousePos.y, 25.0f);
        send(mouse(QEvent::MouseButtonPress, {5, 5}, Qt::MiddleButton, Qt::MiddleButton, Qt::ShiftModifier));
        QVERIFY(IoOf(*overlay_)->MouseDown[2]);
        QVERIFY(IoOf(*overlay_)->KeyShift);
        frame();
        send(mouse(QEvent::MouseButtonRelease, {5, 5}, Qt::MiddleButton, Qt::NoButton));
        QVERIFY(!IoOf(*overlay_)->MouseDown[2]);  // a frame saw the press: released at once
        QVERIFY(!IoOf(*overlay_)->KeyShift);
        // Wheel: angleDelta in eighths of a degree, 120 a notch.
        send(QWheelEvent({10, 10}, {10, 10}, QPoint(), QPoint(120, -240), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false));
        QCOMPARE(IoOf(*overlay_)->MouseWheel, -2.0f);
        QCOMPARE(IoOf(*overlay_)->MouseWheelH, 1.0f);
        frame();  // a frame consumes the wheel
        QCOMPARE(IoOf(*overlay_)->MouseWheel, 0.0f);
        QEvent leave(QEvent::Leave);
        QVERIFY(!input_->feed(&leave));
        QCOMPARE(IoOf(*overlay_)->MousePos.x, -FLT_MAX);
        settle();
    }

    void keysReachImGui() {
        QVERIFY(!send(QKeyEvent(QEvent::KeyPress, Qt::Key_Tab, Qt::NoModifier)));  // nothing wants keys
        QVERIFY(IoOf(*overlay_)->KeysDown[ImGuiKey_Tab]);
        frame();
        send(QKeyEvent(QEvent::KeyRelease, Qt::Key_Tab, Qt::NoModifier));
        QVERIFY(!IoOf(*overlay_)->KeysDown[ImGuiKey_Tab]);
        send(QKeyEvent(QEvent::KeyPress, Qt::Key_Enter, Qt::KeypadModifier));
        QVERIFY(IoOf(*overlay_)->KeysDown[ImGuiKey_KeyPadEnter]);
        send(QKeyEvent(QEvent::KeyPress, Qt::Key_Return, Qt::NoModifier));
        QVERIFY(IoOf(*overlay_)->KeysDown[ImGuiKey_Enter]);
        // Ctrl+A: the key and the modifier, no text.
        send(QKeyEvent(QEvent::KeyPress, Qt::Key_A, Qt::ControlModifier, QStringLiteral("\x01")));
        QVERIFY(IoOf(*overlay_)->KeysDown[ImGuiKey_A]);
        QVERIFY(IoOf(*overlay_)->KeyCtrl);
        QVERIFY(IoOf(*overlay_)->InputQueueCharacters.empty());
        // Typed text, beyond ASCII.
        send(QKeyEvent(QEvent::KeyPress, Qt::Key_Eacute, Qt::NoModifier, QString::fromUtf8("\xc3\xa9")));
        send(QKeyEvent(QEvent::KeyPress, 0, Qt::NoModifier, QString::fromUtf8("\xce\xbb")));
        {
            IoOf io(*overlay_);
            QCOMPARE(io->InputQueueCharacters.Size, 2);
            QCOMPARE(static_cast<unsigned>(io->InputQueueCharacters[0]), 0xE9u);   // é
            QCOMPARE(static_cast<unsigned>(io->InputQueueCharacters[1]), 0x3BBu);  // λ
            QVERIFY(!io->KeyCtrl);
        }
        // Losing focus lets go of every key (ImGui 1.86 does so at the next frame).
        frame();
        QFocusEvent out(QEvent::FocusOut);
        input_->feed(&out);
        frame();
        QVERIFY(!IoOf(*overlay_)->KeysDown[ImGuiKey_Enter] && !IoOf(*overlay_)->KeysDown[ImGuiKey_A]);
        QFocusEvent in(QEvent::FocusIn);
        input_->feed(&in);
        settle();
        QVERIFY(!IoOf(*overlay_)->KeysDown[ImGuiKey_KeyPadEnter]);
        QCOMPARE(ui::imguiKeyOf(Qt::Key_F5), -1);
    }

    void clickOnTheCheckbox() {
        QImage before;
        settle(&before);
        const OverlayRect box = overlay_->toggleRect(ChangedSeGlyph);
        QVERIFY(!box.empty());
        const QPointF at(box.x + box.height / 2, box.y + box.height / 2);  // the square
        QVERIFY(!state_.toggles.seGlyph);
        // Through the event filter, as on the viewport widget: the events are taken.
        QObject viewport;
        viewport.installEventFilter(input_.get());
        auto sent = [&](QEvent&& e) { return QCoreApplication::sendEvent(&viewport, &e); };
        QVERIFY(sent(mouse(QEvent::MouseMove, at, Qt::NoButton, Qt::NoButton)));
        QVERIFY(sent(mouse(QEvent::MouseButtonPress, at, Qt::LeftButton, Qt::LeftButton)));
        QVERIFY(sent(mouse(QEvent::MouseButtonRelease, at, Qt::LeftButton, Qt::NoButton)));
        QImage after;
        QCOMPARE(settle(&after), static_cast<unsigned>(ChangedSeGlyph));
        QVERIFY(state_.toggles.seGlyph);
        QVERIFY(!state_.toggles.contours && !state_.toggles.orientationBlend && !state_.toggles.needles);
        QVERIFY(overlay_->wantCaptureMouse());
        // The check mark is drawn: the box's pixels changed (rendered in Qt's context).
        const QRect square(static_cast<int>(box.x), static_cast<int>(box.y), static_cast<int>(box.height), static_cast<int>(box.height));
        QVERIFY(before.copy(square) != after.copy(square));

        // Off the panel: not taken, and ImGui does not want the mouse.
        const QPointF off(kWidth - 5.0, kHeight - 5.0);
        QVERIFY(!overlay_->panelRect().contains(static_cast<float>(off.x()), static_cast<float>(off.y())));
        QVERIFY(!sent(mouse(QEvent::MouseMove, off, Qt::NoButton, Qt::NoButton)));
        settle();
        QVERIFY(!overlay_->wantCaptureMouse());
        QVERIFY(!sent(mouse(QEvent::MouseButtonPress, off, Qt::LeftButton, Qt::LeftButton)));
        // A pan dragged across the panel stays the viewport's, its release too.
        QVERIFY(!sent(mouse(QEvent::MouseMove, at, Qt::NoButton, Qt::LeftButton)));
        QVERIFY(!sent(mouse(QEvent::MouseButtonRelease, at, Qt::LeftButton, Qt::NoButton)));
        QCOMPARE(settle(), 0u);
        QVERIFY(state_.toggles.seGlyph);
        // A wheel over the panel is taken, off it is not.
        QVERIFY(sent(QWheelEvent(at, at, QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false)));
        QVERIFY(!sent(QWheelEvent(off, off, QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false)));
        settle();
    }
};

QTEST_MAIN(TestImGuiQtInput)
#include "test_imgui_qt_input.moc"
