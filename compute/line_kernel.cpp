// The pixel sets of line_kernel.h, written as unions of digital line pieces.
#include "compute/line_kernel.h"

#include "compute/image.h"
#include "compute/line_geometry.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>

namespace linescope {

namespace {

std::int64_t floorDiv(std::int64_t x, std::int64_t d) {
    const std::int64_t q = x / d;
    return (x % d != 0 && ((x < 0) != (d < 0))) ? q - 1 : q;
}

// Points k = k0 … k1 of o(k) = ⌊(k·num + phase)/den⌋ along major/minor, as one piece.
DigitalLinePiece pieceOver(std::int64_t k0, std::int64_t k1, Offset major, Offset minor, std::int64_t num,
                           std::int64_t den, std::int64_t phase) {
    DigitalLinePiece p;
    p.major = major;
    p.minor = minor;
    p.base = {static_cast<int>(k0 * major.dx), static_cast<int>(k0 * major.dy)};
    p.count = k1 - k0 + 1;
    p.num = num;
    p.den = den;
    p.phase = phase + k0 * num;  // k = k0 + k'
    return p;
}

void requireLength(int length, double angle) {
    if (length < 1) throw Error("the line's length must be at least 1 (got " + std::to_string(length) + ")");
    if (!std::isfinite(angle)) throw Error("the line's angle must be finite");
}

}  // namespace

Offset DigitalLinePiece::point(std::int64_t k) const {
    const std::int64_t o = floorDiv(k * num + phase, den);
    return {static_cast<int>(base.dx + k * major.dx + o * minor.dx),
            static_cast<int>(base.dy + k * major.dy + o * minor.dy)};
}

std::vector<Offset> LineKernel::offsets() const {
    std::vector<Offset> out;
    for (const DigitalLinePiece& p : pieces)
        for (std::int64_t k = 0; k < p.count; ++k) out.push_back(p.point(k));
    return out;
}

Offset periodicStep(double angleDegrees) {
    const double rad = normalizeAngle(angleDegrees) * std::numbers::pi / 180.0;
    const double cx = std::cos(rad), cy = -std::sin(rad);
    Offset best{1, 0};
    double bestSin = std::numeric_limits<double>::infinity();
    int bestNorm = std::numeric_limits<int>::max();
    const int n = kPeriodicStepBound;
    // Half-plane vx > 0, or vx = 0 and vy < 0 (straight up): each direction once.
    for (int vx = 0; vx <= n; ++vx)
        for (int vy = -n; vy <= n; ++vy) {
            if (vx == 0 && vy >= 0) continue;
            if (std::gcd(vx, vy) != 1) continue;
            const double len = std::hypot(vx, vy);
            // |sin| of the angle between v and ±d: the distance of directions modulo 180°.
            const double sinAngle = std::abs(vx * cy - vy * cx) / len;
            const int norm = vx * vx + vy * vy;
            if (sinAngle < bestSin - 1e-12 || (sinAngle <= bestSin + 1e-12 && norm < bestNorm)) {
                best = {vx, vy};
                bestSin = sinAngle;
                bestNorm = norm;
            }
        }
    return best;
}

LineKernel lineKernel(LineKind kind, double angleDegrees, int length) {
    requireLength(length, angleDegrees);
    LineKernel k;
    k.kind = kind;
    k.angle = normalizeAngle(angleDegrees);
    k.length = length;
    const Segment seg = segmentOf(length);
    if (kind == LineKind::Periodic) {
        const Offset v = periodicStep(angleDegrees);
        k.pieces.push_back(pieceOver(-seg.a, seg.b, v, {0, 0}, 0, 1, 0));
        return k;
    }
    const LineFamily fam = lineFamily(angleDegrees, 1, 1);
    const Offset major = fam.yMajor ? Offset{0, 1} : Offset{1, 0};
    const Offset minor = fam.yMajor ? Offset{1, 0} : Offset{0, 1};
    constexpr std::int64_t den = std::int64_t{1} << 16;
    const std::int64_t S = fam.slope;
    if (kind == LineKind::Paths) {
        k.pieces.push_back(pieceOver(-seg.a, seg.b, major, minor, S, den, kLinePhase));
        return k;
    }
    // Segment. For k < 0, −o(−k) = ⌈(k·S − 2^15)/2^16⌉ = ⌊(k·S + 2^15 − 1)/2^16⌋; it differs
    // from the path's ⌊(k·S + 2^15)/2^16⌋ only where k·S/2^16 is a half-integer (a tie).
    bool tie = false;
    for (std::int64_t j = 1; j <= std::min<std::int64_t>(seg.a, den) && !tie; ++j)
        tie = ((-j * S + kLinePhase) & (den - 1)) == 0;
    if (!tie) {
        k.pieces.push_back(pieceOver(-seg.a, seg.b, major, minor, S, den, kLinePhase));
    } else {
        k.pieces.push_back(pieceOver(-seg.a, -1, major, minor, S, den, kLinePhase - 1));
        k.pieces.push_back(pieceOver(0, seg.b, major, minor, S, den, kLinePhase));
    }
    return k;
}

OffsetBox boundingBox(const std::vector<Offset>& offsets) {
    OffsetBox b;
    for (const Offset& o : offsets) {
        b.minX = std::min(b.minX, o.dx);
        b.maxX = std::max(b.maxX, o.dx);
        b.minY = std::min(b.minY, o.dy);
        b.maxY = std::max(b.maxY, o.dy);
    }
    return b;
}

}  // namespace linescope
