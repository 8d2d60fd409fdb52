// Erosion and dilation by a translation-invariant line kernel (line_kernel.h: the digital
// segment or a periodic line) on the host, exact and in time that grows with log λ, not λ:
// the recursive run decomposition of compute/digital_line_decomposition.h, its windows along
// lattice steps by cpu/lattice_window.h.
#pragma once

#include "compute/image.h"
#include "compute/line_kernel.h"

#include <cstdint>

namespace linescope::cpu {

// dst = ε (erode) or δ by the kernel: ε(f)(p) = min f(p + k), δ(f)(p) = max f(p − k) over its
// offsets k, positions outside the image ignored. dst must not overlap src. The passes run on
// up to `threads` workers (0 = one per core); the result does not depend on it.
template <class T>
void digitalLineErodeDilate(bool erode, ImageView<const T> src, ImageView<T> dst, const LineKernel& kernel,
                            int threads = 1);

// The number of points below which a piece is folded point by point (benchmarks and tests
// set it; 0 restores the default).
void setDigitalLineLeafSize(int points);

// Whether the kernel is λ collinear points k·A of a step A along an axis or a diagonal
// (segments at 0°, 45°, 90°, 135°; periodic lines whose step is (1, 0), (0, 1) or (1, ±1)),
// the same pixels as the line paths at *pathsAngle from every pixel (their slope is 0 or ±1,
// so every path is the same set shifted): the paths engine then computes the same image.
bool straightAsPaths(const LineKernel& kernel, double* pathsAngle);

// Whether the piece is one run of collinear points {k·A : lo ≤ k ≤ hi}, and which.
bool collinearRun(const DigitalLinePiece& piece, Offset* A, std::int64_t* lo, std::int64_t* hi);

}  // namespace linescope::cpu
