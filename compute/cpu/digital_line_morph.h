// Erosion and dilation by a translation-invariant line kernel (line_kernel.h: the digital
// segment or a periodic line), exact and in time that grows with log λ, not λ.
//
// A piece {base + k·A + ⌊(k·num + phase)/den⌋·B : k < n} (0 ≤ num/den ≤ 1/2 after a change of
// basis) is a staircase of runs along A, all of length ℓ = ⌊den/num⌋ or ℓ + 1 but the two
// partial end runs. Every full run is covered by its first ℓ and its last ℓ points, so
// the erosion is the minimum of
//   - van Herk/Gil-Werman windows along A over the two end runs, the head of the first full run
//     and the tail of the last one, and
//   - the "corner" image C(p) = min(W(p − ℓA), W(p + B)) (W: the window of ℓ points along A,
//     C the tail of one run and the head of the next) taken at the run starts between full
//     runs, which are themselves a piece with A and B swapped and (num, den) → (den, num):
//     Euclid's algorithm, so the recursion ends after O(log λ) levels, each a constant number
//     of passes over the image. Short pieces are folded point by point.
// The steps are lattice vectors (runs along (ℓ,1), (2ℓ+1,2), … as the recursion goes),
// handled by cpu/lattice_window.h. The image is padded by the kernel's extent with the neutral
// value first, so that the intermediate images are exact wherever an output reads them.
#pragma once

#include "compute/image.h"
#include "compute/line_kernel.h"

namespace linescope::cpu {

// dst = ε (erode) or δ by the kernel: ε(f)(p) = min f(p + k), δ(f)(p) = max f(p − k) over its
// offsets k, positions outside the image ignored. dst must not overlap src.
template <class T>
void digitalLineErodeDilate(bool erode, ImageView<const T> src, ImageView<T> dst, const LineKernel& kernel);

// The number of points below which a piece is folded point by point (benchmarks and tests
// set it; 0 restores the default).
void setDigitalLineLeafSize(int points);

}  // namespace linescope::cpu
