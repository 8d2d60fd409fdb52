// How a sweep is computed so that a big image shows something at once: a coarse preview on
// the image reduced by a power of two (every angle, or every 2nd, as the work allows), then the exact sweep
// at full resolution in passes of interleaved angles (every 4th, the 2nd of each 4, the odd
// ones), a preview after each pass but the last. Each preview's angles are evenly spaced
// over the whole set. A pure function of the sizes, so that tests can reason about it.
#pragma once

#include "compute/sweep.h"

#include <vector>

namespace linescope::session {

// The knobs (EngineQueue::Options::progressive); work is counted in pixel-angles.
struct ProgressiveOptions {
    long long previewPixels = 1LL << 20;         // the coarse preview's image size at most; 0: no preview
    long long passWork = (1LL << 20) * 180;      // above this the exact sweep runs in passes
    long long chunkWork = 48LL << 20;            // between two cancellation checkpoints
};

// The angles k = first, first + stride, … of the set.
struct AnglePass {
    int first = 0;
    int stride = 1;
};

struct SweepPlan {
    int reduction = 1;    // the coarse preview's factor (1: no coarse preview)
    int coarseStride = 1; // the coarse preview takes every coarseStride-th angle
    std::vector<AnglePass> passes;  // the exact sweep's passes, in order; together every angle once
    int chunkAngles = 1;  // angles between two checkpoints of the exact sweep
};

// The plan for a width × height image and `count` angles; `maxChunkAngles` caps chunkAngles
// (EngineQueue::Options::sweepChunkAngles; < 1: no cap).
SweepPlan planSweep(int width, int height, int count, const ProgressiveOptions& options, int maxChunkAngles);

// The angles of `set` that the first `passesDone` passes of `plan` cover, as an evenly spaced
// set (what a preview after those passes plots), and their indices in `set`.
AngleSet anglesAfterPasses(const AngleSet& set, const SweepPlan& plan, int passesDone, std::vector<int>* indices);

}  // namespace linescope::session
