// Small kernels of the benchmark's own: the fold of one opening into a peer's sweep results
// (the NPP peer computes openings only; this gives it the same outputs as the engine's sweep).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace lsbench {

// Folds the opening `img` of angle index k into sup/inf (max/min), arg (smallest k reaching
// sup) and spectrum[k] (+= Σ img). k = 0 initialises sup, inf and arg. sup, inf share a pitch.
void launchSweepFold(const std::uint8_t* img, std::size_t imgPitch, int width, int height, int k, std::uint8_t* sup,
                     std::uint8_t* inf, std::size_t accPitch, std::uint16_t* arg, std::size_t argPitch,
                     unsigned long long* spectrum, cudaStream_t stream);

// strength = sup − inf (all three with the same pitch).
void launchStrength(const std::uint8_t* sup, const std::uint8_t* inf, std::uint8_t* strength, std::size_t pitch,
                    int width, int height, cudaStream_t stream);

}  // namespace lsbench
