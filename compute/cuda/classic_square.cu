// Izmantoko & Choi's three kernel styles for rectangles, one thread an output pixel:
//   naive   every thread folds its whole window from device memory;
//   global  erosion as naive (the paper's global erosion reads its RADIUS window the same
//           way), dilation by scatter: every input pixel pushes itself into the outputs
//           it reaches, an atomic maximum on order-preserving 32-bit keys;
//   tile    the block's tile and halo staged in shared memory, folded from there.
// All are O(w·h) a pixel, which is the point of keeping them beside van Herk/Gil-Werman.
#include "compute/cuda/classic_launch.cuh"
#include "compute/cuda/classic_square.cuh"
#include "compute/cuda/classic_square.h"
#include "compute/cuda/cuda_check.h"

#include <algorithm>

namespace linescope::cuda {
namespace classic {
namespace {

template <class Op, class T>
__global__ void naiveKernel(DeviceImageView<const T> src, DeviceImageView<T> dst, RectWindow w) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= dst.width) return;
    for (int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y); y < dst.height;
         y += static_cast<int>(gridDim.y * blockDim.y))
        dst.at(x, y) = naiveWindowPixel<Op>(src, w, x, y);
}

__global__ void fillKeysKernel(DeviceImageView<std::uint32_t> keys, std::uint32_t value) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= keys.width) return;
    for (int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y); y < keys.height;
         y += static_cast<int>(gridDim.y * blockDim.y))
        keys.at(x, y) = value;
}

template <class T>
__global__ void scatterDilateKernel(DeviceImageView<const T> src, DeviceImageView<std::uint32_t> keys, RectWindow w) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= src.width) return;
    for (int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y); y < src.height;
         y += static_cast<int>(gridDim.y * blockDim.y))
        scatterDilatePixel(src, keys, w, x, y);
}

template <class T>
__global__ void keysToPixelsKernel(DeviceImageView<const std::uint32_t> keys, DeviceImageView<T> dst) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= dst.width) return;
    for (int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y); y < dst.height;
         y += static_cast<int>(gridDim.y * blockDim.y))
        dst.at(x, y) = fromOrderedKey<T>(keys.at(x, y));
}

// Every thread of the block runs every chunk (the loop bounds are the block's), so the
// barriers are uniform; threads past the image's edge only help to stage.
template <class Op, class T>
__global__ void tileKernel(DeviceImageView<const T> src, DeviceImageView<T> dst, RectWindow w, int chunkW, int chunkH,
                           int tilesY) {
    extern __shared__ __align__(16) unsigned char tileBytes[];
    T* tile = reinterpret_cast<T*>(tileBytes);
    const int tid = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
    const int threads = static_cast<int>(blockDim.x * blockDim.y);
    const int x = static_cast<int>(blockIdx.x) * kTileW + static_cast<int>(threadIdx.x);
    for (int by = static_cast<int>(blockIdx.y); by < tilesY; by += static_cast<int>(gridDim.y)) {
        const int y = by * kTileH + static_cast<int>(threadIdx.y);
        const TileRegion r = tileRegion(w, src.width, src.height, static_cast<int>(blockIdx.x), by);
        T acc = Op::template top<T>();
        for (int cy0 = r.y0; cy0 < r.y1; cy0 += chunkH) {
            const int ch = min(chunkH, r.y1 - cy0);
            for (int cx0 = r.x0; cx0 < r.x1; cx0 += chunkW) {
                const int cw = min(chunkW, r.x1 - cx0);
                __syncthreads();  // the previous chunk has been folded by every thread
                tileLoadChunk(src, tile, cx0, cy0, cw, ch, tid, threads);
                __syncthreads();
                acc = tileFoldChunk<Op>(tile, w, src.width, src.height, x, y, cx0, cy0, cw, ch, acc);
            }
        }
        if (x < dst.width && y < dst.height) dst.at(x, y) = acc;
    }
}

