// The last steps of every GPU sweep: its result buffers, and the angular spectrum from the
// kernels' partial sums.
#pragma once

#include "compute/cuda/cuda_context.h"
#include "compute/cuda/cuda_line_api.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace linescope::cuda {

template <class T>
using SpectrumSum = std::conditional_t<std::is_floating_point_v<T>, double, long long>;

// spectrum[k] = Σ partials[k][0 … count): one block per angle, in a fixed order, so that a
// float spectrum is the same on every run (integer ones are exact 64-bit sums anyway).
template <class T>
__global__ void sumSpectrum(const SpectrumSum<T>* __restrict__ partials, int count, std::int64_t* exact,
                            double* spectrum) {
    __shared__ SpectrumSum<T> warpSums[32];
    const SpectrumSum<T>* row = partials + static_cast<std::size_t>(blockIdx.x) * count;
    SpectrumSum<T> s = 0;
    for (int i = threadIdx.x; i < count; i += blockDim.x) s += row[i];
    for (int d = 16; d > 0; d >>= 1) s += __shfl_down_sync(0xffffffffu, s, d);
    if ((threadIdx.x & 31) == 0) warpSums[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        SpectrumSum<T> total = 0;
        for (int w = 0; w < static_cast<int>(blockDim.x >> 5); ++w) total += warpSums[w];
        if constexpr (std::is_floating_point_v<T>) {
            spectrum[blockIdx.x] = total;
        } else {
            exact[blockIdx.x] = total;
            spectrum[blockIdx.x] = static_cast<double>(total);
        }
    }
}

// A spectrum of `count` angles in the context's Spectrum buffer (valid until the next sweep):
// the values, then the exact sums of integer images.
template <class T>
DeviceSpectrum spectrumBuffers(int count, CudaContext& ctx) {
    auto* spectra = static_cast<unsigned char*>(
        ctx.buffer(BufferSlot::Spectrum).reserve(count * (sizeof(double) + sizeof(std::int64_t))));
    DeviceSpectrum r;
    r.count = count;
    r.values = reinterpret_cast<double*>(spectra);
    r.exact = std::is_floating_point_v<T> ? nullptr : reinterpret_cast<std::int64_t*>(spectra + count * sizeof(double));
    return r;
}

// A sweep's results in the context's Sweep* and Spectrum buffers (valid until the next sweep).
template <class T>
DeviceSweepResult<T> sweepResultBuffers(int width, int height, int count, CudaContext& ctx) {
    DeviceSweepResult<T> r;
    r.count = count;
    r.sup = ctx.image<T>(BufferSlot::SweepSup, width, height);
    r.inf = ctx.image<T>(BufferSlot::SweepInf, width, height);
    r.strength = ctx.image<T>(BufferSlot::SweepStrength, width, height);
    r.argIndex = ctx.image<std::uint16_t>(BufferSlot::SweepArg, width, height);
    const DeviceSpectrum spectrum = spectrumBuffers<T>(count, ctx);
    r.spectrum = spectrum.values;
    r.spectrumExact = spectrum.exact;
    return r;
}

}  // namespace linescope::cuda
