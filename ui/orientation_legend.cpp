#include "ui/orientation_legend.h"

#include "compute/sweep.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace linescope::ui {

OrientationLegend::OrientationLegend(QWidget* parent) : QWidget(parent) {
    setMinimumSize(80, 80);
    setToolTip(tr("Orientation map colours: the direction from the centre is the segment's angle "
                  "(0° East, counter-clockwise), the distance the strength"));
}

QImage OrientationLegend::wheel(int size) {
    QImage img(size, size, QImage::Format_ARGB32);
    img.fill(Qt::transparent);
    const double c = (size - 1) / 2.0, r = size / 2.0;
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            const double dx = x - c, dy = c - y;  // screen y down: up is +
            const double d = std::hypot(dx, dy) / r;
            if (d > 1) continue;
            const double angle = std::atan2(dy, dx) * 180.0 / std::numbers::pi;
            std::uint8_t rgb[3];
            orientationColour(angle, d, rgb);
            img.setPixel(x, y, qRgb(rgb[0], rgb[1], rgb[2]));
        }
    return img;
}

void OrientationLegend::paintEvent(QPaintEvent*) {
    const int side = std::min(width(), height()) - 24;
    if (side <= 8) return;
    const qreal dpr = devicePixelRatioF();
    const int px = static_cast<int>(std::lround(side * dpr));
    if (cache_.width() != px) {
        cache_ = wheel(px);
        cache_.setDevicePixelRatio(dpr);
    }
    QPainter p(this);
    const int x0 = (width() - side) / 2, y0 = (height() - side) / 2;
    p.drawImage(x0, y0, cache_);
    p.setPen(palette().color(QPalette::WindowText));
    const QFontMetrics fm(font());
    p.drawText(x0 + side + 2, y0 + side / 2 + fm.ascent() / 2, QStringLiteral("0°"));
    const QString ninety = QStringLiteral("90°");
    p.drawText(x0 + side / 2 - fm.horizontalAdvance(ninety) / 2, y0 - 2, ninety);
}

}  // namespace linescope::ui
