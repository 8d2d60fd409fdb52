// The orientation-field workbench's data (issue 21), computed on the engine thread from one
// Field request: the engine's block orientation field (compute/orientation_field.h) with its
// coherence and foreground, its singular points (compute/singular_points.h) and, for the
// comparison, the gradient structure tensor's block field (app/analysis/structure_tensor.h) and
// the 180°-periodic difference of the two per block. Plain values; any thread.
#pragma once

#include "app/analysis/structure_tensor.h"
#include "app/session/snapshot.h"
#include "compute/orientation_field.h"
#include "compute/singular_points.h"

#include <optional>
#include <vector>

namespace linescope::session {

struct FieldOutput {
    OrientationField field;
    double fieldMs = 0;  // the engine's estimate alone (the CLI's time_ms)
    std::vector<SingularPoint> singular;
    std::optional<analysis::BlockField> tensor;  // with FieldParams::tensor
    std::vector<float> difference;  // per block, periodicDifference(field, tensor); empty without the tensor
    double meanDifference = 0;      // over the foreground blocks, degrees (0 without the tensor)
};

// |a − b| of two orientations in degrees taken modulo 180 into [0, 90], per block.
std::vector<float> periodicDifference(const std::vector<float>& a, const std::vector<float>& b);

// [engine thread] The workbench's data for `request` (FieldParams). Throws Error as
// estimateOrientationField does.
FieldOutput computeField(const Request& request, const EngineOptions& options);

}  // namespace linescope::session
