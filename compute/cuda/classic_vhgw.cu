// Van Herk/Gil-Werman line factors in two kernels, without shared memory (as Thurley & Danell,
// so that no length or image size is limited by it): one thread scans one block of one chain
// (running prefix and suffix folds into two scratch images), then one thread a pixel joins a
// suffix and a prefix. The same two kernels serve every step; a row chain is scanned by one
// thread a row, a column chain by one thread a column (coalesced: the direct column kernel).
#include "compute/cuda/classic_chain.cuh"
#include "compute/cuda/classic_launch.cuh"
#include "compute/cuda/classic_vhgw.h"
#include "compute/cuda/cuda_check.h"

#include <algorithm>
#include <utility>

namespace linescope::cuda {
namespace classic {
namespace {

constexpr int kScanThreads = 128;

template <class Op, class T>
__global__ void vhgwScanKernel(DeviceImageView<const T> src, DeviceImageView<T> prefix, DeviceImageView<T> suffix,
                               ChainGeometry g, VhgwWindow w, int chains) {
    const int chain = static_cast<int>(blockIdx.x) * kScanThreads + static_cast<int>(threadIdx.x);
    if (chain >= chains) return;
    for (int b = static_cast<int>(blockIdx.y);; b += static_cast<int>(gridDim.y))
        if (!vhgwScanBlock<Op>(src, prefix, suffix, g, w, chain, b)) break;
}

template <class Op, class T>
__global__ void vhgwCombineKernel(DeviceImageView<const T> prefix, DeviceImageView<const T> suffix,
                                  DeviceImageView<T> dst, ChainGeometry g, VhgwWindow w) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= dst.width) return;
    for (int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y); y < dst.height;
         y += static_cast<int>(gridDim.y * blockDim.y))
        dst.at(x, y) = vhgwCombinePixel<Op>(prefix, suffix, g, w, x, y);
}

template <class Op, class T>
void launchStage(DeviceImageView<const T> src, DeviceImageView<T> dst, const ChainGeometry& g, const VhgwWindow& w,
                 DeviceImageView<T> prefix, DeviceImageView<T> suffix, cudaStream_t stream) {
    const int chains = g.chainCount();
    const int blocksPerChain = (g.maxLength() + w.block - 1) / w.block;
    const dim3 scanGrid(static_cast<unsigned>((chains + kScanThreads - 1) / kScanThreads),
                        static_cast<unsigned>(std::min(blocksPerChain, 65535)));
    vhgwScanKernel<Op, T><<<scanGrid, kScanThreads, 0, stream>>>(src, prefix, suffix, g, w, chains);
    LS_CUDA_CHECK_LAUNCH(vhgwScanKernel);
    vhgwCombineKernel<Op, T><<<pixelGrid(dst.width, dst.height), kPixelBlock, 0, stream>>>(prefix, suffix, dst, g, w);
    LS_CUDA_CHECK_LAUNCH(vhgwCombineKernel);
}

constexpr int kTransposeTile = 32;
constexpr int kTransposeRows = 8;

// A tile is read row by row and written row by row; the +1 column keeps the column reads
// of the tile free of shared-memory bank conflicts for 4-byte pixels.
template <class T>
__global__ void transposeKernel(DeviceImageView<const T> src, DeviceImageView<T> dst, int tilesY) {
    __shared__ T tile[kTransposeTile][kTransposeTile + 1];
    const int bx = static_cast<int>(blockIdx.x) * kTransposeTile;
    const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
    for (int tileY = static_cast<int>(blockIdx.y); tileY < tilesY; tileY += static_cast<int>(gridDim.y)) {
        const int by = tileY * kTransposeTile;
        for (int j = ty; j < kTransposeTile; j += kTransposeRows) {
            const int x = bx + tx, y = by + j;
            if (x < src.width && y < src.height) tile[j][tx] = src.at(x, y);
        }
        __syncthreads();
        for (int j = ty; j < kTransposeTile; j += kTransposeRows) {
            const int x = by + tx, y = bx + j;  // dst(x, y) = src(y, x) = tile[x − by][y − bx]
            if (x < dst.width && y < dst.height) dst.at(x, y) = tile[tx][j];
        }
        __syncthreads();  // the tile is refilled by the next row of tiles
    }
}

}  // namespace
}  // namespace classic

template <class T>
void vhgwLineStage(bool erode, DeviceImageView<const T> src, DeviceImageView<T> dst, LineStage stage,
                   DeviceImageView<T> prefix, DeviceImageView<T> suffix, cudaStream_t stream) {
    using namespace classic;
    if (stage.dx == 0 && stage.dy == 0) throw Error("internal: a line factor without a step");
    if (stage.dx < 0 || (stage.dx == 0 && stage.dy < 0)) {  // the same set, walked the other way
        stage.dx = -stage.dx;
        stage.dy = -stage.dy;
        std::swap(stage.a, stage.b);
    }
    const ChainGeometry g{src.width, src.height, stage.dx, stage.dy};
    // ε reads f(c + k), k ∈ [−a, b]; δ reads f(c − k), the window [c − b, c + a].
    const VhgwWindow w = erode ? vhgwWindowOf(g, stage.a, stage.b) : vhgwWindowOf(g, stage.b, stage.a);
    if (erode) launchStage<MinOp, T>(src, dst, g, w, prefix, suffix, stream);
    else launchStage<MaxOp, T>(src, dst, g, w, prefix, suffix, stream);
}

template <class T>
void transposeImage(DeviceImageView<const T> src, DeviceImageView<T> dst, cudaStream_t stream) {
    using namespace classic;
    if (dst.width != src.height || dst.height != src.width) throw Error("internal: transpose of the wrong size");
    const int tilesX = (src.width + kTransposeTile - 1) / kTransposeTile;
    const int tilesY = (src.height + kTransposeTile - 1) / kTransposeTile;
    const dim3 grid(static_cast<unsigned>(tilesX), static_cast<unsigned>(std::min(tilesY, 65535)));
    transposeKernel<T><<<grid, dim3(kTransposeTile, kTransposeRows), 0, stream>>>(src, dst, tilesY);
    LS_CUDA_CHECK_LAUNCH(transposeKernel);
}

#define LS_INSTANTIATE(T)                                                                                       \
    template void vhgwLineStage<T>(bool, DeviceImageView<const T>, DeviceImageView<T>, LineStage,               \
                                   DeviceImageView<T>, DeviceImageView<T>, cudaStream_t);                       \
    template void transposeImage<T>(DeviceImageView<const T>, DeviceImageView<T>, cudaStream_t);
LS_INSTANTIATE(std::uint8_t)
LS_INSTANTIATE(std::uint16_t)
LS_INSTANTIATE(float)
#undef LS_INSTANTIATE

}  // namespace linescope::cuda
