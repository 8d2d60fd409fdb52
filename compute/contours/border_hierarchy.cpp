#include "compute/contours/border_hierarchy.h"

#include "compute/contours/border_discovery.h"

#include "compute/thread_pool.h"

#include <algorithm>
#include <bit>

namespace linescope::contours {

namespace {

// Where the raster scan meets each border, and whether it is a hole (see the header).
struct Discovery {
    std::vector<std::uint8_t> hole;
    std::vector<PixelKey> key;       // the scan position that finds the border
    std::vector<std::uint32_t> order;  // borders sorted by key: the order OpenCV finds them
};

// Sorts border indices by their 32-bit keys: two counting passes of 16 bits, so that
// hundreds of thousands of borders cost a few linear passes.
std::vector<std::uint32_t> sortByKey(const std::vector<PixelKey>& key) {
    const std::size_t n = key.size();
    std::vector<std::uint32_t> order(n), tmp(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(i);
    if (n < 4096) {
        std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return key[a] < key[b]; });
        return order;
    }
    std::vector<std::uint32_t> count(65537);
    for (int shift : {0, 16}) {
        std::fill(count.begin(), count.end(), 0u);
        for (std::uint32_t i : order) ++count[((key[i] >> shift) & 0xFFFFu) + 1];
        for (std::size_t d = 1; d < count.size(); ++d) count[d] += count[d - 1];
        for (std::uint32_t i : order) tmp[count[(key[i] >> shift) & 0xFFFFu]++] = i;
        order.swap(tmp);
    }
    return order;
}

Discovery discover(const TrackedBorders& t) {
    const std::size_t n = t.borders.size();
    Discovery d;
    d.hole.resize(n);
    d.key.resize(n);
    for (std::size_t b = 0; b < n; ++b) {
        const BorderSummary& s = t.borders[b].summary;
        d.hole[b] = isHoleBorder(s);
        d.key[b] = discoveryKey(s);
    }
    d.order = sortByKey(d.key);
    return d;
}

// "Which border holds the triad of `pixel` whose gap has this cross zero?" asked for each
// border that needs a parent; answered rectangle by rectangle from the pieces there.
struct Query {
    PixelKey pixel = kNoPixel;
    unsigned zero = 0;          // kWestZero or kEastZero
    std::uint32_t answer = kNone;
};

std::vector<std::uint32_t> bordersOfPieces(const TrackedBorders& t, const WorkerBudget& budget) {
    std::vector<std::uint32_t> of(t.pieces.size(), kNone);
    parallelFor(t.borders.size(), budget.forRecords(t.pieces.size()), [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) {
            const std::uint32_t head = t.borders[i].head;
            std::uint32_t p = head;
            do {
                of[p] = static_cast<std::uint32_t>(i);
                p = t.nextPiece[p];
            } while (p != head);
        }
    });
    return of;
}

