// Pixel arithmetic shared by the classic kernels. Written __host__ __device__ so that the
// per-thread bodies of the kernels can also be run on the host, thread by thread, to check
// them where no GPU is at hand.
//
// Why every backend and every method gives the same bits: each kernel reads its input
// through canonical() and folds with minOf/maxOf, the rules every backend shares
// (compute/pixel_rules.h, which says why they give one bit pattern).
#pragma once

#include "compute/cuda/device_image.h"
#include "compute/pixel_rules.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>


namespace linescope::cuda::classic {

// Erosion folds with MinOp, dilation with MaxOp; top() never wins the fold.
struct MinOp {
    template <class T>
    LINESCOPE_HD inline static T inner(T x, T y) { return minOf(x, y); }
    template <class T>
    LINESCOPE_HD inline static T top() { return highestValue<T>(); }
};
struct MaxOp {
    template <class T>
    LINESCOPE_HD inline static T inner(T x, T y) { return maxOf(x, y); }
    template <class T>
    LINESCOPE_HD inline static T top() { return lowestValue<T>(); }
};

// Order-preserving 32-bit keys, for atomicMax on pixel types that have no atomic of their
// own. For floats: positives get the sign bit set, negatives are inverted, so unsigned
// order is float order; on canonical values (no −0, no NaN) the map is one-to-one.
template <class T>
LINESCOPE_HD inline std::uint32_t orderedKey(T v) {
    if constexpr (std::is_floating_point_v<T>) {
        std::uint32_t b;
        std::memcpy(&b, &v, sizeof b);
        return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
    } else {
        return static_cast<std::uint32_t>(v);
    }
}
template <class T>
LINESCOPE_HD inline T fromOrderedKey(std::uint32_t k) {
    if constexpr (std::is_floating_point_v<T>) {
        const std::uint32_t b = (k & 0x80000000u) ? (k & 0x7FFFFFFFu) : ~k;
        T v;
        std::memcpy(&v, &b, sizeof v);
        return v;
    } else {
        return static_cast<T>(k);
    }
}

// f − γ(f), as the CPU computes it (in T's arithmetic). ∞ − ∞ is NaN, whose bits differ
// between processors (x86: 0xFFC00000, the GPU: 0x7FFFFFFF): a NaN result takes the host's
// bits, passed in, so that both backends agree bit for bit.
template <class T>
LINESCOPE_HD inline T topHatPixel(T f, T g, std::uint32_t hostNaNBits) {
    if constexpr (std::is_floating_point_v<T>) {
#ifdef __CUDA_ARCH__
        T d = __fsub_rn(f, g);
#else
        T d = f - g;
#endif
        if (d != d) std::memcpy(&d, &hostNaNBits, sizeof d);
        return d;
    } else {
        (void)hostNaNBits;
        return static_cast<T>(f - g);
    }
}

}  // namespace linescope::cuda::classic
