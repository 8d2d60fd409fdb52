// The pixel set of each line kind as one function of (angle, λ): the engine runs it
// (cpu/digital_line_morph.h), the reference enumerates it, `linescope-cli se` exports it.
//
// B = {−a … b} with a = ⌊(λ−1)/2⌋, b = λ−1−a (segmentOf, design.md §1), S the angle's
// fixed-point slope and its major axis (lineFamily: x-major for α ∈ [0,45] ∪ [135,180)).
//
// Segment: the offsets (k, o(k)) (x-major) or (o(k), k) (y-major) for k ∈ B, with
//   o(k) = k·S/2^16 rounded to the nearest integer, halves away from zero, i.e.
//   o(k) = ⌊(k·S + 2^15) / 2^16⌋ for k ≥ 0 (the line path's off(k): the segment's
//   non-negative half is the line path through the origin) and o(k) = −o(−k) for k < 0.
//   Origin: the pixel k = 0, i.e. (0, 0), always in the set. Odd λ: the set is centrally
//   symmetric (o(−k) = −o(k)), its bounding box has odd sides and the origin is the box's
//   centre — OpenCV's default anchor (−1, −1). Even λ: the extra pixel is k = b = a + 1, on
//   the positive side of the major axis (right for x-major, down for y-major); the origin
//   is then the box pixel (−min dx, −min dy), which must be passed to OpenCV as the anchor.
//   ε(f)(p) = min f(p + k) and δ(f)(p) = max f(p − k) over the offsets k (design.md §1), so
//   cv::erode with the kernel and anchor equals the erosion; cv::dilate does not reflect
//   its kernel, so for even λ the dilation is cv::dilate with the reflected kernel (odd λ:
//   the same kernel, and cv::morphologyEx equals every operator).
// Periodic: the offsets k·v for k ∈ B, with v the primitive integer vector (gcd 1) with
//   max(|vx|, |vy|) ≤ kPeriodicStepBound nearest in direction to (cos α, −sin α)
//   (Soille & Talbot's periodic line; periodicStep). Centrally symmetric for odd λ.
// Paths: line paths are not translation invariant; their "kernel" is the window of the line
//   path through the origin at t = 0, i.e. the segment's formula with o(k) = off(k) for every
//   k (halves up): what a pixel at the image's origin sees. It is exported for comparison only.
#pragma once

#include "compute/line_kind.h"
#include "compute/offset.h"

#include <cstdint>
#include <vector>

namespace linescope {

// Periodic steps have components of at most this size in absolute value: 10 gives 128
// directions over 180°, at most 2.2° apart (between 0° and atan(1/10)).
inline constexpr int kPeriodicStepBound = 10;

// The lattice points base + k·major + ⌊(k·num + phase) / den⌋·minor for k = 0 … count−1
// (den > 0): every line kind is a union of such pieces, and the fast engine works on them.
struct DigitalLinePiece {
    Offset base;
    Offset major{1, 0};
    Offset minor{0, 1};
    std::int64_t count = 1;
    std::int64_t num = 0;
    std::int64_t den = 1;
    std::int64_t phase = 0;
    Offset point(std::int64_t k) const;
};

struct LineKernel {
    LineKind kind = LineKind::Segment;
    double angle = 0;  // normalized degrees
    int length = 1;
    std::vector<DigitalLinePiece> pieces;  // the set is their union (disjoint)
    // Every offset once, in the order of the pieces (along the line, from k = −a).
    std::vector<Offset> offsets() const;
    // Whether the set is the same at every pixel (false for line paths).
    bool translationInvariant() const { return kind != LineKind::Paths; }
};

// The pixel set of `kind` at `angleDegrees` (any value) with λ = length ≥ 1 points.
// Throws Error for λ < 1 or a non-finite angle.
LineKernel lineKernel(LineKind kind, double angleDegrees, int length);

// The periodic line's step for an angle (see above).
Offset periodicStep(double angleDegrees);

// The bounding box of offsets: min and max of dx and dy.
struct OffsetBox {
    int minX = 0, maxX = 0, minY = 0, maxY = 0;
    int width() const { return maxX - minX + 1; }
    int height() const { return maxY - minY + 1; }
};
OffsetBox boundingBox(const std::vector<Offset>& offsets);

}  // namespace linescope
