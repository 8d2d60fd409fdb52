// Preprocessing of border tracking (Garcia-Molla et al. §4.1): the foreground of the image
// and its border pixels (foreground with a background 4-neighbour), one bit a pixel.
#pragma once

#include "compute/contours/border_geometry.h"
#include "compute/image.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace linescope::contours {

// One bit a pixel, rows of 64-bit words with a frame of zeros: a zero word left of each row
// (pixel x is bit x + 64 counted from the row's start), a zero word right of it, and a zero
// row above and below the image. The frame is the background that OpenCV adds around the
// image, and it lets every 3×3 neighbourhood be read without bounds checks. The GPU keeps
// the same layout.
struct PixelBits {
    int width = 0;
    int height = 0;
    std::size_t wordsPerRow = 0;
    std::vector<std::uint64_t> words;

    void resize(int w, int h);
    // The words of image row y (y = −1 and y = height are the zero frame rows).
    const std::uint64_t* row(int y) const { return words.data() + static_cast<std::size_t>(y + 1) * wordsPerRow; }
    std::uint64_t* row(int y) { return words.data() + static_cast<std::size_t>(y + 1) * wordsPerRow; }
    bool test(int x, int y) const {
        const auto b = static_cast<std::size_t>(x + 64);
        return (row(y)[b >> 6] >> (b & 63)) & 1u;
    }
};

// Bits x − 1, x, x + 1 of a row (bit 0 = x − 1); x may be −1 … width.
inline unsigned threeBits(const std::uint64_t* row, int x) {
    const auto b = static_cast<unsigned>(x + 63);  // bit of x − 1
    const std::uint64_t lo = row[b >> 6], hi = row[(b >> 6) + 1];
    const unsigned s = b & 63u;
    // (hi << 1) << (63 − s) is hi << (64 − s) without the undefined shift by 64 when s = 0.
    return static_cast<unsigned>(((lo >> s) | ((hi << 1) << (63 - s))) & 7u);
}

// The 8-neighbour foreground mask of pixel k (OpenCV's chain-code order).
inline unsigned neighbourMask(const PixelBits& fg, PixelKey k) {
    const int x = keyX(k), y = keyY(k);
    const std::uint64_t* mid = fg.row(y);
    const unsigned top = threeBits(mid - fg.wordsPerRow, x);
    const unsigned centre = threeBits(mid, x);
    const unsigned bottom = threeBits(mid + fg.wordsPerRow, x);
    return kNeighbourTable[top | (centre << 3) | (bottom << 6)];
}

struct BinaryBitmaps {
    PixelBits foreground;  // non-zero pixels
    PixelBits border;      // foreground pixels with a zero among their four cross neighbours
};

// Fills both bitmaps from the image (non-zero = foreground) on `threads` workers.
void preprocessBorders(ImageView<const std::uint8_t> image, int threads, BinaryBitmaps& out);

}  // namespace linescope::contours
