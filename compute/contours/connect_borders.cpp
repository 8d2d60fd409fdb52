#include "compute/contours/connect_borders.h"

#include "compute/image.h"
#include "compute/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <string>

namespace linescope::contours {

namespace {

// A group of rectangles: its open chains are chains[begin, begin + count) of the current
// buffer, inside a region reserved for it (the regions of its rectangles, which are
// consecutive because rectangles are numbered column by column).
struct Group {
    std::uint32_t begin = 0, count = 0;
    PixelRect bounds;
};

// A move across the common side of two groups, as a sortable key, and the chain it ends or starts.
struct Crossing {
    std::uint64_t move;
    std::uint32_t chain;
    bool operator<(const Crossing& o) const { return move < o.move; }
};

std::uint64_t moveKey(PixelKey from, PixelKey to) { return (std::uint64_t{from} << 32) | to; }

// Closed borders go to one shared list (the paper's CONTG, filled with atomicAdd).
class BorderSink {
public:
    explicit BorderSink(std::vector<ClosedBorder>& borders) : borders_(borders) {}
    void add(const ClosedBorder& b) { borders_[next_.fetch_add(1, std::memory_order_relaxed)] = b; }
    std::size_t size() const { return next_.load(); }

private:
    std::vector<ClosedBorder>& borders_;
    std::atomic<std::size_t> next_{0};
};

// Joins two neighbouring groups (§4.3.2). The chains of both are numbered 0 … n − 1 (those
// of the first group first); each move from one group into the other links the chain that
// leaves with the chain that enters, and the links are then followed into longer chains or
// closed borders. Following links, rather than the paper's case analysis, handles borders
// that cross the common side many times (its Fig. 16) in one pass.
class GroupJoiner {
public:
    GroupJoiner(std::vector<std::uint32_t>& nextPiece, BorderSink& sink) : nextPiece_(nextPiece), sink_(sink) {}

    // Writes the joined group's open chains to out[a.begin …] and returns the joined group.
    Group join(const Group& a, const Group& b, const BorderChain* in, BorderChain* out) {
        firstCount_ = a.count;
        const std::uint32_t n = a.count + b.count;
        chainsA_ = in + a.begin;
        chainsB_ = in + b.begin;
        successor_.assign(n, kNone);
        hasPredecessor_.assign(n, 0);
        visited_.assign(n, 0);
        link(0, a.count, a.count, n, b.bounds, a.bounds);
        link(a.count, n, 0, a.count, a.bounds, b.bounds);

        Group joined{a.begin, 0,
                     {std::min(a.bounds.x0, b.bounds.x0), std::min(a.bounds.y0, b.bounds.y0),
                      std::max(a.bounds.x1, b.bounds.x1), std::max(a.bounds.y1, b.bounds.y1)}};
        BorderChain* dst = out + a.begin;
        for (std::uint32_t i = 0; i < n; ++i)  // chains that start outside: still open
            if (!hasPredecessor_[i]) dst[joined.count++] = follow(i, kNone);
        for (std::uint32_t i = 0; i < n; ++i) {  // what is left are cycles: whole borders
            if (visited_[i]) continue;
            const BorderChain c = follow(i, i);
            nextPiece_[c.tail] = c.head;
            sink_.add({c.head, c.summary});
        }
        return joined;
    }

private:
    const BorderChain& chain(std::uint32_t i) const { return i < firstCount_ ? chainsA_[i] : chainsB_[i - firstCount_]; }

    // Chain i and its successors up to `stop` (kNone: the end of the links; i: once round).
    BorderChain follow(std::uint32_t i, std::uint32_t stop) {
        BorderChain c = chain(i);
        visited_[i] = 1;
        for (std::uint32_t k = successor_[i]; k != stop; k = successor_[k]) {
            append(c, chain(k));
            visited_[k] = 1;
        }
        return c;
    }

    void append(BorderChain& c, const BorderChain& next) {
        nextPiece_[c.tail] = next.head;
        c.tail = next.tail;
        c.last = next.last;
        c.exitTo = next.exitTo;
        c.summary.add(next.summary);
    }

    // Links the chains [fromBegin, fromEnd) that leave into `toBounds` with the chains
    // [toBegin, toEnd) that enter from `fromBounds` by the same move. A border's moves are
    // all different (a move fixes the rest of the border), so the match is one to one.
    void link(std::uint32_t fromBegin, std::uint32_t fromEnd, std::uint32_t toBegin, std::uint32_t toEnd,
              const PixelRect& toBounds, const PixelRect& fromBounds) {
        leaving_.clear();
        entering_.clear();
        for (std::uint32_t i = fromBegin; i < fromEnd; ++i) {
            const BorderChain& c = chain(i);
            if (toBounds.contains(c.exitTo)) leaving_.push_back({moveKey(c.last, c.exitTo), i});
        }
        for (std::uint32_t i = toBegin; i < toEnd; ++i) {
            const BorderChain& c = chain(i);
            if (fromBounds.contains(c.entryFrom)) entering_.push_back({moveKey(c.entryFrom, c.first), i});
        }
        std::sort(leaving_.begin(), leaving_.end());
        std::sort(entering_.begin(), entering_.end());
        if (leaving_.size() != entering_.size())
            throw Error("contours: internal error: a border left a rectangle where none entered");
        for (std::size_t j = 0; j < leaving_.size(); ++j) {
            if (leaving_[j].move != entering_[j].move)
                throw Error("contours: internal error: borders crossing rectangles do not match");
            successor_[leaving_[j].chain] = entering_[j].chain;
            hasPredecessor_[entering_[j].chain] = 1;
        }
    }

