// Kernels writing the viewport's textures from device-resident results (gpu_view_kernels.h).
#include "render/gpu_view_kernels.h"

#include "compute/cuda/cuda_check.h"

#include <cub/block/block_reduce.cuh>

#include <cfloat>

namespace linescope::render::gpu {
namespace {

constexpr int kThreads = 256;

struct MinMax {
    float lo, hi;
};
struct MinMaxOp {
    __device__ MinMax operator()(MinMax a, MinMax b) const { return {fminf(a.lo, b.lo), fmaxf(a.hi, b.hi)}; }
};

// Grid-stride over the pitched image, one partial (min, max) per block.
template <class T>
__global__ void partialMinMax(cuda::DeviceImageView<const T> src, MinMax* partials) {
    using Reduce = cub::BlockReduce<MinMax, kThreads>;
    __shared__ typename Reduce::TempStorage temp;
    MinMax m{FLT_MAX, -FLT_MAX};
    const long long n = static_cast<long long>(src.width) * src.height;
    for (long long i = blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x; i < n;
         i += static_cast<long long>(gridDim.x) * kThreads) {
        const float v = static_cast<float>(src.at(static_cast<int>(i % src.width), static_cast<int>(i / src.width)));
        m = {fminf(m.lo, v), fmaxf(m.hi, v)};
    }
    const MinMax r = Reduce(temp).Reduce(m, MinMaxOp{});
    if (threadIdx.x == 0) partials[blockIdx.x] = r;
}

__global__ void finishMinMax(const MinMax* partials, int count, float* out) {
    using Reduce = cub::BlockReduce<MinMax, kThreads>;
    __shared__ typename Reduce::TempStorage temp;
    MinMax m{FLT_MAX, -FLT_MAX};
    for (int i = threadIdx.x; i < count; i += kThreads) m = MinMaxOp{}(m, partials[i]);
    const MinMax r = Reduce(temp).Reduce(m, MinMaxOp{});
    if (threadIdx.x == 0) {
        out[0] = r.lo;
        out[1] = r.hi;
    }
}

template <class T>
__global__ void copyToSurface(cuda::DeviceImageView<const T> src, cudaSurfaceObject_t dst) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= src.width || y >= src.height) return;
    surf2Dwrite(src.at(x, y), dst, x * static_cast<int>(sizeof(T)), y);
}

__global__ void normalisedFloat(cuda::DeviceImageView<const float> src, const float* minMax, cudaSurfaceObject_t dst) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= src.width || y >= src.height) return;
    const float lo = minMax[0], hi = minMax[1];
    const float v = hi > lo ? (src.at(x, y) - lo) / (hi - lo) : 0.0f;
    surf2Dwrite(v, dst, x * static_cast<int>(sizeof(float)), y);
}

template <class T>
__global__ void orientation(cuda::DeviceImageView<const std::uint16_t> argIndex, double firstAngle, double step,
                            cuda::DeviceImageView<const T> strength, const float* max, cudaSurfaceObject_t angleDst,
                            cudaSurfaceObject_t strengthDst) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= argIndex.width || y >= argIndex.height) return;
    // AngleSet::angle and normalizeAngle in the same double operations (no contraction into
    // an FMA), so the colours match the CPU path's.
    double a = __dadd_rn(firstAngle, __dmul_rn(static_cast<double>(argIndex.at(x, y)), step));
    a = fmod(a, 180.0);
    if (a < 0) a = __dadd_rn(a, 180.0);
    if (a >= 180.0) a = 0.0;
    const float m = max[0];
    const float s = static_cast<float>(strength.at(x, y));
    const float v = m > 0.0f && m <= FLT_MAX ? fminf(fmaxf(s / m, 0.0f), 1.0f) : 0.0f;
    surf2Dwrite(static_cast<float>(a), angleDst, x * static_cast<int>(sizeof(float)), y);
    surf2Dwrite(v, strengthDst, x * static_cast<int>(sizeof(float)), y);
}

dim3 tiles(int width, int height) { return dim3((width + 31) / 32, (height + 7) / 8); }

}  // namespace

void minMaxFloat(cuda::DeviceImageView<const float> src, float* partials, float* minMax, cudaStream_t stream) {
    auto* p = reinterpret_cast<MinMax*>(partials);
    partialMinMax<float><<<kReduceBlocks, kThreads, 0, stream>>>(src, p);
    LS_CUDA_CHECK(cudaGetLastError());
    finishMinMax<<<1, kThreads, 0, stream>>>(p, kReduceBlocks, minMax);
    LS_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void writeCopy(cuda::DeviceImageView<const T> src, cudaSurfaceObject_t dst, cudaStream_t stream) {
    copyToSurface<T><<<tiles(src.width, src.height), dim3(32, 8), 0, stream>>>(src, dst);
    LS_CUDA_CHECK(cudaGetLastError());
}

void writeNormalisedFloat(cuda::DeviceImageView<const float> src, const float* minMax, cudaSurfaceObject_t dst,
                          cudaStream_t stream) {
    normalisedFloat<<<tiles(src.width, src.height), dim3(32, 8), 0, stream>>>(src, minMax, dst);
    LS_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void writeOrientation(cuda::DeviceImageView<const std::uint16_t> argIndex, double firstAngle, double step,
                      cuda::DeviceImageView<const T> strength, const float* max, cudaSurfaceObject_t angleDst,
                      cudaSurfaceObject_t strengthDst, cudaStream_t stream) {
    orientation<T><<<tiles(argIndex.width, argIndex.height), dim3(32, 8), 0, stream>>>(
        argIndex, firstAngle, step, strength, max, angleDst, strengthDst);
    LS_CUDA_CHECK(cudaGetLastError());
}

#define LINESCOPE_GPU_VIEW_TYPES(T)                                                                            \
    template void writeCopy<T>(cuda::DeviceImageView<const T>, cudaSurfaceObject_t, cudaStream_t);           \
    template void writeOrientation<T>(cuda::DeviceImageView<const std::uint16_t>, double, double,            \
                                      cuda::DeviceImageView<const T>, const float*, cudaSurfaceObject_t,      \
                                      cudaSurfaceObject_t, cudaStream_t);
LINESCOPE_GPU_VIEW_TYPES(std::uint8_t)
LINESCOPE_GPU_VIEW_TYPES(std::uint16_t)
LINESCOPE_GPU_VIEW_TYPES(float)
#undef LINESCOPE_GPU_VIEW_TYPES

}  // namespace linescope::render::gpu
