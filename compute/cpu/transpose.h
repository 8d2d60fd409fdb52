// Cache-blocked image transposition for the flat line families.
#pragma once

#include "compute/image.h"
#include "compute/thread_pool.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif

// Compiled into each instruction set's kernels: the inline namespace keeps their
// copies apart, so the linker never hands an AVX-512 copy to a generic caller.
#ifndef LINESCOPE_ISA
#define LINESCOPE_ISA generic
#endif
namespace linescope::cpu {
inline namespace LINESCOPE_ISA {


#if defined(__SSE2__)
// Register-level block transposes: log2(n) rounds of interleaving rows pairwise.
inline void transposeBlock(const std::uint8_t* s, std::ptrdiff_t ss, std::uint8_t* d, std::ptrdiff_t ds) {
    __m128i r[16], t[16];
    for (int i = 0; i < 16; ++i) r[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i * ss));
    for (int i = 0; i < 8; ++i) {  // byte pairs of rows 2i, 2i+1
        t[2 * i] = _mm_unpacklo_epi8(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm_unpackhi_epi8(r[2 * i], r[2 * i + 1]);
    }
    for (int g = 0; g < 4; ++g) {  // 4-row columns of rows 4g..4g+3
        r[4 * g + 0] = _mm_unpacklo_epi16(t[4 * g], t[4 * g + 2]);
        r[4 * g + 1] = _mm_unpackhi_epi16(t[4 * g], t[4 * g + 2]);
        r[4 * g + 2] = _mm_unpacklo_epi16(t[4 * g + 1], t[4 * g + 3]);
        r[4 * g + 3] = _mm_unpackhi_epi16(t[4 * g + 1], t[4 * g + 3]);
    }
    for (int p = 0; p < 2; ++p)  // 8-row columns of rows 8p..8p+7: t[8p+m] holds columns 2m, 2m+1
        for (int j = 0; j < 4; ++j) {
            t[8 * p + 2 * j] = _mm_unpacklo_epi32(r[8 * p + j], r[8 * p + 4 + j]);
            t[8 * p + 2 * j + 1] = _mm_unpackhi_epi32(r[8 * p + j], r[8 * p + 4 + j]);
        }
    for (int m = 0; m < 8; ++m) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d + (2 * m) * ds), _mm_unpacklo_epi64(t[m], t[8 + m]));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d + (2 * m + 1) * ds), _mm_unpackhi_epi64(t[m], t[8 + m]));
    }
}

inline void transposeBlock(const std::uint16_t* s, std::ptrdiff_t ss, std::uint16_t* d, std::ptrdiff_t ds) {
    __m128i r[8], t[8];
    for (int i = 0; i < 8; ++i) r[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i * ss));
    for (int i = 0; i < 4; ++i) {
        t[2 * i] = _mm_unpacklo_epi16(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm_unpackhi_epi16(r[2 * i], r[2 * i + 1]);
    }
    for (int g = 0; g < 2; ++g) {  // r[4g+m] holds columns 2m, 2m+1 of rows 4g..4g+3
        r[4 * g + 0] = _mm_unpacklo_epi32(t[4 * g], t[4 * g + 2]);
        r[4 * g + 1] = _mm_unpackhi_epi32(t[4 * g], t[4 * g + 2]);
        r[4 * g + 2] = _mm_unpacklo_epi32(t[4 * g + 1], t[4 * g + 3]);
        r[4 * g + 3] = _mm_unpackhi_epi32(t[4 * g + 1], t[4 * g + 3]);
    }
    for (int m = 0; m < 4; ++m) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d + (2 * m) * ds), _mm_unpacklo_epi64(r[m], r[4 + m]));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d + (2 * m + 1) * ds), _mm_unpackhi_epi64(r[m], r[4 + m]));
    }
}

inline void transposeBlock(const float* s, std::ptrdiff_t ss, float* d, std::ptrdiff_t ds) {
    __m128 r0 = _mm_loadu_ps(s), r1 = _mm_loadu_ps(s + ss), r2 = _mm_loadu_ps(s + 2 * ss), r3 = _mm_loadu_ps(s + 3 * ss);
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    _mm_storeu_ps(d, r0);
    _mm_storeu_ps(d + ds, r1);
    _mm_storeu_ps(d + 2 * ds, r2);
    _mm_storeu_ps(d + 3 * ds, r3);
}
template <class T>
constexpr int kBlock = 16 / static_cast<int>(sizeof(T));
#else
template <class T>
constexpr int kBlock = 0;
#endif

// dst (src.height × src.width) = srcᵀ. Full tiles of 64 bytes × 64 bytes go through two
// small contiguous buffers: with image strides that are powers of two, the rows of a tile
// fall into one cache set, and touching each image line once, whole, avoids the thrashing
// that reading or writing 16-byte pieces of them would cause. Ragged edges go by hand.
template <class T>
void transposeImage(ImageView<const T> src, ImageView<T> dst, int threads) {
    constexpr int B = 64 / static_cast<int>(sizeof(T));  // elements in a 64-byte line
    constexpr int K = kBlock<T>;
    const int W = src.width, H = src.height;
    const std::size_t bands = static_cast<std::size_t>((H + B - 1) / B);
    parallelFor(bands, threads, [&](std::size_t begin, std::size_t end) {
        alignas(64) T in[B * B];
        alignas(64) T out[B * B];
        for (std::size_t band = begin; band < end; ++band) {
            const int y0 = static_cast<int>(band) * B;
            const int y1 = std::min(H, y0 + B);
            for (int x0 = 0; x0 < W; x0 += B) {
                const int x1 = std::min(W, x0 + B);
                if constexpr (K > 0) {
                    if (y1 - y0 == B && x1 - x0 == B) {
                        for (int i = 0; i < B; ++i) std::memcpy(in + i * B, src.row(y0 + i) + x0, 64);
                        for (int i = 0; i < B; i += K)
                            for (int j = 0; j < B; j += K) transposeBlock(in + i * B + j, B, out + j * B + i, B);
                        for (int j = 0; j < B; ++j) std::memcpy(dst.row(x0 + j) + y0, out + j * B, 64);
                        continue;
                    }
                }
                for (int y = y0; y < y1; ++y)
                    for (int x = x0; x < x1; ++x) dst.row(x)[y] = src.row(y)[x];
            }
        }
    });
}

}  // namespace LINESCOPE_ISA
}  // namespace linescope::cpu