    std::vector<std::uint32_t>& nextPiece_;
    BorderSink& sink_;
    const BorderChain* chainsA_ = nullptr;
    const BorderChain* chainsB_ = nullptr;
    std::uint32_t firstCount_ = 0;
    std::vector<std::uint32_t> successor_;
    std::vector<std::uint8_t> hasPredecessor_;
    std::vector<std::uint8_t> visited_;
    std::vector<Crossing> leaving_, entering_;
};

// One stage of a sweep: joins pairs[i] = (groups[first], groups[first + 1]) or passes a
// lone group through; returns the new groups in the same (column by column) order.
std::vector<Group> joinStage(const std::vector<Group>& groups, const std::vector<std::pair<std::size_t, bool>>& pairs,
                             const std::vector<BorderChain>& in, std::vector<BorderChain>& out,
                             std::vector<std::uint32_t>& nextPiece, BorderSink& sink, const WorkerBudget& budget) {
    std::vector<Group> joined(pairs.size());
    std::size_t chains = 0;
    for (const Group& g : groups) chains += g.count;
    // A join may throw (a bug); the pool's workers must not, so the message is carried out.
    std::atomic<bool> failed{false};
    std::string failure;
    parallelFor(pairs.size(), budget.forRecords(chains), [&](std::size_t b, std::size_t e) {
        GroupJoiner joiner(nextPiece, sink);
        try {
            for (std::size_t i = b; i < e; ++i) {
                const Group& g = groups[pairs[i].first];
                if (!pairs[i].second) {
                    std::copy_n(in.begin() + g.begin, g.count, out.begin() + g.begin);
                    joined[i] = g;
                } else {
                    joined[i] = joiner.join(g, groups[pairs[i].first + 1], in.data(), out.data());
                }
            }
        } catch (const Error& ex) {
            if (!failed.exchange(true)) failure = ex.what();
        }
    });
    if (failed) throw Error(failure);
    return joined;
}

}  // namespace

void connectBorders(TrackedBorders& t, const WorkerBudget& budget, ConnectionScratch& cs) {
    const RectGrid& grid = t.grid;
    const std::size_t pieceCount = t.pieces.size();
    t.nextPiece.assign(pieceCount, kNone);
    t.borders.resize(pieceCount);  // every border holds at least one piece
    BorderSink sink(t.borders);

    // The open pieces of each rectangle are its first chains; closed pieces are whole borders.
    const int rectCount = grid.count();
    std::vector<Group> groups(static_cast<std::size_t>(rectCount));
    std::uint32_t openCount = 0;
    for (int r = 0; r < rectCount; ++r) {
        const auto ri = static_cast<std::size_t>(r);
        std::uint32_t open = 0;
        for (std::uint32_t p = t.rectPieceBegin[ri]; p < t.rectPieceBegin[ri + 1]; ++p) open += !t.pieces[p].closed;
        groups[ri] = {openCount, open, rectBounds(grid, r)};
        openCount += open;
    }
    std::vector<BorderChain>& chains = cs.chains;
    std::vector<BorderChain>& scratch = cs.joined;
    chains.resize(openCount);
    scratch.resize(openCount);
    parallelFor(static_cast<std::size_t>(rectCount), budget.forRecords(pieceCount),
                [&](std::size_t b, std::size_t e) {
        for (std::size_t r = b; r < e; ++r) {
            std::uint32_t at = groups[r].begin;
            for (std::uint32_t p = t.rectPieceBegin[r]; p < t.rectPieceBegin[r + 1]; ++p) {
                const BorderPiece& piece = t.pieces[p];
                if (piece.closed) {
                    t.nextPiece[p] = p;
                    sink.add({p, piece.summary});
                } else {
                    chains[at++] = {p, p, piece.entryFrom, piece.first, piece.last, piece.exitTo, piece.summary};
                }
            }
        }
    });

    // Vertical sweep: within each column, join groups 2i and 2i + 1 until one is left.
    for (int perColumn = grid.rows; perColumn > 1; perColumn = (perColumn + 1) / 2) {
        std::vector<std::pair<std::size_t, bool>> pairs;
        for (int c = 0; c < grid.cols; ++c)
            for (int i = 0; i < perColumn; i += 2)
                pairs.push_back({static_cast<std::size_t>(c * perColumn + i), i + 1 < perColumn});
        groups = joinStage(groups, pairs, chains, scratch, t.nextPiece, sink, budget);
        chains.swap(scratch);
    }
    // Horizontal sweep: join columns 2j and 2j + 1 until one is left.
    while (groups.size() > 1) {
        std::vector<std::pair<std::size_t, bool>> pairs;
        for (std::size_t i = 0; i < groups.size(); i += 2) pairs.push_back({i, i + 1 < groups.size()});
        groups = joinStage(groups, pairs, chains, scratch, t.nextPiece, sink, budget);
        chains.swap(scratch);
    }
    if (!groups.empty() && groups[0].count != 0)
        throw Error("contours: internal error: a border was left open after the merge sweeps");
    t.borders.resize(sink.size());
}

}  // namespace linescope::contours
