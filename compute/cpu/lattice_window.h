// Sliding-window minima (or maxima) along a lattice direction: out(p) = inner of F(p + i·A)
// over i = lo … hi, positions outside the image ignored. Van Herk/Gil-Werman along every
// chain p, p + A, p + 2A, …: 3 comparisons a pixel whatever the window's length. The chains
// of a step A with A.dy > 0 advance one row band at a time, so the prefix and suffix passes
// run a whole row at once (vectorizable); A = (dx, 0) runs along the rows.
//
// Blocks of the window's length are counted by the chain index t (⌊y / A.dy⌋, or ⌊x / A.dx⌋
// for horizontal steps), so that every window spans at most two blocks. A window cut by the
// border keeps its in-image part: the prefix (suffix) pass restarts where a chain enters
// (leaves) the image, which is what makes a cut window exact.
#pragma once

#include "compute/cpu/pixel_order.h"
#include "compute/image.h"
#include "compute/offset.h"
#include "compute/pixel_rules.h"
#include "compute/thread_pool.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace linescope::cpu {
// Compiled into each instruction set's kernels (pixel_order.h): one copy per set.
inline namespace LINESCOPE_ISA {

template <class T>
struct LatticeWindowScratch {
    std::vector<T> prefix, suffix;
};

namespace detail {

inline std::int64_t floorDivide(std::int64_t x, std::int64_t d) {
    const std::int64_t q = x / d;
    return (x % d != 0 && ((x < 0) != (d < 0))) ? q - 1 : q;
}


// Rows of latticeWindowDirect, apart so that the pointers are known not to alias (u8 pixels
// alias everything) and every loop vectorizes.
template <class T>
void extendedRow(const T* __restrict f, T* __restrict r, int W, int M, T top) {
    for (int X = 0; X < M; ++X) r[X] = top;
    for (int x = 0; x < W; ++x) r[M + x] = canonical(f[x]);
    for (int X = M + W; X < W + 2 * M; ++X) r[X] = top;
}

// r(X) = inner(prev(X − d), source(X)) over the extended row of W + 2M columns (the source
// the neutral value in the margins, prev the neutral value outside the row).
template <class T, class O>
void chainStep(const T* __restrict f, const T* __restrict prev, T* __restrict r, int W, int M, int d, T top) {
    const int PW = W + 2 * M;
    const int a0 = std::max(0, d), a1 = std::min(PW, PW + d);  // X − d inside
    for (int X = 0; X < std::min(a0, M); ++X) r[X] = top;
    for (int X = std::max(a1, M + W); X < PW; ++X) r[X] = top;
    for (int X = a0; X < std::min(a1, M); ++X) r[X] = prev[X - d];
    const int m0 = std::max(a0, M), m1 = std::min(a1, M + W);
    for (int X = m0; X < m1; ++X) r[X] = O::inner(prev[X - d], canonical(f[X - M]));
    for (int X = std::max(a0, M + W); X < a1; ++X) r[X] = prev[X - d];
    // Columns of the image that prev cannot feed: the source alone.
    for (int X = M; X < std::min(M + W, a0); ++X) r[X] = canonical(f[X - M]);
    for (int X = std::max(M, a1); X < M + W; ++X) r[X] = canonical(f[X - M]);
}

// r(x) = inner(prev(x), f(x)): one step of the prefix or suffix pass.
template <class T, class O>
void chainRow(const T* __restrict prev, const T* __restrict f, T* __restrict r, int n) {
    for (int x = 0; x < n; ++x) r[x] = O::inner(prev[x], f[x]);
}

template <class T, class O>
void innerRow(const T* __restrict a, const T* __restrict b, T* __restrict o, int n) {
    for (int x = 0; x < n; ++x) o[x] = O::inner(a[x], b[x]);
}

}  // namespace detail

// A prefix (forward) or suffix pass of latticeWindow over rows [y0, y1).
template <class T, class O>
void latticePass(const T* F, T* g, int W, int H, int ax, int ay, std::int64_t len, bool forward, int y0, int y1) {
    const std::ptrdiff_t w = W;
    const int d = forward ? ax : -ax;  // the predecessor along the pass: p − d·(1, ·)
    for (int yy = y0; yy < y1; ++yy) {
        const int y = forward ? yy : y0 + y1 - 1 - yy;
        const T* f = F + y * w;
        T* gr = g + y * w;
        if (ay > 0) {
            const bool restart = forward ? ((y / ay) % len == 0 || y < ay) : ((y / ay) % len == len - 1 || y + ay >= H);
            if (restart) { std::copy(f, f + W, gr); continue; }
            const T* gp = g + (forward ? y - ay : y + ay) * w;
            const int x0 = std::max(0, d), x1 = std::min(W, W + d);
            for (int x = 0; x < x0; ++x) gr[x] = f[x];
            for (int x = x1; x < W; ++x) gr[x] = f[x];
            detail::chainRow<T, O>(gp - d + x0, f + x0, gr + x0, x1 - x0);
        } else if (forward) {  // blocks of len chains along the row: columns [k·len·ax, (k+1)·len·ax)
            const std::int64_t span = len * ax;
            for (std::int64_t x0 = 0; x0 < W; x0 += span) {
                const std::int64_t x1 = std::min<std::int64_t>(W, x0 + span), xa = std::min(x1, x0 + ax);
                std::copy(f + x0, f + xa, gr + x0);
                for (std::int64_t x = xa; x < x1; ++x) gr[x] = O::inner(gr[x - ax], f[x]);
            }
        } else {
            const std::int64_t span = len * ax;
            for (std::int64_t x0 = 0; x0 < W; x0 += span) {
                const std::int64_t x1 = std::min<std::int64_t>(W, x0 + span), xb = std::max(x0, x1 - ax);
                std::copy(f + xb, f + x1, gr + xb);
                for (std::int64_t x = xb - 1; x >= x0; --x) gr[x] = O::inner(gr[x + ax], f[x]);
            }
        }
    }
}

// lo ≤ hi; A ≠ (0, 0); F and out are W×H, packed, distinct. With exactAtBorder false, a
// window that the border cuts gets the neutral value instead (faster, for callers that never
// read such pixels: the padded images of cpu/digital_line_morph_impl.inl). The passes split into
// row bands over up to `threads` workers (bands of whole blocks for the prefix and suffix).
template <class T, class O>
void latticeWindow(const T* F, T* out, int W, int H, Offset A, int lo, int hi, LatticeWindowScratch<T>& scratch,
                   bool exactAtBorder = true, int threads = 1) {
    if (A.dy < 0 || (A.dy == 0 && A.dx < 0)) {  // the same window along −A
        A = {-A.dx, -A.dy};
        const int l = lo;
        lo = -hi;
        hi = -l;
    }
    const std::ptrdiff_t w = W;
    const std::size_t n = static_cast<std::size_t>(W) * static_cast<std::size_t>(H);
    const std::int64_t len = std::int64_t{hi} - lo + 1;
    constexpr int kBandRows = 32;  // rows of a band where the rows are independent
    if (len == 1) {  // out(p) = F(p + lo·A)
        parallelFor(static_cast<std::size_t>(H), threads, [&](std::size_t begin, std::size_t end) {
            for (int y = static_cast<int>(begin); y < static_cast<int>(end); ++y)
                for (int x = 0; x < W; ++x) {
                    const std::int64_t sx = x + std::int64_t{lo} * A.dx, sy = y + std::int64_t{lo} * A.dy;
                    out[y * w + x] = (sx >= 0 && sx < W && sy >= 0 && sy < H) ? F[sy * w + sx] : O::top();
                }
        });
        return;
    }
    scratch.prefix.resize(n);
    scratch.suffix.resize(n);
    T* g = scratch.prefix.data();
    T* h = scratch.suffix.data();
    const int ax = A.dx, ay = A.dy;
    // Prefix minima within blocks, restarting at block starts and where a chain enters;
    // suffix minima within blocks, restarting at block ends and where a chain leaves. Bands
    // of whole blocks (ay·len rows) are independent, and so are the two passes.
    const std::int64_t bandRows = ay > 0 ? len * ay : kBandRows;
    const int bands = static_cast<int>((H + bandRows - 1) / bandRows);
    parallelFor(static_cast<std::size_t>(2 * bands), threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t task = begin; task < end; ++task) {
            const bool suffix = task >= static_cast<std::size_t>(bands);
            const std::int64_t band = static_cast<std::int64_t>(task) - (suffix ? bands : 0);
            const int y0 = static_cast<int>(band * bandRows);
            const int y1 = static_cast<int>(std::min<std::int64_t>(H, y0 + bandRows));
            latticePass<T, O>(F, suffix ? h : g, W, H, ax, ay, len, !suffix, y0, y1);
        }
    });
    // Each window keeps its in-image part [iS, iE] (a chain's positions inside the image
    // are contiguous): min(suffix(start), prefix(end)) when it spans two blocks, else the
    // pass whose restart bounds it. iS and iE are constant over runs of columns (all the
    // interior, then runs of |ax| near the sides), so each run is one vector loop.
    constexpr std::int64_t kFar = std::int64_t{1} << 40;
    const int sx = ax >= 0 ? ax : -ax;
    const auto combineRow = [&](int y) {
        T* o = out + y * w;
        const std::int64_t backY = ay > 0 ? y / ay : kFar, fwdY = ay > 0 ? (H - 1 - y) / ay : kFar;
        if (!exactAtBorder) {  // whole windows only: one interval of columns a row
            if (-backY > lo || fwdY < hi) {
                std::fill(o, o + W, O::top());
                return;
            }
            const std::int64_t reachLo = std::min<std::int64_t>(std::int64_t{lo} * ax, std::int64_t{hi} * ax);
            const std::int64_t reachHi = std::max<std::int64_t>(std::int64_t{lo} * ax, std::int64_t{hi} * ax);
            const int xa = static_cast<int>(std::clamp<std::int64_t>(-reachLo, 0, W));
            const int xb = static_cast<int>(std::clamp<std::int64_t>(W - reachHi, xa, W));  // [xa, xb)
            std::fill(o, o + xa, O::top());
            std::fill(o + xb, o + W, O::top());
            const std::ptrdiff_t ds = (std::int64_t{lo} * ay) * w + std::int64_t{lo} * ax;
            const std::ptrdiff_t de = (std::int64_t{hi} * ay) * w + std::int64_t{hi} * ax;
            if (xb > xa) detail::innerRow<T, O>(h + y * w + ds + xa, g + y * w + de + xa, o + xa, xb - xa);
            return;
        }
        int x = 0;
        while (x < W) {
            // Steps back and forward before the chain leaves through a side.
            std::int64_t backX = kFar, fwdX = kFar;
            int runEnd = W;
            if (ax > 0) {
                backX = x / ax;
                fwdX = (W - 1 - x) / ax;
            } else if (ax < 0) {
                backX = (W - 1 - x) / sx;
                fwdX = x / sx;
            }
            const bool interior = ax == 0 || (backX >= -std::int64_t{lo} && fwdX >= hi);
            if (ax != 0) {
                if (interior) {  // up to the first column where a side cuts the window
                    const std::int64_t lastX = ax > 0 ? W - 1 - std::int64_t{hi} * ax : W - 1 + std::int64_t{lo} * sx;
                    runEnd = static_cast<int>(std::min<std::int64_t>(W, lastX + 1));
                } else {  // up to the next change of x / |ax| or (W − 1 − x) / |ax|
                    const int a = (x / sx + 1) * sx, b = x + (W - 1 - x) % sx + 1;
                    runEnd = std::min({W, a, b});
                }
            }
            const std::int64_t iS = std::max<std::int64_t>(lo, -std::min(backY, backX));
            const std::int64_t iE = std::min<std::int64_t>(hi, std::min(fwdY, fwdX));
            if (iS > iE) {
                std::fill(o + x, o + runEnd, O::top());
                x = runEnd;
                continue;
            }
            const std::ptrdiff_t ds = (iS * ay) * w + iS * ax, de = (iE * ay) * w + iE * ax;
            const T* hs = h + y * w + ds;
            const T* ge = g + y * w + de;
            if (iS == lo && iE == hi) {  // the whole window: two blocks, or one aligned block
                detail::innerRow<T, O>(hs + x, ge + x, o + x, runEnd - x);
            } else if (ay > 0) {  // t = ⌊y / ay⌋ is the row's
                const std::int64_t t = y / ay;
                const bool two = (t + iS) / len != (t + iE) / len;
                if (two) detail::innerRow<T, O>(hs + x, ge + x, o + x, runEnd - x);
                else if (iS > lo) std::copy(ge + x, ge + runEnd, o + x);
                else std::copy(hs + x, hs + runEnd, o + x);
            } else {  // horizontal chains: t = ⌊x / ax⌋, constant over the run
                for (int i = x; i < runEnd; ++i) {
                    const std::int64_t t = i / ax;
                    const bool two = (t + iS) / len != (t + iE) / len;
                    o[i] = two ? O::inner(hs[i], ge[i]) : (iS > lo ? ge[i] : hs[i]);
                }
            }
            x = runEnd;
        }
    };
    parallelFor(static_cast<std::size_t>(H), threads, [&](std::size_t begin, std::size_t end) {
        for (int y = static_cast<int>(begin); y < static_cast<int>(end); ++y) combineRow(y);
    });
}

