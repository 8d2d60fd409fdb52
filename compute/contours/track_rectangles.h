// Border tracking inside rectangles (Garcia-Molla et al. §4.2, Algorithms 1–3): each
// rectangle is scanned by one worker, which follows every border through it forwards and
// backwards until the border leaves the rectangle, labelling the triads it tracks so that
// none is followed twice.
#pragma once

#include "compute/contours/binary_bitmaps.h"
#include "compute/contours/border_pieces.h"

namespace linescope::contours {

// One worker's working memory, kept between calls.
struct TrackerScratch {
    std::vector<BorderPiece> pieces;
    // Per pixel of the rectangle: the paper's triad labels (bits 0–3; the paper keeps them in
    // the image) and the pixel's own cross zeros once it has been visited (bits 4–7), so
    // that the scan can skip pixels whose borders are all tracked without reading their
    // neighbours again. Zero between rectangles.
    std::vector<std::uint8_t> marks;
    std::vector<PixelKey> back;  // the pixels met tracking backwards, before they go in front of the piece
};

// Where a rectangle's pieces went: pieces [begin, begin + count) of a worker.
struct RectPieces {
    std::uint32_t worker = 0, begin = 0, count = 0;
};

struct TrackingScratch {
    std::vector<TrackerScratch> workers;
    std::vector<RectPieces> rects;
};

// Fills out.grid, pointPools, pieces and rectPieceBegin (nextPiece and borders are left to
// the connection phase). Each piece lists the current pixels of its triads in the order
// OpenCV's border following visits them.
void trackRectangles(const BinaryBitmaps& bitmaps, const RectGrid& grid, const WorkerBudget& workers,
                     TrackingScratch& scratch, TrackedBorders& out);

}  // namespace linescope::contours
