// A line kind's pixel set (compute/line_kernel.h) as files a user passes to OpenCV or DIPlib:
// a mask image, its anchor, and a JSON description (`linescope-cli se`). The oracle test
// builds its OpenCV kernels with these same functions.
#pragma once

#include "compute/line_kernel.h"

#include <opencv2/core.hpp>

#include <string>
#include <vector>

namespace linescope::io {

// A kernel as OpenCV takes it: mask (CV_8U, 1 in the set, 0 elsewhere; its bounding box)
// and anchor (column, row of the origin in the mask), so that cv::erode(src, dst, mask,
// anchor) computes min f(p + k) over the offsets k.
struct KernelMask {
    cv::Mat mask;
    cv::Point anchor;
};
KernelMask kernelMask(const std::vector<Offset>& offsets);
// The offsets −k: cv::dilate with this mask and anchor computes design.md's dilation
// max f(p − k) (cv::dilate does not reflect its kernel).
KernelMask reflectedKernelMask(const std::vector<Offset>& offsets);
// Whether the set equals its reflection about the origin (odd λ for segment and periodic):
// then cv::morphologyEx with kernelMask equals every operator.
bool centrallySymmetric(const std::vector<Offset>& offsets);

// The JSON sidecar: kind, angle, length, translation_invariant, symmetric, width, height,
// anchor [x, y], offsets [[dx, dy], …] (x right, y down, from the origin), and when the set
// is not centrally symmetric "dilate": {width, height, anchor, offsets} (the reflected kernel
// for cv::dilate).
std::string kernelJson(const LineKernel& kernel, const std::string& maskFile);
// The mask as a plain PBM (P1): 1 (black) marks the set's pixels.
std::string kernelPbm(const cv::Mat& mask);

}  // namespace linescope::io
