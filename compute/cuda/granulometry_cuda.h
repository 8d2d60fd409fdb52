// The one-pass granulometry of line paths on the GPU (compute/granulometry_line.h): one thread
// a line walks its cords and adds each cord's term to its λ bucket, in shared memory per
// block, then once into the grid's buckets. Integer images (uint8, uint16) only: their terms
// are whole numbers, so atomic additions in any order give the CPU's sums exactly; float32
// sums are exact sums (exact_sum.h), which atomics cannot build, and stay on the CPU.
//
// granulometry() calls it for integer images without a mask on the CUDA backend;
// tests/compute/test_cuda_granulometry.cpp (label gpu) compares it, and the dispatcher, with
// the CPU (it passed on the H200 under memcheck, racecheck, initcheck and synccheck:
// tests/gpu/sanitizer-results.md).
#pragma once

#include "compute/granulometry.h"
#include "compute/image.h"
#include "compute/line_geometry.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace linescope::cuda {

// bucket[μ], μ = 1 … maxLength + 1 (index 0 unused), of every line of `family` over the
// pixels of `rect` (clipped to the image; nullopt: all): S(λ) = Σ_{μ ≥ λ} bucket[μ], equal
// to cpu::granulometryPaths. T: uint8_t or uint16_t. Holds the context's lock; synchronizes.
template <class T>
std::vector<std::int64_t> granulometryPathsBuckets(ImageView<const T> src, const LineFamily& family, int maxLength,
                                                   const std::optional<PixelRect>& rect);

}  // namespace linescope::cuda
