// The pixels one output of a line operator reads, and the line path through a pixel: what the
// lesson mode draws on the image and plots as a profile. They are taken from the engine's own
// geometry (line_geometry.h for line paths, line_kernel.h for the segment and periodic
// kernels), so the lesson shows exactly the pixels the engine uses.
#pragma once

#include "compute/line_kind.h"

#include <vector>

namespace linescope {

// A pixel of the image.
struct PixelAt {
    int x = 0;
    int y = 0;
    bool operator==(const PixelAt&) const = default;
};

// The line path of `angleDegrees`'s family (design.md §1) through (x, y) in a width × height
// image: its in-image pixels in order of the major coordinate, and where (x, y) is among them.
struct LinePathThrough {
    std::vector<PixelAt> pixels;
    int index = 0;  // pixels[index] is (x, y)
};
// Throws Error when (x, y) is outside the image or the angle is not finite.
LinePathThrough linePathThrough(double angleDegrees, int width, int height, int x, int y);

// One pixel a stage reads for the output at p, and its offset index k ∈ B = {−a … b}
// (segmentOf): the erosion reads p + offset(k), the dilation p − offset(k).
struct WindowPixel {
    int x = 0;
    int y = 0;
    int k = 0;
};

// The in-image pixels that the erosion (erosion = true: the minimum over them) or the dilation
// (the maximum) of `kind` at `angleDegrees` with λ = length reads for its output at (x, y), in
// order of k. Line paths: the positions t + k (erosion) or t − k (dilation) of the line
// through (x, y), inside its in-image part; segment and periodic: p ± lineKernel's k-th
// offset, inside the image. Positions outside are ignored, as the operators ignore them.
// Throws Error for λ < 1, a non-finite angle or (x, y) outside the image.
std::vector<WindowPixel> stageWindow(bool erosion, LineKind kind, double angleDegrees, int length, int width,
                                     int height, int x, int y);

}  // namespace linescope
