// The structuring-element glyph: the pixels of the digital segment of λ pixels at an angle
// that the engine uses around one pixel (design.md §1 line paths and segment offsets).
#pragma once

#include "compute/line_kind.h"

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

// The pixels the operator of `kind` reads at pixel (x, y), inside the image: line paths as
// segmentGlyph (they depend on where the pixel lies), the translation-invariant kinds as
// lineKernel's offsets around it (compute/line_kernel.h: the one definition of their sets),
// in its order. Empty when (x, y) lies outside the image or λ < 1.
std::vector<GlyphPixel> lineGlyph(LineKind kind, double angleDegrees, int length, int x, int y, int width, int height);

}  // namespace linescope::render
