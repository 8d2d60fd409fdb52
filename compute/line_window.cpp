#include "compute/line_window.h"

#include "compute/image.h"
#include "compute/line_geometry.h"
#include "compute/line_kernel.h"

#include <string>

namespace linescope {

namespace {

void requireInside(int width, int height, int x, int y) {
    if (x < 0 || y < 0 || x >= width || y >= height)
        throw Error("pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") is outside the " +
                    std::to_string(width) + "x" + std::to_string(height) + " image");
}

}  // namespace

LinePathThrough linePathThrough(double angleDegrees, int width, int height, int x, int y) {
    requireInside(width, height, x, y);
    const LineFamily family = lineFamily(angleDegrees, width, height);
    // The pixel's line: its major coordinate is t, and its minor one is c + off(t).
    const std::int64_t t = family.yMajor ? y : x;
    const std::int64_t c = (family.yMajor ? x : y) - family.off(t);
    std::int64_t t0 = 0, t1 = -1;
    family.extent(c, t0, t1);
    LinePathThrough path;
    path.pixels.reserve(static_cast<std::size_t>(t1 - t0 + 1));
    for (std::int64_t u = t0; u <= t1; ++u) {
        std::int64_t px = 0, py = 0;
        family.pixel(c, u, px, py);
        path.pixels.push_back({static_cast<int>(px), static_cast<int>(py)});
    }
    path.index = static_cast<int>(t - t0);
    return path;
}

std::vector<WindowPixel> stageWindow(bool erosion, LineKind kind, double angleDegrees, int length, int width,
                                     int height, int x, int y) {
    requireInside(width, height, x, y);
    const Segment seg = segmentOf(length);
    std::vector<WindowPixel> out;
    if (kind == LineKind::Paths) {
        const LinePathThrough path = linePathThrough(angleDegrees, width, height, x, y);
        const long long n = static_cast<long long>(path.pixels.size());
        for (int k = -seg.a; k <= seg.b; ++k) {
            const long long u = path.index + (erosion ? k : -static_cast<long long>(k));
            if (u < 0 || u >= n) continue;  // beyond the line's in-image part: ignored
            const PixelAt p = path.pixels[static_cast<std::size_t>(u)];
            out.push_back({p.x, p.y, k});
        }
        return out;
    }
    // offsets() lists the kernel along its line from k = −a (line_kernel.h).
    const std::vector<Offset> offsets = lineKernel(kind, angleDegrees, length).offsets();
    for (std::size_t i = 0; i < offsets.size(); ++i) {
        const long long sx = erosion ? x + static_cast<long long>(offsets[i].dx) : x - static_cast<long long>(offsets[i].dx);
        const long long sy = erosion ? y + static_cast<long long>(offsets[i].dy) : y - static_cast<long long>(offsets[i].dy);
        if (sx < 0 || sy < 0 || sx >= width || sy >= height) continue;
        out.push_back({static_cast<int>(sx), static_cast<int>(sy), static_cast<int>(i) - seg.a});
    }
    return out;
}

}  // namespace linescope
