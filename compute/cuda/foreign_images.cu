#include "compute/cuda/foreign_images.h"

#include "compute/cuda/cuda_check.h"
#include "compute/orientation_hue.h"

#include <cmath>
#include <vector>

namespace linescope::cuda {
namespace {

constexpr dim3 kBlock(32, 8);
dim3 gridFor(int w, int h) { return dim3((w + 31) / 32, (h + 7) / 8); }

// The smallest row-order index of a NaN pixel; `first` starts at UINT64_MAX.
__global__ void findFirstNaN(DeviceImageView<const float> image, unsigned long long* first) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= image.width || y >= image.height) return;
    if (isnan(image.at(x, y)))
        atomicMin(first, static_cast<unsigned long long>(y) * static_cast<unsigned long long>(image.width) +
                             static_cast<unsigned long long>(x));
}

__global__ void anglesOfIndices(DeviceImageView<const std::uint16_t> argIndex, const float* table,
                                DeviceImageView<float> out) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= out.width || y >= out.height) return;
    out.at(x, y) = table[argIndex.at(x, y)];
}

// orientationRgb (orientation_hue.h) at every pixel, its hue from the table.
template <class T>
__global__ void coloursOf(DeviceImageView<const std::uint16_t> argIndex, DeviceImageView<const T> strength,
                          double maxStrength, const OrientationHue* table, DeviceImageView<std::uint8_t> rgb) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= argIndex.width || y >= argIndex.height) return;
    const double value = __ddiv_rn(static_cast<double>(strength.at(x, y)), maxStrength);
    orientationRgb(table[argIndex.at(x, y)], value, &rgb.at(3 * x, y));
}

// `table` copied to the device for launch(its device copy) on `s`; returns once the kernel ran
// (the table is pageable host memory) and its copy is freed.
template <class E, class Launch>
void launchWithTable(const std::vector<E>& table, cudaStream_t s, Launch&& launch) {
    E* deviceTable = nullptr;
    const std::size_t bytes = table.size() * sizeof(E);
    LS_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&deviceTable), bytes, s));
    cudaError_t status = cudaMemcpyAsync(deviceTable, table.data(), bytes, cudaMemcpyHostToDevice, s);
    if (status == cudaSuccess) {
        launch(static_cast<const E*>(deviceTable));
        status = cudaPeekAtLastError();
    }
    if (status == cudaSuccess) status = cudaStreamSynchronize(s);
    LS_CUDA_CHECK(cudaFreeAsync(deviceTable, s));
    LS_CUDA_CHECK(status);
    CudaContext::countHostTraffic(bytes);
}

}  // namespace

int deviceOfPointer(const void* pointer) {
    cudaPointerAttributes a{};
    const cudaError_t status = cudaPointerGetAttributes(&a, pointer);
    if (status != cudaSuccess) {
        (void)cudaGetLastError();  // an unknown pointer is an answer here, not a failure
        return -1;
    }
    return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged ? a.device : -1;
}

cudaStream_t protocolStream(std::intptr_t handle) {
    if (handle == 1) return cudaStreamLegacy;
    if (handle == 2) return cudaStreamPerThread;
    return reinterpret_cast<cudaStream_t>(handle);
}

void streamWaits(cudaStream_t waiter, cudaStream_t producer) {
    if (waiter == producer) return;
    cudaEvent_t done = nullptr;
    LS_CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    const cudaError_t recorded = cudaEventRecord(done, producer);
    const cudaError_t waited = recorded == cudaSuccess ? cudaStreamWaitEvent(waiter, done, 0) : recorded;
    LS_CUDA_CHECK(cudaEventDestroy(done));  // released once the wait is satisfied
    LS_CUDA_CHECK(waited);
}

std::optional<std::pair<int, int>> firstNaN(const ResidentImage& image, CudaContext& ctx) {
    if (image.type() != PixelType::F32) return std::nullopt;
    const cudaStream_t s = ctx.stream();
    unsigned long long* first = nullptr;
    LS_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&first), sizeof *first, s));
    unsigned long long found = ~0ull;
    cudaError_t status = cudaMemsetAsync(first, 0xFF, sizeof *first, s);
    if (status == cudaSuccess) {
        findFirstNaN<<<gridFor(image.width(), image.height()), kBlock, 0, s>>>(image.view<float>(), first);
        status = cudaPeekAtLastError();
    }
    if (status == cudaSuccess) status = cudaMemcpyAsync(&found, first, sizeof found, cudaMemcpyDeviceToHost, s);
    if (status == cudaSuccess) status = cudaStreamSynchronize(s);
    LS_CUDA_CHECK(cudaFreeAsync(first, s));
    LS_CUDA_CHECK(status);
    CudaContext::countHostTraffic(sizeof found);
    if (found == ~0ull) return std::nullopt;
    const auto w = static_cast<unsigned long long>(image.width());
    return std::pair<int, int>(static_cast<int>(found % w), static_cast<int>(found / w));
}

std::shared_ptr<ResidentImage> orientationPlane(const ResidentImage& argIndex, const AngleSet& angles,
                                                CudaContext& ctx) {
    std::vector<float> table(static_cast<std::size_t>(angles.count));
    for (int k = 0; k < angles.count; ++k) table[static_cast<std::size_t>(k)] = static_cast<float>(angles.angle(k));
    auto out = std::make_shared<ResidentImage>(PixelType::F32, argIndex.width(), argIndex.height(), ctx);
    launchWithTable(table, ctx.stream(), [&](const float* deviceTable) {
        anglesOfIndices<<<gridFor(out->width(), out->height()), kBlock, 0, ctx.stream()>>>(
            argIndex.view<std::uint16_t>(), deviceTable, out->view<float>());
    });
    return out;
}

std::shared_ptr<ResidentImage> orientationColoursPlane(const ResidentImage& argIndex, const ResidentImage& strength,
                                                       double maxStrength, const AngleSet& angles, CudaContext& ctx) {
    auto out = std::make_shared<ResidentImage>(PixelType::U8, 3 * argIndex.width(), argIndex.height(), ctx);
    const cudaStream_t s = ctx.stream();
    if (!(maxStrength > 0) || !std::isfinite(maxStrength)) {  // no orientation anywhere: black
        LS_CUDA_CHECK(cudaMemset2DAsync(out->data(), out->pitch(), 0, static_cast<std::size_t>(out->width()),
                                        static_cast<std::size_t>(out->height()), s));
        LS_CUDA_CHECK(cudaStreamSynchronize(s));
        return out;
    }
    std::vector<OrientationHue> table(static_cast<std::size_t>(angles.count));
    for (int k = 0; k < angles.count; ++k) table[static_cast<std::size_t>(k)] = orientationHue(angles.angle(k));
    launchWithTable(table, s, [&](const OrientationHue* deviceTable) {
        visitPixelType(strength.type(), [&](auto tag) {
            using T = decltype(tag);
            coloursOf<T><<<gridFor(argIndex.width(), argIndex.height()), kBlock, 0, s>>>(
                argIndex.view<std::uint16_t>(), strength.view<T>(), maxStrength, deviceTable,
                out->view<std::uint8_t>());
        });
    });
    return out;
}

}  // namespace linescope::cuda
