#include "render/orientation_needles.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace linescope::render {

std::vector<float> orientationNeedles(int width, int height, const std::function<double(int, int)>& angleAt,
                                      const std::function<double(int, int)>& strengthAt, double maxStrength,
                                      int step) {
    std::vector<float> out;
    if (step < 2 || !(maxStrength > 0) || !std::isfinite(maxStrength)) return out;
    for (int cy = step / 2; cy < height; cy += step)
        for (int cx = step / 2; cx < width; cx += step) {
            const double s = strengthAt(cx, cy);
            if (!(s > 0)) continue;
            const double half = 0.45 * step * std::min(s / maxStrength, 1.0);
            const double a = angleAt(cx, cy) * std::numbers::pi / 180.0;
            const double dx = half * std::cos(a), dy = -half * std::sin(a);
            const double x = cx + 0.5, y = cy + 0.5;
            for (double v : {x - dx, y - dy, x + dx, y + dy}) out.push_back(static_cast<float>(v));
        }
    return out;
}

}  // namespace linescope::render
