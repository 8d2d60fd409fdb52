// The pixel-level vocabulary of border tracking, shared by the CPU tracker and the CUDA
// kernels: packed pixel keys, OpenCV's chain-code directions, 8-neighbour masks, the
// rotations that find a triad's former and next pixels, and the paper's cross-zero labels.
// Everything here is a constexpr function over integers that device code can call as is;
// only the lookup tables (kNeighbourTable, the step tables) are host-only, and the device
// computes the same entries with neighbourMaskOf, nextAfter, formerBefore and triadLabel.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>

#include "compute/host_device.h"

namespace linescope::contours {

// std::countr_zero and std::countl_zero of a non-zero 32-bit value, also in device code
// (__ffs / __clz). Constant evaluation (the tables below, built in the device pass too)
// takes a plain loop there.
LINESCOPE_HD constexpr int countTrailingZeros(unsigned v) {
#if defined(__CUDA_ARCH__)
    if (std::is_constant_evaluated()) {
        int n = 0;
        for (; !(v & 1u); v >>= 1) ++n;
        return n;
    }
    return __ffs(static_cast<int>(v)) - 1;
#else
    return std::countr_zero(v);
#endif
}
LINESCOPE_HD constexpr int countLeadingZeros(unsigned v) {
#if defined(__CUDA_ARCH__)
    if (std::is_constant_evaluated()) {
        int n = 0;
        for (; !(v & 0x80000000u); v <<= 1) ++n;
        return n;
    }
    return __clz(static_cast<int>(v));
#else
    return std::countl_zero(v);
#endif
}

LINESCOPE_HD constexpr int countLeadingZeros64(std::uint64_t v) {
#if defined(__CUDA_ARCH__)
    if (std::is_constant_evaluated()) {
        int n = 0;
        for (; !(v >> 63); v <<= 1) ++n;
        return n;
    }
    return __clzll(static_cast<long long>(v));
#else
    return std::countl_zero(v);
#endif
}

// A pixel as (y << 16) | x: raster order is numeric order, which makes "the first border
// pixel met by a raster scan" a plain minimum. Images are limited to 65535 pixels a side.
using PixelKey = std::uint32_t;
inline constexpr PixelKey kNoPixel = 0xFFFFFFFFu;
inline constexpr int kMaxSide = 65535;

LINESCOPE_HD constexpr PixelKey pixelKey(int x, int y) {
    return (static_cast<PixelKey>(y) << 16) | static_cast<PixelKey>(x);
}
LINESCOPE_HD constexpr int keyX(PixelKey k) { return static_cast<int>(k & 0xFFFFu); }
LINESCOPE_HD constexpr int keyY(PixelKey k) { return static_cast<int>(k >> 16); }

// OpenCV's chain codes: 0 = E, 1 = NE, 2 = N, 3 = NW, 4 = W, 5 = SW, 6 = S, 7 = SE, with y
// down, so codes grow counter-clockwise as seen on screen.
inline constexpr int kDirX[8] = {1, 1, 0, -1, -1, -1, 0, 1};
inline constexpr int kDirY[8] = {0, -1, -1, -1, 0, 1, 1, 1};

// Direction deltas without a memory load: 2 bits per direction, value + 1.
constexpr unsigned packDeltas(const int (&delta)[8]) {
    unsigned packed = 0;
    for (int d = 0; d < 8; ++d) packed |= static_cast<unsigned>(delta[d] + 1) << (2 * d);
    return packed;
}
// Scalars, unlike the arrays, are usable in device code.
inline constexpr unsigned kPackedDirX = packDeltas(kDirX);
inline constexpr unsigned kPackedDirY = packDeltas(kDirY);
LINESCOPE_HD constexpr int dirX(int d) { return static_cast<int>((kPackedDirX >> (2 * d)) & 3u) - 1; }
LINESCOPE_HD constexpr int dirY(int d) { return static_cast<int>((kPackedDirY >> (2 * d)) & 3u) - 1; }

// The direction from a pixel to its 8-neighbour b (a ≠ b, adjacent; −1 for a = b). The
// directions by (dy + 1) · 3 + (dx + 1) are 3, 2, 1, 4, −1, 0, 5, 6, 7, one nibble each
// (15 for −1), so device code needs no table in memory.
LINESCOPE_HD constexpr int directionTo(PixelKey a, PixelKey b) {
    constexpr std::uint64_t kByOffset = 0x7650F4123ull;
    const int index = (keyY(b) - keyY(a) + 1) * 3 + (keyX(b) - keyX(a) + 1);
    const int d = static_cast<int>((kByOffset >> (4 * index)) & 15u);
    return d == 15 ? -1 : d;
}

LINESCOPE_HD constexpr unsigned rotateRight8(unsigned m, int r) {
    r &= 7;
    return ((m >> r) | (m << ((8 - r) & 7))) & 0xFFu;
}

// The 8-neighbour mask (bit d set when the neighbour in direction d is foreground) from the
// three rows around a pixel, each given as 3 bits: bit 0 = x − 1, bit 1 = x, bit 2 = x + 1.
LINESCOPE_HD constexpr unsigned neighbourMaskOf(unsigned nb) {
    const unsigned top = nb & 7u, mid = (nb >> 3) & 7u, bottom = (nb >> 6) & 7u;
    return ((mid >> 2) & 1u) | (((top >> 2) & 1u) << 1) | (((top >> 1) & 1u) << 2) | ((top & 1u) << 3) |
           ((mid & 1u) << 4) | ((bottom & 1u) << 5) | (((bottom >> 1) & 1u) << 6) | (((bottom >> 2) & 1u) << 7);
}
constexpr std::array<std::uint8_t, 512> makeNeighbourTable() {
    std::array<std::uint8_t, 512> t{};
    for (unsigned i = 0; i < 512; ++i) t[i] = static_cast<std::uint8_t>(neighbourMaskOf(i));
    return t;
}
inline constexpr std::array<std::uint8_t, 512> kNeighbourTable = makeNeighbourTable();

// A triad (former, current, next) seen from the current pixel: the directions of its former
// and next pixels. Suzuki–Abe's tracking (and OpenCV's) finds the next pixel by turning
// counter-clockwise from the former one; the background it passes on the way is the triad's gap.
struct Triad {
    int former;
    int next;
};

// The next pixel of the triad whose former lies in direction `former`: the first foreground
// neighbour counter-clockwise after it (the former itself when it is the only one).
LINESCOPE_HD constexpr int nextAfter(unsigned mask, int former) {
    const unsigned r = rotateRight8(mask, former + 1);
    return (former + 1 + countTrailingZeros(r)) & 7;
}

// The former pixel of the triad whose next lies in direction `next`: the first foreground
// neighbour clockwise before it (the next itself when it is the only one). Tracking backwards.
LINESCOPE_HD constexpr int formerBefore(unsigned mask, int next) {
    const unsigned r = rotateRight8(mask, next);  // bit i = direction next + i; bit 0 is set
    return (next + 31 - countLeadingZeros(r)) & 7;
}

// The triad whose gap holds the background neighbour in direction `zero` (mask ≠ 0).
LINESCOPE_HD constexpr Triad triadAround(unsigned mask, int zero) {
    const unsigned r = rotateRight8(mask, zero);  // bit 0 (the zero itself) is clear
    return {(zero + 31 - countLeadingZeros(r)) & 7, (zero + countTrailingZeros(r)) & 7};
}

// The paper's labels: the four cross neighbours carry the primes 2 (W), 3 (N), 5 (E) and
// 7 (S), and a tracked triad multiplies its centre pixel by the primes of the cross zeros in
// its gap. Each prime enters at most once, so the product is just the set of those zeros;
// we keep the set as four bits (bit 0 ↔ 2, bit 1 ↔ 3, bit 2 ↔ 5, bit 3 ↔ 7), and the
// paper's divisibility test "P mod t = 0" becomes "(P & t) = t".
enum CrossZero : unsigned { kWestZero = 1u, kNorthZero = 2u, kEastZero = 4u, kSouthZero = 8u };

// The cross zeros among the directions set in an 8-direction mask.
LINESCOPE_HD constexpr unsigned crossZerosOf(unsigned directions) {
    return ((directions >> 4) & 1u) | ((directions >> 1) & 2u) | ((directions << 2) & 4u) | ((directions >> 3) & 8u);
}

// The directions strictly between former and next, counter-clockwise: the triad's gap. When
// former = next (the end of a one-pixel-wide line) the gap is the other seven directions.
LINESCOPE_HD constexpr unsigned gapDirections(int former, int next) {
    const int count = (next - former - 1) & 7;
    const unsigned run = (1u << count) - 1u;
    return rotateRight8(run, 8 - ((former + 1) & 7));
}

// The cross zeros in the gap of the triad (former, next): its label.
LINESCOPE_HD constexpr unsigned triadLabel(int former, int next) { return crossZerosOf(gapDirections(former, next)); }

// The cross zeros of a pixel with neighbour mask `mask`.
LINESCOPE_HD constexpr unsigned crossZerosAround(unsigned mask) { return crossZerosOf(~mask & 0xFFu); }

// One step of tracking as a table lookup, indexed by the 3×3 neighbourhood (9 bits: rows
// above, at and below the pixel, 3 bits each with bit 0 = x − 1) and a direction: forwards
// by the former's direction, giving the next; backwards by the next's, giving the former.
// Each entry also holds the triad's label and the pixel's own cross zeros, so a step costs
// one load after reading the neighbourhood. Entries: bits 0–2 direction, 3–6 label, 7–10
// cross zeros of the pixel.
struct TrackingStep {
    std::uint16_t bits;
    LINESCOPE_HD constexpr int direction() const { return bits & 7; }
    LINESCOPE_HD constexpr unsigned label() const { return (bits >> 3) & 15u; }
    LINESCOPE_HD constexpr unsigned crossZeros() const { return (bits >> 7) & 15u; }
};

template <bool Forward>
constexpr std::array<TrackingStep, 512 * 8> makeStepTable() {
    std::array<TrackingStep, 512 * 8> t{};
    for (unsigned nb = 0; nb < 512; ++nb) {
        const unsigned mask = kNeighbourTable[nb];
        for (int d = 0; d < 8; ++d) {
            if (!(mask & (1u << d))) continue;  // the given neighbour must be foreground
            const int other = Forward ? nextAfter(mask, d) : formerBefore(mask, d);
            const unsigned label = Forward ? triadLabel(d, other) : triadLabel(other, d);
            t[nb * 8 + static_cast<unsigned>(d)].bits =
                static_cast<std::uint16_t>(static_cast<unsigned>(other) | (label << 3) | (crossZerosAround(mask) << 7));
        }
    }
    return t;
}
inline constexpr std::array<TrackingStep, 512 * 8> kForwardSteps = makeStepTable<true>();
inline constexpr std::array<TrackingStep, 512 * 8> kBackwardSteps = makeStepTable<false>();

// The direction of each cross-zero label bit.
LINESCOPE_HD constexpr int directionOfCrossZero(unsigned bit) {
    return bit == kWestZero ? 4 : bit == kNorthZero ? 2 : bit == kEastZero ? 0 : 6;
}

// How many triads of a border pixel with neighbour mask `mask` borders follow: one per
// group of cross zeros that share a gap (a lone pixel: one). Every triad a border visits has
// a cross zero in its gap, so this summed over a rectangle's border pixels is exactly the
// number of points its pieces hold: the GPU sizes each rectangle's share of the point pool
// with it before tracking.
LINESCOPE_HD constexpr int trackedTriads(unsigned mask) {
    if (mask == 0) return 1;
    int n = 0;
    for (unsigned left = crossZerosAround(mask); left; ++n) {
        const Triad t = triadAround(mask, directionOfCrossZero(left & (0u - left)));
        left &= ~triadLabel(t.former, t.next);
    }
    return n;
}

}  // namespace linescope::contours
