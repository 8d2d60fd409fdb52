// Window extremes along a lattice step by a sparse table, on the GPU: dst(p) = the extreme of
// src(p + k·v) for k in [lo, hi], the positions outside the image ignored (a window cut by the
// border keeps its inside part). Periodic lines (kernel_line_morph.cu) and the windows of the
// segment's run decomposition (digital_line_device.cu) use it. Device code: include from .cu
// files only.
#pragma once

#include "compute/cuda/cuda_check.h"
#include "compute/cuda/device_image.h"
#include "compute/line_stages.h"
#include "compute/offset.h"
#include "compute/pixel_rules.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace linescope::cuda {

namespace lattice {

constexpr int kBlockX = 32, kBlockY = 8;

// Periodic lines: the offsets k·v (k from lo to hi) of a pixel lie on the lattice line through
// it, which leaves the image once and never comes back, so a window's extreme is a range
// query along that line. Level j holds, at each pixel, the extreme of the 2^j pixels from it
// on (those in the image): level j from level j − 1 at 2^(j−1) steps on. Any range of L ≥ 1
// pixels is then two overlapping reads of level ⌊log2 L⌋ (a sparse table). The extremes are
// exact, so the result is the direct form's bit for bit, in J + 1 passes for λ < 2^(J+1).
constexpr int kMaxPeriodicLevels = 31;  // ranges below 2^31 pixels

// Level 0 is the source; level j ≥ 1 is plane j − 1 of the scratch (addresses computed, not
// looked up: a kernel parameter array indexed at run time would go through local memory).
template <class T>
struct PeriodicLevels {
    DeviceImageView<const T> source;
    const unsigned char* scratch;
    std::size_t plane, pitch;
    __device__ T at(int level, int x, int y) const {
        if (level == 0) return source.at(x, y);
        return reinterpret_cast<const T*>(scratch + static_cast<std::size_t>(level - 1) * plane +
                                          static_cast<std::size_t>(y) * pitch)[x];
    }
};

// The largest k ≥ 0 with (x, y) + k·(dx, dy) in the image (INT_MAX for the zero step).
__device__ __host__ inline int stepsInside(int x, int y, int dx, int dy, int w, int h) {
    int k = 0x7fffffff;
    if (dx > 0) k = min(k, (w - 1 - x) / dx);
    else if (dx < 0) k = min(k, x / -dx);
    if (dy > 0) k = min(k, (h - 1 - y) / dy);
    else if (dy < 0) k = min(k, y / -dy);
    return k;
}

// Pixels a thread for the periodic passes: a 32-bit word of u8 or u16 pixels, so that a
// warp moves 128 bytes an instruction rather than 32.
template <class T>
constexpr int kPeriodicRun = sizeof(T) < 4 ? 4 / static_cast<int>(sizeof(T)) : 1;

// Writes a thread's run of pixels from x0: one 32-bit store where the row allows it.
template <class T, int N>
__device__ void storeRun(DeviceImageView<T> out, int x0, int y, const T (&v)[N]) {
    T* row = out.row(y);
    if constexpr (N > 1) {
        if (x0 + N <= out.width && reinterpret_cast<std::uintptr_t>(row + x0) % 4 == 0) {
            std::uint32_t word = 0;
#pragma unroll
            for (int i = 0; i < N; ++i) word |= static_cast<std::uint32_t>(v[i]) << (8 * sizeof(T) * i);
            *reinterpret_cast<std::uint32_t*>(row + x0) = word;
            return;
        }
    }
#pragma unroll
    for (int i = 0; i < N; ++i)
        if (x0 + i < out.width) row[x0 + i] = v[i];
}

// Levels j and j + 1 (when `upper` is set) from level j − 1, whose windows are `jump` apart:
// two levels a pass, reading level j − 1 at four places (cached) rather than writing level j
// and reading it back.
template <class T, bool IsMin>
__global__ void periodicLevels(DeviceImageView<const T> prev, DeviceImageView<T> next, DeviceImageView<T> upper,
                               int jumpX, int jumpY) {
    using Op = ExtremeOp<T, IsMin>;
    constexpr int N = kPeriodicRun<T>;
    const int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * N, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x0 >= next.width || y >= next.height) return;
    T low[N], high[N];
#pragma unroll
    for (int i = 0; i < N; ++i) {
        const int x = min(x0 + i, next.width - 1);  // past the row's end: computed, not stored
        const auto read = [&](int k) {  // level j − 1 at k jumps on; the line never re-enters the image
            const int sx = x + k * jumpX, sy = y + k * jumpY;
            return sx >= 0 && sx < prev.width && sy >= 0 && sy < prev.height ? canonical(__ldg(&prev.at(sx, sy)))
                                                                            : Op::neutral();
        };
        low[i] = Op::apply(read(0), read(1));
        high[i] = upper.data ? Op::apply(low[i], Op::apply(read(2), read(3))) : low[i];
    }
    storeRun(next, x0, y, low);
    if (upper.data) storeRun(upper, x0, y, high);
}

