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
struct BorderListing {
    std::vector<std::uint32_t> border;  // index into the whole borders
    std::vector<std::uint8_t> hole;
    std::vector<int> next, previous, firstChild, parent;
};

struct BorderOrder : BorderListing {
    std::vector<PieceAt> start;  // where OpenCV starts each listed border
};

BorderOrder orderBorders(const TrackedBorders& tracked, const BinaryBitmaps& bitmaps, ContourMode mode,
                         const WorkerBudget& workers);

// The two host steps after the left queries are answered, shared with the GPU backend.
// `order` lists the borders as the raster scan finds them (by discoveryKey), `hole` flags
// each border, and left[b] is the answer to b's LeftQuery: kNone when b asked none, and
// kNoAnswer when no border answered it (a bug, reported as an internal error).
inline constexpr std::uint32_t kNoAnswer = 0xFFFFFFFEu;

// The parent of each border in the full tree (kNone: the frame), in discovery order by
// Suzuki–Abe's rule: a border of the other kind on the left is the parent, one of the same
// kind is a sibling. Throws Error when an answer is missing or not found earlier.
std::vector<std::uint32_t> treeParentsFromLeft(const std::vector<std::uint32_t>& order,
                                               const std::vector<std::uint8_t>& hole,
                                               const std::vector<std::uint32_t>& left);

// The borders the mode returns, listed as OpenCV lists them, with its hierarchy.
BorderListing listLikeOpenCV(const std::vector<std::uint32_t>& order, const std::vector<std::uint8_t>& hole,
                             const std::vector<std::uint32_t>& treeParent, ContourMode mode);

}  // namespace linescope::contours