template <class Op, class T>
void gatherMorph(ClassicMethod method, DeviceImageView<const T> src, DeviceImageView<T> dst, const RectWindow& w,
                 cudaStream_t stream) {
    if (method == ClassicMethod::SharedTile) {
        const int chunkW = tileChunkW(w), chunkH = tileChunkH(w);
        const int tilesX = (src.width + kTileW - 1) / kTileW;
        const int tilesY = (src.height + kTileH - 1) / kTileH;
        const std::size_t shared = sizeof(T) * static_cast<std::size_t>(chunkW) * static_cast<std::size_t>(chunkH);
        const dim3 grid(static_cast<unsigned>(tilesX), static_cast<unsigned>(std::min(tilesY, 65535)));
        tileKernel<Op, T><<<grid, dim3(kTileW, kTileH), shared, stream>>>(src, dst, w, chunkW, chunkH, tilesY);
        LS_CUDA_CHECK_LAUNCH(tileKernel);
        return;
    }
    naiveKernel<Op, T><<<pixelGrid(src.width, src.height), kPixelBlock, 0, stream>>>(src, dst, w);
    LS_CUDA_CHECK_LAUNCH(naiveKernel);
}

template <class T>
void scatterDilate(DeviceImageView<const T> src, DeviceImageView<T> dst, DeviceImageView<std::uint32_t> keys,
                   const RectWindow& w, cudaStream_t stream) {
    if (keys.width != src.width || keys.height != src.height || !keys.data)
        throw Error("internal: the scatter dilation needs a key image of the input's size");
    const dim3 grid = pixelGrid(src.width, src.height);
    fillKeysKernel<<<grid, kPixelBlock, 0, stream>>>(keys, orderedKey(lowestValue<T>()));
    LS_CUDA_CHECK_LAUNCH(fillKeysKernel);
    scatterDilateKernel<T><<<grid, kPixelBlock, 0, stream>>>(src, keys, w);
    LS_CUDA_CHECK_LAUNCH(scatterDilateKernel);
    keysToPixelsKernel<T><<<grid, kPixelBlock, 0, stream>>>(keys, dst);
    LS_CUDA_CHECK_LAUNCH(keysToPixelsKernel);
}

}  // namespace
}  // namespace classic

template <class T>
void rectWindowMorph(bool erode, ClassicMethod method, DeviceImageView<const T> src, DeviceImageView<T> dst,
                     Segment sx, Segment sy, DeviceImageView<std::uint32_t> keys, cudaStream_t stream) {
    using namespace classic;
    if (method != ClassicMethod::Naive && method != ClassicMethod::Global && method != ClassicMethod::SharedTile)
        throw Error("internal: rectWindowMorph runs the naive, global and tile methods only");
    const int mx = src.width - 1, my = src.height - 1;
    // Erosion reads f(p + k), k ∈ [−a, b]; dilation f(p − k): the window [−b, a].
    RectWindow w = erode ? RectWindow{sx.a, sx.b, sy.a, sy.b} : RectWindow{sx.b, sx.a, sy.b, sy.a};
    w.left = std::min(w.left, mx);
    w.right = std::min(w.right, mx);
    w.up = std::min(w.up, my);
    w.down = std::min(w.down, my);
    if (erode) gatherMorph<MinOp, T>(method, src, dst, w, stream);
    else if (method == ClassicMethod::Global) scatterDilate<T>(src, dst, keys, w, stream);
    else gatherMorph<MaxOp, T>(method, src, dst, w, stream);
}

#define LS_INSTANTIATE(T)                                                                                      \
    template void rectWindowMorph<T>(bool, ClassicMethod, DeviceImageView<const T>, DeviceImageView<T>, Segment, \
                                     Segment, DeviceImageView<std::uint32_t>, cudaStream_t);
LS_INSTANTIATE(std::uint8_t)
LS_INSTANTIATE(std::uint16_t)
LS_INSTANTIATE(float)
#undef LS_INSTANTIATE

}  // namespace linescope::cuda
