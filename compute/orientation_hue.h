// The orientation map's colours (design.md §1) from the hue split off the angle:
// orientationColours (orientation_colours.cpp) colours each pixel with orientationRgb, and so
// does the GPU's colour plane (cuda/foreign_images.h) from a table of hues, the same bytes.
#pragma once

#include "compute/host_device.h"

#include <cmath>
#include <cstdint>

namespace linescope {

struct OrientationHue {
    int sector = 0;        // of the hue circle, 0 … 5 (red, yellow, green, cyan, blue, magenta)
    double f = 0;          // the fraction into the sector
    double oneMinusF = 1;  // 1 − f, as the colour's falling channel scales it
};

// The hue of the angle α (degrees, any value; taken modulo 180, hue = 360°·α/180).
OrientationHue orientationHue(double angleDegrees);

// a·b rounded once: on the device no fused multiply-add may take it into a neighbouring sum.
LINESCOPE_HD inline double roundedProduct(double a, double b) {
#ifdef __CUDA_ARCH__
    return __dmul_rn(a, b);
#else
    return a * b;
#endif
}

// The colour of that hue at `value` (0 … 1: strength / max strength; saturation 1), 8-bit RGB.
LINESCOPE_HD inline void orientationRgb(const OrientationHue& hue, double value, std::uint8_t rgb[3]) {
    const double p = 0, q = roundedProduct(value, hue.oneMinusF), t = roundedProduct(value, hue.f);
    double r = 0, g = 0, b = 0;
    switch (hue.sector) {
    case 0: r = value; g = t; b = p; break;
    case 1: r = q; g = value; b = p; break;
    case 2: r = p; g = value; b = t; break;
    case 3: r = p; g = q; b = value; break;
    case 4: r = t; g = p; b = value; break;
    default: r = value; g = p; b = q; break;
    }
    rgb[0] = static_cast<std::uint8_t>(llround(roundedProduct(r, 255)));
    rgb[1] = static_cast<std::uint8_t>(llround(roundedProduct(g, 255)));
    rgb[2] = static_cast<std::uint8_t>(llround(roundedProduct(b, 255)));
}

}  // namespace linescope
