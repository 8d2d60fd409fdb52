#include "compute/contours/track_rectangles.h"

#include "compute/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <bit>

namespace linescope::contours {

namespace {

// A piece's summary while it is walked; indices count triads in walking order, and are
// turned into positions in the piece once its backward part is known.
struct PieceSummary {
    std::uint32_t points = 0, corners = 0;
    PixelKey first = kNoPixel, firstWest = kNoPixel, firstEast = kNoPixel;
    std::uint32_t westIndex = 0, eastIndex = 0;

    void add(PixelKey c, std::uint32_t index, unsigned labels, bool corner) {
        ++points;
        corners += corner;
        first = std::min(first, c);
        // Which triads have a west or east zero follows no pattern, but a new minimum is
        // rare: select the candidate without a branch, then branch on the minimum.
        const PixelKey west = (labels & kWestZero) ? c : kNoPixel;
        const PixelKey east = (labels & kEastZero) ? c : kNoPixel;
        if (west < firstWest) {
            firstWest = west;
            westIndex = index;
        }
        if (east < firstEast) {
            firstEast = east;
            eastIndex = index;
        }
    }
    // The forward part, placed after `backCount` backward triads.
    BorderSummary shifted(std::uint32_t backCount) const { return make(westIndex + backCount, eastIndex + backCount); }
    // The backward part: its k-th triad (k from 1) ends up at position backCount − k.
    BorderSummary reversed(std::uint32_t backCount) const { return make(backCount - westIndex, backCount - eastIndex); }

private:
    BorderSummary make(std::uint32_t west, std::uint32_t east) const {
        BorderSummary s;
        s.points = points;
        s.corners = corners;
        s.first = first;
        s.firstWest = firstWest;
        s.firstWestAt.index = west;
        s.firstEast = firstEast;
        s.firstEastAt.index = east;
        return s;
    }
};

class RectangleTracker {
public:
    RectangleTracker(const BinaryBitmaps& bitmaps, std::uint32_t worker, PointPool& pool,
                     TrackerScratch& scratch)
        : bitmaps_(bitmaps),
          fg_(bitmaps.foreground),
          border_(bitmaps.border),
          worker_(worker),
          pool_(pool),
          pieces_(scratch.pieces),
          marks_(scratch.marks),
          back_(scratch.back) {
        pieces_.clear();
    }

    std::size_t pieceCount() const { return pieces_.size(); }

    // Algorithm 1: scan the rectangle's border pixels in raster order; follow each triad that
    // holds a cross zero not labelled yet.
    void track(const PixelRect& r) {
        rect_ = r;
        width_ = r.x1 - r.x0;
        height_ = r.y1 - r.y0;
        const auto area = static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_);
        if (marks_.size() < area) marks_.assign(area, 0);
        const std::size_t firstPoint = pool_.size();

        // The border bitmap's words that hold the rectangle's pixels, and the summary words
        // (one bit per bitmap word) that cover them.
        const std::size_t firstWord = static_cast<std::size_t>(r.x0 + 64) >> 6;
        const std::size_t lastWord = static_cast<std::size_t>(r.x1 + 63) >> 6;
        const std::uint64_t firstMask = ~std::uint64_t{0} << ((r.x0 + 64) & 63);
        const std::uint64_t lastMask = ~std::uint64_t{0} >> (63 - ((r.x1 + 63) & 63));
        const std::size_t firstUsed = firstWord >> 6, lastUsed = lastWord >> 6;
        for (int y = r.y0; y < r.y1; ++y) {
            const std::uint64_t* used = bitmaps_.borderWordsUsed.data() + static_cast<std::size_t>(y) * bitmaps_.usedWordsPerRow;
            const std::uint64_t* row = border_.row(y);
            for (std::size_t u = firstUsed; u <= lastUsed; ++u) {
                std::uint64_t words = used[u];
                if (u == firstUsed) words &= ~std::uint64_t{0} << (firstWord & 63);
                if (u == lastUsed) words &= ~std::uint64_t{0} >> (63 - (lastWord & 63));
                for (; words; words &= words - 1) {
                    const std::size_t wi = u * 64 + static_cast<std::size_t>(std::countr_zero(words));
                    std::uint64_t bits = row[wi];
                    if (wi == firstWord) bits &= firstMask;
                    if (wi == lastWord) bits &= lastMask;
                    const int base = static_cast<int>(wi) * 64 - 64;  // pixel x of bit 0
                    for (; bits; bits &= bits - 1) trackPixel(base + std::countr_zero(bits), y);
                }
            }
        }
        // Only pixels on the pieces carry labels: clear those rather than the rectangle.
        for (std::size_t i = firstPoint; i < pool_.size(); ++i) mark(keyX(pool_[i]), keyY(pool_[i])) = 0;
    }

private:
    std::uint8_t& mark(int x, int y) {
        return marks_[static_cast<std::size_t>(y - rect_.y0) * static_cast<std::size_t>(width_) +
                      static_cast<std::size_t>(x - rect_.x0)];
    }

