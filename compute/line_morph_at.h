// A line operator's value at one pixel, and its response over a set of angles there: what the
// lesson mode plots against the angle (the per-pixel story behind the orientation map). Only
// the pixels within the operator's reach of the pixel are read, so a whole sweep's angles at
// one pixel cost about 180 × 3λ reads on line paths (segment and periodic kernels: 180 × λ²,
// their offsets are not a translation-invariant 1-D sequence), not 180 images.
#pragma once

#include "compute/image.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"

#include <vector>

namespace linescope {

// op(f) at (x, y) by the line of `p`, equal to lineMorph(op, src, p).at(x, y) bit for bit.
// Throws Error for λ < 1, a non-finite angle, (x, y) outside the image or NaN among the
// pixels read.
template <class T>
T lineMorphAt(MorphOp op, ImageView<const T> src, int x, int y, const LineParams& p);

// op_k(f) at (x, y) for every angle α_k of `angles` (k = 0 … count−1), by `kind` with λ =
// length: the values the sweep folds into its planes at that pixel.
template <class T>
std::vector<T> angleResponse(MorphOp op, ImageView<const T> src, int x, int y, const AngleSet& angles, int length,
                             LineKind kind);

// The sweep's orientation index for a response: the smallest k reaching the maximum (opening,
// erosion, top-hat) or the minimum (closing, dilation); −1 when `values` is empty.
template <class T>
int bestAngleIndex(const std::vector<T>& values, MorphOp op);

}  // namespace linescope
