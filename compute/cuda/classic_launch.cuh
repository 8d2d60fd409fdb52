// Launch shapes shared by the classic kernels.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>

namespace linescope::cuda::classic {

// One thread a pixel in 32×8 blocks: a warp reads a row segment of 32 pixels.
inline const dim3 kPixelBlock(32, 8);

// The grid over a w×h image; its y extent is capped (CUDA allows 65535), so kernels stride
// over rows by gridDim.y · blockDim.y.
inline dim3 pixelGrid(int w, int h, dim3 block = kPixelBlock) {
    const unsigned gx = static_cast<unsigned>((w + static_cast<int>(block.x) - 1) / static_cast<int>(block.x));
    const unsigned gy = static_cast<unsigned>(
        std::min((h + static_cast<int>(block.y) - 1) / static_cast<int>(block.y), 65535));
    return dim3(std::max(gx, 1u), std::max(gy, 1u));
}

}  // namespace linescope::cuda::classic
