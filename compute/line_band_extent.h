// Where a band of parallel lines crosses the image, in closed form: the major positions t at
// which some line c ∈ [c0, c0 + lanes − 1] of a family has its pixel inside the image,
// i.e. off(t) ∈ [−(c0 + lanes − 1), m − 1 − c0] with off(t) = (t·S + φ) >> 16 (φ = 2^15
// but in zones: pixel_rules.h, lineOffset). off is monotone in t, so the answer is an interval. Shared by the CPU and the GPU (whose band
// kernel calls it once per block, where a binary search would stall the block).
#pragma once

#include <cstdint>

#include "compute/host_device.h"
#include "compute/pixel_rules.h"

namespace linescope {

LINESCOPE_HD inline std::int64_t floorDiv(std::int64_t a, std::int64_t b) {
    const std::int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
LINESCOPE_HD inline std::int64_t ceilDiv(std::int64_t a, std::int64_t b) {
    const std::int64_t q = a / b;
    return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

// [lo, hi] ∩ [0, n − 1] of the t with off(t) ∈ [A, B]; lo > hi when empty.
LINESCOPE_HD inline void offsetRange(std::int32_t slope, std::int64_t A, std::int64_t B, int n, int& lo, int& hi,
                                     std::int64_t phase = kLinePhase) {
    // off(t) ≥ A ⇔ t·S ≥ A·2^16 − φ;  off(t) ≤ B ⇔ t·S < (B + 1)·2^16 − φ. With S = 0,
    // off(t) = ⌊φ / 2^16⌋ = 0 for every t, since 0 ≤ φ < 2^16.
    const std::int64_t kA = A * 65536 - phase, kB = (B + 1) * 65536 - phase;
    std::int64_t l = 0, h = n - 1;
    if (slope > 0) {
        l = ceilDiv(kA, slope) > l ? ceilDiv(kA, slope) : l;
        const std::int64_t top = ceilDiv(kB, slope) - 1;
        h = top < h ? top : h;
    } else if (slope < 0) {
        const std::int64_t top = floorDiv(kA, slope);
        h = top < h ? top : h;
        const std::int64_t bottom = floorDiv(kB, slope) + 1;
        l = bottom > l ? bottom : l;
    } else if (!(0 >= kA && 0 < kB)) {
        l = 1;
        h = 0;
    }
    if (l > h) {
        lo = 1;
        hi = 0;
        return;
    }
    lo = static_cast<int>(l);
    hi = static_cast<int>(h);
}

// The band's extent: lines [c0, c0 + lanes − 1] over an image whose minor length is m.
LINESCOPE_HD inline void bandExtent(std::int32_t slope, std::int64_t c0, int lanes, int n, int m, int& lo, int& hi,
                                    std::int64_t phase = kLinePhase) {
    offsetRange(slope, -(c0 + lanes - 1), m - 1 - c0, n, lo, hi, phase);
}

}  // namespace linescope
