#include "ui/angle_dial.h"

#include <QMouseEvent>
#include <QPainter>
#include <QStyleOption>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace linescope::ui {

namespace {
constexpr double kRadPerDeg = std::numbers::pi / 180.0;
}

AngleDial::AngleDial(QWidget* parent) : QAbstractSlider(parent) {
    setFocusPolicy(Qt::WheelFocus);
    setToolTip(tr("The line's orientation: 0° East, counter-clockwise (90° North)"));
}

double AngleDial::degrees() const {
    const int span = maximum() - minimum();
    return span > 0 ? 180.0 * (value() - minimum()) / span : 0.0;
}

QPointF AngleDial::direction(double degrees) {
    return {std::cos(degrees * kRadPerDeg), -std::sin(degrees * kRadPerDeg)};
}

double AngleDial::radius() const { return std::min(width(), height()) / 2.0 - 3.0; }

QPointF AngleDial::knobCentre() const {
    return QRectF(rect()).center() + 0.8 * radius() * direction(degrees());
}

double AngleDial::degreesAt(QPointF point) const {
    const QPointF d = point - QRectF(rect()).center();
    double a = std::atan2(-d.y(), d.x()) / kRadPerDeg;  // screen y points down
    a = std::fmod(a + 360.0, 180.0);                     // a line: α and α + 180° are one
    return a;
}

void AngleDial::pointAt(QPointF point) {
    const int span = maximum() - minimum();
    int v = minimum() + static_cast<int>(std::lround(degreesAt(point) / 180.0 * span));
    if (v == maximum() && value() == minimum()) v = minimum();  // 180° is 0°: no jump at East
    setSliderPosition(v);
    triggerAction(SliderMove);
}

void AngleDial::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return QAbstractSlider::mousePressEvent(e);
    setSliderDown(true);
    pointAt(e->position());
    e->accept();
}

void AngleDial::mouseMoveEvent(QMouseEvent* e) {
    if (!(e->buttons() & Qt::LeftButton)) return QAbstractSlider::mouseMoveEvent(e);
    pointAt(e->position());
    e->accept();
}

void AngleDial::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return QAbstractSlider::mouseReleaseEvent(e);
    setSliderDown(false);
    e->accept();
}

void AngleDial::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPointF c = QRectF(rect()).center();
    const double r = radius();
    const QPalette& pal = palette();
    p.setPen(QPen(pal.color(QPalette::Mid), 1));
    p.setBrush(pal.color(QPalette::Button));
    p.drawEllipse(c, r, r);
    // Ticks every 15°; longer at the compass points (0°, 90°, 180°, 270°).
    for (int a = 0; a < 360; a += 15) {
        const QPointF d = direction(a);
        p.drawLine(c + d * (a % 90 == 0 ? r * 0.72 : r * 0.86), c + d * r);
    }
    const QColor ink = isEnabled() ? pal.color(QPalette::Highlight) : pal.color(QPalette::Mid);
    const QPointF d = direction(degrees());
    // The line through the centre, as the segment lies on the image; the knob marks α.
    p.setPen(QPen(ink, 3, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(c - d * (0.8 * r), c + d * (0.8 * r));
    p.setPen(Qt::NoPen);
    p.setBrush(ink);
    p.drawEllipse(knobCentre(), 4.5, 4.5);
    if (hasFocus()) {
        QStyleOptionFocusRect focus;
        focus.initFrom(this);
        style()->drawPrimitive(QStyle::PE_FrameFocusRect, &focus, &p, this);
    }
}

}  // namespace linescope::ui
