// Cache-blocked image transposition for the flat line families.
#pragma once

#include "compute/image.h"
#include "compute/thread_pool.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

// Compiled into each instruction set's kernels: the inline namespace keeps their
// copies apart, so the linker never hands an AVX-512 copy to a generic caller.
#ifndef LINESCOPE_ISA
#define LINESCOPE_ISA generic
#endif
namespace linescope::cpu {
inline namespace LINESCOPE_ISA {


// Register-level tile transposes: an n×n block of 16 bytes (n = 16 / sizeof(T)) in every
// 128-bit lane of the widest register, by log2(n) rounds of interleaving rows pairwise, so
// an AVX-512 register transposes four blocks side by side (and an AVX2 register two).
#if defined(__AVX512BW__)
struct TransposeRegister {
    using V = __m512i;
    static constexpr int lanes = 4;
    static V load(const void* p) { return _mm512_loadu_si512(p); }
    static V lo8(V a, V b) { return _mm512_unpacklo_epi8(a, b); }
    static V hi8(V a, V b) { return _mm512_unpackhi_epi8(a, b); }
    static V lo16(V a, V b) { return _mm512_unpacklo_epi16(a, b); }
    static V hi16(V a, V b) { return _mm512_unpackhi_epi16(a, b); }
    // The masked forms with every lane selected: GCC 12's plain ones pass an undefined
    // register that -Wmaybe-uninitialized reports.
    static V lo32(V a, V b) { return _mm512_mask_unpacklo_epi32(a, 0xFFFF, a, b); }
    static V hi32(V a, V b) { return _mm512_mask_unpackhi_epi32(a, 0xFFFF, a, b); }
    static V lo64(V a, V b) { return _mm512_mask_unpacklo_epi64(a, 0xFF, a, b); }
    static V hi64(V a, V b) { return _mm512_mask_unpackhi_epi64(a, 0xFF, a, b); }
    template <int L>
    static void storeLane(void* p, V v) {
        _mm_storeu_si128(static_cast<__m128i*>(p), _mm512_mask_extracti32x4_epi32(_mm_setzero_si128(), 0xF, v, L));
    }
};
#elif defined(__AVX2__)
struct TransposeRegister {
    using V = __m256i;
    static constexpr int lanes = 2;
    static V load(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
    static V lo8(V a, V b) { return _mm256_unpacklo_epi8(a, b); }
    static V hi8(V a, V b) { return _mm256_unpackhi_epi8(a, b); }
    static V lo16(V a, V b) { return _mm256_unpacklo_epi16(a, b); }
    static V hi16(V a, V b) { return _mm256_unpackhi_epi16(a, b); }
    static V lo32(V a, V b) { return _mm256_unpacklo_epi32(a, b); }
    static V hi32(V a, V b) { return _mm256_unpackhi_epi32(a, b); }
    static V lo64(V a, V b) { return _mm256_unpacklo_epi64(a, b); }
    static V hi64(V a, V b) { return _mm256_unpackhi_epi64(a, b); }
    template <int L>
    static void storeLane(void* p, V v) { _mm_storeu_si128(static_cast<__m128i*>(p), _mm256_extracti128_si256(v, L)); }
};
#elif defined(__SSE2__)
struct TransposeRegister {
    using V = __m128i;
    static constexpr int lanes = 1;
    static V load(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
    static V lo8(V a, V b) { return _mm_unpacklo_epi8(a, b); }
    static V hi8(V a, V b) { return _mm_unpackhi_epi8(a, b); }
    static V lo16(V a, V b) { return _mm_unpacklo_epi16(a, b); }
    static V hi16(V a, V b) { return _mm_unpackhi_epi16(a, b); }
    static V lo32(V a, V b) { return _mm_unpacklo_epi32(a, b); }
    static V hi32(V a, V b) { return _mm_unpackhi_epi32(a, b); }
    static V lo64(V a, V b) { return _mm_unpacklo_epi64(a, b); }
    static V hi64(V a, V b) { return _mm_unpackhi_epi64(a, b); }
    template <int L>
    static void storeLane(void* p, V v) { _mm_storeu_si128(static_cast<__m128i*>(p), v); }
};
#endif

#if defined(__SSE2__)
// Rows of a register tile (n = 16 / sizeof(T)) and its columns (the register's elements).
template <class T>
constexpr int kTileRows = 16 / static_cast<int>(sizeof(T));
template <class T>
constexpr int kTileCols = kTileRows<T> * TransposeRegister::lanes;

// Output register k holds, in lane L, column L·n + k: n elements, one per source row.
template <class T, class R = TransposeRegister>
inline void storeColumns(const typename R::V* out, T* d, std::ptrdiff_t ds) {
    constexpr int n = kTileRows<T>;
    for (int k = 0; k < n; ++k) {
        R::template storeLane<0>(d + k * ds, out[k]);
        if constexpr (R::lanes > 1) R::template storeLane<1>(d + (n + k) * ds, out[k]);
        if constexpr (R::lanes > 2) {
            R::template storeLane<2>(d + (2 * n + k) * ds, out[k]);
            R::template storeLane<3>(d + (3 * n + k) * ds, out[k]);
        }
    }
}

// d[c·ds + r] = s[r·ss + c] for the kTileRows × kTileCols tile at s.
template <class R = TransposeRegister>
inline void transposeRegisterTile(const std::uint8_t* s, std::ptrdiff_t ss, std::uint8_t* d, std::ptrdiff_t ds) {
    typename R::V r[16], t[16];
    for (int i = 0; i < 16; ++i) r[i] = R::load(s + i * ss);
    for (int i = 0; i < 8; ++i) {  // byte pairs of rows 2i, 2i+1
        t[2 * i] = R::lo8(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = R::hi8(r[2 * i], r[2 * i + 1]);
    }
    for (int g = 0; g < 4; ++g) {  // 4-row columns of rows 4g..4g+3
        r[4 * g + 0] = R::lo16(t[4 * g], t[4 * g + 2]);
        r[4 * g + 1] = R::hi16(t[4 * g], t[4 * g + 2]);
        r[4 * g + 2] = R::lo16(t[4 * g + 1], t[4 * g + 3]);
        r[4 * g + 3] = R::hi16(t[4 * g + 1], t[4 * g + 3]);
    }
    for (int p = 0; p < 2; ++p)  // 8-row columns of rows 8p..8p+7: t[8p+m] holds columns 2m, 2m+1
        for (int j = 0; j < 4; ++j) {
            t[8 * p + 2 * j] = R::lo32(r[8 * p + j], r[8 * p + 4 + j]);
            t[8 * p + 2 * j + 1] = R::hi32(r[8 * p + j], r[8 * p + 4 + j]);
        }
    for (int m = 0; m < 8; ++m) {
        r[2 * m] = R::lo64(t[m], t[8 + m]);
        r[2 * m + 1] = R::hi64(t[m], t[8 + m]);
    }
    storeColumns<std::uint8_t, R>(r, d, ds);
}

template <class R = TransposeRegister>
inline void transposeRegisterTile(const std::uint16_t* s, std::ptrdiff_t ss, std::uint16_t* d, std::ptrdiff_t ds) {
    typename R::V r[8], t[8];
    for (int i = 0; i < 8; ++i) r[i] = R::load(s + i * ss);
    for (int i = 0; i < 4; ++i) {
        t[2 * i] = R::lo16(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = R::hi16(r[2 * i], r[2 * i + 1]);
    }
    for (int g = 0; g < 2; ++g) {  // r[4g+m] holds columns 2m, 2m+1 of rows 4g..4g+3
        r[4 * g + 0] = R::lo32(t[4 * g], t[4 * g + 2]);
        r[4 * g + 1] = R::hi32(t[4 * g], t[4 * g + 2]);
        r[4 * g + 2] = R::lo32(t[4 * g + 1], t[4 * g + 3]);
        r[4 * g + 3] = R::hi32(t[4 * g + 1], t[4 * g + 3]);
    }
    for (int m = 0; m < 4; ++m) {
        t[2 * m] = R::lo64(r[m], r[4 + m]);
        t[2 * m + 1] = R::hi64(r[m], r[4 + m]);
    }
    storeColumns<std::uint16_t, R>(t, d, ds);
}

// Floats move as their bits.
template <class R = TransposeRegister>
inline void transposeRegisterTile(const float* s, std::ptrdiff_t ss, float* d, std::ptrdiff_t ds) {
    typename R::V r[4], t[4];
    for (int i = 0; i < 4; ++i) r[i] = R::load(s + i * ss);
    t[0] = R::lo32(r[0], r[1]);
    t[1] = R::hi32(r[0], r[1]);
    t[2] = R::lo32(r[2], r[3]);
    t[3] = R::hi32(r[2], r[3]);
    r[0] = R::lo64(t[0], t[2]);
    r[1] = R::hi64(t[0], t[2]);
    r[2] = R::lo64(t[1], t[3]);
    r[3] = R::hi64(t[1], t[3]);
    storeColumns<float, R>(r, d, ds);
}
#else
template <class T>
constexpr int kTileRows = 0;
template <class T>
constexpr int kTileCols = 0;
#endif

// d[c·ds + r] = s[r·ss + c] for r < rows, c < cols: whole register tiles where they fit,
// the rest element by element.
template <class T>
inline void transposeTile(const T* s, std::ptrdiff_t ss, T* d, std::ptrdiff_t ds, int rows, int cols) {
    int rowTiles = 0, colTiles = 0;  // the rows and columns that whole tiles cover
    if constexpr (kTileRows<T> > 0) {
        constexpr int n = kTileRows<T>, m = kTileCols<T>;
        rowTiles = rows / n * n;
        colTiles = cols / m * m;
        for (int r = 0; r < rowTiles; r += n)
            for (int c = 0; c < colTiles; c += m) transposeRegisterTile(s + r * ss + c, ss, d + c * ds + r, ds);
    }
    for (int r = 0; r < rows; ++r)
        for (int c = r < rowTiles ? colTiles : 0; c < cols; ++c) d[c * ds + r] = s[r * ss + c];
}

// dst (src.height × src.width) = srcᵀ. Full tiles of 64 bytes × 64 bytes go through two
// small contiguous buffers: with image strides that are powers of two, the rows of a tile
// fall into one cache set, and touching each image line once, whole, avoids the thrashing
// that reading or writing 16-byte pieces of them would cause. Ragged edges go by hand.
template <class T>
void transposeImage(ImageView<const T> src, ImageView<T> dst, int threads) {
    constexpr int B = 64 / static_cast<int>(sizeof(T));  // elements in a 64-byte line
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
                if constexpr (kTileRows<T> > 0) {
                    if (y1 - y0 == B && x1 - x0 == B) {
                        for (int i = 0; i < B; ++i) std::memcpy(in + i * B, src.row(y0 + i) + x0, 64);
                        for (int i = 0; i < B; i += kTileRows<T>)
                            for (int j = 0; j < B; j += kTileCols<T>)
                                transposeRegisterTile(in + i * B + j, B, out + j * B + i, B);
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
