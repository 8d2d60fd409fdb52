// Preprocessing on the GPU (Garcia-Molla et al. §4.1): the foreground of the image as one
// bit a pixel, in the CPU's layout (binary_bitmaps.h: rows of 64-bit words with a zero word
// either side and a zero row above and below). Border pixels are not stored: the tracker
// finds them in its tile of this bitmap.
#pragma once

#include "compute/contours/border_geometry.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace linescope::contours::gpu {

// One bit per byte of a 32-bit word: bit i set when byte i is non-zero.
LINESCOPE_HD inline std::uint32_t nonZeroBytes(std::uint32_t v) {
    v |= v >> 4;  // each byte's bits fold into its bit 0 without crossing into the next byte
    v |= v >> 2;
    v |= v >> 1;
    v &= 0x01010101u;
    return (v * 0x01020408u) >> 24;  // bytes' bit 0 (bits 0, 8, 16, 24) to bits 24 … 27
}

// 16 bytes as four 32-bit words: one vector load on the device (p 16-byte aligned).
LINESCOPE_HD inline void load16(const std::uint8_t* p, std::uint32_t (&w)[4]) {
#if defined(__CUDA_ARCH__)
    const uint4 q = *reinterpret_cast<const uint4*>(p);
    w[0] = q.x;
    w[1] = q.y;
    w[2] = q.z;
    w[3] = q.w;
#else
    std::memcpy(w, p, 16);
#endif
}

struct ForegroundBits {
    struct Params {
        const std::uint8_t* image;
        std::size_t pitch;  // bytes between image rows
        int width, height;
        bool aligned;  // image and pitch 16-byte aligned: whole words take vector loads
        std::uint64_t* words;
        std::size_t wordsPerRow;
    };

    // Word i of the bitmap (frame rows and words included).
    LINESCOPE_HD static void run(std::uint32_t i, const Params& p) {
        const auto row = static_cast<int>(i / p.wordsPerRow);
        const auto word = static_cast<std::size_t>(i % p.wordsPerRow);
        const int y = row - 1;
        const long long x0 = (static_cast<long long>(word) - 1) * 64;
        std::uint64_t bits = 0;
        if (y >= 0 && y < p.height && word > 0 && x0 < p.width) {
            const std::uint8_t* src = p.image + static_cast<std::size_t>(y) * p.pitch + x0;
            const int count = p.width - x0 < 64 ? static_cast<int>(p.width - x0) : 64;
            if (count == 64 && p.aligned) {
                for (int q = 0; q < 4; ++q) {
                    std::uint32_t w[4];
                    load16(src + 16 * q, w);
                    for (int k = 0; k < 4; ++k)
                        bits |= static_cast<std::uint64_t>(nonZeroBytes(w[k])) << (16 * q + 4 * k);
                }
            } else {
                for (int k = 0; k < count; ++k) bits |= static_cast<std::uint64_t>(src[k] != 0) << k;
            }
        }
        p.words[i] = bits;
    }
};

}  // namespace linescope::contours::gpu