void answerQueries(const TrackedBorders& t, std::vector<Query>& queries, const WorkerBudget& budget) {
    const RectGrid& g = t.grid;
    const auto rectCount = static_cast<std::size_t>(g.count());
    auto rectOf = [&](PixelKey k) {
        return static_cast<std::size_t>(g.index(keyX(k) / g.rectWidth, keyY(k) / g.rectHeight));
    };
    // Queries grouped by rectangle (a counting sort).
    std::vector<std::uint32_t> begin(rectCount + 1, 0), byRect(queries.size());
    for (const Query& q : queries) ++begin[rectOf(q.pixel) + 1];
    for (std::size_t r = 0; r < rectCount; ++r) begin[r + 1] += begin[r];
    {
        std::vector<std::uint32_t> at(begin.begin(), begin.end() - 1);
        for (std::size_t i = 0; i < queries.size(); ++i) byRect[at[rectOf(queries[i].pixel)]++] = static_cast<std::uint32_t>(i);
    }
    std::vector<std::uint32_t> busy;  // rectangles with queries, and the points to read there
    std::size_t busyPoints = 0;
    for (std::size_t r = 0; r < rectCount; ++r) {
        if (begin[r + 1] == begin[r]) continue;
        busy.push_back(static_cast<std::uint32_t>(r));
        for (std::uint32_t p = t.rectPieceBegin[r]; p < t.rectPieceBegin[r + 1]; ++p) busyPoints += t.pieces[p].summary.points;
    }
    const std::vector<std::uint32_t> borderOf = bordersOfPieces(t, budget);

    parallelFor(busy.size(), budget.forPoints(busyPoints), [&](std::size_t b, std::size_t e) {
        // Rectangle-local slots: the query waiting at each pixel for its west or east zero.
        // Allocated once for the worker; only the slots a rectangle fills are reset after it.
        const auto maxArea = static_cast<std::size_t>(g.rectWidth) * static_cast<std::size_t>(g.rectHeight);
        std::vector<std::uint32_t> westSlot(maxArea, kNone), eastSlot(maxArea, kNone);
        for (std::size_t bi = b; bi < e; ++bi) {
            const std::uint32_t r = busy[bi];
            const PixelRect rect = rectBounds(g, static_cast<int>(r));
            const int rw = rect.x1 - rect.x0;
            auto local = [&](PixelKey k) {
                return static_cast<std::size_t>(keyY(k) - rect.y0) * static_cast<std::size_t>(rw) +
                       static_cast<std::size_t>(keyX(k) - rect.x0);
            };
            for (std::uint32_t qi = begin[r]; qi < begin[r + 1]; ++qi) {
                const Query& q = queries[byRect[qi]];
                (q.zero == kWestZero ? westSlot : eastSlot)[local(q.pixel)] = byRect[qi];
            }
            for (std::uint32_t p = t.rectPieceBegin[r]; p < t.rectPieceBegin[r + 1]; ++p) {
                const BorderPiece& piece = t.pieces[p];
                const PixelKey* pts = t.pointPools[piece.pool].data() + piece.begin;
                const std::uint32_t count = piece.summary.points;
                for (std::uint32_t i = 0; i < count; ++i) {
                    const std::size_t at = local(pts[i]);
                    const std::uint32_t west = westSlot[at], east = eastSlot[at];
                    if (west == kNone && east == kNone) continue;
                    unsigned label = kWestZero | kNorthZero | kEastZero | kSouthZero;
                    if (!piece.isolated) {
                        const PixelKey former = i > 0 ? pts[i - 1] : piece.entryFrom;
                        const PixelKey next = i + 1 < count ? pts[i + 1] : piece.exitTo;
                        label = triadLabel(directionTo(pts[i], former), directionTo(pts[i], next));
                    }
                    if (west != kNone && (label & kWestZero)) queries[west].answer = borderOf[p];
                    if (east != kNone && (label & kEastZero)) queries[east].answer = borderOf[p];
                }
            }
            for (std::uint32_t qi = begin[r]; qi < begin[r + 1]; ++qi) {
                const Query& q = queries[byRect[qi]];
                (q.zero == kWestZero ? westSlot : eastSlot)[local(q.pixel)] = kNone;
            }
        }
    });
}

// Each border's answer to its LeftQuery (kNone: it asked none), rectangle by rectangle.
std::vector<std::uint32_t> leftNeighbours(const TrackedBorders& t, const PixelBits& fg, ContourMode mode,
                                          const WorkerBudget& budget) {
    const std::size_t n = t.borders.size();
    std::vector<std::uint32_t> left(n, kNone);
    std::vector<Query> queries;
    std::vector<std::uint32_t> queryOf(n, kNone);
    for (std::size_t b = 0; b < n; ++b) {
        const LeftQuery q = leftQuery(t.borders[b].summary, fg.words.data(), fg.wordsPerRow, mode);
        if (q.pixel == kNoPixel) continue;
        queryOf[b] = static_cast<std::uint32_t>(queries.size());
        queries.push_back({q.pixel, q.zero});
    }
    if (queries.empty()) return left;
    answerQueries(t, queries, budget);
    for (std::size_t b = 0; b < n; ++b)
        if (queryOf[b] != kNone) {
            const std::uint32_t a = queries[queryOf[b]].answer;
            left[b] = a == kNone ? kNoAnswer : a;
        }
    return left;
}

}  // namespace

