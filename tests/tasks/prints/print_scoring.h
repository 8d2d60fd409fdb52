// One synthetic print scored the way the `orientation` evaluation and the regression test
// score it: the engine's block field and the structure tensor's, each against the truth on
// the foreground blocks. Any thread (the engine runs on its own pool).
#pragma once

#include "tests/tasks/prints/fingerprint_synth.h"
#include "tests/tasks/prints/orientation_metrics.h"
#include "app/analysis/structure_tensor.h"

namespace linescope::tasks {

// The engine's estimateOrientationField<uint8_t> with default parameters except the block size.
BlockField engineOrientationField(const cv::Mat& image8, int blockSize);

struct PrintScore {
    FieldComparison engine, peer;
    double engineMs = 0, peerMs = 0;
};

PrintScore scorePrint(const SyntheticPrint& print, int blockSize, StructureTensorParams peer = {});

}  // namespace linescope::tasks
