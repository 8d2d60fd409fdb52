// Border tracking inside one rectangle on the GPU (Garcia-Molla et al. §4.2, Algorithms
// 1–3): one thread per rectangle, with the rectangle's foreground and a one-pixel halo in a
// tile of shared memory (one 64-bit word per row) and its triad labels beside it, so that a
// tracking step touches no global memory but the point it writes.
//
// It follows the CPU tracker (track_rectangles.cpp) step for step and writes the same
// records, with two changes for the GPU:
//   - Space comes from atomic counters: a rectangle first counts its points (trackedTriads
//     summed over its border pixels) and takes that many from the pool at once, then takes
//     one piece number per piece. When a capacity is too small the thread still tracks and
//     counts (writing nothing), so that the host learns the exact sizes and tracks again.
//   - A piece that leaves the rectangle is not assembled from a forward and a reversed
//     backward part: the backward walk only finds where the piece enters, and the piece is
//     then walked again forwards from there, rewriting its points in order. Steps cost a few
//     shared-memory reads; moving points would cost global ones.
#pragma once

#include "compute/contours/border_geometry.h"
#include "compute/contours/border_pieces.h"
#include "compute/contours/contours.h"
#include "compute/cuda/contours_records.cuh"

#include <cstddef>
#include <cstdint>

namespace linescope::contours::gpu {

// The largest rectangle a tracking thread holds (contours.h): its tile row (the rectangle and
// a pixel either side) fits one 64-bit word.
inline constexpr int kMaxTrackWidth = kMaxGpuRectWidth;
inline constexpr int kMaxTrackHeight = kMaxGpuRectHeight;
static_assert(kMaxTrackWidth + 2 <= 64, "a tile row is one 64-bit word");

// Shared memory of one tracking thread, in bytes, for rectangles of rw × rh pixels.
inline std::size_t trackTileWords(int rh) { return static_cast<std::size_t>(rh) + 2; }
inline std::size_t trackLabelBytes(int rw, int rh) {
    return (static_cast<std::size_t>(rw) * static_cast<std::size_t>(rh) + 7) / 8 * 8;
}
inline std::size_t trackSharedBytes(int rw, int rh) { return 8 * trackTileWords(rh) + trackLabelBytes(rw, rh); }

struct TrackParams {
    const std::uint64_t* words;  // the foreground bitmap
    std::size_t wordsPerRow;
    RectGrid grid;
    PixelKey* points;
    std::uint32_t* pieceOf;  // per point: its piece
    std::uint64_t pointCapacity;
    BorderPiece* pieces;
    std::uint32_t pieceCapacity;
    std::uint64_t* openKeys;  // per open piece: moveKey of its entry
    std::uint32_t* openIds;   // and its piece
    std::uint32_t openCapacity;
    TrackCounters* counters;
};

// A piece's summary while it is walked; indices count the triads in walking order, which is
// the order of the piece's points.
struct WalkSummary {
    std::uint32_t points = 0, corners = 0;
    PixelKey first = kNoPixel, firstWest = kNoPixel, firstEast = kNoPixel;
    std::uint32_t westIndex = 0, eastIndex = 0;

    LINESCOPE_HD void add(PixelKey c, std::uint32_t index, unsigned labels, bool corner) {
        ++points;
        corners += corner ? 1u : 0u;
        if (c < first) first = c;
        if ((labels & kWestZero) && c < firstWest) {
            firstWest = c;
            westIndex = index;
        }
        if ((labels & kEastZero) && c < firstEast) {
            firstEast = c;
            eastIndex = index;
        }
    }
    LINESCOPE_HD BorderSummary summary(std::uint32_t piece) const {
        BorderSummary s;
        s.points = points;
        s.corners = corners;
        s.first = first;
        s.firstWest = firstWest;
        s.firstWestAt = {firstWest == kNoPixel ? kNone : piece, westIndex};
        s.firstEast = firstEast;
        s.firstEastAt = {firstEast == kNoPixel ? kNone : piece, eastIndex};
        return s;
    }
};

class RectTracker {
public:
    // tile: trackTileWords(grid.rectHeight) words; labels: trackLabelBytes(...) bytes, as
    // words so that they are cleared eight at a time.
    LINESCOPE_HD RectTracker(const TrackParams& p, int rect, std::uint64_t* tile, std::uint64_t* labels)
        : p_(p), tile_(tile), labelWords_(labels), labels_(reinterpret_cast<std::uint8_t*>(labels)) {
        const PixelRect r = rectBounds(p.grid, rect);
        x0_ = r.x0;
        y0_ = r.y0;
        w_ = r.x1 - r.x0;
        h_ = r.y1 - r.y0;
    }