std::vector<std::uint32_t> treeParentsFromLeft(const std::vector<std::uint32_t>& order,
                                               const std::vector<std::uint8_t>& hole,
                                               const std::vector<std::uint32_t>& left) {
    const std::size_t n = order.size();
    std::vector<std::uint32_t> treeParent(n, kNone);
    std::vector<std::uint32_t> rank(n);
    for (std::size_t i = 0; i < n; ++i) rank[order[i]] = static_cast<std::uint32_t>(i);
    for (std::uint32_t b : order) {
        const std::uint32_t l = left[b];
        if (l == kNone) continue;  // asked nothing: a top-level border
        if (l == kNoAnswer || l >= n || rank[l] >= rank[b])
            throw Error("contours: internal error: no earlier border found on the left of a border");
        // Suzuki–Abe's rule: a border of the other kind is the parent; one of the same
        // kind is a sibling, so its parent is the parent.
        treeParent[b] = hole[l] != hole[b] ? l : treeParent[l];
    }
    return treeParent;
}

// The borders the mode returns, listed as OpenCV lists them, with its hierarchy.
BorderListing listLikeOpenCV(const std::vector<std::uint32_t>& order, const std::vector<std::uint8_t>& hole,
                             const std::vector<std::uint32_t>& treeParent, ContourMode mode) {
    const std::size_t n = order.size();
    // Which borders the mode returns, and their parents there.
    std::vector<std::uint8_t> kept(n, 1);
    std::vector<std::uint32_t> parentOf(n, kNone);
    for (std::size_t b = 0; b < n; ++b) {
        switch (mode) {
        case ContourMode::External: kept[b] = !hole[b] && treeParent[b] == kNone; break;
        case ContourMode::List: break;
        case ContourMode::CComp: parentOf[b] = hole[b] ? treeParent[b] : kNone; break;
        case ContourMode::Tree: parentOf[b] = treeParent[b]; break;
        }
    }

    // Children lists as OpenCV builds them: each new border goes in front of its parent's
    // list (or of the top level), then the tree is listed depth first.
    std::vector<std::uint32_t> firstChild(n, kNone), nextSibling(n, kNone);
    std::uint32_t firstRoot = kNone;
    for (std::uint32_t b : order) {
        if (!kept[b]) continue;
        std::uint32_t& head = parentOf[b] == kNone ? firstRoot : firstChild[parentOf[b]];
        nextSibling[b] = head;
        head = b;
    }
    BorderListing out;
    std::vector<int> position(n, -1);
    std::vector<std::uint32_t> stack;
    for (std::uint32_t root = firstRoot; root != kNone; root = nextSibling[root]) {
        stack.push_back(root);
        while (!stack.empty()) {
            const std::uint32_t b = stack.back();
            stack.pop_back();
            position[b] = static_cast<int>(out.border.size());
            out.border.push_back(b);
            // Children in list order: push them reversed so the first is listed first.
            const std::size_t mark = stack.size();
            for (std::uint32_t c = firstChild[b]; c != kNone; c = nextSibling[c]) stack.push_back(c);
            std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(mark), stack.end());
        }
    }

    const std::size_t m = out.border.size();
    out.hole.resize(m);
    out.next.assign(m, -1);
    out.previous.assign(m, -1);
    out.firstChild.assign(m, -1);
    out.parent.assign(m, -1);
    for (std::size_t i = 0; i < m; ++i) {
        const std::uint32_t b = out.border[i];
        out.hole[i] = hole[b];
        if (nextSibling[b] != kNone) {
            out.next[i] = position[nextSibling[b]];
            out.previous[static_cast<std::size_t>(position[nextSibling[b]])] = static_cast<int>(i);
        }
        if (firstChild[b] != kNone) out.firstChild[i] = position[firstChild[b]];
        if (parentOf[b] != kNone) out.parent[i] = position[parentOf[b]];
    }
    return out;
}

BorderOrder orderBorders(const TrackedBorders& t, const BinaryBitmaps& bitmaps, ContourMode mode,
                         const WorkerBudget& workers) {
    const Discovery d = discover(t);
    const std::vector<std::uint32_t> left = leftNeighbours(t, bitmaps.foreground, mode, workers);
    BorderOrder out;
    static_cast<BorderListing&>(out) = listLikeOpenCV(d.order, d.hole, treeParentsFromLeft(d.order, d.hole, left), mode);
    out.start.resize(out.border.size());
    for (std::size_t i = 0; i < out.border.size(); ++i) {
        const BorderSummary& s = t.borders[out.border[i]].summary;
        out.start[i] = out.hole[i] ? s.firstEastAt : s.firstWestAt;
    }
    return out;
}

}  // namespace linescope::contours
