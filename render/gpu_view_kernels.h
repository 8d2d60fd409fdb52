// The kernels that write the viewport's registered textures from device-resident engine
// results (built only with LINESCOPE_HAVE_CUDA). Each writes through a surface object over
// a mapped OpenGL texture, on the given stream, with no host round trip: normalisations use
// extremes that a device reduction left in device memory.
#pragma once

#if defined(LINESCOPE_HAVE_CUDA)

#include "compute/cuda/device_image.h"

#include <cuda_runtime.h>

#include <cstdint>

namespace linescope::render::gpu {

// minMax[0] = min, minMax[1] = max of a float image, by two launches (blocks, then one
// block over the partials). `partials` holds at least kReduceBlocks·2 floats.
inline constexpr int kReduceBlocks = 264;
void minMaxFloat(cuda::DeviceImageView<const float> src, float* partials, float* minMax, cudaStream_t stream);

// An R8, R16 or R32F texture of the same pixels (uint8, uint16, float).
template <class T>
void writeCopy(cuda::DeviceImageView<const T> src, cudaSurfaceObject_t dst, cudaStream_t stream);

// An R32F texture of (v − min)/(max − min) (all 0 when max == min), so the grey shader's
// display range is 0…1: float views need no extremes on the host.
void writeNormalisedFloat(cuda::DeviceImageView<const float> src, const float* minMax, cudaSurfaceObject_t dst,
                          cudaStream_t stream);

// The orientation map's two R32F textures: α_k = firstAngle + k·step, taken modulo 180 as
// the CPU path does (normalizeAngle), and strength / max (0 when max is 0 or not finite).
template <class T>
void writeOrientation(cuda::DeviceImageView<const std::uint16_t> argIndex, double firstAngle, double step,
                      cuda::DeviceImageView<const T> strength, const float* max, cudaSurfaceObject_t angleDst,
                      cudaSurfaceObject_t strengthDst, cudaStream_t stream);

}  // namespace linescope::render::gpu

#endif  // LINESCOPE_HAVE_CUDA
