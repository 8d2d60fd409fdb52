// The classic operators on device images, for GPU-resident callers (the renderer's interop
// textures, benchmarks) and for the host API of cuda_backend.h.
#pragma once

#include "compute/classic_morph.h"
#include "compute/cuda/cuda_context.h"
#include "compute/cuda/device_image.h"

namespace linescope::cuda {

// dst = op(src) by `se` with se.method's kernels (Auto: VanHerk), the same pixels as the
// CPU backend bit for bit. Works in the context's Temp, Temp2 and Scratch buffers, so src
// and dst must live elsewhere (Source and Result, say) and must not overlap. Asynchronous
// on ctx.stream(); the caller holds ctx.lock(). Throws Error on a bad SE, or for Naive,
// Global and SharedTile with a shape other than Rect.
template <class T>
void classicMorphDevice(MorphOp op, DeviceImageView<const T> src, DeviceImageView<T> dst, const ClassicSE& se,
                        CudaContext& ctx);

}  // namespace linescope::cuda
