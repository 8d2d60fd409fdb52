// The hierarchy's device steps and the output, on the GPU: one thread per border to say
// how the raster scan finds it, one thread per point of the pool to answer the borders'
// LeftQuery, and one thread per point to write it where OpenCV lists it.
//
// Where a point goes: the output lists each border from its start (border_hierarchy.h). A
// piece's place in its border's cycle is its weight from the cycle's leader, which is the
// cycle's weight L less the piece's distance to the leader (contours_links.cuh). Counting
// from the leader, point i of piece q is number cum(q) + rank(i) (rank: its points, or its
// corners for CHAIN_APPROX_SIMPLE, before it in q); the start is number
// shift = cum(start piece) + rank(start); so the point lands at (cum + rank − shift) mod L.
#pragma once

#include "compute/contours/border_discovery.h"
#include "compute/contours/border_hierarchy.h"
#include "compute/contours/border_pieces.h"
#include "compute/contours/contours.h"
#include "compute/cuda/contours_records.cuh"

#include <cstddef>
#include <cstdint>

namespace linescope::contours::gpu {

// Per border: its discovery key, hole flag, LeftQuery and output length.
struct DiscoverBorders {
    struct Params {
        const ClosedBorder* borders;
        const std::uint64_t* words;  // the foreground bitmap
        std::size_t wordsPerRow;
        ContourMode mode;
        bool corners;                // CHAIN_APPROX_SIMPLE: lengths count corners
        std::uint32_t* discoveryKeys;
        std::uint32_t* discoveryIds;
        std::uint8_t* hole;
        std::uint64_t* queryKeys;
        std::uint32_t* queryIds;
        std::uint32_t* left;    // kNone (no question) or kNoAnswer until answered
        std::uint32_t* length;  // points in the output
    };
    LINESCOPE_HD static void run(std::uint32_t b, const Params& p) {
        const BorderSummary& s = p.borders[b].summary;
        p.discoveryKeys[b] = discoveryKey(s);
        p.discoveryIds[b] = b;
        p.hole[b] = isHoleBorder(s) ? 1 : 0;
        const LeftQuery q = leftQuery(s, p.words, p.wordsPerRow, p.mode);
        const bool asks = q.pixel != kNoPixel;
        p.queryKeys[b] = asks ? queryKey(q.pixel, q.zero) : kNoQuery;
        p.queryIds[b] = b;
        p.left[b] = asks ? kNoAnswer : kNone;
        p.length[b] = p.corners ? s.corners : s.points;
    }
};

// Per point: the triad with a west or east zero that some border asked about answers it.
// Each question names one triad, so each answer has one writer.
struct AnswerQueries {
    struct Params {
        const PixelKey* points;
        const std::uint32_t* pieceOf;
        const BorderPiece* pieces;
        const std::uint32_t* borderOf;
        const std::uint64_t* queryKeys;  // sorted
        const std::uint32_t* queryIds;
        std::uint32_t queries;
        std::uint32_t* left;
    };
    LINESCOPE_HD static void run(std::uint32_t i, const Params& p) {
        const std::uint32_t piece = p.pieceOf[i];
        const BorderPiece& bp = p.pieces[piece];
        const PointContext c = pointContext(p.points, i, bp);
        const unsigned label = pointLabel(c, bp);
        if (label & kWestZero) answer(p, queryKey(c.at, kWestZero), piece);
        if (label & kEastZero) answer(p, queryKey(c.at, kEastZero), piece);
    }
    LINESCOPE_HD static void answer(const Params& p, std::uint64_t key, std::uint32_t piece) {
        const std::uint32_t at = findKey(p.queryKeys, p.queries, key);
        if (at < p.queries) p.left[p.queryIds[at]] = p.borderOf[piece];
    }
};

// Per point, for CHAIN_APPROX_SIMPLE: 1 when it is kept (an exclusive scan then ranks them).
struct MarkCorners {
    struct Params {
        const PixelKey* points;
        const std::uint32_t* pieceOf;
        const BorderPiece* pieces;
        std::uint32_t* corner;
    };
    LINESCOPE_HD static void run(std::uint32_t i, const Params& p) {
        const BorderPiece& bp = p.pieces[p.pieceOf[i]];
        p.corner[i] = pointIsCorner(pointContext(p.points, i, bp), bp) ? 1u : 0u;
    }
};

// A point's place counted from its border's leader: cum(piece) + rank(point).
LINESCOPE_HD inline std::uint64_t placeFromLeader(std::uint32_t length, std::uint32_t dist, std::uint64_t rank) {
    const std::uint64_t cum = dist == 0 ? 0 : length - dist;
    return cum + rank;
}

// The rank of point i in its piece: points before it, or corners (cornerRank: the exclusive
// scan of MarkCorners; null for CHAIN_APPROX_NONE).
LINESCOPE_HD inline std::uint64_t rankInPiece(const std::uint32_t* cornerRank, const BorderPiece& bp, std::uint32_t i) {
    return cornerRank ? cornerRank[i] - cornerRank[bp.begin] : i - bp.begin;
}

// Per border that the mode lists: the place of its start counted from its leader.
struct StartShifts {
    struct Params {
        const ClosedBorder* borders;
        const BorderPiece* pieces;
        const std::uint32_t* slot;    // per border: its place in the listing, or kNone
        const std::uint32_t* length;
        const std::uint32_t* distOf;
        const std::uint32_t* cornerRank;  // null for CHAIN_APPROX_NONE
        std::uint32_t* shift;
    };
    LINESCOPE_HD static void run(std::uint32_t b, const Params& p) {
        if (p.slot[b] == kNone) return;
        const BorderSummary& s = p.borders[b].summary;
        const PieceAt start = isHoleBorder(s) ? s.firstEastAt : s.firstWestAt;
        const BorderPiece& bp = p.pieces[start.piece];
        const std::uint32_t length = p.length[b];
        const std::uint64_t place =
            placeFromLeader(length, p.distOf[start.piece], rankInPiece(p.cornerRank, bp, bp.begin + start.index));
        p.shift[b] = length ? static_cast<std::uint32_t>(place % length) : 0;
    }
};

// Per point: written where the listing puts it (points the mode drops, and points that
// CHAIN_APPROX_SIMPLE drops, are skipped).
struct WritePoints {
    struct Params {
        const PixelKey* points;
        const std::uint32_t* pieceOf;
        const BorderPiece* pieces;
        const std::uint32_t* borderOf;
        const std::uint32_t* slot;
        const std::uint32_t* offset;  // per listed border: its first output point
        const std::uint32_t* length;
        const std::uint32_t* distOf;
        const std::uint32_t* shift;
        const std::uint32_t* corner;      // MarkCorners, or null for CHAIN_APPROX_NONE
        const std::uint32_t* cornerRank;  // its exclusive scan, or null
        ContourPoint* out;
    };
    LINESCOPE_HD static void run(std::uint32_t i, const Params& p) {
        const std::uint32_t piece = p.pieceOf[i];
        const std::uint32_t b = p.borderOf[piece];
        const std::uint32_t slot = p.slot[b];
        if (slot == kNone) return;
        const BorderPiece& bp = p.pieces[piece];
        const PixelKey k = p.points[i];
        ContourPoint* dst = p.out + p.offset[slot];
        if (bp.isolated) {  // a lone pixel: one point with either approximation
            dst[0] = ContourPoint{keyX(k), keyY(k)};
            return;
        }
        if (p.corner && !p.corner[i]) return;
        const std::uint32_t length = p.length[b];
        const std::uint64_t place = placeFromLeader(length, p.distOf[piece], rankInPiece(p.cornerRank, bp, i));
        dst[(place + length - p.shift[b]) % length] = ContourPoint{keyX(k), keyY(k)};
    }
};

}  // namespace linescope::contours::gpu
