// The angle dial: a round control drawn in the angle convention of the whole application
// (0° = East, counter-clockwise, 90° = North on screen). A line of structuring element has
// no head, so the dial shows the whole line through its centre: a knob at α and the other
// end at α + 180°, the way the segment lies on the image. Pressing or dragging anywhere on
// the dial points the line there (either half picks the same orientation).
//
// Its value is in the slider's units (MainWindow: 0…1800, tenths of a degree); the range
// spans the half-turn 0…180°. Wheel and arrow keys step as any QAbstractSlider.
//
// Thread: UI thread only.
#pragma once

#include <QAbstractSlider>
#include <QPointF>

namespace linescope::ui {

class AngleDial : public QAbstractSlider {
    Q_OBJECT
public:
    explicit AngleDial(QWidget* parent = nullptr);

    // The value as degrees over the half-turn: 180 · (value − min) / (max − min).
    double degrees() const;
    // The unit vector, in screen coordinates (y down), from the centre towards the knob
    // at `degrees`: (cos α, −sin α).
    static QPointF direction(double degrees);
    // The knob's centre in widget coordinates at the current value.
    QPointF knobCentre() const;
    // The orientation (0…180°, counter-clockwise from East) of a widget point seen from the
    // centre: what a press there selects.
    double degreesAt(QPointF point) const;

    QSize sizeHint() const override { return {72, 72}; }
    QSize minimumSizeHint() const override { return {48, 48}; }

protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;

private:
    double radius() const;
    void pointAt(QPointF point);
};

}  // namespace linescope::ui
