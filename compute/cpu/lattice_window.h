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

#include <algorithm>
#include <cstdint>
#include <vector>

namespace linescope::cpu {

template <class T>
struct LatticeWindowScratch {
    std::vector<T> prefix, suffix;
};

namespace detail {

inline std::int64_t floorDivide(std::int64_t x, std::int64_t d) {
    const std::int64_t q = x / d;
    return (x % d != 0 && ((x < 0) != (d < 0))) ? q - 1 : q;
}

}  // namespace detail

// lo ≤ hi; A ≠ (0, 0); F and out are W×H, packed, distinct. With exactAtBorder false, a
// window that the border cuts gets the neutral value instead (faster, for callers that never
// read such pixels: the padded images of cpu/digital_line_morph.cpp).
template <class T, class O>
void latticeWindow(const T* F, T* out, int W, int H, Offset A, int lo, int hi, LatticeWindowScratch<T>& scratch,
                   bool exactAtBorder = true) {
    if (A.dy < 0 || (A.dy == 0 && A.dx < 0)) {  // the same window along −A
        A = {-A.dx, -A.dy};
        const int l = lo;
        lo = -hi;
        hi = -l;
    }
    const std::ptrdiff_t w = W;
    const std::size_t n = static_cast<std::size_t>(W) * static_cast<std::size_t>(H);
    const std::int64_t len = std::int64_t{hi} - lo + 1;
    if (len == 1) {  // out(p) = F(p + lo·A)
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x) {
                const std::int64_t sx = x + std::int64_t{lo} * A.dx, sy = y + std::int64_t{lo} * A.dy;
                out[y * w + x] = (sx >= 0 && sx < W && sy >= 0 && sy < H) ? F[sy * w + sx] : O::top();
            }
        return;
    }
    scratch.prefix.resize(n);
    scratch.suffix.resize(n);
    T* g = scratch.prefix.data();
    T* h = scratch.suffix.data();
    const int ax = A.dx, ay = A.dy;
    // Prefix minima within blocks, restarting at block starts and where a chain enters.
    for (int y = 0; y < H; ++y) {
        const T* f = F + y * w;
        T* gr = g + y * w;
        if (ay > 0) {
            const bool restart = (y / ay) % len == 0 || y < ay;
            if (restart) { std::copy(f, f + W, gr); continue; }
            const T* gp = g + (y - ay) * w;
            const int x0 = std::max(0, ax), x1 = std::min(W, W + ax);
            for (int x = 0; x < x0; ++x) gr[x] = f[x];
            for (int x = x1; x < W; ++x) gr[x] = f[x];
            for (int x = x0; x < x1; ++x) gr[x] = O::inner(gp[x - ax], f[x]);
        } else {  // blocks of len chains along the row: columns [k·len·ax, (k+1)·len·ax)
            const std::int64_t span = len * ax;
            for (std::int64_t x0 = 0; x0 < W; x0 += span) {
                const std::int64_t x1 = std::min<std::int64_t>(W, x0 + span), xa = std::min(x1, x0 + ax);
                std::copy(f + x0, f + xa, gr + x0);
                for (std::int64_t x = xa; x < x1; ++x) gr[x] = O::inner(gr[x - ax], f[x]);
            }
        }
    }
    // Suffix minima within blocks, restarting at block ends and where a chain leaves.
    for (int y = H - 1; y >= 0; --y) {
        const T* f = F + y * w;
        T* hr = h + y * w;
        if (ay > 0) {
            const bool restart = (y / ay) % len == len - 1 || y + ay >= H;
            if (restart) { std::copy(f, f + W, hr); continue; }
            const T* hn = h + (y + ay) * w;
            const int x0 = std::max(0, -ax), x1 = std::min(W, W - ax);
            for (int x = 0; x < x0; ++x) hr[x] = f[x];
            for (int x = x1; x < W; ++x) hr[x] = f[x];
            for (int x = x0; x < x1; ++x) hr[x] = O::inner(hn[x + ax], f[x]);
        } else {
            const std::int64_t span = len * ax;
            for (std::int64_t x0 = 0; x0 < W; x0 += span) {
                const std::int64_t x1 = std::min<std::int64_t>(W, x0 + span), xb = std::max(x0, x1 - ax);
                std::copy(f + xb, f + x1, hr + xb);
                for (std::int64_t x = xb - 1; x >= x0; --x) hr[x] = O::inner(hr[x + ax], f[x]);
            }
        }
    }
    // Each window keeps its in-image part [iS, iE] (a chain's positions inside the image
    // are contiguous): min(suffix(start), prefix(end)) when it spans two blocks, else the
    // pass whose restart bounds it. iS and iE are constant over runs of columns (all the
    // interior, then runs of |ax| near the sides), so each run is one vector loop.
    constexpr std::int64_t kFar = std::int64_t{1} << 40;
    const int sx = ax >= 0 ? ax : -ax;
    for (int y = 0; y < H; ++y) {
        T* o = out + y * w;
        const std::int64_t backY = ay > 0 ? y / ay : kFar, fwdY = ay > 0 ? (H - 1 - y) / ay : kFar;
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
            if (iS > iE || (!exactAtBorder && (iS != lo || iE != hi))) {
                std::fill(o + x, o + runEnd, O::top());
                x = runEnd;
                continue;
            }
            const std::ptrdiff_t ds = (iS * ay) * w + iS * ax, de = (iE * ay) * w + iE * ax;
            const T* hs = h + y * w + ds;
            const T* ge = g + y * w + de;
            if (iS == lo && iE == hi) {  // the whole window: two blocks, or one aligned block
                for (int i = x; i < runEnd; ++i) o[i] = O::inner(hs[i], ge[i]);
            } else if (ay > 0) {  // t = ⌊y / ay⌋ is the row's
                const std::int64_t t = y / ay;
                const bool two = (t + iS) / len != (t + iE) / len;
                if (two) for (int i = x; i < runEnd; ++i) o[i] = O::inner(hs[i], ge[i]);
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
    }
}

}  // namespace linescope::cpu
