// Which sliding-window kernel the sheared strips run, and where the choice flips.
#pragma once

namespace linescope::cpu {

// Chosen by window length (Auto), or forced (tests cover both kernels at every length).
enum class WindowKernel { Auto, Direct, VanHerk };

// The longest window (λ) that the direct kernel serves under WindowKernel::Auto. Measured
// on the development machine (tests/bench/cpu-results.md, 2048² u8 openings at 0° and 90°):
// up to λ = 5 the direct kernel's λ−1 comparisons a lane cost no more than van Herk's 3
// plus its block bookkeeping; from λ = 6 van Herk is faster.
inline constexpr int kDirectMaxWindow = 5;

inline bool usesDirectKernel(WindowKernel k, int windowLength) {
    return k == WindowKernel::Direct || (k == WindowKernel::Auto && windowLength <= kDirectMaxWindow);
}

}  // namespace linescope::cpu