    // Out of line: inlined into the scan, the tracking walks crowd its loop out of registers.
    [[gnu::noinline]] void trackPixel(int x, int y) {
        const unsigned labels = mark(x, y);
        // A visited pixel knows its cross zeros; it is done when all of them are labelled.
        if ((labels >> 4) && !((labels >> 4) & ~labels)) return;
        const unsigned mask = neighbourMask(fg_, x, y);
        if (mask == 0) {
            addIsolated(x, y);
            return;
        }
        // Algorithm 1's inner loop: several borders may pass through one pixel (paper's Fig. 2).
        const unsigned crossZeros = crossZerosAround(mask);
        for (unsigned untracked = crossZeros & ~labels; untracked; untracked = crossZeros & ~mark(x, y)) {
            const unsigned bit = untracked & (0u - untracked);
            const Triad t = triadAround(mask, directionOfCrossZero(bit));
            trackPiece(x, y, t, triadLabel(t.former, t.next) | (crossZeros << 4));
        }
    }

    void addIsolated(int x, int y) {
        const PixelKey k = pixelKey(x, y);
        mark(x, y) = 0xFF;
        BorderPiece p;
        p.pool = worker_;
        p.begin = static_cast<std::uint32_t>(pool_.size());
        p.entryFrom = p.first = p.last = p.exitTo = k;
        p.closed = 1;
        p.isolated = 1;
        p.summary.points = 1;
        p.summary.corners = 1;
        p.summary.first = p.summary.firstWest = p.summary.firstEast = k;
        p.summary.firstWestAt.index = p.summary.firstEastAt.index = 0;
        pool_.reserveMore(1);
        pool_.data()[pool_.size()] = k;
        pool_.resize(pool_.size() + 1);
        pieces_.push_back(p);
    }

    // Algorithm 2: follow the border of triad t at (x, y) forwards until it leaves the
    // rectangle or closes; if it left, follow it backwards from t until it entered, and put
    // that part in front. Every triad is visited once (a closed piece, the common case, needs
    // no backward walk). `labels` holds the start triad's label and the start pixel's cross
    // zeros (as in marks).
    //
    // Everything the walks touch is held in locals: each label is a uint8_t store, which may
    // alias any object, so members and vector internals would be reloaded after every one.
    void trackPiece(const int x, const int y, const Triad t, const unsigned labels) {
        const std::uint64_t* const fg = fg_.words.data();
        const std::size_t wpr = fg_.wordsPerRow;
        const int x0 = rect_.x0, y0 = rect_.y0;
        const auto w = static_cast<unsigned>(width_), h = static_cast<unsigned>(height_);
        std::uint8_t* const marks = marks_.data();
        auto inside = [=](int px, int py) {
            return static_cast<unsigned>(px - x0) < w && static_cast<unsigned>(py - y0) < h;
        };
        auto label = [=](int px, int py, unsigned l) {
            marks[static_cast<unsigned>(py - y0) * w + static_cast<unsigned>(px - x0)] |= static_cast<std::uint8_t>(l);
        };
        PieceSummary forward, backward;

        // Forwards from t, writing straight into the pool.
        const std::size_t begin = pool_.size();
        pool_.reserveMore(256);
        PixelKey* points = pool_.data();
        std::size_t size = begin, capacity = pool_.capacity();
        int cx = x, cy = y, former = t.former, next = t.next;
        unsigned stepLabels = labels;
        bool closed = false;
        PixelKey exitTo = kNoPixel;
        for (std::uint32_t i = 0;; ++i) {
            if (size == capacity) {
                pool_.resize(size);
                pool_.reserveMore(4096);
                points = pool_.data();
                capacity = pool_.capacity();
            }
            const PixelKey c = pixelKey(cx, cy);
            points[size++] = c;
            label(cx, cy, stepLabels);
            forward.add(c, i, stepLabels, (former ^ 4) != next);
            const int nx = cx + dirX(next), ny = cy + dirY(next);
            if (!inside(nx, ny)) {
                exitTo = pixelKey(nx, ny);
                break;
            }
            former = next ^ 4;
            if (nx == x && ny == y && former == t.former) {
                closed = true;
                break;
            }
            cx = nx;
            cy = ny;
            const TrackingStep step = kForwardSteps[neighbourhood(fg, wpr, cx, cy) * 8 + static_cast<unsigned>(former)];
            next = step.direction();
            stepLabels = step.label() | (step.crossZeros() << 4);
        }
        pool_.resize(size);

        // Backwards from t (only when the piece left; it cannot close now), then in front.
        std::size_t backCount = 0;
        PixelKey entryFrom = kNoPixel;
        if (!closed) {
            cx = x;
            cy = y;
            former = t.former;
            for (;;) {
                const int fx = cx + dirX(former), fy = cy + dirY(former);
                if (!inside(fx, fy)) {
                    entryFrom = pixelKey(fx, fy);
                    break;
                }
                next = former ^ 4;  // seen from the former pixel, the current one lies the opposite way
                const TrackingStep step = kBackwardSteps[neighbourhood(fg, wpr, fx, fy) * 8 + static_cast<unsigned>(next)];
                former = step.direction();
                const PixelKey c = pixelKey(fx, fy);
                if (backCount == back_.size()) back_.resize(2 * back_.size() + 256);
                back_[backCount++] = c;
                const unsigned l = step.label() | (step.crossZeros() << 4);
                label(fx, fy, l);
                backward.add(c, static_cast<std::uint32_t>(backCount), l, (former ^ 4) != next);
                cx = fx;
                cy = fy;
            }
            if (backCount) {
                pool_.reserveMore(backCount);
                PixelKey* at = pool_.data() + begin;
                std::copy_backward(at, at + (size - begin), at + (size - begin) + backCount);
                std::reverse_copy(back_.begin(), back_.begin() + static_cast<std::ptrdiff_t>(backCount), at);
                pool_.resize(size + backCount);
            }
        }

        BorderPiece p;
        p.pool = worker_;
        p.begin = static_cast<std::uint32_t>(begin);
        p.first = pool_[begin];
        p.last = pool_.back();
        p.entryFrom = closed ? p.last : entryFrom;
        p.exitTo = closed ? p.first : exitTo;
        p.closed = closed;
        p.summary = forward.shifted(static_cast<std::uint32_t>(backCount));
        p.summary.add(backward.reversed(static_cast<std::uint32_t>(backCount)));
        pieces_.push_back(p);
    }

