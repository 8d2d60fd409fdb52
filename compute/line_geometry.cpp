#include "compute/line_geometry.h"

#include "compute/image.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace linescope {

double normalizeAngle(double degrees) {
    if (!std::isfinite(degrees)) throw Error("the angle must be a finite number of degrees");
    double a = std::fmod(degrees, 180.0);
    if (a < 0) a += 180.0;
    if (a >= 180.0) a = 0.0;  // -1e-17 + 180 rounds to 180
    return a == 0.0 ? 0.0 : a;  // no -0
}

Segment segmentOf(int length) {
    if (length < 1) throw Error("the segment length must be at least 1 pixel (got " + std::to_string(length) + ")");
    Segment s;
    s.a = (length - 1) / 2;
    s.b = length - 1 - s.a;
    return s;
}

LineFamily lineFamily(double angleDegrees, int width, int height) {
    LineFamily f;
    f.angle = normalizeAngle(angleDegrees);
    f.width = width;
    f.height = height;
    f.yMajor = f.angle > 45.0 && f.angle < 135.0;
    const double r = f.angle * std::numbers::pi / 180.0;
    const double s = f.yMajor ? -std::cos(r) / std::sin(r) : -std::tan(r);
    f.slope = static_cast<std::int32_t>(std::llround(s * 65536.0));
    return f;
}

LineFamily stripFamily(const LineFamily& family, std::int64_t originY, int rows) {
    LineFamily f = family;
    f.height = rows;
    if (f.yMajor) f.phase = static_cast<std::int32_t>(linePhaseAt(originY, f.slope, f.phase));
    return f;
}

std::int64_t LineFamily::firstLine() const {
    // The minor coordinate c + off(t) must reach 0 for some t: c >= -max off.
    const std::int64_t n = majorLength();
    if (n <= 0) return 0;
    return -std::max(off(0), off(n - 1));
}

std::int64_t LineFamily::lastLine() const {
    const std::int64_t n = majorLength();
    if (n <= 0) return -1;
    return static_cast<std::int64_t>(minorLength()) - 1 - std::min(off(0), off(n - 1));
}

void LineFamily::extent(std::int64_t c, std::int64_t& t0, std::int64_t& t1) const {
    // off() is monotone in t, so the in-image part of a line is one interval; find it by
    // binary search on both sides (exact, no floating point).
    const std::int64_t n = majorLength();
    const std::int64_t m = minorLength();
    auto inside = [&](std::int64_t t) { const std::int64_t v = c + off(t); return v >= 0 && v < m; };
    if (n <= 0 || m <= 0) { t0 = 0; t1 = -1; return; }
    if (slope == 0) {
        if (c >= 0 && c < m) { t0 = 0; t1 = n - 1; } else { t0 = 0; t1 = -1; }
        return;
    }
    // For increasing off (slope > 0) the minor coordinate rises: inside once it reaches 0,
    // outside once it reaches m. For decreasing off it is the mirror image.
    const bool rising = slope > 0;
    auto firstTrue = [&](auto pred) {  // smallest t in [0, n] with pred(t) (pred monotone false→true)
        std::int64_t lo = 0, hi = n;
        while (lo < hi) {
            const std::int64_t mid = lo + (hi - lo) / 2;
            if (pred(mid)) hi = mid; else lo = mid + 1;
        }
        return lo;
    };
    if (rising) {
        t0 = firstTrue([&](std::int64_t t) { return c + off(t) >= 0; });
        t1 = firstTrue([&](std::int64_t t) { return c + off(t) >= m; }) - 1;
    } else {
        t0 = firstTrue([&](std::int64_t t) { return c + off(t) < m; });
        t1 = firstTrue([&](std::int64_t t) { return c + off(t) < 0; }) - 1;
    }
    if (t0 > t1 || !inside(t0)) { t0 = 0; t1 = -1; }
}

}  // namespace linescope
