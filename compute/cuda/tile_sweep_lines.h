// The per-line work of the tile sweep (line_tile_sweep.cu), written for both sides so that
// the host can run a thread block's schedule line by line (tests/compute/test_tile_sweep_lines)
// and check it against the CPU engine without a GPU.
//
// A tile sweep block holds a square of the image in shared memory, with a margin of the
// operator's reach on every side, and folds many angles into accumulators that never leave
// shared memory. For one angle, every line of the family that crosses the tile's output
// square is walked by one thread through a streaming van Herk/Gil-Werman filter per stage:
// each position is pushed once, every output costs a few comparisons whatever λ is, and the
// scratch is one window of values a stage. The 32 lines of a warp walk the same major
// positions in step, so that a warp's reads are one row (or column) of the tile.
#pragma once

#include "compute/cuda/classic_pixel.cuh"
#include "compute/host_device.h"
#include "compute/line_band_extent.h"
#include "compute/line_stages.h"
#include "compute/pixel_rules.h"

#include <cstdint>
#include <type_traits>

namespace linescope::cuda::tile {

using Window = StageWindow;
template <class T, bool IsMin>
using Op = ExtremeOp<T, IsMin>;

// What a walk holds in registers: 32-bit words for 8- and 16-bit pixels (narrower values are
// re-inserted into parts of a register at every step, about a tenth of the walk's
// instructions), the pixel type itself otherwise.
template <class T>
using Work = std::conditional_t<std::is_unsigned_v<T> && (sizeof(T) < 4), unsigned, T>;

template <class O>
struct OpIsMin;
template <class T, bool IsMin>
struct OpIsMin<ExtremeOp<T, IsMin>> {
    static constexpr bool value = IsMin;
};

// van Herk/Gil-Werman over a stream: push x_0, x_1, …; once a window [n − len + 1, n] is
// complete, push returns true with its extreme. h holds len values (every Stride-th element,
// a compile-time stride so that the compiler sees that h[k] and h[k + 1] differ and can
// overlap their accesses): the suffixes of the previous block, overwritten in place by the
// current block's values and turned into its suffixes when the block is complete. fill and
// full are push for a caller that knows the window is not yet (fill) or already (full)
// complete, without the test.
template <class T, class O, int Stride>
struct StreamExtreme {
    using W = Work<T>;
    using WOp = ExtremeOp<W, OpIsMin<O>::value>;
    T* h;
    int len;
    int i = 0;                 // position within the current block
    int n = 0;                 // values pushed through push()
    T* at = h;                 // h + i · Stride
    W g = WOp::neutral();      // prefix of the current block (neutral at its start)

    LINESCOPE_HD bool push(W x, W& out) {
        const bool complete = n >= len - 1;
        if (complete) out = full(x);
        else fill(x);
        ++n;
        return complete;
    }
    // Pushes before the one that ends the current block.
    LINESCOPE_HD int room() const { return len - 1 - i; }
    // fill and full for a push that does not end the block (room() > 0): no test at all.
    LINESCOPE_HD void fillInBlock(W x) {
        g = WOp::apply(g, x);
        *at = static_cast<T>(x);
        ++i;
        at += Stride;
    }
    LINESCOPE_HD W fullInBlock(W x) {
        g = WOp::apply(g, x);
        const W out = WOp::apply(static_cast<W>(at[Stride]), g);
        *at = static_cast<T>(x);
        ++i;
        at += Stride;
        return out;
    }
    LINESCOPE_HD void fill(W x) {
        g = WOp::apply(g, x);
        store(x);
    }
    LINESCOPE_HD W full(W x) {
        g = WOp::apply(g, x);
        // The window [n − len + 1, n] is the previous block's suffix from i + 1 and this block's prefix.
        const W out = i == len - 1 ? g : WOp::apply(static_cast<W>(at[Stride]), g);
        store(x);
        return out;
    }

private:
    LINESCOPE_HD void store(W x) {
        *at = static_cast<T>(x);  // index i of the previous block was last read one push ago
        if (i == len - 1) {
            W run = x;
            for (int k = len - 2; k >= 0; --k) {
                run = WOp::apply(static_cast<W>(h[k * Stride]), run);
                h[k * Stride] = static_cast<T>(run);
            }
            i = 0;
            at = h;
            g = WOp::neutral();
        } else {
            ++i;
            at += Stride;
        }
    }
};

// The accumulators of a sweep as words that one atomic max or min folds, so that lines of
// different angles may fold into a pixel in any order: the key holds the extreme that the
// orientation follows above the angle index (stored as 0xFFFF − k when the extreme is a
// maximum), so the largest key (smallest for a minimum) is the extreme with its smallest k;
// `other` holds the opposite extreme. Values are mapped to unsigned integers in their order
// by classic::orderedKey (−0 never occurs here).
template <class T, bool BestIsMax>
struct SweepKeys {
    using Key = std::conditional_t<std::is_floating_point_v<T>, unsigned long long, unsigned>;

