// Erosion, dilation, opening, closing and top-hat by a digital line of any angle and length:
// along the line paths of design.md §1 (the default), or by a translation-invariant line
// kernel (the digital segment, a periodic line: line_kernel.h).
#pragma once

#include "compute/backend.h"
#include "compute/image.h"
#include "compute/line_kind.h"

#include <string>

namespace linescope {

enum class MorphOp { Erode, Dilate, Open, Close, TopHat };

const char* morphOpName(MorphOp op);
MorphOp parseMorphOp(const std::string& s);  // "erode", "dilate", "open", "close", "tophat"

struct LineParams {
    double angle = 0;  // degrees, counter-clockwise from East
    int length = 1;    // λ ≥ 1; longer than the image is allowed (the border is ignored)
    LineKind kind = LineKind::Paths;  // which digital line (line_kind.h)
};

// dst = op(src) by the segment; dst may not alias src. Throws Error on bad input
// (empty image, size mismatch, λ < 1, NaN in float images, unavailable backend).
// Segment and periodic kernels ignore the algorithm but Reference (the brute-force
// definition): on the CPU the run decomposition (cpu/digital_line_morph.h), on the CUDA
// backend cuda/kernel_line_morph.h.
template <class T>
void lineMorph(MorphOp op, ImageView<const T> src, ImageView<T> dst, const LineParams& p,
               const EngineOptions& opt = {});

template <class T>
Image<T> lineMorph(MorphOp op, ImageView<const T> src, const LineParams& p, const EngineOptions& opt = {}) {
    Image<T> out(src.width, src.height);
    lineMorph<T>(op, src, out.view(), p, opt);
    return out;
}

}  // namespace linescope
