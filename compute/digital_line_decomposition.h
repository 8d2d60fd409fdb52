// The recursive run decomposition of an erosion by a translation-invariant line kernel
// (line_kernel.h: the digital segment, periodic lines), shared by the CPU
// (cpu/digital_line_morph_impl.inl) and the GPU (cuda/digital_line_device.cu): the recursion
// decides which passes to make, an executor makes them on its own planes.
//
// A piece {base + k·A + ⌊(k·num + phase)/den⌋·B : k < n} (0 ≤ num/den ≤ 1/2 after a change of
// basis) is a staircase of runs along A, all of length ℓ = ⌊den/num⌋ or ℓ + 1 but the two
// partial end runs. Every full run is covered by its first ℓ and its last ℓ points, so
// the erosion is the minimum of
//   - windows along A over the two end runs, the head of the first full run and the tail of
//     the last one, and
//   - the "corner" image C(p) = min(W(p − ℓA), W(p + B)) (W: the window of ℓ points along A,
//     C the tail of one run and the head of the next) taken at the run starts between full
//     runs, which are themselves a piece with A and B swapped and (num, den) → (den, num):
//     Euclid's algorithm, so the recursion ends after O(log λ) levels, each a constant number
//     of passes over the image. Short pieces are folded point by point.
// The source is padded by the kernel's extent with the neutral value first (paddingOf), so
// that the intermediate images are exact wherever an output reads them.
#pragma once

#include "compute/line_kernel.h"

#include <cstdint>
#include <vector>

