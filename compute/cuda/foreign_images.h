// What the engine needs to take images from, and hand results to, other CUDA libraries
// (CuPy, PyTorch, Numba: the Python package's DLPack and __cuda_array_interface__ arrays)
// without copying them: where a pointer lives, stream hand-overs, the NaN check a float image
// gets on the host, and the sweep's angle plane and colours computed on the device.
#pragma once

#include "compute/cuda/cuda_context.h"
#include "compute/cuda/resident.h"
#include "compute/sweep.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

namespace linescope::cuda {

// The device that `pointer` lies on, or -1 when CUDA does not know it as device or managed
// memory (host memory, pinned host memory, garbage).
int deviceOfPointer(const void* pointer);

// A stream handle as the array protocols pass it: 1 is the legacy default stream, 2 the
// per-thread default stream, anything else a cudaStream_t (0 and -1 are not streams).
cudaStream_t protocolStream(std::intptr_t handle);

// Makes `waiter` wait for the work enqueued on `producer` so far (an event between them;
// no host wait).
void streamWaits(cudaStream_t waiter, cudaStream_t producer);

// The first pixel, in row order, that holds NaN, found on the device (float images; the CPU
// path refuses such images before any work, and so does a device input).
std::optional<std::pair<int, int>> firstNaN(const ResidentImage& image, CudaContext& ctx);

// Each pixel's angle in degrees, as float: angles.angle(argIndex) rounded from double, as
// SweepResult::orientation and the CLI's orientation-angles.tiff do. Complete on return.
std::shared_ptr<ResidentImage> orientationPlane(const ResidentImage& argIndex, const AngleSet& angles,
                                                CudaContext& ctx);

// The orientation map's colours (orientationColours: hue from the angle of argIndex, value
// strength / maxStrength; black where maxStrength is not a positive finite number) as 8-bit
// RGB, the same bytes: a U8 image 3 × the width (r, g, b a pixel). Complete on return.
std::shared_ptr<ResidentImage> orientationColoursPlane(const ResidentImage& argIndex, const ResidentImage& strength,
                                                       double maxStrength, const AngleSet& angles, CudaContext& ctx);

}  // namespace linescope::cuda
