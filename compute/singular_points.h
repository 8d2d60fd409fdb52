// Singular points of a block orientation field (fingerprint cores and deltas) by the Poincaré
// index: the field's angle followed once around a closed ring of blocks, each step taken as the
// smallest turn of a 180°-periodic direction, adds up to +180° around a core (index +1/2), −180°
// around a delta (−1/2) and 0 elsewhere. Pure engine (no Qt, no OpenCV); any thread.
#pragma once

#include <vector>

namespace linescope {

enum class SingularKind { Core, Delta };

struct SingularPoint {
    SingularKind kind = SingularKind::Core;
    double x = 0, y = 0;  // in blocks: the centre of block (bx, by) is (bx + 0.5, by + 0.5)
    int blocks = 1;       // ring centres merged into this point (neighbouring detections)
    bool operator==(const SingularPoint&) const = default;
};

struct SingularPointParams {
    // σ in blocks of the Gaussian applied to (cos 2θ, sin 2θ) over the foreground blocks before
    // the index is taken (0: the field as given). Noise turns single blocks around and makes
    // pairs of false core and delta; the smoothing removes them, a real point survives it.
    double smoothing = 1.0;
};

// The Poincaré index of the ring of 8 blocks around (bx, by), walked counter-clockwise as seen
// on screen (x right, y down: east, north-east, north, …), angles in degrees with design.md §1's
// convention: +1 for +1/2 (core), −1 for −1/2 (delta), 0 otherwise; 0 too where the ring leaves
// the field. `angle`: blocksX × blocksY values, row-major.
int poincareIndex(const std::vector<float>& angle, int blocksX, int blocksY, int bx, int by);

// Every core and delta of the field: blocks whose ring (and the block itself) lies on foreground
// blocks (`foreground` 1; empty: all blocks are), with index ±1/2 after the smoothing;
// 8-connected blocks of the same kind are merged into one point at their mean position. Cores
// first, then deltas, each in row-major order of their first block.
std::vector<SingularPoint> singularPoints(const std::vector<float>& angle, const std::vector<unsigned char>& foreground,
                                          int blocksX, int blocksY, const SingularPointParams& p = {});

// The field smoothed as singularPoints smooths it (doubled angles, foreground blocks only;
// background blocks keep their angle). Degrees in [0, 180).
std::vector<float> smoothOrientationBlocks(const std::vector<float>& angle, const std::vector<unsigned char>& foreground,
                                           int blocksX, int blocksY, double sigma);

}  // namespace linescope
