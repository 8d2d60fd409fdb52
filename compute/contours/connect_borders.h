// Connection of the open borders of all rectangles (Garcia-Molla et al. §4.3): a vertical
// sweep joins the rectangles of each column pairwise, ⌈log2 rows⌉ times, then a horizontal
// sweep joins the columns pairwise, ⌈log2 cols⌉ times. The joins of one stage are
// independent and run in parallel. A join links each border leaving one group across the
// common side to the border entering the other with the same move; borders that close go
// to the list of whole borders.
#pragma once

#include "compute/contours/border_pieces.h"
#include "compute/contours/worker_count.h"

namespace linescope::contours {

// The open chains of all groups, before and after a stage; kept between calls.
struct ConnectionScratch {
    std::vector<BorderChain> chains, joined;
};

// Fills out.nextPiece and out.borders from the pieces of trackRectangles. Throws Error if a
// border could not be closed (which would be a bug).
void connectBorders(TrackedBorders& tracked, const WorkerBudget& workers, ConnectionScratch& scratch);

}  // namespace linescope::contours
