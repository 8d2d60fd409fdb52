// The classic structuring elements of classic_morph.h as explicit sets: the line stages
// whose Minkowski sum each one is, and the offsets of that sum. classicMorph runs the
// stages; tests and outside oracles (OpenCV kernels) use the offsets.
#pragma once

#include "compute/classic_morph.h"
#include "compute/offset.h"

#include <vector>

namespace linescope {

// One factor of a decomposition: the offsets {k·(dx, dy) : k = -a, ..., b}. A step of
// (1,0), (0,1), (1,-1) or (1,1) is a contiguous line that lineMorph runs at 0°, 90°, 45°
// or 135°; any other step is a periodic line (the disc uses (2,±1) and (1,±2)).
struct LineStage {
    int dx = 1;
    int dy = 0;
    int a = 0;
    int b = 0;
};

// The stages of `se`, in the order classicMorph applies them (identity stages dropped:
// an empty list is the single offset (0,0)). Throws Error on a bad size (see classic_morph.h).
std::vector<LineStage> classicSEStages(const ClassicSE& se);

// The Minkowski sum of the stages: every k with ε(f)(p) = min f(p + k); sorted by (dy, dx),
// no duplicates, always holding (0,0). Throws Error like classicSEStages.
std::vector<Offset> classicSEOffsets(const ClassicSE& se);

}  // namespace linescope
