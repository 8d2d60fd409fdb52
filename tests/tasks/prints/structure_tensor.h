// The peer for block orientation fields: the gradient structure tensor as OrientationJ (and the
// classic fingerprint literature: Kass & Witkin, Bazen & Gerez) computes it. Gradients by
// Scharr (OpenCV's Sobel with FILTER_SCHARR: Sobel 3×3 reads 9-px stripes at 17° as 16.5°)
// after an optional Gaussian pre-smoothing, the tensor Jxx = Σgx², Jxy = Σgx·gy, Jyy = Σgy²
// integrated over a Gaussian or box window, averaged over each block, and the ridge direction
// perpendicular to the dominant gradient. Any thread.
#pragma once

#include "tests/tasks/prints/orientation_metrics.h"

#include <opencv2/core.hpp>

namespace linescope::tasks {

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

}  // namespace linescope::tasks
