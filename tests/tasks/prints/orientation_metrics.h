// Block orientation fields compared as FVC-onGoing's orientation benchmark does: the root mean
// square of the angular differences (modulo 180°, in [0, 90]) on the foreground blocks, with
// the truth of a block the doubled-angle mean of the true per-pixel orientations in it.
// Used by linescope-task-eval and the tasks regression tests; any thread.
#pragma once

#include "app/analysis/structure_tensor.h"

#include <opencv2/core.hpp>

#include <vector>

namespace linescope::tasks {

// The block field and the structure-tensor peer live in app/analysis (the window shows them too).
using analysis::BlockField;
using analysis::StructureTensorParams;
using analysis::structureTensorField;

// |a − b| taken modulo 180 into [0, 90].
double angleDifference(double a, double b);

// The doubled-angle mean of `orientation` (CV_32F degrees) over each block's pixels.
BlockField truthBlocks(const cv::Mat& orientation, int blockSize);

// 1 for the blocks of which at least `minShare` of the pixels (of the part inside the image)
// are in `mask` (CV_8U, non-zero = foreground).
std::vector<unsigned char> foregroundBlocks(const cv::Mat& mask, int blockSize, double minShare = 0.75);

struct FieldComparison {
    int blocks = 0;         // foreground blocks compared
    double rmsd = 0;        // degrees
    double meanAbs = 0;     // degrees
    double within10 = 0;    // share of the blocks with a difference ≤ 10°
    double within20 = 0;    // ≤ 20°
};

// Compares two fields of the same layout on the blocks where `foreground` is 1.
FieldComparison compareFields(const BlockField& estimate, const BlockField& truth,
                              const std::vector<unsigned char>& foreground);

}  // namespace linescope::tasks
