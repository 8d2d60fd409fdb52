// The order a line operator works in. Opening-like operators take minima first
// (Ascending); closing-like ones take maxima first (Descending), which is the same
// code with the comparison reversed, so one implementation serves both.
#pragma once

#include "compute/pixel_rules.h"

#include <cstdint>

// Compiled into each instruction set's kernels: the inline namespace keeps their
// copies apart, so the linker never hands an AVX-512 copy to a generic caller.
#ifndef LINESCOPE_ISA
#define LINESCOPE_ISA generic
#endif
namespace linescope::cpu {
inline namespace LINESCOPE_ISA {

// inner = the first operator (min for Ascending), outer = the second (max).
// `top` is the neutral element of inner (it never wins a min): +∞ for Ascending.
template <class T, bool Ascending>
struct Order {
    static constexpr bool below(T x, T y) { return Ascending ? x < y : y < x; }
    static constexpr T inner(T x, T y) { return Ascending ? minOf(x, y) : maxOf(x, y); }
    static constexpr T outer(T x, T y) { return Ascending ? maxOf(x, y) : minOf(x, y); }
    static constexpr T top() { return Ascending ? highestValue<T>() : lowestValue<T>(); }
    static constexpr T bottom() { return Ascending ? lowestValue<T>() : highestValue<T>(); }
};

}  // namespace LINESCOPE_ISA
}  // namespace linescope::cpu
