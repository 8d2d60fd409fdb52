// The chains of a line factor {k·(dx, dy)}: every pixel p lies on exactly one chain
// p0, p0 + step, p0 + 2·step, … of in-image pixels, and a line operator by the factor is a
// 1-D window along every chain (the border ignored). This one description covers the
// contiguous lines (1,0), (0,1), (1,−1), (1,1) and the disc's periodic lines (2,±1), (1,±2),
// matching the CPU's line families at 0°, 90°, 45°, 135° and its periodicLineMorph.
#pragma once

#include "compute/cuda/classic_pixel.cuh"

#include <climits>

namespace linescope::cuda::classic {

struct ChainGeometry {
    int width = 0, height = 0;
    int dx = 1, dy = 0;  // normalised: dx > 0, or dx == 0 and dy > 0

    // Steps from p back to its chain's first pixel: p's position along the chain.
    LINESCOPE_HD inline int position(int x, int y) const {
        const int tx = dx > 0 ? x / dx : INT_MAX;
        const int ty = dy > 0 ? y / dy : dy < 0 ? (height - 1 - y) / -dy : INT_MAX;
        return tx < ty ? tx : ty;
    }
    // Pixels of the chain that starts at (xs, ys).
    LINESCOPE_HD inline int length(int xs, int ys) const {
        const int nx = dx > 0 ? (width - 1 - xs) / dx + 1 : INT_MAX;
        const int ny = dy > 0 ? (height - 1 - ys) / dy + 1 : dy < 0 ? ys / -dy + 1 : INT_MAX;
        return nx < ny ? nx : ny;
    }
    // Chains start where p − step leaves the image: the first dx columns, then (for the
    // other columns) the first dy rows, or the last −dy rows when dy < 0.
    LINESCOPE_HD inline int leftColumns() const { return dx < width ? dx : width; }
    LINESCOPE_HD inline int edgeRows() const {
        const int r = dy < 0 ? -dy : dy;
        return r < height ? r : height;
    }
    LINESCOPE_HD inline int chainCount() const { return leftColumns() * height + edgeRows() * (width - leftColumns()); }
    // The start of chain i. Consecutive i are consecutive rows of the left columns (row
    // chains: one row a thread) or consecutive columns of the edge rows (column chains):
    // neighbouring threads read neighbouring addresses wherever a chain runs downwards.
    LINESCOPE_HD inline void start(int i, int& xs, int& ys) const {
        const int left = leftColumns() * height;
        if (i < left) {
            xs = i / height;
            ys = i % height;
            return;
        }
        const int j = i - left, n = width - leftColumns();
        xs = leftColumns() + j % n;
        const int r = j / n;
        ys = dy > 0 ? r : height - 1 - r;
    }
    // The longest chain: one that starts in a corner.
    LINESCOPE_HD inline int maxLength() const {
        const int nx = dx > 0 ? (width - 1) / dx + 1 : INT_MAX;
        const int ady = dy < 0 ? -dy : dy;
        const int ny = ady > 0 ? (height - 1) / ady + 1 : INT_MAX;
        return nx < ny ? nx : ny;
    }
};

// The van Herk/Gil-Werman windows of one stage on one image. Output c of a chain of n
// pixels is the fold over positions [c − left, c + right] ∩ [0, n): erosion by
// {k·step : k = −a..b} reads left = a, right = b; dilation reads left = b, right = a.
// Chains are cut into blocks of `block` = left + right + 1 positions from their first
// pixel; every window then meets at most two blocks and is the suffix of the first joined
// with the prefix of the second (3 comparisons a pixel whatever the length).
struct VhgwWindow {
    int left = 0, right = 0, block = 1;
};

// left and right clamped to the longest chain: a window that reaches past both ends of a
// chain already covers all of it, so the clamp changes no output and keeps sums in int.
inline VhgwWindow vhgwWindowOf(const ChainGeometry& g, int left, int right) {
    const int m = g.maxLength();
    VhgwWindow w;
    w.left = left < m ? left : m;
    w.right = right < m ? right : m;
    w.block = w.left + w.right + 1;
    return w;
}

// Block `b` of chain `chain`: the running prefix and suffix folds within the block, written
// at each pixel of the block. False when the chain has no such block.
template <class Op, class T>
LINESCOPE_HD inline bool vhgwScanBlock(DeviceImageView<const T> src, DeviceImageView<T> prefix, DeviceImageView<T> suffix,
                                 const ChainGeometry& g, const VhgwWindow& w, int chain, int b) {
    int xs, ys;
    g.start(chain, xs, ys);
    const int n = g.length(xs, ys);
    if (b >= (n + w.block - 1) / w.block) return false;
    const int t0 = b * w.block;
    const int t1 = t0 + w.block < n ? t0 + w.block : n;  // exclusive
    int x = xs + t0 * g.dx, y = ys + t0 * g.dy;
    T acc = canonical(src.at(x, y));
    prefix.at(x, y) = acc;
    for (int t = t0 + 1; t < t1; ++t) {
        x += g.dx;
        y += g.dy;
        acc = Op::inner(acc, canonical(src.at(x, y)));
        prefix.at(x, y) = acc;
    }
    acc = canonical(src.at(x, y));  // (x, y) is the block's last pixel now
    suffix.at(x, y) = acc;
    for (int t = t1 - 2; t >= t0; --t) {
        x -= g.dx;
        y -= g.dy;
        acc = Op::inner(acc, canonical(src.at(x, y)));
        suffix.at(x, y) = acc;
    }
    return true;
}

// Output pixel (x, y) from the block scans. The clipped window [lo, hi] meets one block or
// two. Within one block it is a prefix (lo starts the block) or else a suffix: an interior
// window is `block` long, so unless it starts a block it reaches the next one, and a
// clipped one that does not start at 0 ends at the chain's last pixel.
template <class Op, class T>
LINESCOPE_HD inline T vhgwCombinePixel(DeviceImageView<const T> prefix, DeviceImageView<const T> suffix,
                                 const ChainGeometry& g, const VhgwWindow& w, int x, int y) {
    const int t = g.position(x, y);
    const int xs = x - t * g.dx, ys = y - t * g.dy;
    const int n = g.length(xs, ys);
    const int lo = t - w.left > 0 ? t - w.left : 0;
    const int hi = t + w.right < n - 1 ? t + w.right : n - 1;
    const T& p = prefix.at(xs + hi * g.dx, ys + hi * g.dy);
    if (lo / w.block == hi / w.block) {
        if (lo % w.block == 0) return p;
        return suffix.at(xs + lo * g.dx, ys + lo * g.dy);
    }
    return Op::inner(suffix.at(xs + lo * g.dx, ys + lo * g.dy), p);
}

}  // namespace linescope::cuda::classic
