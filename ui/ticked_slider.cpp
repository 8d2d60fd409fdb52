#include "ui/ticked_slider.h"

#include <QPainter>
#include <QStyle>
#include <QStyleOptionSlider>

namespace linescope::ui {

TickedSlider::TickedSlider(QWidget* parent) : QSlider(Qt::Horizontal, parent) {}

void TickedSlider::setTicks(std::vector<int> values) {
    ticks_ = std::move(values);
    update();
}

bool TickedSlider::ticksDrawn() const { return !ticks_.empty() && static_cast<int>(ticks_.size()) * 3 <= width(); }

void TickedSlider::paintEvent(QPaintEvent* e) {
    QSlider::paintEvent(e);
    if (!ticksDrawn()) return;
    QStyleOptionSlider opt;
    initStyleOption(&opt);
    // The handle's centre travels over the groove less the handle's width: a tick sits where
    // the handle's centre stands at that value.
    const QRect groove = style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderGroove, this);
    const QRect handle = style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, this);
    const int span = groove.width() - handle.width();
    QPainter p(this);
    p.setPen(QPen(palette().color(QPalette::WindowText), 1));
    const int y0 = groove.bottom() + 1, y1 = std::min(height() - 1, y0 + 4);
    for (int v : ticks_) {
        const int x = groove.x() + handle.width() / 2 +
                      QStyle::sliderPositionFromValue(minimum(), maximum(), v, span, opt.upsideDown);
        p.drawLine(x, y0, x, y1);
    }
}

}  // namespace linescope::ui
