// Orientation maps as colours (design.md §1): hue from the angle, value from the strength.
#include "compute/line_geometry.h"
#include "compute/sweep.h"

#include <algorithm>
#include <cmath>

namespace linescope {
namespace {

void hsvToRgb(double hueDeg, double value, std::uint8_t* rgb) {
    const double h = std::fmod(hueDeg, 360.0) / 60.0;
    const int sector = static_cast<int>(std::floor(h)) % 6;
    const double f = h - std::floor(h);
    const double p = 0, q = value * (1 - f), t = value * f;
    double r = 0, g = 0, b = 0;
    switch (sector) {
    case 0: r = value; g = t; b = p; break;
    case 1: r = q; g = value; b = p; break;
    case 2: r = p; g = value; b = t; break;
    case 3: r = p; g = q; b = value; break;
    case 4: r = t; g = p; b = value; break;
    default: r = value; g = p; b = q; break;
    }
    rgb[0] = static_cast<std::uint8_t>(std::lround(r * 255));
    rgb[1] = static_cast<std::uint8_t>(std::lround(g * 255));
    rgb[2] = static_cast<std::uint8_t>(std::lround(b * 255));
}

}  // namespace

void orientationColour(double angleDegrees, double value, std::uint8_t rgb[3]) {
    hsvToRgb(360.0 * normalizeAngle(angleDegrees) / 180.0, std::clamp(value, 0.0, 1.0), rgb);
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
            const double alpha = normalizeAngle(r.orientation(x, y));
            const double value = static_cast<double>(r.strength.at(x, y)) / maxStrength;
            hsvToRgb(360.0 * alpha / 180.0, value, &img.rgb[i]);
        }
    return img;
}

template RgbImage orientationColours<std::uint8_t>(const SweepResult<std::uint8_t>&);
template RgbImage orientationColours<std::uint16_t>(const SweepResult<std::uint16_t>&);
template RgbImage orientationColours<float>(const SweepResult<float>&);

}  // namespace linescope
