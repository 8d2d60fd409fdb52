// Which sliding-window kernel the sheared strips run, and where the choice flips.
#pragma once

namespace linescope::cpu {

// Chosen by window length (Auto), or forced (tests cover both kernels at every length).
enum class WindowKernel { Auto, Direct, VanHerk };

// The longest window (λ) that the direct kernel serves under WindowKernel::Auto. Measured
// on the development machine (tests/bench/cpu-results.md): up to this length the direct
// kernel's λ−1 comparisons a lane cost less than van Herk's 3 plus its block bookkeeping.
inline constexpr int kDirectMaxWindow = 4;

inline bool usesDirectKernel(WindowKernel k, int windowLength) {
    return k == WindowKernel::Direct || (k == WindowKernel::Auto && windowLength <= kDirectMaxWindow);
}

}  // namespace linescope::cpu
