// The peer for block orientation fields: the gradient structure tensor as OrientationJ (and the
// classic fingerprint literature: Kass & Witkin, Bazen & Gerez) computes it. Gradients by
// Scharr (OpenCV's Sobel with FILTER_SCHARR: Sobel 3×3 reads 9-px stripes at 17° as 16.5°)
// after an optional Gaussian pre-smoothing, the tensor Jxx = Σgx², Jxy = Σgx·gy, Jyy = Σgy²
// integrated over a Gaussian or box window, averaged over each block, and the ridge direction
// perpendicular to the dominant gradient. Any thread. Shared by the window's orientation-field
// workbench (its comparison view) and the task evaluation (tests/tasks/prints, its peer).
#pragma once

#include <opencv2/core.hpp>

#include <vector>

namespace linescope::analysis {

// Orientations of square blocks, row-major, degrees in [0, 180) (design.md §1); the blocks
// tile the image from its top-left corner, ceil(W/b) × ceil(H/b) of them (the engine's layout).
struct BlockField {
    int blocksX = 0, blocksY = 0, blockSize = 0;
    std::vector<float> degrees;
};

// Defaults: the best settings on the synthetic prints (tests/tasks/prints/README.md lists
// what was tried).
struct StructureTensorParams {
    int blockSize = 16;
    double gradientSigma = 1.0;  // σ of the Gaussian before the gradient (pixels); 0 = none
    double windowSigma = 14.0;   // σ of the Gaussian integration window; with boxWindow the box side
    bool boxWindow = false;      // box filter (side = windowSigma, rounded to odd) instead of a Gaussian
};

// Block orientation field in the engine's layout (ceil(W/b) × ceil(H/b) blocks), degrees in
// [0, 180), design.md §1 convention. `image`: one channel of any depth.
BlockField structureTensorField(const cv::Mat& image, const StructureTensorParams& p = {});

}  // namespace linescope::analysis
