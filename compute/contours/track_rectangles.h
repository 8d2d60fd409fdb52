// Border tracking inside rectangles (Garcia-Molla et al. §4.2, Algorithms 1–3): each
// rectangle is scanned by one worker, which follows every border through it forwards and
// backwards until the border leaves the rectangle, labelling the triads it tracks so that
// none is followed twice.
#pragma once

#include "compute/contours/binary_bitmaps.h"
#include "compute/contours/border_pieces.h"

namespace linescope::contours {

// A triad met while tracking backwards: its current pixel and the directions of its former
// and next pixels, kept until the piece's entry is found and the piece can be written in order.
struct BackStep {
    PixelKey pixel;
    std::uint8_t former;
    std::uint8_t next;
};

// One worker's working memory, kept between calls.
struct TrackerScratch {
    std::vector<BorderPiece> pieces;
    std::vector<std::uint8_t> marks;  // the rectangle's triad labels (the paper keeps them in the image)
    std::vector<BackStep> back;
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
void trackRectangles(const BinaryBitmaps& bitmaps, const RectGrid& grid, int threads, TrackingScratch& scratch,
                     TrackedBorders& out);

}  // namespace linescope::contours
