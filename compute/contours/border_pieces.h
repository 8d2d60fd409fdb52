// The data that border tracking passes between its phases. Flat arrays of plain records
// that refer to each other by index (no pointers, no maps), so that the CUDA kernels keep
// the same records in device memory (their methods are LINESCOPE_HD).
#pragma once

#include "compute/contours/border_geometry.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace linescope::contours {

inline constexpr std::uint32_t kNone = 0xFFFFFFFFu;

// The image cut into rectangles of rectWidth × rectHeight pixels (the last column and row
// smaller). Rectangles are numbered column by column, so that the groups which the merge
// sweeps join (first up and down, then sideways) always occupy consecutive numbers.
struct RectGrid {
    int width = 0, height = 0;
    int rectWidth = 0, rectHeight = 0;
    int cols = 0, rows = 0;

    RectGrid() = default;
    LINESCOPE_HD RectGrid(int w, int h, int rw, int rh)
        : width(w), height(h), rectWidth(rw), rectHeight(rh), cols((w + rw - 1) / rw), rows((h + rh - 1) / rh) {}
    LINESCOPE_HD int count() const { return cols * rows; }
    LINESCOPE_HD int index(int col, int row) const { return col * rows + row; }
    LINESCOPE_HD int colOf(int r) const { return r / rows; }
    LINESCOPE_HD int rowOf(int r) const { return r % rows; }
};

// A rectangle of pixels [x0, x1) × [y0, y1): a tracking rectangle or a group of them.
struct PixelRect {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    LINESCOPE_HD bool contains(PixelKey k) const {
        const int x = keyX(k), y = keyY(k);
        return x >= x0 && x < x1 && y >= y0 && y < y1;
    }
};

LINESCOPE_HD inline PixelRect rectBounds(const RectGrid& g, int r) {
    const int x0 = g.colOf(r) * g.rectWidth, y0 = g.rowOf(r) * g.rectHeight;
    return {x0, y0, x0 + g.rectWidth < g.width ? x0 + g.rectWidth : g.width,
            y0 + g.rectHeight < g.height ? y0 + g.rectHeight : g.height};
}

// A point of a border: point `index` of piece `piece`.
struct PieceAt {
    std::uint32_t piece = kNone;
    std::uint32_t index = 0;
};

// What the later phases need to know of a border, summed over its pieces: the number of its
// points with and without CHAIN_APPROX_SIMPLE, and three raster-first pixels that decide
// where OpenCV starts it and whether it is a hole (see border_hierarchy.h).
struct BorderSummary {
    std::uint32_t points = 0;   // triads: the points of CHAIN_APPROX_NONE
    std::uint32_t corners = 0;  // triads whose direction in differs from their direction out
    PixelKey first = kNoPixel;  // raster-first pixel of the border
    PixelKey firstWest = kNoPixel;  // raster-first pixel whose triad has its west zero in the gap
    PieceAt firstWestAt;
    PixelKey firstEast = kNoPixel;  // raster-first pixel whose triad has its east zero in the gap
    PieceAt firstEastAt;

    LINESCOPE_HD void add(const BorderSummary& o) {
        points += o.points;
        corners += o.corners;
        if (o.first < first) first = o.first;
        if (o.firstWest < firstWest) { firstWest = o.firstWest; firstWestAt = o.firstWestAt; }
        if (o.firstEast < firstEast) { firstEast = o.firstEast; firstEastAt = o.firstEastAt; }
    }
};

// A maximal run of a border inside one rectangle (the paper's "open border" when it enters
// and leaves, "closed" when the whole border lies inside). Its points are
// pointPools[pool][begin .. begin + count), in the order OpenCV follows them.
struct BorderPiece {
    std::uint32_t pool = 0;
    std::uint32_t begin = 0;
    PixelKey entryFrom = kNoPixel;  // the pixel before the first point (outside the rectangle)
    PixelKey first = kNoPixel, last = kNoPixel;
    PixelKey exitTo = kNoPixel;     // the pixel after the last point (outside the rectangle)
    BorderSummary summary;          // its PieceAt fields name points of this piece
    std::uint8_t closed = 0;        // the whole border; entryFrom = last and exitTo = first
    std::uint8_t isolated = 0;      // a single pixel without foreground neighbours
};

// A run of pieces linked across rectangles during the merge sweeps; it enters its group of
// rectangles with the move entryFrom → first and leaves it with last → exitTo.
struct BorderChain {
    std::uint32_t head = kNone, tail = kNone;  // pieces
    PixelKey entryFrom = kNoPixel, first = kNoPixel, last = kNoPixel, exitTo = kNoPixel;
    BorderSummary summary;
};

// A whole border: a cycle of pieces through nextPiece, starting anywhere.
struct ClosedBorder {
    std::uint32_t head = kNone;
    BorderSummary summary;
};

// A growable array of pixels that, unlike std::vector, does not zero what it allocates:
// tracking appends every border point to one in its hottest loop, writing through a pointer
// it keeps in a register, past size() and up to capacity(), then resizes.
class PointPool {
public:
    PixelKey* data() { return buffer_.get(); }
    const PixelKey* data() const { return buffer_.get(); }
    std::size_t size() const { return size_; }
    std::size_t capacity() const { return capacity_; }
    const PixelKey& operator[](std::size_t i) const { return buffer_[i]; }
    PixelKey back() const { return buffer_[size_ - 1]; }
    void clear() { size_ = 0; }

    // Makes room for `extra` more points after size(), keeping those up to size().
    void reserveMore(std::size_t extra) {
        if (size_ + extra <= capacity_) return;
        const std::size_t capacity = std::max(size_ + extra, 2 * capacity_ + 1024);
        std::unique_ptr<PixelKey[]> bigger(new PixelKey[capacity]);
        std::copy_n(buffer_.get(), size_, bigger.get());
        buffer_ = std::move(bigger);
        capacity_ = capacity;
    }
    // n ≤ capacity(), and the points below n have been written.
    void resize(std::size_t n) { size_ = n; }

private:
    std::unique_ptr<PixelKey[]> buffer_;
    std::size_t size_ = 0, capacity_ = 0;
};

// Everything tracking and connecting produce.
struct TrackedBorders {
    RectGrid grid;
    std::vector<PointPool> pointPools;              // one per CPU worker (one on the GPU)
    std::vector<BorderPiece> pieces;                // ordered by rectangle
    std::vector<std::uint32_t> rectPieceBegin;      // pieces of rectangle r: [begin[r], begin[r + 1])
    std::vector<std::uint32_t> nextPiece;           // the piece that follows each piece on its border
    std::vector<ClosedBorder> borders;
};

}  // namespace linescope::contours
