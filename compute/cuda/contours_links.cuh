// Connection of the pieces on the GPU (what Garcia-Molla et al. §4.3 does with merge
// sweeps, done in one pass over all open pieces instead):
//   1. the open pieces, sorted by the move that enters them (a radix sort), each find the
//      piece that continues them by a binary search for the move that leaves them;
//   2. pointer jumping round these cycles (one per border that crosses rectangles) finds
//      in log2 rounds each cycle's smallest position, its leader, and each piece's weight
//      up to it, from which the output places every point;
//   3. leaders and closed pieces become borders, numbered with an atomic counter, and each
//      border's summary is summed over its pieces with atomics.
// The merge sweeps would join pairs of groups with one thread each and end on one thread
// joining two halves of the image; here every step is parallel over pieces.
#pragma once

#include "compute/contours/border_pieces.h"
#include "compute/cuda/contours_records.cuh"

#include <cstdint>

namespace linescope::contours::gpu {

LINESCOPE_HD inline std::uint32_t pieceWeight(const BorderPiece& p, bool corners) {
    return corners ? p.summary.corners : p.summary.points;
}

// Step 1, and the first window of pointer jumping: each node alone.
struct LinkOpenPieces {
    struct Params {
        const std::uint64_t* keys;  // entry moves, sorted
        const std::uint32_t* ids;   // their pieces
        std::uint32_t count;
        const BorderPiece* pieces;
        int width;
        bool corners;  // weigh pieces by corners (CHAIN_APPROX_SIMPLE), else by points
        JumpNode* nodes;
        TrackCounters* counters;
    };
    LINESCOPE_HD static void run(std::uint32_t j, const Params& p) {
        const BorderPiece& piece = p.pieces[p.ids[j]];
        std::uint32_t next = findKey(p.keys, p.count, moveKey(piece.last, piece.exitTo, p.width));
        if (next == p.count) {  // a bug: reported, and the node loops on itself to stay in bounds
            atomicOrU32(&p.counters->flags, kUnmatchedExit);
            next = j;
        }
        p.nodes[j] = {next, j, 0, pieceWeight(piece, p.corners)};
    }
};

// Step 2: one round doubles every window (reads `in`, writes `out`). If the second half
// holds a smaller position than the first, the first half does not hold the whole cycle,
// so its total is an exact distance below the cycle's weight (no wrap-around).
struct JumpRound {
    struct Params {
        const JumpNode* in;
        JumpNode* out;
    };
    LINESCOPE_HD static void run(std::uint32_t j, const Params& p) {
        const JumpNode a = p.in[j];
        const JumpNode b = p.in[a.jump];
        JumpNode r;
        r.jump = b.jump;
        r.total = a.total + b.total;
        if (b.best < a.best) {
            r.best = b.best;
            r.dist = a.total + b.dist;
        } else {
            r.best = a.best;
            r.dist = a.dist;
        }
        p.out[j] = r;
    }
};

// Step 3a: a border number for each cycle's leader, and its totals emptied.
struct NumberCycles {
    struct Params {
        const JumpNode* nodes;  // after the last round
        const std::uint32_t* ids;
        std::uint32_t* leaderBorder;  // per position: the border, for leaders
        BorderTotals* totals;         // per border
        ClosedBorder* borders;
        TrackCounters* counters;
    };
    LINESCOPE_HD static void run(std::uint32_t j, const Params& p) {
        if (p.nodes[j].best != j) return;
        const std::uint32_t b = atomicAddU32(&p.counters->borders, 1);
        p.leaderBorder[j] = b;
        p.totals[b] = {0, 0, kNoPixel, 0, ~std::uint64_t{0}, ~std::uint64_t{0}};
        p.borders[b].head = p.ids[j];
    }
};

// Step 3b: a closed piece is a whole border.
struct NumberClosedPieces {
    struct Params {
        const BorderPiece* pieces;
        ClosedBorder* borders;
        std::uint32_t* borderOf;  // per piece
        std::uint32_t* distOf;    // per piece: the weight from its border's leader to it
        TrackCounters* counters;
    };
    LINESCOPE_HD static void run(std::uint32_t i, const Params& p) {
        const BorderPiece& piece = p.pieces[i];
        if (!piece.closed) return;
        const std::uint32_t b = atomicAddU32(&p.counters->borders, 1);
        p.borders[b].head = i;
        p.borders[b].summary = piece.summary;
        p.borderOf[i] = b;
        p.distOf[i] = 0;
    }
};

// Step 3c: each open piece joins its leader's border.
struct SumCycles {
    struct Params {
        const JumpNode* nodes;
        const std::uint32_t* ids;
        const BorderPiece* pieces;
        const std::uint32_t* leaderBorder;
        BorderTotals* totals;
        std::uint32_t* borderOf;
        std::uint32_t* distOf;
    };
    LINESCOPE_HD static void run(std::uint32_t j, const Params& p) {
        const JumpNode n = p.nodes[j];
        const std::uint32_t piece = p.ids[j];
        const std::uint32_t b = p.leaderBorder[n.best];
        p.borderOf[piece] = b;
        // dist runs from the piece to its leader; from the leader to the piece is the rest
        // of the cycle, which the output works out once it knows the cycle's weight.
        p.distOf[piece] = n.dist;
        const BorderSummary& s = p.pieces[piece].summary;
        BorderTotals& t = p.totals[b];
        atomicAddU32(&t.points, s.points);
        atomicAddU32(&t.corners, s.corners);
        atomicMinU32(&t.first, s.first);
        atomicMinU64(&t.west, (static_cast<std::uint64_t>(s.firstWest) << 32) | piece);
        atomicMinU64(&t.east, (static_cast<std::uint64_t>(s.firstEast) << 32) | piece);
    }
};

// Step 3d: the summary of each crossing border from its totals.
struct FinishCycles {
    struct Params {
        const JumpNode* nodes;
        const std::uint32_t* leaderBorder;
        const BorderTotals* totals;
        const BorderPiece* pieces;
        ClosedBorder* borders;
    };
    LINESCOPE_HD static PieceAt locate(std::uint64_t packed, PixelKey& key, const BorderPiece* pieces, bool west) {
        key = static_cast<PixelKey>(packed >> 32);
        if (key == kNoPixel) return {kNone, 0};
        const auto piece = static_cast<std::uint32_t>(packed & 0xFFFFFFFFu);
        const BorderSummary& s = pieces[piece].summary;
        return {piece, west ? s.firstWestAt.index : s.firstEastAt.index};
    }
    LINESCOPE_HD static void run(std::uint32_t j, const Params& p) {
        if (p.nodes[j].best != j) return;
        const std::uint32_t b = p.leaderBorder[j];
        const BorderTotals t = p.totals[b];
        BorderSummary s;
        s.points = t.points;
        s.corners = t.corners;
        s.first = t.first;
        s.firstWestAt = locate(t.west, s.firstWest, p.pieces, true);
        s.firstEastAt = locate(t.east, s.firstEast, p.pieces, false);
        p.borders[b].summary = s;
    }
};

// Rounds of JumpRound until a window spans any cycle of `open` pieces.
inline int jumpRounds(std::uint32_t open) {
    int rounds = 0;
    while (rounds < 32 && (std::uint64_t{1} << rounds) < open) ++rounds;
    return rounds;
}

}  // namespace linescope::contours::gpu
