// The two stages of a line operator as 1-D windows, and min/max as the stages' operations:
// one definition for every GPU line kernel (the band kernel, the tile sweep) and the zone
// planner. Erosion by the segment {−a … b} reads [c − a, c + b], dilation [c − b, c + a]
// (design.md §1); an opening is an erosion then a dilation, a closing the reverse.
#pragma once

#include "compute/host_device.h"
#include "compute/image.h"
#include "compute/line_geometry.h"
#include "compute/line_morph.h"
#include "compute/pixel_rules.h"

#include <algorithm>
#include <climits>

namespace linescope {

// out(c) = op of in over [c − left, c + right].
struct StageWindow {
    int left = 0;
    int right = 0;
    LINESCOPE_HD int length() const { return left + right + 1; }
};

struct LineStages {
    StageWindow first, second;  // second: only when twoStage
    bool minFirst = true;       // the first stage is a minimum (erosion)
    bool twoStage = false;
    // How far an output reads along its line, before and after it.
    int reachLeft() const { return first.left + (twoStage ? second.left : 0); }
    int reachRight() const { return first.right + (twoStage ? second.right : 0); }
};

// The stages of `op` (a top-hat's are its opening's). Windows are clamped to `longest` − 1,
// the longest line's last offset: longer ones reach the whole line either way.
inline LineStages lineStagesOf(MorphOp op, Segment seg, int longest = INT_MAX) {
    const int limit = longest - 1;
    const StageWindow erosion{std::min(seg.a, limit), std::min(seg.b, limit)};
    const StageWindow dilation{erosion.right, erosion.left};
    switch (op) {
    case MorphOp::Erode: return {erosion, {}, true, false};
    case MorphOp::Dilate: return {dilation, {}, false, false};
    case MorphOp::Open:
    case MorphOp::TopHat: return {erosion, dilation, true, true};
    case MorphOp::Close: return {dilation, erosion, false, true};
    }
    throw Error("unknown morphological operator");
}

// A stage's operation: min or max with its neutral element (pixel_rules.h).
template <class T, bool IsMin>
struct ExtremeOp {
    LINESCOPE_HD static T apply(T x, T y) {
        if constexpr (IsMin) return minOf(x, y);
        else return maxOf(x, y);
    }
    LINESCOPE_HD static constexpr T neutral() { return IsMin ? highestValue<T>() : lowestValue<T>(); }
};

}  // namespace linescope
