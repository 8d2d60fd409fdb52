// Orientation maps as colours (design.md §1): hue from the angle, value from the strength.
#include "compute/line_geometry.h"
#include "compute/orientation_hue.h"
#include "compute/sweep.h"

#include <algorithm>
#include <cmath>

namespace linescope {
namespace {

OrientationHue hueOf(double hueDeg) {
    const double h = std::fmod(hueDeg, 360.0) / 60.0;
    OrientationHue hue;
    hue.sector = static_cast<int>(std::floor(h)) % 6;
    hue.f = h - std::floor(h);
    hue.oneMinusF = 1 - hue.f;
    return hue;
}

}  // namespace

OrientationHue orientationHue(double angleDegrees) { return hueOf(360.0 * normalizeAngle(angleDegrees) / 180.0); }

void orientationColour(double angleDegrees, double value, std::uint8_t rgb[3]) {
    orientationRgb(orientationHue(angleDegrees), std::clamp(value, 0.0, 1.0), rgb);
}

template <class T>
RgbImage orientationColours(const SweepResult<T>& r) {
    RgbImage img;
    img.width = r.sup.width();
    img.height = r.sup.height();
    img.rgb.assign(static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height) * 3, 0);
    double maxStrength = 0;
    for (T v : r.strength.pixels()) maxStrength = std::max(maxStrength, static_cast<double>(v));
    if (!(maxStrength > 0) || !std::isfinite(maxStrength)) return img;  // no orientation anywhere: black
    std::size_t i = 0;
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x, i += 3) {
            const double value = static_cast<double>(r.strength.at(x, y)) / maxStrength;
            orientationRgb(orientationHue(r.orientation(x, y)), value, &img.rgb[i]);
        }
    return img;
}

template RgbImage orientationColours<std::uint8_t>(const SweepResult<std::uint8_t>&);
template RgbImage orientationColours<std::uint16_t>(const SweepResult<std::uint16_t>&);
template RgbImage orientationColours<float>(const SweepResult<float>&);

}  // namespace linescope
