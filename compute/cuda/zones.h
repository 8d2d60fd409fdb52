// Image zones on the device: line operators and sweeps of an image too large for the
// device's memory (or for the device memory cap, CudaContext::setDeviceMemoryCap) computed
// strip by strip, each strip with its lines drawn as the whole image draws them, so that the
// kept rows are the single pass's bit for bit (compute/zone_plan.h says why). The host API
// (cuda_backend.cu) uploads each strip and downloads its kept rows; resident callers
// (resident.cu) view strips of a resident image and copy the kept rows on the device. When
// the whole image fits there is one strip, and the work is the single pass it always was.
// The caller holds ctx.lock().
#pragma once

#include "compute/cuda/cuda_context.h"
#include "compute/cuda/cuda_line_api.h"
#include "compute/cuda/device_image.h"
#include "compute/line_geometry.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"
#include "compute/zone_plan.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace linescope::cuda::zones {

// Where a strip's input rows come from: uploaded into the Source slot (the host API: they
// count in the strip's memory) or viewed in a resident image (nothing more to count).
enum class Input { Host, Device };

// The input rows [s.loadBegin, s.loadEnd) of the image, on the device.
template <class T>
using StripInput = std::function<DeviceImageView<const T>(const Strip& s)>;
// Takes a zone's kept rows [s.keepBegin, s.keepEnd) of the result (valid until the next zone).
template <class T>
using KeptRows = std::function<void(const Strip& s, DeviceImageView<const T> rows)>;

template <class T>
struct KeptSweep {
    DeviceImageView<const T> sup, inf, strength;
    DeviceImageView<const std::uint16_t> argIndex;
};
template <class T>
using KeptSweepRows = std::function<void(const Strip& s, const KeptSweep<T>& rows)>;

// The spectrum of all zones: each zone's sums added in zone order (exact for integer images,
// and a fixed order for float ones, so that a run repeats itself bit for bit).
struct Spectrum {
    std::vector<double> values;
    std::vector<std::int64_t> exact;  // integer images only
};

// The strips of op along `family` (the whole image's) within the memory a call may use;
// throws the device's or the cap's sentence when even one of 2R + 1 rows does not fit.
template <class T>
std::vector<Strip> lineMorphStrips(MorphOp op, const LineFamily& family, Segment seg, LineAlgorithm algorithm,
                                   Input input, CudaContext& ctx);
// Computes each strip into the Result slot and hands its kept rows to `output`.
template <class T>
void lineMorph(const std::vector<Strip>& strips, MorphOp op, const LineFamily& family, Segment seg,
               LineAlgorithm algorithm, const StripInput<T>& input, const KeptRows<T>& output, CudaContext& ctx);

template <class T>
std::vector<Strip> sweepStrips(int width, int height, const SweepRequest& req, Input input, CudaContext& ctx);
// `output` empty: the spectrum alone (sweepSpectrumDevice), no sweep images made.
template <class T>
Spectrum sweep(const std::vector<Strip>& strips, const SweepRequest& req, const StripInput<T>& input,
               const KeptSweepRows<T>& output, CudaContext& ctx);

// Rows [begin, end) of a device image, as a view of their own.
template <class T>
DeviceImageView<T> rowsOf(DeviceImageView<T> image, int begin, int end) {
    return {image.row(begin), image.width, end - begin, image.pitch};
}

// Zones run by calls cut into more than one since the process started: tests check with it
// that a cap forced an image into zones.
std::uint64_t zonesRun();

}  // namespace linescope::cuda::zones