// The exact window of latticeWindow straight from a strided source into a strided output,
// for a step that crosses rows (A.dy ≠ 0), the source read through canonical(). The prefix
// and suffix planes extend M = max(|lo|, |hi|)·|A.dx| columns past each side, where they
// hold the neutral value's prefixes: a window that a side cuts then reads them like any
// other, and only the top and bottom borders cut windows, by the same amount along a whole
// row (one vector loop a row, where latticeWindow splits the rows near the sides into runs
// of |A.dx| columns). Rows split into bands of whole blocks (ay·len rows) over `threads`:
// the prefix and suffix bands are independent tasks, then the output rows.
template <class T, class O>
void latticeWindowDirect(ImageView<const T> src, ImageView<T> dst, Offset A, int lo, int hi,
                         LatticeWindowScratch<T>& scratch, int threads) {
    if (A.dy < 0) {
        A = {-A.dx, -A.dy};
        const int l = lo;
        lo = -hi;
        hi = -l;
    }
    const int W = src.width, H = src.height;
    const int ax = A.dx, ay = A.dy;  // ay > 0
    const std::int64_t len = std::int64_t{hi} - lo + 1;
    const int sx = ax >= 0 ? ax : -ax;
    const std::int64_t M64 = std::max<std::int64_t>(-std::int64_t{lo}, hi) * sx;
    const int M = static_cast<int>(std::max<std::int64_t>(0, M64));
    const int PW = W + 2 * M;
    const std::ptrdiff_t pw = PW;
    const std::size_t n = static_cast<std::size_t>(PW) * static_cast<std::size_t>(H);
    scratch.prefix.resize(n);
    scratch.suffix.resize(n);
    T* g = scratch.prefix.data();
    T* h = scratch.suffix.data();
    const T top = O::top();
    const auto load = [=](int y, T* r) { detail::extendedRow<T>(src.row(y), r, W, M, top); };
    const auto step = [=](int y, const T* prev, T* r, int d) { detail::chainStep<T, O>(src.row(y), prev, r, W, M, d, top); };
    const std::int64_t blockRows = len * ay;
    const int bands = static_cast<int>((H + blockRows - 1) / blockRows);
    parallelFor(static_cast<std::size_t>(2 * bands), threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t task = begin; task < end; ++task) {
            const bool suffix = task >= static_cast<std::size_t>(bands);
            const std::int64_t b = static_cast<std::int64_t>(task) - (suffix ? bands : 0);
            const int y0 = static_cast<int>(b * blockRows);
            const int y1 = static_cast<int>(std::min<std::int64_t>(H, y0 + blockRows));
            if (!suffix) {
                for (int y = y0; y < y1; ++y) {
                    if ((y / ay) % len == 0 || y < ay) load(y, g + y * pw);
                    else step(y, g + (y - ay) * pw, g + y * pw, ax);
                }
            } else {
                for (int y = y1 - 1; y >= y0; --y) {
                    if ((y / ay) % len == len - 1 || y + ay >= H) load(y, h + y * pw);
                    else step(y, h + (y + ay) * pw, h + y * pw, -ax);
                }
            }
        }
    });
    parallelFor(static_cast<std::size_t>(H), threads, [&](std::size_t begin, std::size_t end) {
        for (int y = static_cast<int>(begin); y < static_cast<int>(end); ++y) {
            T* o = dst.row(y);
            const std::int64_t iS = std::max<std::int64_t>(lo, -(y / ay));
            const std::int64_t iE = std::min<std::int64_t>(hi, (H - 1 - y) / ay);
            if (iS > iE) {
                std::fill(o, o + W, top);
                continue;
            }
            const T* hs = h + (y + iS * ay) * pw + M + iS * ax;
            const T* ge = g + (y + iE * ay) * pw + M + iE * ax;
            const std::int64_t t = y / ay;
            const bool two = (t + iS) / len != (t + iE) / len || (iS == lo && iE == hi);
            if (two) detail::innerRow<T, O>(hs, ge, o, W);
            else if (iS > lo) std::copy(ge, ge + W, o);
            else std::copy(hs, hs + W, o);
        }
    });
}

}  // namespace LINESCOPE_ISA
}  // namespace linescope::cpu
