#include "compute/digital_line_decomposition.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>

namespace linescope::digital_line {

namespace {

// Measured on the 2-core development VM (tests/bench/cpu-results.md): a level of the
// recursion costs about as much as folding this many points one by one.
constexpr int kDefaultLeafSize = 24;
std::atomic<int> leafPoints{kDefaultLeafSize};

Offset plus(Offset a, Offset b) { return {a.dx + b.dx, a.dy + b.dy}; }
Offset times(std::int64_t k, Offset a) { return {static_cast<int>(k * a.dx), static_cast<int>(k * a.dy)}; }

// The piece's points with |dx| < W and |dy| < H: the others never reach the image from
// inside it. The points' coordinates are monotone in k, so those kept are an interval.
DigitalLinePiece clipped(const DigitalLinePiece& p, int W, int H) {
    const auto inside = [&](std::int64_t k) {
        const Offset o = p.point(k);
        return std::abs(o.dx) < W && std::abs(o.dy) < H;
    };
    std::int64_t k0 = 0, k1 = p.count - 1;
    while (k0 <= k1 && !inside(k0)) ++k0;
    while (k1 >= k0 && !inside(k1)) --k1;
    DigitalLinePiece q = p;
    q.count = k1 - k0 + 1;
    if (q.count <= 0) {
        q.count = 0;
        return q;
    }
    q.base = plus(p.base, times(k0, p.major));
    q.phase = p.phase + k0 * p.num;
    return q;
}

// Whether the piece reads intermediate images away from the pixel (a level of the recursion,
// or one run off the line through the pixel), which the padding makes exact.
bool needsPadding(const DigitalLinePiece& piece) {
    const DigitalLinePiece p = normalized(piece);
    std::int64_t m = 0;
    const bool oneRun = floorDivide((p.count - 1) * p.num + p.phase, p.den) == 0;
    if (oneRun && collinear(p, &m)) return false;
    return p.count > leafSize();
}

}  // namespace

int leafSize() { return leafPoints.load(std::memory_order_relaxed); }
void setLeafSize(int points) { leafPoints.store(points > 0 ? points : kDefaultLeafSize); }

std::int64_t floorDivide(std::int64_t x, std::int64_t d) {
    const std::int64_t q = x / d;
    return (x % d != 0 && ((x < 0) != (d < 0))) ? q - 1 : q;
}

std::int64_t ceilDivide(std::int64_t x, std::int64_t d) { return -floorDivide(-x, d); }

DigitalLinePiece normalized(DigitalLinePiece p) {
    const std::int64_t d = floorDivide(p.num, p.den);  // o(k) = k·d + ⌊(k·(num − d·den) + phase)/den⌋
    p.major = plus(p.major, times(d, p.minor));
    p.num -= d * p.den;
    const std::int64_t e = floorDivide(p.phase, p.den);  // a constant offset along minor
    p.base = plus(p.base, times(e, p.minor));
    p.phase -= e * p.den;
    if (2 * p.num > p.den) {  // o(k) = k − ⌊(k·(den − num) + den − 1 − phase)/den⌋
        p.major = plus(p.major, p.minor);
        p.minor = {-p.minor.dx, -p.minor.dy};
        p.num = p.den - p.num;
        p.phase = p.den - 1 - p.phase;
    }
    if (p.num == 0) p.minor = {0, 0};
    return p;
}

bool collinear(const DigitalLinePiece& p, std::int64_t* m) {
    const Offset a = p.major, b = p.base;
    if (a.dx != 0) {
        if (b.dx % a.dx != 0) return false;
        *m = b.dx / a.dx;
    } else {
        if (a.dy == 0 || b.dy % a.dy != 0) return false;
        *m = b.dy / a.dy;
    }
    return std::int64_t{b.dx} == *m * a.dx && std::int64_t{b.dy} == *m * a.dy;
}

std::vector<DigitalLinePiece> stagePieces(bool erode, const LineKernel& kernel, int W, int H) {
    std::vector<DigitalLinePiece> pieces;
    for (DigitalLinePiece p : kernel.pieces) {
        if (!erode) {  // δ(f)(p) = max f(p − k): the reflected points
            p.base = {-p.base.dx, -p.base.dy};
            p.major = {-p.major.dx, -p.major.dy};
            p.minor = {-p.minor.dx, -p.minor.dy};
        }
        p = clipped(p, W, H);
        if (p.count > 0) pieces.push_back(p);
    }
    return pieces;
}

Padding paddingOf(const std::vector<DigitalLinePiece>& pieces) {
    Padding pad;
    for (const DigitalLinePiece& p : pieces) {
        if (!needsPadding(p)) continue;
        for (std::int64_t k : {std::int64_t{0}, p.count - 1}) {  // the ends bound a monotone piece
            const Offset o = p.point(k);
            pad.x = std::max(pad.x, std::abs(o.dx));
            pad.y = std::max(pad.y, std::abs(o.dy));
        }
    }
    return pad;
}

}  // namespace linescope::digital_line
