// What the paper leaves out and OpenCV's findContours returns: for each whole border the
// point where Suzuki–Abe's raster scan starts it, whether it is a hole, its parent, and the
// order of the output list.
//
// Suzuki–Abe (and OpenCV) start the outer border of a connected component at the
// component's raster-first pixel p, with the west neighbour of p as the zero of the first
// triad; they start the border of a hole H at the west neighbour s of H's raster-first
// pixel, with H's pixel east of s as the zero. Hence, over a border's triads:
//   - outer border: p = its raster-first pixel, and the triad there has its west zero in
//     the gap;
//   - hole border: the raster-first pixel has no triad with a west zero of the border
//     (the row above H holds no pixel of H), and s is the raster-first pixel among the
//     triads with an east zero in the gap.
// The raster scan meets the border at p, or at s + 1, which orders the borders as OpenCV
// finds them. The parent follows Suzuki–Abe's rule from the border met last on the left in
// the same row: for an outer border, the border through the east zero of the nearest
// foreground pixel to its left; for a hole, the border through the west zero of the first
// pixel of the foreground run that ends at s. OpenCV lists each parent's children (and
// the top level) from the last found to the first, depth first.
#pragma once

#include "compute/contours/binary_bitmaps.h"
#include "compute/contours/border_pieces.h"
#include "compute/contours/contours.h"
#include "compute/contours/worker_count.h"

#include <cstdint>
#include <vector>

namespace linescope::contours {

// The borders that findContours returns, in its order, with OpenCV's hierarchy (indices
// into this list, −1 for none).
struct BorderOrder {
    std::vector<std::uint32_t> border;  // index into TrackedBorders::borders
    std::vector<PieceAt> start;         // where OpenCV starts it
    std::vector<std::uint8_t> hole;
    std::vector<int> next, previous, firstChild, parent;
};

BorderOrder orderBorders(const TrackedBorders& tracked, const BinaryBitmaps& bitmaps, ContourMode mode,
                         const WorkerBudget& workers);

}  // namespace linescope::contours
