// How a sweep is computed so that a big image shows something at once. The exact sweep runs
// at full resolution in passes of interleaved angles: the first pass takes every s-th angle
// (as many as the work of firstPassWork allows: every 20th of 180 on 16 Mpx), the next ones
// every 4th and every 2nd of the angles, the last the rest, with a preview after each pass but
// the last; each preview's angles are evenly spaced over the whole set. Full resolution keeps
// fine patterns right (a fingerprint's 9-pixel ridges alias when the image is reduced 4
// times). Only images too big for a full-resolution first pass (above reducedAbovePixels) get
// a coarse preview on the image reduced by a power of two first. A pure function of the
// sizes, so that tests can reason about it.
#pragma once

#include "compute/sweep.h"

#include <vector>

namespace linescope::session {

// The knobs (EngineQueue::Options::progressive); work is counted in pixel-angles.
struct ProgressiveOptions {
    long long passWork = (1LL << 20) * 180;      // above this the exact sweep runs in passes
    long long firstPassWork = 160LL << 20;       // the first pass's work at most (≈ 0.3 s on 2 cores)
    long long reducedAbovePixels = 32LL << 20;   // bigger images get a reduced preview first; 0: all above previewPixels
    long long previewPixels = 1LL << 20;         // the reduced preview's image size at most; 0: none
    long long chunkWork = 24LL << 20;            // between two checkpoints (one angle of 16 Mpx)
};

struct SweepPlan {
    int reduction = 1;          // the reduced preview's factor (1: none)
    int coarseStride = 1;       // the reduced preview takes every coarseStride-th angle
    int coarseChunkAngles = 1;  // its angles between two checkpoints
    // The exact sweep's passes: pass i takes the angles k with k % strides[i] == 0 that no
    // earlier pass took; each stride divides the one before, the last is 1.
    std::vector<int> strides{1};
    int chunkAngles = 1;  // angles between two checkpoints of the exact sweep
};

// The plan for a width × height image and `count` angles; `maxChunkAngles` caps chunkAngles
// (EngineQueue::Options::sweepChunkAngles; < 1: no cap).
SweepPlan planSweep(int width, int height, int count, const ProgressiveOptions& options, int maxChunkAngles);

// The angles of pass `pass` of `plan` (increasing), for a set of `count` angles.
std::vector<int> passAngles(const SweepPlan& plan, int pass, int count);

// The angles of `set` that the first `passesDone` passes cover, as an evenly spaced set (what
// a preview after those passes plots), and their indices in `set`.
AngleSet anglesAfterPasses(const AngleSet& set, const SweepPlan& plan, int passesDone, std::vector<int>* indices);

}  // namespace linescope::session
