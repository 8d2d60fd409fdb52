// Contours on the GPU for callers whose binary image is already in device memory (the
// renderer's interop textures, the GPU benchmark). The host API (cuda_backend.h, and
// findContours with the CUDA backend) uploads and calls this.
#pragma once

#include "compute/contours/contours.h"
#include "compute/cuda/cuda_context.h"
#include "compute/cuda/device_image.h"

#include <cstdint>

namespace linescope::cuda {

// The contours of `binary` (non-zero = foreground) into `out`, whose arrays are reused: the
// same contours, points, order and hierarchy as the CPU backend (and so as OpenCV's
// findContours). The tracking rectangles are tuning.gpuRectWidth × gpuRectHeight. Phase
// timings come from CUDA events (download: the device-to-host copy of the points).
// Synchronous: `out` is complete at return. The caller holds ctx.lock(); binary must not
// live in the context's Contour* buffers. Throws Error on an empty image, a side over 65535
// pixels, bad rectangles, too little device memory, or an internal error.
void findContoursDevice(DeviceImageView<const std::uint8_t> binary, ContourMode mode, ContourApprox approx,
                        const ContourTuning& tuning, Contours& out, ContourTimings* timings, CudaContext& ctx);

}  // namespace linescope::cuda