namespace linescope::digital_line {

// The number of points below which a piece is folded point by point: a level of the
// recursion costs about as much as folding this many points (the CPU's measure; tests and
// benchmarks set it, 0 restores the default).
int leafSize();
void setLeafSize(int points);

// x / d rounded down and up (d > 0 or < 0).
std::int64_t floorDivide(std::int64_t x, std::int64_t d);
std::int64_t ceilDivide(std::int64_t x, std::int64_t d);

// 0 ≤ num < den with 2·num ≤ den, 0 ≤ phase < den: the same points in another basis.
DigitalLinePiece normalized(DigitalLinePiece p);
// Whether a normalized single-run piece lies on the line through the origin: base = m·major.
bool collinear(const DigitalLinePiece& p, std::int64_t* m);

// The pieces of one stage over a W×H image: the kernel's (erode) or their reflection
// (dilate: δ(f)(p) = max f(p − k)), each cut to the points with |dx| < W and |dy| < H (the
// others never reach the image from inside it); empty pieces dropped.
std::vector<DigitalLinePiece> stagePieces(bool erode, const LineKernel& kernel, int W, int H);

// How far the recursion's intermediate images must extend around the image (0 when every
// piece reads the source only: a single run or a folded piece).
struct Padding {
    int x = 0, y = 0;
};
Padding paddingOf(const std::vector<DigitalLinePiece>& pieces);

// acc(p) = inner(acc(p), min over the piece's points k of F(p + k)), F being a padded plane.
// Exec makes the passes, on planes of the padded size:
//   Plane window(const Plane& F, Offset step, std::int64_t lo, std::int64_t hi, bool exact):
//       the inner of F(p + i·step), i = lo … hi (exact: a window cut by the plane's border
//       keeps its inside part; else it may hold anything, as the outputs never read it);
//   Plane corner(const Plane& R, Offset u, Offset v): inner(R(p + u), R(p + v)), outside ignored;
//   void fold(const Plane& F, const std::vector<Offset>& shifts):
//       acc(p) = inner(acc(p), F(p + pad + s)) for each shift s, outside F ignored;
//   void foldWindow(const Plane& F, Offset step, std::int64_t lo, std::int64_t hi, bool exact, Offset s):
//       fold(window(F, step, lo, hi, exact), {s}), which an executor may do without the plane;
// and Plane is movable and default-constructible (a default Plane holds no memory).
template <class Exec>
void accumulate(Exec& ex, const typename Exec::Plane& F, DigitalLinePiece pc) {
    using Plane = typename Exec::Plane;
    constexpr std::int64_t kRunPoints = 8;  // an end run this short is folded point by point
    const auto plus = [](Offset a, Offset b) { return Offset{a.dx + b.dx, a.dy + b.dy}; };
    const auto times = [](std::int64_t k, Offset a) {
        return Offset{static_cast<int>(k * a.dx), static_cast<int>(k * a.dy)};
    };
    pc = normalized(pc);
    const std::int64_t n = pc.count;
    if (n <= 0) return;
    const std::int64_t J = floorDivide((n - 1) * pc.num + pc.phase, pc.den);  // o(n−1); o(0) = 0
    std::int64_t m = 0;
    if (J == 0 && collinear(pc, &m)) {  // one run through the pixel: cut by the border exactly
        ex.foldWindow(F, pc.major, m, m + n - 1, true, Offset{});
        return;
    }
    if (n <= leafSize()) {
        std::vector<Offset> points;
        for (std::int64_t k = 0; k < n; ++k) points.push_back(pc.point(k));
        ex.fold(F, points);
        return;
    }
    if (J == 0) {  // one run off the pixel's line: read on the padding
        ex.foldWindow(F, pc.major, 0, n - 1, false, pc.base);
        return;
    }
    // Runs j = 0 … J start at K_j = ⌈(j·den − phase)/num⌉ (K_0 = 0); full runs 1 … J−1.
    const std::int64_t ell = pc.den / pc.num;  // ≥ 2
    const std::int64_t K1 = ceilDivide(pc.den - pc.phase, pc.num);
    const std::int64_t KJ = ceilDivide(J * pc.den - pc.phase, pc.num);
    const Offset lastStart = plus(pc.base, plus(times(KJ, pc.major), times(J, pc.minor)));
    std::vector<Offset> windowShifts, pointShifts;
    // A run of L points from `start`: two windows of ℓ when L ≥ ℓ (a run is at most ℓ + 1),
    // else its points, or a window of its own when it is long.
    const auto foldRun = [&](Offset start, std::int64_t L) {
        if (L >= ell) {
            windowShifts.push_back(start);
            if (L > ell) windowShifts.push_back(plus(start, times(L - ell, pc.major)));
        } else if (L <= kRunPoints) {
            for (std::int64_t i = 0; i < L; ++i) pointShifts.push_back(plus(start, times(i, pc.major)));
        } else {
            ex.foldWindow(F, pc.major, 0, L - 1, false, start);
        }
    };
    foldRun(pc.base, K1);
    foldRun(lastStart, n - KJ);
    if (J >= 2) {  // the head of run 1 and the tail of run J−1
        windowShifts.push_back(plus(pc.base, plus(times(K1, pc.major), pc.minor)));
        windowShifts.push_back(plus(pc.base, plus(times(KJ - ell, pc.major), times(J - 1, pc.minor))));
    }
    // The run window (ℓ points along A at each pixel) is made only when something reads it:
    // when ℓ is long and the level has no corners it would be a costly plane read by nothing.
    Plane runWindow;
    if (!windowShifts.empty() || J >= 3) runWindow = ex.window(F, pc.major, 0, ell - 1, false);
    if (!windowShifts.empty()) ex.fold(runWindow, windowShifts);
    if (!pointShifts.empty()) ex.fold(F, pointShifts);
    if (J < 3) return;
    // Corners between full runs j and j+1 (j = 1 … J−2) at base + K_{j+1}·A + j·B.
    Plane corners = ex.corner(runWindow, times(-ell, pc.major), pc.minor);
    runWindow = Plane{};
    DigitalLinePiece next;
    next.base = plus(pc.base, pc.minor);
    next.major = pc.minor;
    next.minor = pc.major;
    next.count = J - 2;
    next.num = pc.den;
    next.den = pc.num;
    next.phase = 2 * pc.den - pc.phase + pc.num - 1;
    accumulate(ex, corners, next);
}

}  // namespace linescope::digital_line