    LINESCOPE_HD static unsigned ordered(T v) { return classic::orderedKey(v); }
    LINESCOPE_HD static T value(unsigned o) { return classic::fromOrderedKey<T>(o); }
    LINESCOPE_HD static Key angleBits(int k) { return static_cast<Key>(BestIsMax ? 0xFFFF - k : k); }
    // ordered and keyOf of a walk's Work<T> word, which holds a value of T: an integer's word
    // is already its order (no truncation to T on the way).
    LINESCOPE_HD static unsigned orderedWork(Work<T> v) {
        if constexpr (std::is_floating_point_v<T>) return ordered(v);
        else return v;
    }
    LINESCOPE_HD static Key keyOfWork(Work<T> v, Key angle) {
        return (static_cast<Key>(orderedWork(v)) << 16) + angle;  // disjoint bits: one multiply-add
    }
    LINESCOPE_HD static Key keyOf(T v, Key angle) { return keyOfWork(static_cast<Work<T>>(v), angle); }
    LINESCOPE_HD static Key key(T v, int k) { return keyOf(v, angleBits(k)); }
    LINESCOPE_HD static T keyValue(Key key) { return value(static_cast<unsigned>(key >> 16)); }
    LINESCOPE_HD static std::uint16_t keyAngle(Key key) {
        const auto low = static_cast<unsigned>(key & 0xFFFF);
        return static_cast<std::uint16_t>(BestIsMax ? 0xFFFF - low : low);
    }
    // Before the first fold: keys and words that every value beats.
    static constexpr Key kFirstKey = BestIsMax ? Key(0) : ~Key(0);
    static constexpr unsigned kFirstOther = BestIsMax ? ~0u : 0u;
};

// One angle over one tile, in the family's own coordinates: t along the lines (the major
// axis), u across them. Line c holds the pixels u = c + off(t).
struct TileFrame {
    std::int32_t slope = 0, phase = 32768;
    int n = 0, m = 0;          // the image's major and minor lengths
    int t0 = 0, tn = 0;        // output square: t ∈ [t0, t0 + tn), u ∈ [u0, u0 + un)
    int u0 = 0, un = 0;
    int tBase = 0, uBase = 0;  // the shared tile's first t and u (the square minus the margin)
    int inT = 0, inU = 0;      // tile element strides along t and u
    int accT = 0, accU = 0;    // accumulator strides along t and u (from the output square's corner)

