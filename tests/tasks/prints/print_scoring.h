// One synthetic print scored the way the `orientation` evaluation and the regression test
// score it: the engine's block field and the structure tensor's, each against the truth on
// the foreground blocks. Any thread (the engine runs on its own pool).
#pragma once

#include "tests/tasks/prints/fingerprint_synth.h"
#include "tests/tasks/prints/orientation_metrics.h"
#include "app/analysis/structure_tensor.h"

#include "compute/orientation_field.h"

namespace linescope::tasks {

// The engine's estimateOrientationField<uint8_t> with `params` (default: the engine's
// defaults), blockSize overriding its block size.
BlockField engineOrientationField(const cv::Mat& image8, int blockSize, OrientationFieldParams params = {});

// The engine's field as it was before issue 21 (λ 15 line-path pixels, one Gaussian of 1 block,
// no presmoothing): the "before" rows of tests/bench/task-results.md §2.
OrientationFieldParams engineParamsBeforeIssue21();

struct PrintScore {
    FieldComparison engine, peer;
    double engineMs = 0, peerMs = 0;
};

PrintScore scorePrint(const SyntheticPrint& print, int blockSize, StructureTensorParams peer = {},
                      const OrientationFieldParams& engine = {});

}  // namespace linescope::tasks
