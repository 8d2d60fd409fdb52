// A float image as the ranks of its values: flat morphology commutes with any strictly
// increasing map of the values, so a sweep of the ranks, read back through the table of
// values, is the float sweep bit for bit. An image with at most 65,536 distinct values
// (every image made from 8- or 16-bit data) thus runs on the 16-bit kernels, which need half
// the shared memory and half the key width of float ones.
#pragma once

#include "compute/cuda/cuda_context.h"
#include "compute/cuda/device_image.h"

#include <cstddef>
#include <cstdint>

namespace linescope::cuda {

// The most distinct values a 16-bit rank image holds.
constexpr int kMaxFloatRanks = 65536;

struct FloatRanks {
    DeviceImageView<const std::uint16_t> ranks;  // in BufferSlot::Temp
    const float* values = nullptr;               // values[r]: the value of rank r, increasing (Temp2)
    int distinct = 0;
};

// The device memory rankFloats reserves for a width × height image.
std::size_t floatRanksBytes(int width, int height);

// Ranks src's values (−0 counted as +0, as every kernel reads it) on the context's stream and
// waits for the count of distinct values; false, with nothing else done, when there are more
// than kMaxFloatRanks. Uses the Temp, Temp2 and Scratch buffers.
bool rankFloats(DeviceImageView<const float> src, CudaContext& ctx, FloatRanks& out);

}  // namespace linescope::cuda