    LINESCOPE_HD int off(int t) const {
        return static_cast<int>((static_cast<std::int64_t>(t) * slope + phase) >> 16);
    }
    // The lines that cross the output square: [first, last].
    LINESCOPE_HD void lines(int& first, int& last) const {
        const int a = off(t0), b = off(t0 + tn - 1);
        first = u0 - (a > b ? a : b);
        last = u0 + un - 1 - (a < b ? a : b);
    }
};

// What one line needs: its outputs t ∈ [ta, tb] (in the square and the image) and the inputs
// it reads, t ∈ [lo, hi] (within the reach of an output and in the image).
struct LineSpan {
    int c = 0;
    int ta = 1, tb = 0;
    int lo = 1, hi = 0;
    LINESCOPE_HD bool active() const { return ta <= tb; }
};

LINESCOPE_HD inline LineSpan lineSpan(const TileFrame& f, int c, int reachLeft, int reachRight) {
    LineSpan s;
    s.c = c;
    const int uLo = f.u0 > 0 ? f.u0 : 0, uHi = (f.u0 + f.un < f.m ? f.u0 + f.un : f.m) - 1;
    offsetRange(f.slope, static_cast<std::int64_t>(uLo) - c, static_cast<std::int64_t>(uHi) - c, f.n, s.ta, s.tb,
                f.phase);
    if (s.ta < f.t0) s.ta = f.t0;  // and within the square's rows
    if (s.tb > f.t0 + f.tn - 1) s.tb = f.t0 + f.tn - 1;
    if (!s.active()) return s;
    int inLo, inHi;  // where the line is in the image
    offsetRange(f.slope, -static_cast<std::int64_t>(c), static_cast<std::int64_t>(f.m) - 1 - c, f.n, inLo, inHi,
                f.phase);
    s.lo = s.ta - reachLeft > inLo ? s.ta - reachLeft : inLo;
    s.hi = s.tb + reachRight < inHi ? s.tb + reachRight : inHi;
    return s;
}

// Walks line s over t ∈ [tS, tE] (shared by the lines of a warp, covering each one's
// [ta − reachLeft, tb + reachRight]) and calls emit(t, off(t), value) for the line's outputs,
// t ∈ [s.ta, s.tb], in increasing t; value is the pixel type's Work word. Inputs outside
// [lo, hi] are the first stage's neutral value (outside the image, or beyond any output's
// reach), and so are the first stage's outputs there for the second stage. The offsets are
// stepped in 32 bits: the caller keeps |t| · 2^16 + φ below 2^31.
//
// Every range test of a step compares the walk's position t with bounds shifted once, before
// the walk (an input at t, the first stage's output at t − w1.right, the operator's output
// at t − reachRight): most of the kernel's instructions are these steps.
template <class T, bool MinFirst, bool TwoStage, int Stride, class Emit>
LINESCOPE_HD void walkLine(const T* __restrict__ tileIn, const TileFrame& f, const LineSpan& s, int tS, int tE,
                           Window w1, Window w2, T* __restrict__ scratch, Emit&& emit) {
    using First = Op<T, MinFirst>;
    using Second = Op<T, !MinFirst>;
    using W = Work<T>;
    const int len1 = w1.length(), len2 = TwoStage ? w2.length() : 1;
    const int reachRight = w1.right + (TwoStage ? w2.right : 0);
    const int firstLo = s.lo + w1.right, firstHi = s.hi + w1.right;  // the first stage's output in the line
    const int outLo = s.ta + reachRight, outHi = s.tb + reachRight;  // the operator's output in the square
    StreamExtreme<T, First, Stride> s1{scratch, len1};
    StreamExtreme<T, Second, Stride> s2{scratch + len1 * Stride, len2};
    int row = (tS - f.tBase) * f.inT + (s.c - f.uBase) * f.inU;
    std::int32_t offset = tS * f.slope + f.phase;                    // off(t) = offset >> 16
    std::int32_t outOffset = (tS - reachRight) * f.slope + f.phase;  // the same at the output t − reachRight
    int t = tS;
    auto input = [&]() -> W {
        W x = static_cast<W>(First::neutral());
        if (t >= s.lo && t <= s.hi) x = static_cast<W>(tileIn[row + (offset >> 16) * f.inU]);
        return x;
    };
    auto firstOut = [&](W e) -> W {  // neutral for the second stage outside the line
        return t < firstLo || t > firstHi ? static_cast<W>(Second::neutral()) : e;
    };
    auto output = [&](W v) {
        if (t >= outLo && t <= outHi) emit(t - reachRight, outOffset >> 16, v);
    };
    auto next = [&]() {
        ++t;
        row += f.inT;
        offset += f.slope;
        outOffset += f.slope;
    };
    // The windows fill before the first output: len1 − 1 values (no block of the first stage
    // ends among them), then (two stages) len2 − 1 of the first stage's outputs; no step after
    // that tests whether a window is complete. Each phase runs in stretches of steps that end
    // no block (no test a step), each followed by one step that may.
    const int end = tE + 1;
    const int fill1End = end < tS + len1 - 1 ? end : tS + len1 - 1;
    for (; t < fill1End; next()) s1.fillInBlock(input());
    auto stretchEnd = [&](int phaseEnd) {
        int n = s1.room();
        if constexpr (TwoStage) n = n < s2.room() ? n : s2.room();
        return n < phaseEnd - t ? t + n : phaseEnd;
    };
    if constexpr (TwoStage) {
        const int fill2End = end < fill1End + len2 - 1 ? end : fill1End + len2 - 1;
        while (t < fill2End) {
            for (const int stop = stretchEnd(fill2End); t < stop; next())
                s2.fillInBlock(firstOut(s1.fullInBlock(input())));
            if (t < fill2End) {
                s2.fill(firstOut(s1.full(input())));
                next();
            }
        }
        while (t < end) {
            for (const int stop = stretchEnd(end); t < stop; next())
                output(s2.fullInBlock(firstOut(s1.fullInBlock(input()))));
            if (t < end) {
                output(s2.full(firstOut(s1.full(input()))));
                next();
            }
        }
    } else {
        while (t < end) {
            for (const int stop = stretchEnd(end); t < stop; next()) output(s1.fullInBlock(input()));
            if (t < end) {
                output(s1.full(input()));
                next();
            }
        }
    }
}

}  // namespace linescope::cuda::tile
