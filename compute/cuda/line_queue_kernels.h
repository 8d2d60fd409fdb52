// Line operators by one streaming min/max queue (FIFO) or stack of cords per line: the GPU
// kernels of Karas et al. (2015), kept beside the engine's own kernels so that the
// two can be compared: one thread per line (or per zone of a line), a streaming queue or stack per
// thread held in shared memory and spilling to global memory, cached input reads, transposed
// writes for x-major families and image zones for small images. Bit-exact with the CPU backend.
#pragma once

#include "compute/backend.h"        // LineAlgorithm
#include "compute/cuda/cuda_context.h"
#include "compute/cuda/device_image.h"
#include "compute/line_geometry.h"  // LineFamily, Segment
#include "compute/line_morph.h"     // MorphOp

namespace linescope::cuda {

// dst = op(src) along `family` by the segment `seg` (op: Erode, Dilate, Open, Close, TopHat),
// with the kernels of Karas et al.: algorithm Fifo (Bartovsky's FIFO) or Stack (Morard).
// Runs on ctx.stream(); may use ctx.buffer(BufferSlot::Scratch) and BufferSlot::Temp/Temp2 for device
// working memory (never allocate per call otherwise); does not synchronize; checks every CUDA call.
// src and dst must not overlap each other nor lie in the Scratch or Temp slots. Erode and Dilate
// use the streaming min/max queue for both algorithms (Morard's stack is an opening algorithm).
template <class T>
void queueLineMorph(LineAlgorithm algorithm, MorphOp op, DeviceImageView<const T> src, DeviceImageView<T> dst,
                    const LineFamily& family, Segment seg, CudaContext& ctx);
// The device memory queueLineMorph takes beyond src and dst: the spilled queues (at most a
// quarter of what is available) and, for x-major families, the transposed output.
template <class T>
std::size_t queueLineMorphBytes(LineAlgorithm algorithm, MorphOp op, const LineFamily& family, Segment seg,
                                CudaContext& ctx);

}  // namespace linescope::cuda