    const BinaryBitmaps& bitmaps_;
    const PixelBits& fg_;
    const PixelBits& border_;
    std::uint32_t worker_;
    PointPool& pool_;
    std::vector<BorderPiece>& pieces_;
    std::vector<std::uint8_t>& marks_;
    std::vector<PixelKey>& back_;
    PixelRect rect_;
    int width_ = 0, height_ = 0;
};

}  // namespace

void trackRectangles(const BinaryBitmaps& bitmaps, const RectGrid& grid, const WorkerBudget& budget,
                     TrackingScratch& scratch, TrackedBorders& out) {
    out.grid = grid;
    const int rectCount = grid.count();
    const std::size_t pixels = static_cast<std::size_t>(grid.width) * static_cast<std::size_t>(grid.height);
    const int workers = std::min(budget.forPixels(pixels), rectCount);
    if (out.pointPools.size() < static_cast<std::size_t>(workers)) out.pointPools.resize(static_cast<std::size_t>(workers));
    for (auto& pool : out.pointPools) pool.clear();
    if (scratch.workers.size() < static_cast<std::size_t>(workers)) scratch.workers.resize(static_cast<std::size_t>(workers));
    scratch.rects.resize(static_cast<std::size_t>(rectCount));

    std::atomic<int> nextRect{0};
    // Rectangles are handed out one at a time: their work varies with the borders they hold.
    parallelFor(static_cast<std::size_t>(workers), workers, [&](std::size_t wb, std::size_t we) {
        for (std::size_t w = wb; w < we; ++w) {
            RectangleTracker tracker(bitmaps, static_cast<std::uint32_t>(w), out.pointPools[w], scratch.workers[w]);
            for (int task; (task = nextRect.fetch_add(1, std::memory_order_relaxed)) < rectCount;) {
                // Handed out row by row, so that neighbours across share the bitmaps' cache lines.
                const int r = grid.index(task % grid.cols, task / grid.cols);
                const auto begin = static_cast<std::uint32_t>(tracker.pieceCount());
                tracker.track(rectBounds(grid, r));
                scratch.rects[static_cast<std::size_t>(r)] = {static_cast<std::uint32_t>(w), begin,
                                                              static_cast<std::uint32_t>(tracker.pieceCount()) - begin};
            }
        }
    });

    out.rectPieceBegin.resize(static_cast<std::size_t>(rectCount) + 1);
    out.rectPieceBegin[0] = 0;
    for (std::size_t r = 0; r < static_cast<std::size_t>(rectCount); ++r)
        out.rectPieceBegin[r + 1] = out.rectPieceBegin[r] + scratch.rects[r].count;
    out.pieces.resize(out.rectPieceBegin.back());
    parallelFor(static_cast<std::size_t>(rectCount), budget.forRecords(out.pieces.size()),
                [&](std::size_t b, std::size_t e) {
        for (std::size_t r = b; r < e; ++r) {
            const RectPieces& src = scratch.rects[r];
            for (std::uint32_t i = 0; i < src.count; ++i) {
                const std::uint32_t id = out.rectPieceBegin[r] + i;
                BorderPiece& p = out.pieces[id];
                p = scratch.workers[src.worker].pieces[src.begin + i];
                p.summary.firstWestAt.piece = p.summary.firstWest == kNoPixel ? kNone : id;
                p.summary.firstEastAt.piece = p.summary.firstEast == kNoPixel ? kNone : id;
            }
        }
    });
}

}  // namespace linescope::contours
