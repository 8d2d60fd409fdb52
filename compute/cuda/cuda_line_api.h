// Device-resident line operators and sweeps: inputs and results stay in device memory and
// every call is asynchronous on the context's stream. The host API (cuda_backend.h) and
// GPU-resident callers (the renderer's interop textures, benchmarks) both use these.
#pragma once

#include "compute/backend.h"
#include "compute/cuda/cuda_context.h"
#include "compute/cuda/device_image.h"
#include "compute/line_geometry.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"

#include <cstdint>

namespace linescope::cuda {

// dst = op(src) along `family` by `seg`; Auto/Sheared/VanHerk: the band kernel, Fifo/Stack:
// the kernels of Karas et al. src and dst must not overlap. No host round trip.
template <class T>
void lineMorphDevice(MorphOp op, DeviceImageView<const T> src, DeviceImageView<T> dst, const LineFamily& family,
                     Segment seg, LineAlgorithm algorithm, CudaContext& ctx);

// A sweep's results in device memory (owned by the context's Sweep* buffers: valid until
// the next sweep). spectrumExact is null for float images.
template <class T>
struct DeviceSweepResult {
    DeviceImageView<T> sup, inf, strength;
    DeviceImageView<std::uint16_t> argIndex;
    std::int64_t* spectrumExact = nullptr;  // count entries (integer images)
    double* spectrum = nullptr;             // count entries
    int count = 0;
};

// Every angle of `req` in a few launches, folding each opening into the accumulators in
// shared memory and registers; no image per angle is written to device memory.
template <class T>
DeviceSweepResult<T> sweepDevice(DeviceImageView<const T> src, const SweepRequest& req, CudaContext& ctx);

}  // namespace linescope::cuda
