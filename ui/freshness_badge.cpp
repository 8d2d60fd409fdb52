// FreshnessBadge: the state's words, capitalised, in the state's colours.
#include "ui/freshness_badge.h"

namespace linescope::ui {

FreshnessBadge::FreshnessBadge(QWidget* parent) : QLabel(parent) {
    setObjectName(QStringLiteral("freshnessBadge"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    staleDelay_.setSingleShot(true);
    staleDelay_.setInterval(kStaleDelayMs);
    connect(&staleDelay_, &QTimer::timeout, this, &FreshnessBadge::present);
    hide();
}

void FreshnessBadge::setState(const session::ShownState& state) {
    const bool wasStale = state_.freshness == session::Freshness::Stale;
    state_ = state;
    if (state.freshness == session::Freshness::Stale) {
        // Already showing stale: keep it up to date; else wait for the delay.
        if (wasStale && isVisible()) present();
        else if (!staleDelay_.isActive()) staleDelay_.start();
        return;
    }
    staleDelay_.stop();
    present();
}

void FreshnessBadge::present() {
    if (state_.freshness == session::Freshness::Current) {
        if (isVisible()) {
            hide();
            emit changed();
        }
        return;
    }
    QString text = QString::fromStdString(state_.text);
    if (!text.isEmpty()) text[0] = text[0].toUpper();
    const bool preview = state_.freshness == session::Freshness::Preview;
    setStyleSheet(preview ? QStringLiteral("QLabel { background: rgba(230, 160, 20, 225); color: black; "
                                           "padding: 3px 8px; border-radius: 4px; }")
                          : QStringLiteral("QLabel { background: rgba(90, 90, 90, 225); color: white; "
                                           "padding: 3px 8px; border-radius: 4px; }"));
    setText(text);
    adjustSize();
    show();
    emit changed();
}

}  // namespace linescope::ui
