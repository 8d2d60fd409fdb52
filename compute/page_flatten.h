// A page's thin strokes against its local background: the skew estimate's first step.
#pragma once

#include "compute/backend.h"
#include "compute/image.h"

namespace linescope {

// The page with its background taken away: for dark lines, M − (φ(page) − page), M the page's
// largest value and φ the closing by a side × side square (the strokes' local paper, without
// them); for bright lines, the white top-hat page − γ(page). Structures thinner than the square
// (letters, staff lines, rules) keep their contrast; wider ones (dark scanner-bed margins,
// photographs, uneven lighting) become plain paper, so their straight edges, which need not
// follow the text, no longer count in a spectrum. side ≥ 1 (1: the page unchanged).
template <class T>
Image<T> flattenBackground(ImageView<const T> page, int side, bool darkLines, const EngineOptions& opt = {});

}  // namespace linescope
