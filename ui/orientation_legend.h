// The orientation map's legend: a colour wheel where the direction from the centre is the
// segment's angle as seen on screen (0° East, counter-clockwise; opposite directions are the
// same orientation and share a colour) and the distance from the centre the strength, in the
// engine's own colours (compute/sweep.h orientationColour). Drawn once per size.
//
// Thread: UI thread only.
#pragma once

#include <QImage>
#include <QWidget>

namespace linescope::ui {

class OrientationLegend : public QWidget {
    Q_OBJECT
public:
    explicit OrientationLegend(QWidget* parent = nullptr);
    QSize sizeHint() const override { return {120, 120}; }
    // The wheel of diameter `size` pixels (transparent outside the disc), for tests and export.
    static QImage wheel(int size);

protected:
    void paintEvent(QPaintEvent* e) override;

private:
    QImage cache_;
};

}  // namespace linescope::ui
