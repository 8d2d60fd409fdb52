// Preprocessing of border tracking (Garcia-Molla et al. §4.1): the foreground of the image
// and its border pixels (foreground with a background 4-neighbour), one bit a pixel.
#pragma once

#include "compute/contours/border_geometry.h"
#include "compute/contours/worker_count.h"
#include "compute/image.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
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

// Bits x − 1, x, x + 1 of a row (bit 0 = x − 1); x may be −1 … width − 1. One unaligned
// little-endian load of the 8 bytes holding them (they never straddle more than 8 bytes,
// and the row's right frame word keeps the load inside the row).
static_assert(std::endian::native == std::endian::little, "threeBits reads the bitmap's words as bytes");
inline unsigned threeBits(const std::uint64_t* row, int x) {
    const auto b = static_cast<unsigned>(x + 63);  // bit of x − 1
    std::uint64_t v;
    std::memcpy(&v, reinterpret_cast<const unsigned char*>(row) + (b >> 3), sizeof v);
    return static_cast<unsigned>(v >> (b & 7u)) & 7u;
}

// The 3×3 neighbourhood of pixel (x, y) as 9 bits (rows above, at, below; bit 0 = x − 1),
// the index of kNeighbourTable and the tracking step tables.
inline unsigned neighbourhood(const std::uint64_t* words, std::size_t wordsPerRow, int x, int y) {
    const std::uint64_t* mid = words + static_cast<std::size_t>(y + 1) * wordsPerRow;
    return threeBits(mid - wordsPerRow, x) | (threeBits(mid, x) << 3) | (threeBits(mid + wordsPerRow, x) << 6);
}
inline unsigned neighbourhood(const PixelBits& fg, int x, int y) {
    return neighbourhood(fg.words.data(), fg.wordsPerRow, x, y);
}

// The 8-neighbour foreground mask of pixel (x, y) (OpenCV's chain-code order).
inline unsigned neighbourMask(const PixelBits& fg, int x, int y) { return kNeighbourTable[neighbourhood(fg, x, y)]; }

struct BinaryBitmaps {
    PixelBits foreground;  // non-zero pixels
    PixelBits border;      // foreground pixels with a zero among their four cross neighbours
    // Per image row, one bit per word of `border`: set when the word holds a border pixel.
    // Most rows of most rectangles hold none, and this small array (1/64 of the bitmap)
    // lets the tracking scan skip them without touching the bitmap.
    std::vector<std::uint64_t> borderWordsUsed;
    std::size_t usedWordsPerRow = 0;
};

// Fills both bitmaps from the image (non-zero = foreground).
void preprocessBorders(ImageView<const std::uint8_t> image, const WorkerBudget& workers, BinaryBitmaps& out);

}  // namespace linescope::contours
