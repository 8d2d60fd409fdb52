// Our Qt input adapter for the Dear ImGui overlay: turns the viewport's Qt events (mouse in
// logical pixels, wheel, keys, typed text, focus, leave) into render::ImGuiOverlay's input
// calls, and says which events the overlay takes, so that a click on the panel does not also
// pan or probe the image. (Dear ImGui 1.86 has no Qt backend, and its io.Add*Event queue came
// only in 1.87: the overlay keeps a press and its release apart by a frame itself.)
//
// Thread: UI thread only (the viewport's events and paints).
#pragma once

#include "render/imgui_overlay.h"

#include <QObject>

#include <array>

class QEvent;

namespace linescope::ui {

// Qt::Key → ImGuiKey_ value; −1 for a key Dear ImGui 1.86 does not know.
int imguiKeyOf(int qtKey);
// ImGuiMouseCursor → the Qt cursor shape (Qt::BlankCursor for ImGuiMouseCursor_None).

class ImGuiQtInput : public QObject {
    Q_OBJECT
public:
    // overlay must outlive the adapter.
    explicit ImGuiQtInput(render::ImGuiOverlay& overlay, QObject* parent = nullptr);

    // Feeds one event to the overlay. True when the overlay takes it: a press, double click
    // or wheel over the panel, the release of a press it took, a move over the panel with no
    // button held or while an overlay press is held, a key while ImGui wants the keyboard.
    // Other events (and every event the overlay does not take) stay the viewport's.
    bool feed(QEvent* event);

    // As an event filter on the viewport: feeds every event, stops those the overlay takes,
    // and asks the watched widget for a repaint when the overlay needs a frame.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    render::ImGuiOverlay& overlay_;
    std::array<bool, 5> pressTaken_{};  // per ImGui button: its press went to the overlay
};

}  // namespace linescope::ui