    // Algorithm 1 over the whole rectangle, after taking its share of the point pool.
    LINESCOPE_HD void run() {
        loadTile();
        for (int i = 0, words = (w_ * h_ + 7) / 8; i < words; ++i) labelWords_[i] = 0;

        std::uint64_t need = 0;
        for (int ly = 0; ly < h_; ++ly)
            for (std::uint64_t bits = borderBits(ly); bits; bits &= bits - 1)
                need += static_cast<std::uint64_t>(trackedTriads(maskAt(lowestBit(bits) - 1, ly)));
        cursor_ = atomicAddU64(&p_.counters->points, need);
        end_ = cursor_ + need;
        write_ = end_ <= p_.pointCapacity;
        if (!write_) flag(kOverflow);

        // Raster order inside the rectangle, as the CPU scans it.
        for (int ly = 0; ly < h_; ++ly)
            for (std::uint64_t bits = borderBits(ly); bits; bits &= bits - 1) trackPixel(lowestBit(bits) - 1, ly);
        if (cursor_ != end_) flag(kCountMismatch);
    }

private:
    // Tile bit i of row j is pixel (x0 − 1 + i, y0 − 1 + j).
    LINESCOPE_HD void loadTile() {
        const int bitsPerRow = w_ + 2;
        const std::uint64_t keep = bitsPerRow == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bitsPerRow) - 1;
        const auto bit = static_cast<unsigned>(x0_ + 63);  // bit of x0 − 1 in its bitmap row
        const unsigned word = bit >> 6, shift = bit & 63u;
        for (int j = 0; j < h_ + 2; ++j) {
            // Image row y0 − 1 + j is bitmap row y0 + j (the bitmap starts with a frame row).
            const std::uint64_t* row = p_.words + static_cast<std::size_t>(y0_ + j) * p_.wordsPerRow;
            std::uint64_t v = row[word] >> shift;
            if (shift != 0 && shift + static_cast<unsigned>(bitsPerRow) > 64) v |= row[word + 1] << (64 - shift);
            tile_[j] = v & keep;
        }
    }

    // Border pixels of local row ly (foreground with a background cross neighbour), as tile bits 1 … w.
    LINESCOPE_HD std::uint64_t borderBits(int ly) const {
        const std::uint64_t mid = tile_[ly + 1];
        const std::uint64_t interior = mid & tile_[ly] & tile_[ly + 2] & (mid << 1) & (mid >> 1);
        const std::uint64_t inner = ((std::uint64_t{1} << w_) - 1) << 1;
        return mid & ~interior & inner;
    }

    LINESCOPE_HD static int lowestBit(std::uint64_t v) {
        const auto low = static_cast<std::uint32_t>(v);
        return low ? countTrailingZeros(low) : 32 + countTrailingZeros(static_cast<std::uint32_t>(v >> 32));
    }

    // The 8-neighbour mask of local pixel (lx, ly) (inside the rectangle).
    LINESCOPE_HD unsigned maskAt(int lx, int ly) const {
        const unsigned nb = static_cast<unsigned>((tile_[ly] >> lx) & 7u) |
                            (static_cast<unsigned>((tile_[ly + 1] >> lx) & 7u) << 3) |
                            (static_cast<unsigned>((tile_[ly + 2] >> lx) & 7u) << 6);
        return neighbourMaskOf(nb);
    }

