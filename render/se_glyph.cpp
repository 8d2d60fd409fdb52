#include "render/se_glyph.h"

#include "compute/line_geometry.h"
#include "compute/line_kernel.h"

namespace linescope::render {

std::vector<GlyphPixel> segmentGlyph(double angleDegrees, int length, int x, int y, int width, int height) {
    std::vector<GlyphPixel> out;
    if (length < 1 || x < 0 || y < 0 || x >= width || y >= height) return out;
    const LineFamily family = lineFamily(angleDegrees, width, height);
    const Segment seg = segmentOf(length);
    // The pixel's line c and its position t along it, by the family's own definition.
    const std::int64_t t = family.yMajor ? y : x;
    const std::int64_t c = (family.yMajor ? x : y) - family.off(t);
    std::int64_t t0 = 0, t1 = -1;
    family.extent(c, t0, t1);
    out.reserve(static_cast<std::size_t>(length));
    for (std::int64_t k = -seg.a; k <= seg.b; ++k) {
        const std::int64_t u = t + k;
        if (u < t0 || u > t1) continue;  // positions outside the line's in-image part are ignored
        std::int64_t px = 0, py = 0;
        family.pixel(c, u, px, py);
        out.push_back({static_cast<int>(px), static_cast<int>(py)});
    }
    return out;
}

std::vector<GlyphPixel> lineGlyph(LineKind kind, double angleDegrees, int length, int x, int y, int width, int height) {
    if (kind == LineKind::Paths) return segmentGlyph(angleDegrees, length, x, y, width, height);
    std::vector<GlyphPixel> out;
    if (length < 1 || x < 0 || y < 0 || x >= width || y >= height) return out;
    // ε(f)(p) = min f(p + k): the erosion at (x, y) reads (x, y) + k, and pixels outside the
    // image are ignored.
    for (const Offset& k : lineKernel(kind, angleDegrees, length).offsets()) {
        const int px = x + k.dx, py = y + k.dy;
        if (px >= 0 && py >= 0 && px < width && py < height) out.push_back({px, py});
    }
    return out;
}

}  // namespace linescope::render
