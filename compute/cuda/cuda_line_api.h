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

#include <climits>
#include <cstddef>
#include <cstdint>

namespace linescope::cuda {

// Where a sub-image sits in the image it was cut from (an image zone, zones.h): its row 0 is
// row originY of the whole, and only its rows [keepBegin, keepEnd) are kept (a sweep's
// spectrum counts only their pixels; the other rows' results may be anything). The default
// is the whole image.
struct ZoneFrame {
    int originY = 0;
    int keepBegin = 0, keepEnd = INT_MAX;
};

// dst = op(src) along `family` by `seg`; Auto/Sheared/VanHerk: the band kernel, Fifo/Stack:
// the kernels of Karas et al. src and dst must not overlap. No host round trip. A zone
// passes the family of its strip (stripFamily, line_geometry.h), which draws the whole
// image's lines.
template <class T>
void lineMorphDevice(MorphOp op, DeviceImageView<const T> src, DeviceImageView<T> dst, const LineFamily& family,
                     Segment seg, LineAlgorithm algorithm, CudaContext& ctx);
// The device memory lineMorphDevice takes on a width × height image beyond src and dst
// (transposes, working arrays): what the zone planner sizes strips by.
template <class T>
std::size_t lineMorphDeviceBytes(MorphOp op, const LineFamily& family, Segment seg, LineAlgorithm algorithm,
                                 CudaContext& ctx);

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
// `frame` places src in a larger image (zones): lines are drawn as that image draws them.
template <class T>
DeviceSweepResult<T> sweepDevice(DeviceImageView<const T> src, const SweepRequest& req, CudaContext& ctx,
                                 const ZoneFrame& frame = {});
// A sweep's spectrum alone, in the context's Spectrum buffer (valid until the next sweep).
struct DeviceSpectrum {
    std::int64_t* exact = nullptr;  // count entries (integer images)
    double* values = nullptr;       // count entries
    int count = 0;
};

// sweepDevice(src, req, ctx, frame)'s spectrum bit for bit (the same partial sums in the same
// order), without its images: long segments' bands are summed and never folded into
// accumulators, so no accumulator is read or written and no merge runs.
template <class T>
DeviceSpectrum sweepSpectrumDevice(DeviceImageView<const T> src, const SweepRequest& req, CudaContext& ctx,
                                   const ZoneFrame& frame = {});
// The device memory sweepDevice takes on a width × height image beyond src (results,
// accumulators, partial sums, transposes); SIZE_MAX when the image is too large for it at
// once. What its own check compares and the zone planner sizes strips by.
template <class T>
std::size_t sweepDeviceBytes(int width, int height, const SweepRequest& req, CudaContext& ctx);

}  // namespace linescope::cuda