    LINESCOPE_HD bool inside(int lx, int ly) const {
        return static_cast<unsigned>(lx) < static_cast<unsigned>(w_) && static_cast<unsigned>(ly) < static_cast<unsigned>(h_);
    }
    LINESCOPE_HD PixelKey keyOf(int lx, int ly) const { return pixelKey(x0_ + lx, y0_ + ly); }
    LINESCOPE_HD std::uint8_t& mark(int lx, int ly) { return labels_[ly * w_ + lx]; }
    LINESCOPE_HD void flag(std::uint32_t f) { atomicOrU32(&p_.counters->flags, f); }

    // Appends a point of piece `id` to the rectangle's share of the pool.
    LINESCOPE_HD void emit(PixelKey c, std::uint32_t id) {
        if (cursor_ >= end_) {  // more points than the rectangle's border pixels promise
            flag(kCountMismatch);
            return;
        }
        if (write_) {
            p_.points[cursor_] = c;
            p_.pieceOf[cursor_] = id;
        }
        ++cursor_;
    }

    LINESCOPE_HD std::uint32_t newPiece() {
        const std::uint32_t id = atomicAddU32(&p_.counters->pieces, 1);
        if (id >= p_.pieceCapacity) flag(kOverflow);
        return id;
    }

    LINESCOPE_HD void storePiece(std::uint32_t id, const BorderPiece& piece) {
        if (id < p_.pieceCapacity && write_) p_.pieces[id] = piece;
    }

    LINESCOPE_HD void trackPixel(int lx, int ly) {
        const unsigned labels = mark(lx, ly);
        // A visited pixel knows its cross zeros; it is done when all of them are labelled.
        if ((labels >> 4) && !((labels >> 4) & ~labels)) return;
        const unsigned mask = maskAt(lx, ly);
        if (mask == 0) {
            addIsolated(lx, ly);
            return;
        }
        // Several borders may pass through one pixel (the paper's Fig. 2).
        const unsigned crossZeros = crossZerosAround(mask);
        for (unsigned untracked = crossZeros & ~labels; untracked; untracked = crossZeros & ~mark(lx, ly)) {
            const Triad t = triadAround(mask, directionOfCrossZero(untracked & (0u - untracked)));
            trackPiece(lx, ly, t, triadLabel(t.former, t.next) | (crossZeros << 4));
        }
    }

    LINESCOPE_HD void addIsolated(int lx, int ly) {
        const PixelKey k = keyOf(lx, ly);
        mark(lx, ly) = 0xFF;
        const std::uint32_t id = newPiece();
        BorderPiece piece;
        piece.begin = static_cast<std::uint32_t>(cursor_);
        emit(k, id);
        piece.entryFrom = piece.first = piece.last = piece.exitTo = k;
        piece.closed = 1;
        piece.isolated = 1;
        WalkSummary s;
        s.add(k, 0, kWestZero | kEastZero, true);
        piece.summary = s.summary(id);
        storePiece(id, piece);
    }

