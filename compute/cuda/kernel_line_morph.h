// Erosion, dilation and their compositions by a translation-invariant line kernel
// (line_kernel.h: the digital segment, Soille–Talbot periodic lines) on the GPU: each output
// is the extreme of the input at the kernel's λ offsets, positions outside the image ignored —
// cpu::digitalLineErodeDilate's result bit for bit. Periodic lines: a sparse table along their
// lattice lines, ⌊log2 λ⌋ + 1 passes over the image a stage (the direct form when its levels
// do not fit the device). Segments longer than the decomposition's leaf: the recursive run
// decomposition (digital_line_device.h), O(log λ) passes; shorter ones, or when its planes do
// not fit, λ reads an output through the L1 cache (a warp's 32 outputs read 32 neighbouring
// pixels at each offset, and neighbouring offsets share cache lines).
#pragma once

#include "compute/cuda/cuda_context.h"
#include "compute/cuda/device_image.h"
#include "compute/image.h"
#include "compute/line_kernel.h"
#include "compute/line_morph.h"

namespace linescope::cuda {

// dst = op(src) by `kernel`, device to device on the context's stream; `mid` holds the first
// stage of openings, closings and top-hats (the size of src). The caller holds ctx.lock().
template <class T>
void kernelLineMorphDevice(MorphOp op, DeviceImageView<const T> src, DeviceImageView<T> dst, DeviceImageView<T> mid,
                           const LineKernel& kernel, CudaContext& ctx);

// The same over host images (upload, compute, download); the whole image must fit the device.
template <class T>
void kernelLineMorph(MorphOp op, ImageView<const T> src, ImageView<T> dst, const LineKernel& kernel);

}  // namespace linescope::cuda
