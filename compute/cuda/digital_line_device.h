// One stage (erosion or dilation) by a translation-invariant line kernel on the GPU through
// the recursive run decomposition (compute/digital_line_decomposition.h): O(log λ) passes over
// the image instead of λ reads a pixel, equal bit for bit to the CPU's
// (cpu::digitalLineErodeDilate) and to the direct form.
#pragma once

#include "compute/cuda/cuda_context.h"
#include "compute/cuda/device_image.h"
#include "compute/line_kernel.h"

#include <cstddef>

namespace linescope::cuda {

// The device memory one stage of `kernel` over a W×H image of T takes at most (its planes
// and sparse-table levels, from the context's stream-ordered pool).
template <class T>
std::size_t digitalLineStageBytes(const LineKernel& kernel, int width, int height);

// dst = ε(src) (erode) or δ(src) by `kernel`, device to device on the context's stream; dst
// must not overlap src. The caller holds ctx.lock().
template <class T>
void digitalLineStageDevice(bool erode, DeviceImageView<const T> src, DeviceImageView<T> dst, const LineKernel& kernel,
                            CudaContext& ctx);

}  // namespace linescope::cuda
