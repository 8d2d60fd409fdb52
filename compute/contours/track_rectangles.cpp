#include "compute/contours/track_rectangles.h"

#include "compute/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>

namespace linescope::contours {

namespace {

class RectangleTracker {
public:
    RectangleTracker(const BinaryBitmaps& bitmaps, std::uint32_t worker, std::vector<PixelKey>& pool,
                     TrackerScratch& scratch)
        : fg_(bitmaps.foreground),
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
        rectWidth_ = r.x1 - r.x0;
        const auto area = static_cast<std::size_t>(rectWidth_) * static_cast<std::size_t>(r.y1 - r.y0);
        if (marks_.size() < area) marks_.assign(area, 0);
        forEachBorderPixel([&](PixelKey k) { trackPixel(k); });
        // Labels sit on border pixels only: clearing those is cheaper than clearing the rectangle.
        forEachBorderPixel([&](PixelKey k) { mark(k) = 0; });
    }

private:
    template <class Visit>
    void forEachBorderPixel(Visit&& visit) const {
        const PixelRect& r = rect_;
        const int firstWord = (r.x0 + 64) >> 6, lastWord = (r.x1 - 1 + 64) >> 6;
        for (int y = r.y0; y < r.y1; ++y) {
            const std::uint64_t* row = border_.row(y);
            for (int wi = firstWord; wi <= lastWord; ++wi) {
                std::uint64_t bits = row[wi];
                const int base = wi * 64 - 64;  // pixel x of bit 0
                if (base < r.x0) bits &= ~std::uint64_t{0} << (r.x0 - base);
                if (base + 64 > r.x1) bits &= (std::uint64_t{1} << (r.x1 - base)) - 1;
                while (bits) {
                    visit(pixelKey(base + std::countr_zero(bits), y));
                    bits &= bits - 1;
                }
            }
        }
    }

    std::uint8_t& mark(PixelKey k) {
        return marks_[static_cast<std::size_t>(keyY(k) - rect_.y0) * static_cast<std::size_t>(rectWidth_) +
                      static_cast<std::size_t>(keyX(k) - rect_.x0)];
    }

    void trackPixel(PixelKey k) {
        const unsigned mask = neighbourMask(fg_, k);
        const unsigned crossZeros = crossZerosAround(mask);
        unsigned untracked = crossZeros & ~mark(k);
        if (!untracked) return;
        if (mask == 0) {
            addIsolated(k);
            return;
        }
        // Algorithm 1's inner loop: several borders may pass through one pixel (paper's Fig. 2).
        while (untracked) {
            const unsigned bit = untracked & (0u - untracked);
            const Triad t = triadAround(mask, directionOfCrossZero(bit));
            trackPiece(k, t);
            untracked = crossZeros & ~mark(k);
        }
    }

    void addIsolated(PixelKey k) {
        mark(k) = kWestZero | kNorthZero | kEastZero | kSouthZero;
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
        pool_.push_back(k);
        pieces_.push_back(p);
    }

    // Algorithm 2: follow the border of triad t at k backwards until it enters the rectangle
    // (or closes), then write the piece forwards from that entry until it leaves.
    void trackPiece(PixelKey k, Triad t) {
        back_.clear();
        PixelKey c = k;
        int former = t.former;
        bool closed = false;
        PixelKey entryFrom = kNoPixel;
        for (;;) {
            const PixelKey f = stepKey(c, former);
            if (!rect_.contains(f)) {
                entryFrom = f;
                break;
            }
            const int next = former ^ 4;  // seen from f, c lies the opposite way
            const int formerOfF = formerBefore(neighbourMask(fg_, f), next);
            if (f == k && formerOfF == t.former) {
                closed = true;
                break;
            }
            back_.push_back({f, static_cast<std::uint8_t>(formerOfF), static_cast<std::uint8_t>(next)});
            c = f;
            former = formerOfF;
        }

        BorderPiece p;
        p.pool = worker_;
        p.begin = static_cast<std::uint32_t>(pool_.size());
        p.entryFrom = entryFrom;
        for (auto it = back_.rbegin(); it != back_.rend(); ++it) record(p, it->pixel, it->former, it->next);
        c = k;
        former = t.former;
        int next = t.next;
        for (;;) {
            record(p, c, former, next);
            if (closed) break;  // the backward walk already wrote the rest of the cycle
            const PixelKey n = stepKey(c, next);
            if (!rect_.contains(n)) {
                p.exitTo = n;
                break;
            }
            former = next ^ 4;
            c = n;
            next = nextAfter(neighbourMask(fg_, c), former);
        }
        p.first = pool_[p.begin];
        p.last = pool_.back();
        if (closed) {
            p.closed = 1;
            p.entryFrom = p.last;
            p.exitTo = p.first;
        }
        pieces_.push_back(p);
    }

    // Stores one triad of the piece and labels its centre pixel (Algorithm 3).
    void record(BorderPiece& p, PixelKey c, int former, int next) {
        const auto index = static_cast<std::uint32_t>(pool_.size()) - p.begin;
        pool_.push_back(c);
        const unsigned label = triadLabel(former, next);
        mark(c) |= static_cast<std::uint8_t>(label);
        BorderSummary& s = p.summary;
        ++s.points;
        s.corners += (former ^ 4) != next;
        if (c < s.first) s.first = c;
        if ((label & kWestZero) && c < s.firstWest) {
            s.firstWest = c;
            s.firstWestAt.index = index;
        }
        if ((label & kEastZero) && c < s.firstEast) {
            s.firstEast = c;
            s.firstEastAt.index = index;
        }
    }

    const PixelBits& fg_;
    const PixelBits& border_;
    std::uint32_t worker_;
    std::vector<PixelKey>& pool_;
    std::vector<BorderPiece>& pieces_;
    std::vector<std::uint8_t>& marks_;  // zero between rectangles
    std::vector<BackStep>& back_;
    PixelRect rect_;
    int rectWidth_ = 0;
};

}  // namespace

void trackRectangles(const BinaryBitmaps& bitmaps, const RectGrid& grid, int threads, TrackingScratch& scratch,
                     TrackedBorders& out) {
    out.grid = grid;
    const int rectCount = grid.count();
    const int workers = std::max(1, std::min(resolveThreads(threads), rectCount));
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
    parallelFor(static_cast<std::size_t>(rectCount), threads, [&](std::size_t b, std::size_t e) {
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
