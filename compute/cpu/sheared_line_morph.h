// The default CPU line operator: many parallel lines at once.
//
// For a y-major family, line c visits (c + off(t), t): at every row t the lines c, c+1, …
// are neighbouring pixels of that row. So a strip of S consecutive lines, read row by row
// and shifted by off(t), becomes S columns ("lanes") of a small buffer, and van Herk/
// Gil-Werman runs down the columns with every step one vector operation across S lanes.
// Flat (x-major) families are the same after transposing the image.
#pragma once

#include "compute/cpu/window_kernel.h"
#include "compute/image.h"
#include "compute/line_geometry.h"
#include "compute/line_morph.h"

#include <cstdint>

namespace linescope::cpu {

// `op` along `family`; `kernel` forces a window kernel (tests), Auto picks by length.
template <class T>
void shearedLineMorph(MorphOp op, ImageView<const T> src, ImageView<T> dst, const LineFamily& family,
                      Segment seg, int threads, WindowKernel kernel = WindowKernel::Auto);

// The running results of a sweep, in the layout of the image the kernel runs on (the
// transposed image for x-major families).
template <class T>
struct SweepPlanes {
    ImageView<T> sup;
    ImageView<T> inf;
    ImageView<std::uint16_t> arg;
    bool started = false;  // false: the next step starts the planes instead of folding into them
};

struct SpectrumTerm {
    std::int64_t exact = 0;  // integer images
    double sum = 0;          // float images
};

// One angle of a sweep: op along a y-major family of `src`, folded straight into `planes`
// (sup, inf and the smallest k reaching sup when bySup, else inf) as the strips finish,
// so no image per angle is ever written. Returns Σ op_k.
template <class T>
SpectrumTerm shearedSweepStep(MorphOp op, ImageView<const T> src, const LineFamily& yMajorFamily, Segment seg,
                              int threads, SweepPlanes<T>& planes, std::uint16_t k, bool bySup);

// The instruction set the sheared kernels run with on this processor ("avx512", "avx2", "generic").
const char* shearedKernelIsa();

}  // namespace linescope::cpu
