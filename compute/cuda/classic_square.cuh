// Per-thread bodies of Izmantoko & Choi's rectangle kernels (naive, global, shared tile),
// host-callable so that they can be checked thread by thread without a GPU.
#pragma once

#include "compute/cuda/classic_pixel.cuh"

#include <cstdint>

namespace linescope::cuda::classic {

// The window a pixel folds: columns [x − left, x + right], rows [y − up, y + down]. Erosion
// by segmentOf(w) × segmentOf(h) = [−aw, bw] × [−ah, bh] reads (aw, bw, ah, bh); dilation
// reads f(p − k), the reflected window (bw, aw, bh, ah). Each extent is clamped to the
// image (a longer one reaches nothing more), which keeps every sum in int.
struct RectWindow {
    int left = 0, right = 0, up = 0, down = 0;
};

// Naive: the whole window straight from device memory.
template <class Op, class T>
LINESCOPE_HD inline T naiveWindowPixel(DeviceImageView<const T> src, const RectWindow& w, int x, int y) {
    const int x0 = x - w.left > 0 ? x - w.left : 0;
    const int x1 = x + w.right < src.width - 1 ? x + w.right : src.width - 1;
    const int y0 = y - w.up > 0 ? y - w.up : 0;
    const int y1 = y + w.down < src.height - 1 ? y + w.down : src.height - 1;
    T acc = Op::template top<T>();
    for (int yy = y0; yy <= y1; ++yy) {
        const T* row = src.row(yy);
        for (int xx = x0; xx <= x1; ++xx) acc = Op::inner(acc, canonical(row[xx]));
    }
    return acc;
}

LINESCOPE_HD inline void atomicMaxKey(std::uint32_t* p, std::uint32_t k) {
#ifdef __CUDA_ARCH__
    atomicMax(reinterpret_cast<unsigned int*>(p), static_cast<unsigned int>(k));
#else
    if (*p < k) *p = k;
#endif
}

// Global dilation: pixel q pushes its value into every output whose window holds it,
// p ∈ [qx − right, qx + left] × [qy − down, qy + up] (the window read backwards), by an
// atomic maximum on order-preserving keys: the paper's "assign within RADIUS in the output".
template <class T>
LINESCOPE_HD inline void scatterDilatePixel(DeviceImageView<const T> src, DeviceImageView<std::uint32_t> keys,
                                      const RectWindow& w, int x, int y) {
    const std::uint32_t k = orderedKey(canonical(src.at(x, y)));
    const int x0 = x - w.right > 0 ? x - w.right : 0;
    const int x1 = x + w.left < src.width - 1 ? x + w.left : src.width - 1;
    const int y0 = y - w.down > 0 ? y - w.down : 0;
    const int y1 = y + w.up < src.height - 1 ? y + w.up : src.height - 1;
    for (int py = y0; py <= y1; ++py) {
        std::uint32_t* row = keys.row(py);
        for (int px = x0; px <= x1; ++px) atomicMaxKey(row + px, k);
    }
}

// Shared tile: a block of kTileW × kTileH outputs stages the input its windows reach (the
// tile and its halo, TILE + 2·RADIUS in the paper) in shared memory and folds from there.
// When tile and halo exceed kChunkMaxW × kChunkMaxH (long SEs), the region is staged in
// chunks of that size one after another and each thread folds the part of its window in
// each chunk: the same O(w·h) reads, from shared memory, for any SE.
constexpr int kTileW = 32, kTileH = 8;
constexpr int kChunkMaxW = 128, kChunkMaxH = 64;  // 32 KiB of float32: no opt-in needed

struct TileRegion {
    int x0, x1, y0, y1;  // the input the block reaches, clipped to the image; x1, y1 exclusive
};

LINESCOPE_HD inline TileRegion tileRegion(const RectWindow& w, int width, int height, int bx, int by) {
    const int ox = bx * kTileW, oy = by * kTileH;
    TileRegion r;
    r.x0 = ox - w.left > 0 ? ox - w.left : 0;
    r.x1 = ox + kTileW + w.right < width ? ox + kTileW + w.right : width;
    r.y0 = oy - w.up > 0 ? oy - w.up : 0;
    r.y1 = oy + kTileH + w.down < height ? oy + kTileH + w.down : height;
    return r;
}

// Thread `tid` of `threads` stages its share of the chunk [cx0, cx0 + cw) × [cy0, cy0 + ch).
template <class T>
LINESCOPE_HD inline void tileLoadChunk(DeviceImageView<const T> src, T* tile, int cx0, int cy0, int cw, int ch, int tid,
                                 int threads) {
    for (int i = tid; i < cw * ch; i += threads) tile[i] = canonical(src.at(cx0 + i % cw, cy0 + i / cw));
}

// The fold of output (x, y) over the part of its window inside the staged chunk.
template <class Op, class T>
LINESCOPE_HD inline T tileFoldChunk(const T* tile, const RectWindow& w, int width, int height, int x, int y, int cx0,
                              int cy0, int cw, int ch, T acc) {
    int x0 = x - w.left, x1 = x + w.right, y0 = y - w.up, y1 = y + w.down;
    if (x0 < cx0) x0 = cx0;
    if (y0 < cy0) y0 = cy0;
    if (x1 > cx0 + cw - 1) x1 = cx0 + cw - 1;
    if (y1 > cy0 + ch - 1) y1 = cy0 + ch - 1;
    if (x1 > width - 1) x1 = width - 1;  // chunks lie inside the image already; kept for clarity
    if (y1 > height - 1) y1 = height - 1;
    for (int yy = y0; yy <= y1; ++yy) {
        const T* row = tile + (yy - cy0) * cw;
        for (int xx = x0; xx <= x1; ++xx) acc = Op::inner(acc, row[xx - cx0]);
    }
    return acc;
}

inline int tileChunkW(const RectWindow& w) {
    const int full = kTileW + w.left + w.right;
    return full < kChunkMaxW ? full : kChunkMaxW;
}
inline int tileChunkH(const RectWindow& w) {
    const int full = kTileH + w.up + w.down;
    return full < kChunkMaxH ? full : kChunkMaxH;
}

}  // namespace linescope::cuda::classic
