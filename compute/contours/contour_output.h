// The last phase ("download" on the GPU): each border written from its start point into
// one array of points, every point for CHAIN_APPROX_NONE or only the corners for _SIMPLE.
#pragma once

#include "compute/contours/border_hierarchy.h"
#include "compute/contours/border_pieces.h"
#include "compute/contours/contours.h"
#include "compute/contours/worker_count.h"

namespace linescope::contours {

// Fills out (reusing its arrays).
void writeContours(const TrackedBorders& tracked, const BorderOrder& order, ContourApprox approx,
                   const WorkerBudget& workers, Contours& out);

}  // namespace linescope::contours
