// A sweep's spectrum alone for integer images and long segments: one warp for four u8 lines
// or two u16 ones, packed in 32-bit words (SIMD min and max), the whole lines in shared
// memory, each stage a van Herk/Gil-Werman pass whose block prefix and suffix extremes are
// lane runs joined by warp scans; each line's sum added exactly (64-bit integers, so in any
// order). The band kernel's spectrum bit for bit, without its chunk
// tables and block-wide barriers (tests/bench/band-kernel-notes.md says what it saves).
#pragma once

#include "compute/cuda/cuda_context.h"
#include "compute/cuda/cuda_line_api.h"
#include "compute/cuda/device_image.h"
#include "compute/sweep.h"

namespace linescope::cuda {

// Whether the warp kernel takes this sweep's spectrum: integer pixels, a whole image (a
// zone's frame keeps all its rows), lines that fit a warp's shared memory, segments long enough that a stage's blocks
// are mostly whole tiles of 32 (LINESCOPE_SPECTRUM_KERNEL=band keeps the band kernel).
template <class T>
bool lineSpectrumWarpsTake(int width, int height, const SweepRequest& req, const ZoneFrame& frame,
                           const CudaContext& ctx);

// The spectrum of `req` over src (integer T, when lineSpectrumWarpsTake), in the context's
// Partials, Temp and Spectrum buffers.
template <class T>
DeviceSpectrum lineSpectrumWarps(DeviceImageView<const T> src, const SweepRequest& req, CudaContext& ctx);

}  // namespace linescope::cuda
