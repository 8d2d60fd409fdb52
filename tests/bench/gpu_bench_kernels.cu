#include "tests/bench/gpu_bench_kernels.h"

namespace lsbench {

namespace {

constexpr int kThreads = 256;

__global__ void sweepFoldKernel(const std::uint8_t* __restrict__ img, std::size_t imgPitch, int width, int k,
                                std::uint8_t* __restrict__ sup, std::uint8_t* __restrict__ inf, std::size_t accPitch,
                                std::uint16_t* __restrict__ arg, std::size_t argPitch,
                                unsigned long long* __restrict__ spectrum) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y;
    unsigned v = 0;
    if (x < width) {
        v = img[y * imgPitch + x];
        std::uint8_t* s = sup + y * accPitch + x;
        std::uint8_t* i = inf + y * accPitch + x;
        std::uint16_t* a = reinterpret_cast<std::uint16_t*>(reinterpret_cast<unsigned char*>(arg) + y * argPitch) + x;
        if (k == 0) {
            *s = static_cast<std::uint8_t>(v);
            *i = static_cast<std::uint8_t>(v);
            *a = 0;
        } else {
            if (v > *s) {
                *s = static_cast<std::uint8_t>(v);
                *a = static_cast<std::uint16_t>(k);
            }
            if (v < *i) *i = static_cast<std::uint8_t>(v);
        }
    }
    // Row sums: a warp reduction, then one atomic a warp (shuffles: sm_75 has no __reduce_add_sync).
    for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
    if ((threadIdx.x & 31) == 0 && v) atomicAdd(spectrum + k, static_cast<unsigned long long>(v));
}

__global__ void strengthKernel(const std::uint8_t* __restrict__ sup, const std::uint8_t* __restrict__ inf,
                               std::uint8_t* __restrict__ strength, std::size_t pitch, int width) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const std::size_t o = blockIdx.y * pitch + x;
    if (x < width) strength[o] = static_cast<std::uint8_t>(sup[o] - inf[o]);
}

}  // namespace

void launchSweepFold(const std::uint8_t* img, std::size_t imgPitch, int width, int height, int k, std::uint8_t* sup,
                     std::uint8_t* inf, std::size_t accPitch, std::uint16_t* arg, std::size_t argPitch,
                     unsigned long long* spectrum, cudaStream_t stream) {
    const dim3 grid((width + kThreads - 1) / kThreads, height);
    sweepFoldKernel<<<grid, kThreads, 0, stream>>>(img, imgPitch, width, k, sup, inf, accPitch, arg, argPitch, spectrum);
}

void launchStrength(const std::uint8_t* sup, const std::uint8_t* inf, std::uint8_t* strength, std::size_t pitch,
                    int width, int height, cudaStream_t stream) {
    const dim3 grid((width + kThreads - 1) / kThreads, height);
    strengthKernel<<<grid, kThreads, 0, stream>>>(sup, inf, strength, pitch, width);
}

}  // namespace lsbench
