// The records the GPU border tracking keeps besides the CPU's (border_pieces.h), and the few
// atomics its kernels use. Everything here is LINESCOPE_HD and free of CUDA-only syntax:
// outside device code the atomics are plain read-modify-writes, so the kernels' bodies also
// run one thread at a time on the host (how their index logic was checked without a GPU).
#pragma once

#include "compute/contours/border_geometry.h"
#include "compute/contours/border_pieces.h"

#include <cstddef>
#include <cstdint>

namespace linescope::contours::gpu {

// ---------------------------------------------------------------------------------------------
// Atomics (device) or their one-thread equivalents (host emulation)

LINESCOPE_HD inline std::uint32_t atomicAddU32(std::uint32_t* p, std::uint32_t v) {
#if defined(__CUDA_ARCH__)
    return atomicAdd(reinterpret_cast<unsigned int*>(p), v);
#else
    const std::uint32_t old = *p;
    *p = old + v;
    return old;
#endif
}

LINESCOPE_HD inline std::uint64_t atomicAddU64(std::uint64_t* p, std::uint64_t v) {
#if defined(__CUDA_ARCH__)
    return atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
#else
    const std::uint64_t old = *p;
    *p = old + v;
    return old;
#endif
}

LINESCOPE_HD inline void atomicMinU32(std::uint32_t* p, std::uint32_t v) {
#if defined(__CUDA_ARCH__)
    atomicMin(reinterpret_cast<unsigned int*>(p), v);
#else
    if (v < *p) *p = v;
#endif
}

LINESCOPE_HD inline void atomicMinU64(std::uint64_t* p, std::uint64_t v) {
#if defined(__CUDA_ARCH__)
    atomicMin(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
#else
    if (v < *p) *p = v;
#endif
}

LINESCOPE_HD inline void atomicOrU32(std::uint32_t* p, std::uint32_t v) {
#if defined(__CUDA_ARCH__)
    atomicOr(reinterpret_cast<unsigned int*>(p), v);
#else
    *p |= v;
#endif
}

// ---------------------------------------------------------------------------------------------
// Records

// What went wrong on the device; read by the host after tracking and after connecting.
enum TrackFlag : std::uint32_t {
    kOverflow = 1u,        // a capacity was too small: the host grows it and tracks again
    kCountMismatch = 2u,   // a rectangle held more or fewer points than its border pixels promise
    kWalkMismatch = 4u,    // walking a piece again from its entry did not retrace it
    kUnmatchedExit = 8u,   // no piece enters where a piece leaves its rectangle
};

// Totals the kernels count with atomics; zeroed before tracking. The point, piece and
// open-piece counts are what was asked for, also when it did not fit: after an overflow
// they are the capacities to grow to.
struct TrackCounters {
    std::uint64_t points = 0;
    std::uint32_t pieces = 0;
    std::uint32_t open = 0;    // pieces that enter and leave their rectangle
    std::uint32_t flags = 0;   // TrackFlag bits
    std::uint32_t borders = 0; // whole borders, counted while connecting
};

// A move between two pixels of a border as a sortable key: the pixel moved to (y · width + x)
// and the direction of the move. A move fixes the triad at its end, so a border's moves are
// all different, and the move by which one piece leaves its rectangle is the move by which
// exactly one piece enters another.
LINESCOPE_HD inline std::uint64_t moveKey(PixelKey from, PixelKey to, int width) {
    const std::uint64_t at = static_cast<std::uint64_t>(keyY(to)) * static_cast<std::uint64_t>(width) +
                             static_cast<std::uint64_t>(keyX(to));
    return at * 8u + static_cast<std::uint64_t>(directionTo(from, to));
}

// The number of key bits for moves in an image of width × height (for the radix sort).
inline int moveKeyBits(int width, int height) {
    const std::uint64_t largest = static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) * 8u - 1u;
    int bits = 1;
    while (bits < 64 && (largest >> bits) != 0) ++bits;
    return bits;
}

// Pointer jumping over the cycles of open pieces (one per border that crosses rectangles),
// indexed by the pieces' positions in the entry-sorted list. A node stands for the window
// of 2^k consecutive pieces starting at it: `jump` is the piece after the window, `total`
// the window's weight (points, or corners for CHAIN_APPROX_SIMPLE), `best` the smallest
// position in the window and `dist` the weight from the node up to (not including) it.
struct JumpNode {
    std::uint32_t jump;
    std::uint32_t best;
    std::uint32_t dist;
    std::uint32_t total;
};

// A border's summary summed over its pieces with atomics (kernel order is arbitrary): the
// raster-first west and east pixels carry their piece in the low 32 bits, so that the
// minimum also says where it lies.
struct BorderTotals {
    std::uint32_t points;
    std::uint32_t corners;
    std::uint32_t first;
    std::uint32_t pad;
    std::uint64_t west;  // (firstWest << 32) | piece
    std::uint64_t east;  // (firstEast << 32) | piece
};

// The ~0 key of a border that asks no LeftQuery: it sorts after every real one.
inline constexpr std::uint64_t kNoQuery = ~std::uint64_t{0};

// A LeftQuery as a sortable key: the pixel, then which zero.
LINESCOPE_HD inline std::uint64_t queryKey(PixelKey pixel, unsigned zero) {
    return (static_cast<std::uint64_t>(pixel) << 1) | (zero == kEastZero ? 1u : 0u);
}

// The first position in keys[0, n) holding `key`, or n.
LINESCOPE_HD inline std::uint32_t findKey(const std::uint64_t* keys, std::uint32_t n, std::uint64_t key) {
    std::uint32_t lo = 0, hi = n;
    while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && keys[lo] == key ? lo : n;
}

// The triad of point i of piece `p` (points[p.begin, p.begin + p.summary.points)): the
// pixels before and after it on the border.
struct PointContext {
    PixelKey before, at, after;
};
LINESCOPE_HD inline PointContext pointContext(const PixelKey* points, std::uint32_t i, const BorderPiece& p) {
    const std::uint32_t end = p.begin + p.summary.points;
    return {i > p.begin ? points[i - 1] : p.entryFrom, points[i], i + 1 < end ? points[i + 1] : p.exitTo};
}

// The cross zeros in the gap of the point's triad (a lone pixel: all four).
LINESCOPE_HD inline unsigned pointLabel(const PointContext& c, const BorderPiece& p) {
    if (p.isolated) return kWestZero | kNorthZero | kEastZero | kSouthZero;
    return triadLabel(directionTo(c.at, c.before), directionTo(c.at, c.after));
}

// Whether CHAIN_APPROX_SIMPLE keeps the point: the move out differs from the move in (a lone
// pixel is always kept).
LINESCOPE_HD inline bool pointIsCorner(const PointContext& c, const BorderPiece& p) {
    return p.isolated || directionTo(c.before, c.at) != directionTo(c.at, c.after);
}

}  // namespace linescope::contours::gpu
