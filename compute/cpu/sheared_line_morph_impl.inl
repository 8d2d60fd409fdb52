// Included once per instruction set (see sheared_line_morph_{generic,avx2,avx512}.cpp) with
// LINESCOPE_ISA naming the namespace; the compiler vectorizes the lane loops for that set.
#include "compute/cpu/lane_tail.h"
#include "compute/cpu/pixel_order.h"
#include "compute/cpu/sheared_strip.h"
#include "compute/cpu/sweep_accumulate.h"
#include "compute/cpu/transpose.h"
#include "compute/cpu/thread_scratch.h"
#include "compute/thread_pool.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace linescope::cpu {
inline namespace LINESCOPE_ISA {

namespace {

// A plain loop rather than std::fill: library templates compiled here would share their
// symbol with the generic build's copies (see pixel_order.h).
template <class T>
inline void fillLanes(T* row, int from, int to, T v) {
    for (int j = from; j < to; ++j) row[j] = v;
}
template <class T>
inline void copyElements(T* __restrict d, const T* __restrict s, int n) {
    for (int j = 0; j < n; ++j) d[j] = s[j];
}

// Lanes a strip carries: 256 bytes of pixels a row, so the two row buffers of a 2048-row
// strip stay in a core's L2.
template <class T>
constexpr int kLanes = static_cast<int>(256 / sizeof(T));

// The rows [r0, r1] that the lines [u0, u0 + lanes) of a strip reach; false if none.
// off() is monotone, so each end of a line's extent moves monotonically with the line
// index: the rows of the strip's first and last lines bound those of all its lines.
inline bool stripRows(const LineFamily& fam, std::int64_t u0, int lanes, std::int64_t& r0, std::int64_t& r1) {
    std::int64_t t0a, t1a, t0b, t1b;
    fam.extent(u0, t0a, t1a);
    fam.extent(std::min<std::int64_t>(u0 + lanes - 1, fam.lastLine()), t0b, t1b);
    r0 = fam.majorLength();
    r1 = -1;
    if (t0a <= t1a) { r0 = std::min(r0, t0a); r1 = std::max(r1, t1a); }
    if (t0b <= t1b) { r0 = std::min(r0, t0b); r1 = std::max(r1, t1b); }
    return r0 <= r1;
}

// Row i of a strip from pixels s[lo, hi) (the lanes inside the image), `fill` elsewhere.
template <class T, int S>
inline void loadLanes(T* __restrict row, const T* __restrict s, int lo, int hi, T fill) {
    if (lo == 0 && hi == S) {  // every lane inside: the common case, one vector loop
        for (int j = 0; j < S; ++j) row[j] = canonical(s[j]);
        return;
    }
    // A row partly outside the image: filled whole, its inside copied over (vector loops
    // and one masked tail, lane_tail.h, rather than three scalar loops).
    fillLanes(row, 0, S, fill);
    if (hi <= lo) return;
    copyRange(row + lo, s, hi - lo);
    if constexpr (std::is_floating_point_v<T>)
        for (int j = 0; j < S; ++j) row[j] = canonical(row[j]);
}

// Lanes outside [lo, hi) of a row reset to `fill`: a select over every lane, which
// vectorizes (two fills of a few lanes each would not).
template <class T, int S>
inline void maskLanes(T* __restrict row, int lo, int hi, T fill) {
    for (int j = 0; j < S; ++j) row[j] = j < lo || j >= hi ? fill : row[j];
}

// One strip of lanes [u0, u0 + S) of a y-major family on `src`, over the rows its lines
// reach. `deliver(t, x, row, count)` receives `count` finished pixels of image row t starting at
// column x, in increasing t.
// Flattened: the row loaders, stages and delivery inline into one loop nest (as calls,
// each with its vzeroupper, they cost more than the row's vector work).
// `direct`, when not null, is the image whose rows take every whole finished row straight
// (no copy through `deliver`).
template <class T, class Deliver>
[[gnu::flatten]] void processStrip(MorphOp op, WindowKernel kernel, ImageView<const T> src, const LineFamily& fam,
                                   Segment seg, std::int64_t u0, T* ring1, T* ring2, ImageView<T> direct,
                                   Deliver&& deliver) {
    constexpr int S = kLanes<T>;
    const int W = src.width;
    std::int64_t r0, r1;
    if (!stripRows(fam, u0, S, r0, r1)) return;
    const int rows = static_cast<int>(r1 - r0 + 1);
    // Clamping the segment to the rows changes nothing (a window longer than the line
    // already covers it) and bounds the work for λ far beyond the image.
    const int a = std::min(seg.a, rows - 1);
    const int b = std::min(seg.b, rows - 1);

    StripGeometry geo{W, S, u0, &fam};
    // Pixel (x0 + j, t) of row t is lane j; x0 + j ≥ 0 for every valid lane.
    auto rowStart = [&](int t) { return u0 + fam.off(t); };
    auto load = [&](int i, T* row, T fill) {
        const int t = static_cast<int>(r0) + i;
        int lo, hi;
        geo.validLanes(t, lo, hi);
        loadLanes<T, S>(row, src.row(t) + (rowStart(t) + lo), lo, hi, fill);
    };
    auto mask = [&](int i, T* row, T fill) {
        int lo, hi;
        geo.validLanes(static_cast<int>(r0) + i, lo, hi);
        if (lo > 0 || hi < S) maskLanes<T, S>(row, lo, hi, fill);
    };
    auto store = [&](int i, const T* row) {
        const int t = static_cast<int>(r0) + i;
        int lo, hi;
        geo.validLanes(t, lo, hi);
        if (hi > lo) deliver(t, rowStart(t) + lo, row + lo, hi - lo);
    };
    auto target = [&](int i) -> T* {
        const int t = static_cast<int>(r0) + i;
        const std::int64_t x0 = rowStart(t);
        if (!direct.data || x0 < 0 || x0 + S > W) return nullptr;
        return direct.row(t) + x0;
    };
    runStrip<T, S>(op, kernel, ring1, ring2, rows, a, b, load, mask, target, store);
}

inline int roundUp(int v, int step) { return step > 0 ? (v + step - 1) / step * step : v; }

// Whether a vector register holds a whole 64-byte line (see processStripXMajor).
inline constexpr bool kWholeLineLoads = kVectorBytes == 64;

// The scratch of a flat strip's column groups: the input group transposed (a line of lanes
// per column), the output group before and after transposing back.
template <class T>
struct GroupBuffers {
    T* rawIn;   // image rows of the input group, GW pixels each
    T* inT;     // inT[c · TRS + y]: column ta + c at image row ylo + y
    T* outT;    // finished lanes, laid out as inT
    T* outRows; // outT transposed: image rows of GW pixels
};

// A strip of an x-major family: lane j of row t is pixel (t, u0 + j + off(t)), a column
// segment of the image. Columns are staged a cache line (GW columns) at a time: the rows
// the group's lanes reach are copied whole-line into a small buffer, transposed there, and
// the shifted lanes taken from the result; finished rows are gathered the same way and
// written back line by line. Every image line is touched once per group, whole, and the
// image is never transposed as a whole.
template <class T>
[[gnu::flatten]] void processStripXMajor(MorphOp op, WindowKernel kernel, ImageView<const T> src, ImageView<T> dst,
                        const LineFamily& fam, Segment seg, std::int64_t u0, T* ring1, T* ring2,
                        const GroupBuffers<T>& buf) {
    constexpr int S = kLanes<T>;
    constexpr int GW = static_cast<int>(64 / sizeof(T));  // columns in a group: one cache line
    constexpr int TRS = S + 2 * GW;                       // stride of a transposed group
    const int H = src.height;
    std::int64_t r0, r1;
    if (!stripRows(fam, u0, S, r0, r1)) return;
    const int rows = static_cast<int>(r1 - r0 + 1);
    const int a = std::min(seg.a, rows - 1);
    const int b = std::min(seg.b, rows - 1);
    StripGeometry geo{H, S, u0, &fam};

    // The group of columns [ta, tb) and the image rows [ylo, yhi) its lanes reach.
    struct Group { int ta = 0, tb = 0; std::int64_t ylo = 0, yhi = 0; };
    auto groupOf = [&](int t) {
        Group g;
        g.ta = std::max(static_cast<int>(r0), t / GW * GW);
        g.tb = std::min(static_cast<int>(r1) + 1, t / GW * GW + GW);
        const std::int64_t o1 = fam.off(g.ta), o2 = fam.off(g.tb - 1);
        g.ylo = std::max<std::int64_t>(0, u0 + std::min(o1, o2));
        g.yhi = std::min<std::int64_t>(H, u0 + std::max(o1, o2) + S);
        return g;
    };

    Group in;
    in.ta = in.tb = -1;
    auto load = [&](int i, T* row, T fill) {
        const int t = static_cast<int>(r0) + i;
        if (t >= in.tb) {
            in = groupOf(t);
            const int ny = static_cast<int>(in.yhi - in.ylo), nc = in.tb - in.ta;
            // Whole register tiles: rows rounded up (the buffers have room; the extra rows
            // and columns are never read back).
            const int nyTiles = roundUp(ny, kTileRows<T>);
            if (kWholeLineLoads && nc == GW && in.ylo + nyTiles <= H) {
                // A register holds a whole 64-byte line: each image line is read once, so the
                // image's rows can be transposed where they are.
                transposeTile(src.row(static_cast<int>(in.ylo)) + in.ta, src.stride, buf.inT, TRS, nyTiles, GW);
            } else {
                // Narrower registers read each line in pieces; staged first, so that lines of
                // a power-of-two stride (one cache set) are not evicted between the pieces.
                // Constant-size copies compile to one or two vector moves.
                for (int y = 0; y < ny; ++y) {
                    const T* line = src.row(static_cast<int>(in.ylo) + y) + in.ta;
                    if (nc == GW) std::memcpy(buf.rawIn + y * GW, line, 64);
                    else copyElements(buf.rawIn + y * GW, line, nc);
                }
                transposeTile(buf.rawIn, GW, buf.inT, TRS, nyTiles, GW);
            }
        }
        int lo, hi;
        geo.validLanes(t, lo, hi);
        loadLanes<T, S>(row, buf.inT + (t - in.ta) * TRS + (u0 + fam.off(t) + lo - in.ylo), lo, hi, fill);
    };
    auto mask = [&](int i, T* row, T fill) {
        int lo, hi;
        geo.validLanes(static_cast<int>(r0) + i, lo, hi);
        if (lo > 0 || hi < S) maskLanes<T, S>(row, lo, hi, fill);
    };

    // Finished rows arrive in increasing t; a group is written back when the rows leave it.
    Group out;
    out.ta = out.tb = -1;
    std::int64_t ys[GW], ye[GW];  // the image rows [ys, ye) column ta + c received
    auto flush = [&]() {
        if (out.tb < 0) return;
        const int ny = static_cast<int>(out.yhi - out.ylo), nc = out.tb - out.ta;
        transposeTile(buf.outT, TRS, buf.outRows, GW, roundUp(nc, kTileRows<T>), roundUp(ny, kTileCols<T>));
        // Column c holds rows [ys[c], ye[c]); both ends move monotonically with c, so the
        // columns [c0, c1) of row y move monotonically with y: two pointers walk them,
        // over the rows in the order in which they only advance.
        const bool rising = fam.off(out.tb - 1) >= fam.off(out.ta);
        int c0 = 0, c1 = 0;
        for (int step = 0; step < ny; ++step) {
            const int yi = rising ? step : ny - 1 - step;
            const std::int64_t y = out.ylo + yi;
            if (rising) {
                while (c0 < nc && ye[c0] <= y) ++c0;
                while (c1 < nc && ys[c1] <= y) ++c1;
            } else {
                while (c0 < nc && ys[c0] > y) ++c0;
                while (c1 < nc && ye[c1] > y) ++c1;
            }
            if (c1 <= c0) continue;
            T* d = dst.row(static_cast<int>(y)) + out.ta;
            const T* v = buf.outRows + yi * GW;
            if (op == MorphOp::TopHat) {
                const T* f = src.row(static_cast<int>(y)) + out.ta;
                for (int c = c0; c < c1; ++c) d[c] = static_cast<T>(f[c] - v[c]);
            } else if (c0 == 0 && c1 == GW) {
                std::memcpy(d, v, 64);
            } else {
                copyElements(d + c0, v + c0, c1 - c0);
            }
        }
    };
    auto store = [&](int i, const T* row) {
        const int t = static_cast<int>(r0) + i;
        if (t >= out.tb) {
            flush();
            out = groupOf(t);
            for (int c = 0; c < GW; ++c) ys[c] = ye[c] = out.ylo;
        }
        int lo, hi;
        geo.validLanes(t, lo, hi);
        const int c = t - out.ta;
        if (hi <= lo) return;
        const std::int64_t y0 = u0 + fam.off(t) + lo;
        ys[c] = y0;
        ye[c] = y0 + (hi - lo);
        T* to = buf.outT + c * TRS + (y0 - out.ylo);
        if (lo == 0 && hi == S) copyLanes<T, S>(to, row);
        else copyElements(to, row + lo, hi - lo);
    };

    auto noTarget = [](int) -> T* { return nullptr; };
    runStrip<T, S>(op, kernel, ring1, ring2, rows, a, b, load, mask, noTarget, store);
    flush();
}

// Ring rows for every strip of a family whose lines have at most `majorLength` rows.
template <class T>
std::size_t ringBytes(int majorLength, Segment seg) {
    return static_cast<std::size_t>(stripRingRows<T, kLanes<T>>(majorLength, seg)) * kLanes<T> * sizeof(T);
}

template <class T>
void xMajorMorph(MorphOp op, WindowKernel kernel, ImageView<const T> src, ImageView<T> dst, const LineFamily& fam,
                 Segment seg, int threads) {
    constexpr int S = kLanes<T>;
    constexpr int GW = static_cast<int>(64 / sizeof(T));
    const std::int64_t first = fam.firstLine();
    const std::int64_t last = fam.lastLine();
    const std::size_t strips = static_cast<std::size_t>((last - first + S) / S);
    parallelFor(strips, threads, [&](std::size_t begin, std::size_t end) {
        const std::size_t bytes = ringBytes<T>(src.width, seg);
        const std::size_t stageBytes = static_cast<std::size_t>(S + 2 * GW) * GW * sizeof(T);
        T* ring1 = static_cast<T*>(threadScratch(ScratchSlot::Ring1, bytes));
        T* ring2 = static_cast<T*>(threadScratch(ScratchSlot::Ring2, bytes));
        const GroupBuffers<T> buf{static_cast<T*>(threadScratch(ScratchSlot::GroupRawIn, stageBytes)),
                                  static_cast<T*>(threadScratch(ScratchSlot::GroupIn, stageBytes)),
                                  static_cast<T*>(threadScratch(ScratchSlot::GroupOut, stageBytes)),
                                  static_cast<T*>(threadScratch(ScratchSlot::GroupOutRows, stageBytes))};
        for (std::size_t k = begin; k < end; ++k)
            processStripXMajor<T>(op, kernel, src, dst, fam, seg, first + static_cast<std::int64_t>(k) * S, ring1,
                                  ring2, buf);
    });
}

template <class T>
void yMajorMorph(MorphOp op, WindowKernel kernel, ImageView<const T> src, ImageView<T> dst, const LineFamily& fam,
                 Segment seg, int threads) {
    constexpr int S = kLanes<T>;
    const std::int64_t first = fam.firstLine();
    const std::int64_t last = fam.lastLine();
    const std::size_t strips = static_cast<std::size_t>((last - first + S) / S);
    parallelFor(strips, threads, [&](std::size_t begin, std::size_t end) {
        const std::size_t bytes = ringBytes<T>(src.height, seg);
        T* ring1 = static_cast<T*>(threadScratch(ScratchSlot::Ring1, bytes));
        T* ring2 = static_cast<T*>(threadScratch(ScratchSlot::Ring2, bytes));
        auto write = [&](int t, std::int64_t x, const T* row, int count) {
            T* d = dst.row(t) + x;
            if (op == MorphOp::TopHat) {
                const T* s = src.row(t) + x;
                for (int j = 0; j < count; ++j) d[j] = static_cast<T>(s[j] - row[j]);
            } else if (count == S) {
                copyLanes<T, S>(d, row);
            } else {
                copyElements(d, row, count);
            }
        };
        for (std::size_t k = begin; k < end; ++k)
            processStrip<T>(op, kernel, src, fam, seg, first + static_cast<std::int64_t>(k) * S, ring1, ring2,
                            op == MorphOp::TopHat ? ImageView<T>() : dst, write);
    });
}

}  // namespace

template <class T>
void shearedLineMorph(MorphOp op, ImageView<const T> src, ImageView<T> dst, const LineFamily& fam, Segment seg,
                      int threads, WindowKernel kernel) {
    if (fam.yMajor) {
        yMajorMorph<T>(op, kernel, src, dst, fam, seg, threads);
        return;
    }
    xMajorMorph<T>(op, kernel, src, dst, fam, seg, threads);
}

template <class T>
SpectrumTerm shearedSweepStep(MorphOp op, ImageView<const T> src, const LineFamily& fam, Segment seg, int threads,
                              SweepPlanes<T>& planes, std::uint16_t k, bool bySup) {
    constexpr int S = kLanes<T>;
    const std::int64_t first = fam.firstLine();
    const std::int64_t last = fam.lastLine();
    const std::size_t strips = static_cast<std::size_t>((last - first + S) / S);
    // One partial sum per chunk. parallelFor's chunk i is [strips·i/w, strips·(i+1)/w) for
    // w = min(strips, threads), fixed for a given thread count, so float sums repeat
    // exactly from run to run.
    constexpr int kMaxChunks = 64;
    const std::size_t w = std::min<std::size_t>(strips, static_cast<std::size_t>(std::min(resolveThreads(threads), kMaxChunks)));
    std::int64_t exact[kMaxChunks] = {};
    double sums[kMaxChunks] = {};
    const bool start = !planes.started;
    parallelFor(strips, static_cast<int>(w), [&](std::size_t begin, std::size_t end) {
        const std::size_t bytes = ringBytes<T>(src.height, seg);
        T* ring1 = static_cast<T*>(threadScratch(ScratchSlot::Ring1, bytes));
        T* ring2 = static_cast<T*>(threadScratch(ScratchSlot::Ring2, bytes));
        std::int64_t e = 0;
        double d = 0;
        auto fold = [&](int t, std::int64_t x, const T* row, int count) {
            T* sup = planes.sup.row(t) + x;
            T* inf = planes.inf.row(t) + x;
            std::uint16_t* arg = planes.arg.row(t) + x;
            if (start) sweepStartRow(row, sup, inf, arg, count, k);
            else if (bySup) sweepFoldRow<T, true>(row, sup, inf, arg, count, k);
            else sweepFoldRow<T, false>(row, sup, inf, arg, count, k);
            if constexpr (std::is_floating_point_v<T>) d += sweepRowSum(row, count);
            else e += sweepRowSum(row, count);
        };
        for (std::size_t s = begin; s < end; ++s)
            processStrip<T>(op, WindowKernel::Auto, src, fam, seg, first + static_cast<std::int64_t>(s) * S, ring1, ring2,
                            ImageView<T>(), fold);
        const std::size_t slot = (begin * w + strips - 1) / strips;  // the chunk's index
        exact[slot] = e;
        sums[slot] = d;
    });
    planes.started = true;
    SpectrumTerm term;
    for (int i = 0; i < kMaxChunks; ++i) {
        term.exact += exact[i];
        term.sum += sums[i];
    }
    return term;
}

#define LINESCOPE_INSTANTIATE_SWEEP(T)                                                                          \
    template SpectrumTerm shearedSweepStep<T>(MorphOp, ImageView<const T>, const LineFamily&, Segment, int,   \
                                              SweepPlanes<T>&, std::uint16_t, bool);
LINESCOPE_INSTANTIATE_SWEEP(std::uint8_t)
LINESCOPE_INSTANTIATE_SWEEP(std::uint16_t)
LINESCOPE_INSTANTIATE_SWEEP(float)
#undef LINESCOPE_INSTANTIATE_SWEEP

template void shearedLineMorph<std::uint8_t>(MorphOp, ImageView<const std::uint8_t>, ImageView<std::uint8_t>,
                                             const LineFamily&, Segment, int, WindowKernel);
template void shearedLineMorph<std::uint16_t>(MorphOp, ImageView<const std::uint16_t>, ImageView<std::uint16_t>,
                                              const LineFamily&, Segment, int, WindowKernel);
template void shearedLineMorph<float>(MorphOp, ImageView<const float>, ImageView<float>, const LineFamily&, Segment,
                                      int, WindowKernel);

}  // namespace LINESCOPE_ISA
}  // namespace linescope::cpu
