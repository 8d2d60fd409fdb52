// The brute-force reference of design.md §1: line morphology and sweeps written for clarity,
// not speed, straight from the definitions and independently of the fast engine code.
// LineAlgorithm::Reference and the engine's tests use it as the ground truth.
#pragma once

#include "compute/image.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"

namespace linescope::reference {

// op(src) by a segment of `length` pixels at `angleDeg` along the line paths of design.md §1,
// O(λ) per pixel. Throws Error on an empty image, λ < 1, a non-finite angle or NaN pixels.
template <class T>
Image<T> referenceLineMorph(MorphOp op, ImageView<const T> src, double angleDeg, int length);

// A sweep built from one referenceLineMorph per angle (Erode, Dilate, Open or Close).
template <class T>
SweepResult<T> referenceSweep(ImageView<const T> src, const SweepRequest& req);

}  // namespace linescope::reference