    // Walks forwards from the triad (former, next) at local (lx, ly), emitting each point and
    // labelling it, until the border leaves the rectangle (returns false, exit = the pixel
    // outside) or comes back to the start triad (returns true). `first` is the start.
    LINESCOPE_HD bool walkForward(int lx, int ly, int former, int next, unsigned labels, std::uint32_t id,
                                  WalkSummary& s, PixelKey& last, PixelKey& exit) {
        const int startFormer = former;
        int cx = lx, cy = ly;
        const std::uint32_t limit = 4u * static_cast<std::uint32_t>(w_ * h_) + 1u;  // a piece's triads at most
        for (std::uint32_t i = 0;; ++i) {
            const PixelKey c = keyOf(cx, cy);
            emit(c, id);
            mark(cx, cy) |= static_cast<std::uint8_t>(labels);
            s.add(c, i, labels, (former ^ 4) != next);
            last = c;
            const int nx = cx + dirX(next), ny = cy + dirY(next);
            if (!inside(nx, ny)) {
                exit = keyOf(nx, ny);
                return false;
            }
            former = next ^ 4;
            if (nx == lx && ny == ly && former == startFormer) return true;
            if (i >= limit) {  // cannot happen: the walk is a permutation's cycle
                flag(kWalkMismatch);
                exit = kNoPixel;
                return false;
            }
            cx = nx;
            cy = ny;
            const unsigned mask = maskAt(cx, cy);
            next = nextAfter(mask, former);
            labels = triadLabel(former, next) | (crossZerosAround(mask) << 4);
        }
    }

    // Algorithm 2 for the triad t at local (lx, ly); `labels` holds its label and the
    // pixel's cross zeros (as in the labels array).
    LINESCOPE_HD void trackPiece(int lx, int ly, Triad t, unsigned labels) {
        const std::uint32_t id = newPiece();
        const std::uint64_t begin = cursor_;
        WalkSummary s;
        PixelKey last = kNoPixel, exit = kNoPixel;
        BorderPiece piece;
        piece.begin = static_cast<std::uint32_t>(begin);
        if (walkForward(lx, ly, t.former, t.next, labels, id, s, last, exit)) {
            piece.first = keyOf(lx, ly);
            piece.last = last;
            piece.entryFrom = last;
            piece.exitTo = piece.first;
            piece.closed = 1;
            piece.summary = s.summary(id);
            storePiece(id, piece);
            return;
        }
        const std::uint64_t forwardCount = cursor_ - begin;

        // Backwards from t to the triad where the piece enters the rectangle.
        int cx = lx, cy = ly, former = t.former, next = t.next;
        std::uint64_t backCount = 0;
        PixelKey entryFrom = kNoPixel;
        for (;;) {
            const int fx = cx + dirX(former), fy = cy + dirY(former);
            if (!inside(fx, fy)) {
                entryFrom = keyOf(fx, fy);
                break;
            }
            next = former ^ 4;  // seen from the former pixel, the current one lies the opposite way
            former = formerBefore(maskAt(fx, fy), next);
            cx = fx;
            cy = fy;
            if (++backCount > 4u * static_cast<std::uint64_t>(w_ * h_)) {
                flag(kWalkMismatch);
                break;
            }
        }

        // The whole piece, forwards from its entry, over the points written above.
        cursor_ = begin;
        s = WalkSummary{};
        PixelKey exitAgain = kNoPixel;
        const unsigned entryMask = maskAt(cx, cy);
        const bool closed = walkForward(cx, cy, former, next, triadLabel(former, next) | (crossZerosAround(entryMask) << 4),
                                        id, s, last, exitAgain);
        if (closed || exitAgain != exit || cursor_ - begin != forwardCount + backCount) flag(kWalkMismatch);

        piece.first = keyOf(cx, cy);
        piece.last = last;
        piece.entryFrom = entryFrom;
        piece.exitTo = exit;
        piece.summary = s.summary(id);
        storePiece(id, piece);
        const std::uint32_t open = atomicAddU32(&p_.counters->open, 1);
        if (open >= p_.openCapacity) {
            flag(kOverflow);
        } else if (write_) {
            p_.openKeys[open] = moveKey(entryFrom, piece.first, p_.grid.width);
            p_.openIds[open] = id;
        }
    }

    const TrackParams& p_;
    std::uint64_t* tile_;
    std::uint64_t* labelWords_;
    std::uint8_t* labels_;  // the same memory, a byte per pixel
    int x0_ = 0, y0_ = 0, w_ = 0, h_ = 0;
    std::uint64_t cursor_ = 0, end_ = 0;
    bool write_ = false;
};

}  // namespace linescope::contours::gpu
