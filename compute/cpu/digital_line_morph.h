// Erosion and dilation by a translation-invariant line kernel (line_kernel.h: the digital
// segment or a periodic line) on the host, exact and in time that grows with log λ, not λ:
// the recursive run decomposition of compute/digital_line_decomposition.h, its windows along
// lattice steps by cpu/lattice_window.h.
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
