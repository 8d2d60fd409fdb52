// The small rules on which bit-identical results rest, written once for the CPU paths, the
// CUDA kernels and the reference: the digital line's offset (design.md §1), the neutral
// elements of min and max, min and max themselves with their tie rule, and the reading of
// float −0 as +0. Change one here and every backend changes with it.
//
// Why these suffice: images hold no NaN (the public API rejects them) and every kernel reads
// pixels through canonical(), so every min or max is taken over a totally ordered set
// whose equal values share one bit pattern; the extreme of a set is then one bit pattern
// whatever order a kernel folds it in.
//
// Each function is forced inline: the CPU kernels are compiled once per instruction set
// (compute/cpu/pixel_order.h), and an out-of-line copy built for AVX-512 must never be the
// one that a generic caller links to.
#pragma once

#include "compute/host_device.h"

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

#if defined(__CUDACC__)
#define LINESCOPE_RULE __host__ __device__ __forceinline__
#else
#define LINESCOPE_RULE [[gnu::always_inline]] inline
#endif

namespace linescope {

// The rounding constant of design.md §1: 2^15 rounds off(t) to the nearest pixel.
inline constexpr std::int64_t kLinePhase = 32768;

// off(t) = (t·S + 2^15) >> 16: the minor offset of major position t on a line whose slope
// is S in 16.16 fixed point, rounded to the nearest pixel (halves up). The product is taken
// in 64 bits and shifted arithmetically, i.e. floor-divided by 2^16.
//
// Line paths are not translation invariant (off(t + T0) ≠ off(t) + off(T0)), so a sub-image
// that starts at major position T0 of the whole (a zone, compute/cuda/zones.h) must not
// draw its own lines: it uses the phase φ = linePhaseAt(T0, S) in place of 2^15, and then
// off(t + T0) = lineOffset(t, S, φ) + lineShiftAt(T0, S) — the whole image's lines, with
// their indices shifted by a constant. φ ∈ [0, 2^16).
LINESCOPE_RULE constexpr std::int64_t lineOffset(std::int64_t t, std::int64_t slope, std::int64_t phase = kLinePhase) {
    return (t * slope + phase) >> 16;
}
// φ = (T0·S + phase) mod 2^16 (the mask is a floor modulo in two's complement); `phase` is
// that of the image T0 is measured in, so that zones of zones compose.
LINESCOPE_RULE constexpr std::int64_t linePhaseAt(std::int64_t origin, std::int64_t slope,
                                                  std::int64_t phase = kLinePhase) {
    return (origin * slope + phase) & 0xFFFF;
}
// ⌊(T0·S + phase) / 2^16⌋: how far the line indices move between the image and the sub-image.
LINESCOPE_RULE constexpr std::int64_t lineShiftAt(std::int64_t origin, std::int64_t slope,
                                                  std::int64_t phase = kLinePhase) {
    return (origin * slope + phase) >> 16;
}

// The neutral element of a minimum (+∞, or the type's maximum): it never wins one, so it
// stands for positions outside the image in an erosion.
template <class T>
LINESCOPE_RULE constexpr T highestValue() {
    if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
}
// The neutral element of a maximum (−∞, or the type's lowest value).
template <class T>
LINESCOPE_RULE constexpr T lowestValue() {
    if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
}

// min and max; on equal values the first argument (equal values are equal bits here).
template <class T>
LINESCOPE_RULE constexpr T minOf(T x, T y) {
    return y < x ? y : x;
}
template <class T>
LINESCOPE_RULE constexpr T maxOf(T x, T y) {
    return x < y ? y : x;
}

// Float −0 becomes +0; every other value, denormals included, is unchanged. Decided on the
// bits, so that no floating-point mode (flush-to-zero on the device, denormals-are-zero on
// the host) can change the result.
template <class T>
LINESCOPE_RULE T canonical(T v) {
    if constexpr (std::is_same_v<T, float>) {
#ifdef __CUDA_ARCH__
        return __float_as_uint(v) == 0x80000000u ? 0.0f : v;
#else
        return std::bit_cast<std::uint32_t>(v) == 0x80000000u ? 0.0f : v;
#endif
    } else {
        static_assert(std::is_integral_v<T>, "pixels are uint8, uint16 or float32");
        return v;
    }
}

}  // namespace linescope
