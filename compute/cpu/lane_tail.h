// The few lanes at the end of a row that fill less than a register, moved as one masked
// load or store where the instruction set has byte-granular masks (AVX-512BW). Lines leave
// the image at its borders, so a strip's rows there are partly outside it: on a 640-pixel
// image every other row a strip delivers is such a row, and their scalar tails took a third
// of a sweep's time.
#pragma once

#include "compute/cpu/window_stream.h"

#include <cstdint>
#include <cstring>

#if defined(__AVX512BW__)
#include <immintrin.h>
#endif

#ifndef LINESCOPE_ISA
#define LINESCOPE_ISA generic
#endif
namespace linescope::cpu {
inline namespace LINESCOPE_ISA {  // one copy per instruction set (see pixel_order.h)

// buf[0, C) = s[0, n) followed by zeros, for n < C = LaneVector<T>::C; buf holds a register.
// Lanes past n are never read from s (they may lie outside the image).
template <class T>
[[gnu::always_inline]] inline void loadFew(T* __restrict buf, const T* __restrict s, int n) {
#if defined(__AVX512BW__)
    static_assert(kVectorBytes == 64);
    const __mmask64 m = (__mmask64{1} << (static_cast<unsigned>(n) * sizeof(T))) - 1;
    _mm512_store_si512(buf, _mm512_maskz_loadu_epi8(m, s));
#else
    std::memset(static_cast<void*>(buf), 0, kVectorBytes);
    for (int j = 0; j < n; ++j) buf[j] = s[j];
#endif
}

// d[0, n) = buf[0, n), for n < LaneVector<T>::C; d's lanes past n are not touched.
template <class T>
[[gnu::always_inline]] inline void storeFew(T* __restrict d, const T* __restrict buf, int n) {
#if defined(__AVX512BW__)
    const __mmask64 m = (__mmask64{1} << (static_cast<unsigned>(n) * sizeof(T))) - 1;
    _mm512_mask_storeu_epi8(d, m, _mm512_load_si512(buf));
#else
    for (int j = 0; j < n; ++j) d[j] = buf[j];
#endif
}

// loadFew and storeFew for n < C lanes of U, C counted in lanes of the pixel type beside it
// (the u16 index plane beside u8 pixels: two registers; beside floats: half of one); buf
// holds kWholeLanes<U, C>.
template <class U, int C>
inline constexpr int kWholeLanes = C < LaneVector<U>::C ? LaneVector<U>::C : C;

template <class U, int C>
[[gnu::always_inline]] inline void loadFewWide(U* __restrict buf, const U* __restrict s, int n) {
    constexpr int R = LaneVector<U>::C;
    for (int j = 0; j < C; j += R) {
        const int m = n - j;
        if (m >= R) LaneVector<U>::store(buf + j, LaneVector<U>::load(s + j));
        else loadFew(buf + j, s + j, m > 0 ? m : 0);
    }
}
template <class U, int C>
[[gnu::always_inline]] inline void storeFewWide(U* __restrict d, const U* __restrict buf, int n) {
    constexpr int R = LaneVector<U>::C;
    for (int j = 0; j < C && j < n; j += R) {
        const int m = n - j;
        if (m >= R) LaneVector<U>::store(d + j, LaneVector<U>::load(buf + j));
        else storeFew(d + j, buf + j, m);
    }
}

// d[0, n) = s[0, n) for any n: whole registers, then the tail masked.
template <class T>
[[gnu::always_inline]] inline void copyRange(T* __restrict d, const T* __restrict s, int n) {
    constexpr int C = LaneVector<T>::C;
    int j = 0;
    for (; j + C <= n; j += C) LaneVector<T>::store(d + j, LaneVector<T>::load(s + j));
    if (j < n) {
        alignas(64) T buf[C];
        loadFew(buf, s + j, n - j);
        storeFew(d + j, buf, n - j);
    }
}

}  // namespace LINESCOPE_ISA
}  // namespace linescope::cpu
