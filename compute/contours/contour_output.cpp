#include "compute/contours/contour_output.h"

#include "compute/thread_pool.h"

namespace linescope::contours {

namespace {

// Walks a border's cycle of pieces once, from its start, calling visit(pixel, before, after)
// for each triad with the pixels before and after it on the border.
template <class Visit>
void walkBorder(const TrackedBorders& t, PieceAt start, std::uint32_t points, Visit&& visit) {
    std::uint32_t p = start.piece, i = start.index;
    for (std::uint32_t done = 0; done < points; p = t.nextPiece[p], i = 0) {
        const BorderPiece& piece = t.pieces[p];
        const PixelKey* pts = t.pointPools[piece.pool].data() + piece.begin;
        const std::uint32_t count = piece.summary.points;
        for (; i < count && done < points; ++i, ++done)
            visit(pts[i], i > 0 ? pts[i - 1] : piece.entryFrom, i + 1 < count ? pts[i + 1] : piece.exitTo);
    }
}

}  // namespace

void writeContours(const TrackedBorders& t, const BorderOrder& order, ContourApprox approx,
                   const WorkerBudget& budget, Contours& out) {
    const std::size_t n = order.border.size();
    out.offsets.assign(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) {
        const BorderSummary& s = t.borders[order.border[i]].summary;
        out.offsets[i + 1] = out.offsets[i] + (approx == ContourApprox::None ? s.points : s.corners);
    }
    out.points.resize(out.offsets[n]);
    std::size_t walked = 0;  // every point is visited, with either approximation
    for (std::uint32_t b : order.border) walked += t.borders[b].summary.points;
    parallelFor(n, budget.forPoints(walked), [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) {
            const std::uint32_t border = order.border[i];
            const BorderSummary& s = t.borders[border].summary;
            ContourPoint* dst = out.points.data() + out.offsets[i];
            const PieceAt start = order.start[i];
            if (s.points == 1) {  // a lone pixel: OpenCV writes it once
                const PixelKey k = t.pointPools[t.pieces[start.piece].pool][t.pieces[start.piece].begin];
                *dst = {keyX(k), keyY(k)};
            } else if (approx == ContourApprox::None) {
                walkBorder(t, start, s.points, [&](PixelKey k, PixelKey, PixelKey) { *dst++ = {keyX(k), keyY(k)}; });
            } else {
                // OpenCV writes a point when the move out of it differs from the move into it.
                walkBorder(t, start, s.points, [&](PixelKey k, PixelKey before, PixelKey after) {
                    if (directionTo(before, k) != directionTo(k, after)) *dst++ = {keyX(k), keyY(k)};
                });
            }
        }
    });
    out.next = order.next;
    out.previous = order.previous;
    out.firstChild = order.firstChild;
    out.parent = order.parent;
    out.hole = order.hole;
}

}  // namespace linescope::contours
