// The smallest and largest pixel of a device plane as unsigned keys that order as the values
// do (classic::orderedKey),
// reduced on the device so that a consumer on the device reads them without a host trip.
#pragma once

#include "compute/cuda/classic_pixel.cuh"
#include "compute/cuda/cuda_check.h"
#include "compute/cuda/device_image.h"

#include <cub/block/block_reduce.cuh>
#include <cuda/functional>
#include <cuda_runtime.h>

#include <algorithm>
#include <type_traits>

namespace linescope::cuda {
namespace {

template <class T>
__global__ void minMaxOfPlane(DeviceImageView<const T> plane, unsigned* out) {
    using Reduce = cub::BlockReduce<unsigned, 256>;
    __shared__ typename Reduce::TempStorage temp;
    unsigned lo = ~0u, hi = 0;
    const long long n = static_cast<long long>(plane.width) * plane.height;
    for (long long i = blockIdx.x * 256LL + threadIdx.x; i < n; i += 256LL * gridDim.x) {
        const int x = static_cast<int>(i % plane.width), y = static_cast<int>(i / plane.width);
        const unsigned k = classic::orderedKey(plane.at(x, y));
        lo = min(lo, k);
        hi = max(hi, k);
    }
    const unsigned blockLo = Reduce(temp).Reduce(lo, ::cuda::minimum<unsigned>());
    __syncthreads();  // the temp storage is reused
    const unsigned blockHi = Reduce(temp).Reduce(hi, ::cuda::maximum<unsigned>());
    if (threadIdx.x == 0) {
        atomicMin(out, blockLo);
        atomicMax(out + 1, blockHi);
    }
}

__global__ void initMinMaxKeys(unsigned* keys) {
    keys[0] = ~0u;
    keys[1] = 0;
}

// keys[0], keys[1] = the keys of the plane's smallest and largest value, on `stream`.
template <class T>
void minMaxKeys(DeviceImageView<const T> plane, unsigned* keys, int maxBlocks, cudaStream_t stream) {
    initMinMaxKeys<<<1, 1, 0, stream>>>(keys);
    LS_CUDA_CHECK_LAUNCH("initMinMaxKeys");
    const long long n = static_cast<long long>(plane.width) * plane.height;
    const int blocks = static_cast<int>(std::max<long long>(1, std::min<long long>(maxBlocks, (n + 255) / 256)));
    minMaxOfPlane<T><<<blocks, 256, 0, stream>>>(plane, keys);
    LS_CUDA_CHECK_LAUNCH("minMaxOfPlane");
}

}  // namespace
}  // namespace linescope::cuda
