// Folding one operator image row into the sweep's running results. Separate restrict
// pointers and a local width let the compiler vectorize it (with aliasing possible it
// reloads every bound and stays scalar).
#pragma once

#include "compute/cpu/lane_tail.h"

#include <cstdint>
#include <type_traits>

#ifndef LINESCOPE_ISA
#define LINESCOPE_ISA generic
#endif
namespace linescope::cpu {
inline namespace LINESCOPE_ISA {  // one copy per instruction set (see pixel_order.h)

// First angle k: the row starts every result.
template <class T>
inline void sweepStartRow(const T* __restrict g, T* __restrict sup, T* __restrict inf, std::uint16_t* __restrict arg,
                          int width, std::uint16_t k) {
    for (int x = 0; x < width; ++x) {
        sup[x] = g[x];
        inf[x] = g[x];
        arg[x] = k;
    }
}

// Later angles: strict comparisons keep the smallest k on ties. bySup: the orientation
// follows the supremum (openings, erosions), else the infimum (closings, dilations).
template <class T, bool bySup>
inline void sweepFoldLanes(const T* __restrict g, T* __restrict sup, T* __restrict inf, std::uint16_t* __restrict arg,
                           int width, std::uint16_t k) {
    for (int x = 0; x < width; ++x) {
        const T v = g[x];
        const T s = sup[x];
        const T i = inf[x];
        const bool up = s < v;
        const bool down = v < i;
        sup[x] = up ? v : s;
        inf[x] = down ? v : i;
        if constexpr (bySup) arg[x] = up ? k : arg[x];
        else arg[x] = down ? k : arg[x];
    }
}

// sweepFoldLanes over whole registers, and the lanes past them through one register's
// buffers (lane_tail.h), so that a short row costs vector work, not a scalar loop.
template <class T, bool bySup>
inline void sweepFoldRow(const T* __restrict g, T* __restrict sup, T* __restrict inf, std::uint16_t* __restrict arg,
                         int width, std::uint16_t k) {
    constexpr int C = LaneVector<T>::C;
    const int whole = width - width % C;
    sweepFoldLanes<T, bySup>(g, sup, inf, arg, whole, k);
    const int n = width - whole;
    if (n == 0) return;
    alignas(64) T gb[C], sb[C], ib[C];
    alignas(64) std::uint16_t ab[kWholeLanes<std::uint16_t, C>];
    loadFew(gb, g + whole, n);
    loadFew(sb, sup + whole, n);
    loadFew(ib, inf + whole, n);
    loadFewWide<std::uint16_t, C>(ab, arg + whole, n);
    sweepFoldLanes<T, bySup>(gb, sb, ib, ab, C, k);
    storeFew(sup + whole, sb, n);
    storeFew(inf + whole, ib, n);
    storeFewWide<std::uint16_t, C>(arg + whole, ab, n);
}

// Σ of a row: exact in 64 bits for integers; left to right in double for floats, so that
// the sum does not depend on how rows are shared among threads.
template <class T>
inline auto sweepRowSum(const T* __restrict g, int width) {
    if constexpr (std::is_floating_point_v<T>) {
        double s = 0;
        for (int x = 0; x < width; ++x) s += static_cast<double>(g[x]);
        return s;
    } else {
        // 32-bit partial sums vectorize with half the widening of 64-bit ones; 65536
        // values of at most 65535 still fit in 32 bits. The lanes past the last whole
        // register go through a zero-padded register (lane_tail.h).
        constexpr int C = LaneVector<T>::C;
        const int whole = width - width % C;
        std::int64_t s = 0;
        for (int x0 = 0; x0 < whole; x0 += 65536) {
            const int x1 = whole - x0 < 65536 ? whole : x0 + 65536;
            std::uint32_t part = 0;
            for (int x = x0; x < x1; ++x) part += g[x];
            s += part;
        }
        if (whole < width) {
            alignas(64) T buf[C];
            loadFew(buf, g + whole, width - whole);
            std::uint32_t part = 0;
            for (int x = 0; x < C; ++x) part += buf[x];
            s += part;
        }
        return s;
    }
}

}  // namespace LINESCOPE_ISA
}  // namespace linescope::cpu