// The extreme of the levels' source at (x, y) + k·v, k in [lo, hi] ∩ the line's pixels in the
// w×h image ((x, y) inside it); the neutral value when none of them is.
template <class T, bool IsMin>
__device__ T rangeExtreme(const PeriodicLevels<T>& levels, int x, int y, int w, int h, int vx, int vy, int lo, int hi) {
    using Op = ExtremeOp<T, IsMin>;
    // Most windows lie in the image: only the others need the divisions of stepsInside.
    const auto inside = [&](long long px, long long py) { return px >= 0 && px < w && py >= 0 && py < h; };
    const bool whole = inside(x + static_cast<long long>(lo) * vx, y + static_cast<long long>(lo) * vy) &&
                       inside(x + static_cast<long long>(hi) * vx, y + static_cast<long long>(hi) * vy);
    const int l = whole ? lo : max(lo, -stepsInside(x, y, -vx, -vy, w, h));
    const int r = whole ? hi : min(hi, stepsInside(x, y, vx, vy, w, h));
    if (r < l) return Op::neutral();
    const int j = 31 - __clz(r - l + 1);
    const int second = r - (1 << j) + 1;
    return canonical(Op::apply(levels.at(j, x + l * vx, y + l * vy), levels.at(j, x + second * vx, y + second * vy)));
}

// dst(p) = extreme of src(p + k·v) for k in [lo, hi] ∩ the line's pixels in the image.
template <class T, bool IsMin>
__global__ void periodicQuery(PeriodicLevels<T> levels, DeviceImageView<T> dst, int vx, int vy, int lo, int hi) {
    constexpr int N = kPeriodicRun<T>;
    const int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * N, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x0 >= dst.width || y >= dst.height) return;
    T out[N];
#pragma unroll
    for (int i = 0; i < N; ++i)
        out[i] = rangeExtreme<T, IsMin>(levels, min(x0 + i, dst.width - 1), y, dst.width, dst.height, vx, vy, lo, hi);
    storeRun(dst, x0, y, out);
}

// The levels a stage of λ over the image needs: ⌊log2⌋ of the longest range that can occur.
inline int periodicTopLevel(Offset v, int length, int width, int height) {
    long long longest = length;
    if (v.dx != 0) longest = std::min<long long>(longest, (width - 1) / std::abs(v.dx) + 1);
    if (v.dy != 0) longest = std::min<long long>(longest, (height - 1) / std::abs(v.dy) + 1);
    int j = 0;
    while ((2LL << j) <= longest) ++j;
    return j;
}

}  // namespace lattice

namespace lattice {

// Levels 1 … top of src's sparse table along v into `scratch`, `plane` bytes apart (rows
// padded as devicePitch). Enqueued on `s`.
template <class T>
void buildLevels(bool isMin, DeviceImageView<const T> src, Offset v, int top, T* scratch, std::size_t plane,
                 cudaStream_t s) {
    constexpr int N = kPeriodicRun<T>;
    const dim3 grid((src.width + kBlockX * N - 1) / (kBlockX * N), (src.height + kBlockY - 1) / kBlockY);
    const dim3 block(kBlockX, kBlockY);
    const std::size_t pitch = plane / static_cast<std::size_t>(src.height);
    const auto level = [&](int j) {  // j ≥ 1, in scratch
        return DeviceImageView<T>{reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(scratch) + (j - 1) * plane),
                                  src.width, src.height, pitch};
    };
    for (int j = 1; j <= top; j += 2) {
        const DeviceImageView<const T> prev = j == 1 ? src : DeviceImageView<const T>(level(j - 1));
        const DeviceImageView<T> next = level(j), upper = j + 1 <= top ? level(j + 1) : DeviceImageView<T>{};
        const int jump = 1 << (j - 1);
        if (isMin) periodicLevels<T, true><<<grid, block, 0, s>>>(prev, next, upper, jump * v.dx, jump * v.dy);
        else periodicLevels<T, false><<<grid, block, 0, s>>>(prev, next, upper, jump * v.dx, jump * v.dy);
        LS_CUDA_CHECK_LAUNCH("periodicLevels");
    }
}

}  // namespace lattice

// dst(p) = the extreme (min when isMin) of src(p + k·v), k ∈ [lo, hi] ∩ the line's pixels in
// the image; `top` = periodicTopLevel(v, hi − lo + 1, …) levels above the source live in
// `scratch`, `plane` bytes apart (rows padded as devicePitch). Enqueued on `s`.
template <class T>
void latticeRange(bool isMin, DeviceImageView<const T> src, DeviceImageView<T> dst, Offset v, int lo, int hi, int top,
                  T* scratch, std::size_t plane, cudaStream_t s) {
    using namespace lattice;
    constexpr int N = kPeriodicRun<T>;
    const dim3 grid((dst.width + kBlockX * N - 1) / (kBlockX * N), (dst.height + kBlockY - 1) / kBlockY);
    const dim3 block(kBlockX, kBlockY);
    buildLevels<T>(isMin, src, v, top, scratch, plane, s);
    const PeriodicLevels<T> levels{src, reinterpret_cast<const unsigned char*>(scratch), plane,
                                   plane / static_cast<std::size_t>(src.height)};
    if (isMin) periodicQuery<T, true><<<grid, block, 0, s>>>(levels, dst, v.dx, v.dy, lo, hi);
    else periodicQuery<T, false><<<grid, block, 0, s>>>(levels, dst, v.dx, v.dy, lo, hi);
    LS_CUDA_CHECK_LAUNCH("periodicQuery");
}

}  // namespace linescope::cuda
