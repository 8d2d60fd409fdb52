// Binary test images for contours without OpenCV (the GPU machine has none): discs, rings,
// rectangles, lines in 8- and 4-connectivity, and the scenes built from them that stress
// border tracking. Plain C++ (no Qt), so that the GPU benchmark draws the same images.
#pragma once

#include "compute/image.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace linescope::test {

// A packed 8-bit image; 0 is background, any other value foreground.
struct BinaryImage {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> pixels;

    BinaryImage() = default;
    BinaryImage(int w, int h, std::uint8_t value = 0);
    ImageView<const std::uint8_t> view() const { return {pixels.data(), width, height}; }
    std::uint8_t at(int x, int y) const { return pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)]; }
    void set(int x, int y, std::uint8_t v);  // ignores pixels outside
};

void fillDisc(BinaryImage& m, int cx, int cy, int r, std::uint8_t v);
void fillRing(BinaryImage& m, int cx, int cy, int r, int thickness, std::uint8_t v);
void fillRect(BinaryImage& m, int x, int y, int w, int h, std::uint8_t v);
void drawLine(BinaryImage& m, int x0, int y0, int x1, int y1, std::uint8_t v, bool fourConnected);

// Discs, rectangles, rings, lines and nested discs drawn in turn as foreground and
// background, so that they make holes, islands in holes and holes in those; foreground
// values vary.
BinaryImage randomBlobs(int w, int h, int count, std::uint64_t seed);
// Each pixel foreground with probability `density` (value 1).
BinaryImage noiseImage(int w, int h, double density, std::uint64_t seed);
BinaryImage checkerboard(int w, int h, int cell);
// A square spiral of one-pixel lines with `gap` background pixels between turns.
BinaryImage squareSpiral(int size, int gap);
// The image dilated by a 2×2 square (one-pixel lines become two pixels thick).
BinaryImage thicken(const BinaryImage& m);
BinaryImage crop(const BinaryImage& m, int x, int y, int w, int h);

// About `borders` borders in a w × h image, for benchmarks: discs of varied size on a
// jittered grid (so that none touch and the count is exact), every third with a hole and
// every ninth hole with an island. The exact count is returned in `made`.
BinaryImage discField(int w, int h, int borders, std::uint64_t seed, int* made = nullptr);

}  // namespace linescope::test
