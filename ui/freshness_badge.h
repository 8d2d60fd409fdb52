// A small label that says whether what a view shows is what its controls ask for
// (session/shown_state.h): nothing for the current exact result, "Preview: 45 of 180 angles"
// (amber) while a sweep is refined, "Stale: shows λ = 21" (grey) for a result of older
// parameters. A stale mark waits a moment before it shows, so that a result a slider drag
// replaces within that time never flashes one; a preview or a current result shows at once.
// The viewport and the spectrum dock each hold one. UI thread only.
#pragma once

#include "app/session/shown_state.h"

#include <QLabel>
#include <QTimer>

namespace linescope::ui {

class FreshnessBadge : public QLabel {
    Q_OBJECT
public:
    static constexpr int kStaleDelayMs = 300;

    explicit FreshnessBadge(QWidget* parent = nullptr);

    // The state of what the view shows now (shown on screen at once, or after kStaleDelayMs).
    void setState(const session::ShownState& state);
    const session::ShownState& state() const { return state_; }

signals:
    // The label was shown, hidden or its text changed (its host places it again).
    void changed();

private:
    void present();

    session::ShownState state_;
    QTimer staleDelay_;
};

}  // namespace linescope::ui
