#include "ui/imgui_qt_input.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <QWidget>

#include <imgui.h>

#include <algorithm>
#include <utility>

namespace linescope::ui {

namespace {

// ImGui's button index of a Qt button; −1 for none it tracks.
int buttonIndex(Qt::MouseButton b) {
    switch (b) {
    case Qt::LeftButton: return 0;
    case Qt::RightButton: return 1;
    case Qt::MiddleButton: return 2;
    case Qt::BackButton: return 3;
    case Qt::ForwardButton: return 4;
    default: return -1;
    }
}

// Mouse and wheel events: QSinglePointEvents with a position.
bool isPointerEvent(QEvent::Type t) {
    return t == QEvent::MouseMove || t == QEvent::MouseButtonPress || t == QEvent::MouseButtonDblClick ||
           t == QEvent::MouseButtonRelease || t == QEvent::Wheel;
}

// The events feed() passes to the overlay.
bool isOverlayInput(QEvent::Type t) {
    return isPointerEvent(t) || t == QEvent::KeyPress || t == QEvent::KeyRelease || t == QEvent::FocusIn ||
           t == QEvent::FocusOut || t == QEvent::Leave;
}

// Typed text ImGui should receive: printable characters, not Ctrl/Meta shortcuts.
bool isTypedText(const QKeyEvent& e) {
    const QString text = e.text();  // by value: one string for begin() and end()
    if (text.isEmpty() || (e.modifiers() & (Qt::ControlModifier | Qt::MetaModifier))) return false;
    return std::all_of(text.begin(), text.end(), [](QChar c) { return c.isPrint(); });
}

}  // namespace

int imguiKeyOf(int qtKey) {
    switch (qtKey) {
    case Qt::Key_Tab: case Qt::Key_Backtab: return ImGuiKey_Tab;
    case Qt::Key_Left: return ImGuiKey_LeftArrow;
    case Qt::Key_Right: return ImGuiKey_RightArrow;
    case Qt::Key_Up: return ImGuiKey_UpArrow;
    case Qt::Key_Down: return ImGuiKey_DownArrow;
    case Qt::Key_PageUp: return ImGuiKey_PageUp;
    case Qt::Key_PageDown: return ImGuiKey_PageDown;
    case Qt::Key_Home: return ImGuiKey_Home;
    case Qt::Key_End: return ImGuiKey_End;
    case Qt::Key_Insert: return ImGuiKey_Insert;
    case Qt::Key_Delete: return ImGuiKey_Delete;
    case Qt::Key_Backspace: return ImGuiKey_Backspace;
    case Qt::Key_Space: return ImGuiKey_Space;
    case Qt::Key_Return: return ImGuiKey_Enter;
    case Qt::Key_Escape: return ImGuiKey_Escape;
    case Qt::Key_Enter: return ImGuiKey_KeyPadEnter;  // Qt: Key_Enter is the keypad's
    case Qt::Key_A: return ImGuiKey_A;  // the letters of ImGui's text shortcuts
    case Qt::Key_C: return ImGuiKey_C;
    case Qt::Key_V: return ImGuiKey_V;
    case Qt::Key_X: return ImGuiKey_X;
    case Qt::Key_Y: return ImGuiKey_Y;
    case Qt::Key_Z: return ImGuiKey_Z;
    default: return -1;
    }
}

ImGuiQtInput::ImGuiQtInput(render::ImGuiOverlay& overlay, QObject* parent) : QObject(parent), overlay_(overlay) {}

bool ImGuiQtInput::feed(QEvent* event) {
    if (event->isInputEvent()) {
        const Qt::KeyboardModifiers m = static_cast<QInputEvent*>(event)->modifiers();
        overlay_.modifiers(m & Qt::ControlModifier, m & Qt::ShiftModifier, m & Qt::AltModifier, m & Qt::MetaModifier);
    }
    // Every pointer event moves ImGui's mouse first (logical pixels, as the overlay lays out).
    bool overPanel = false;
    if (isPointerEvent(event->type())) {
        const QPointF p = static_cast<QSinglePointEvent*>(event)->position();
        const float x = static_cast<float>(p.x()), y = static_cast<float>(p.y());
        overlay_.mouseMoved(x, y);
        overPanel = overlay_.capturesMouseAt(x, y);
    }
    switch (event->type()) {
    case QEvent::MouseMove: {
        const bool overlayHeld = std::find(pressTaken_.begin(), pressTaken_.end(), true) != pressTaken_.end();
        // A drag that began on the image (a pan) stays the viewport's across the panel.
        return overlayHeld || (static_cast<QMouseEvent*>(event)->buttons() == Qt::NoButton && overPanel);
    }
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick: {  // Qt sends the second press of a double click as this
        const int b = buttonIndex(static_cast<QMouseEvent*>(event)->button());
        if (b < 0) return false;
        // ImGui sees every press (one off the panel is how it knows the click is not its own).
        overlay_.mouseButton(b, true);
        pressTaken_[static_cast<std::size_t>(b)] = overPanel;
        return overPanel;
    }
    case QEvent::MouseButtonRelease: {
        const int b = buttonIndex(static_cast<QMouseEvent*>(event)->button());
        if (b < 0) return false;
        overlay_.mouseButton(b, false);
        return std::exchange(pressTaken_[static_cast<std::size_t>(b)], false);
    }
    case QEvent::Wheel: {
        const QPoint eighths = static_cast<QWheelEvent*>(event)->angleDelta();  // 120 per notch
        overlay_.mouseWheel(static_cast<float>(eighths.x()) / 120.0f, static_cast<float>(eighths.y()) / 120.0f);
        return overPanel;
    }
    case QEvent::KeyPress:
    case QEvent::KeyRelease: {
        const auto* e = static_cast<QKeyEvent*>(event);
        const bool press = event->type() == QEvent::KeyPress;
        // An auto-repeat sends release+press pairs: the key stays down for ImGui.
        const int key = imguiKeyOf(e->key());
        if (key >= 0 && (press || !e->isAutoRepeat())) overlay_.key(key, press);
        if (press && isTypedText(*e)) overlay_.text(e->text().toUtf8().constData());
        return overlay_.wantCaptureKeyboard();
    }
    case QEvent::FocusIn:
    case QEvent::FocusOut:
        overlay_.focus(event->type() == QEvent::FocusIn);
        if (event->type() == QEvent::FocusOut) pressTaken_.fill(false);
        return false;
    case QEvent::Leave:
        overlay_.mouseLeft();
        return false;
    default:
        return false;
    }
}

bool ImGuiQtInput::eventFilter(QObject* watched, QEvent* event) {
    if (!isOverlayInput(event->type())) return false;  // paints and the rest: the viewport's
    const bool taken = feed(event);
    // The overlay shows input at its next frame (hover, a click, a release held for a frame).
    if (auto* widget = qobject_cast<QWidget*>(watched); widget && overlay_.needsAnotherFrame()) widget->update();
    return taken;
}

}  // namespace linescope::ui
