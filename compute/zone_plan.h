// Image zones: an image too large for the device is computed in horizontal strips of full
// width. A strip keeps the output rows [keepBegin, keepEnd) and reads the input rows
// [keepBegin − R, keepEnd + R) ∩ [0, H), R being the operator's reach (zoneReach). Lines of
// every family move at most one row per step along them (|slope| ≤ 1), so those rows hold
// every position within R of a kept pixel on its line, and where the strip cuts a line the
// cut is more than R away: with the lines drawn as the whole image draws them (stripFamily,
// line_geometry.h), the kept rows are the whole image's, bit for bit. This file plans the
// strips (plain C++, tested without a GPU); compute/cuda/zones.h runs them.
#pragma once

#include "compute/line_morph.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace linescope {

struct Strip {
    int loadBegin = 0, loadEnd = 0;  // the input rows, [loadBegin, loadEnd) of the image
    int keepBegin = 0, keepEnd = 0;  // the output rows it computes, within them
    int loadRows() const { return loadEnd - loadBegin; }
};

// The most rows a pixel's result depends on above or below it: λ − 1 for openings, closings
// and top-hats (two stages), the segment's longer arm ⌊λ/2⌋ for erosions and dilations.
int zoneReach(MorphOp op, int length);

struct StripPlan {
    std::vector<Strip> strips;  // top to bottom; empty when even the smallest strip does not fit
    int smallestRows = 0;       // min(H, 2R + 1): one kept row and its reach on both sides
    std::size_t smallestBytes = 0;
    bool fits() const { return !strips.empty(); }
};

// Cuts `height` rows into strips whose input rows each need at most `budget` bytes by
// bytesForRows (non-decreasing in the row count): one strip when the whole image fits, else
// every strip as tall as the budget allows. The strips' kept rows cover [0, height) once,
// in order.
StripPlan planStrips(int height, int reach, std::size_t budget, const std::function<std::size_t(int rows)>& bytesForRows);

}  // namespace linescope
