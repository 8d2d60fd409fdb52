// The structuring-element glyph: the pixels of the digital segment of λ pixels at an angle
// that the engine uses around one pixel (design.md §1 line paths and segment offsets).
#pragma once

#include <vector>

namespace linescope::render {

struct GlyphPixel {
    int x = 0;
    int y = 0;
    bool operator==(const GlyphPixel&) const = default;
};

// The in-image pixels of the segment {-a, …, b} (a = ⌊(λ-1)/2⌋) around pixel (x, y) along
// its line of the angle's family over a width×height image: exactly the pixels that the
// erosion at (x, y) reads, and that the dilation of a single bright pixel at (x, y) lights.
// Ordered along the line; empty when (x, y) lies outside the image or λ < 1.
std::vector<GlyphPixel> segmentGlyph(double angleDegrees, int length, int x, int y, int width, int height);

}  // namespace linescope::render
