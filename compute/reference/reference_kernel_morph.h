// The brute-force definition of morphology by a translation-invariant kernel (a line
// kernel's offsets, line_kernel.h): O(|kernel|) a pixel, for tests and
// LineAlgorithm::Reference. Independent of the fast engine (cpu/digital_line_morph.h).
#pragma once

#include "compute/image.h"
#include "compute/line_morph.h"
#include "compute/offset.h"

#include <vector>

namespace linescope::reference {

// ε(f)(p) = min f(p + k), δ(f)(p) = max f(p − k) over the offsets k with p ± k in the image;
// opening δ(ε(f)), closing ε(δ(f)), top-hat f − δ(ε(f)). Pixels are read as canonical().
template <class T>
Image<T> referenceKernelMorph(MorphOp op, ImageView<const T> src, const std::vector<Offset>& offsets);

}  // namespace linescope::reference
