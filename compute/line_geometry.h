// The line paths of design.md §1: for an angle, the family of parallel digital lines
// that partitions the image, in fixed point so that every backend visits the same pixels.
#pragma once

#include "compute/pixel_rules.h"

#include <cstdint>

namespace linescope {

// α modulo 180 into [0, 180).
double normalizeAngle(double degrees);

// A segment of λ pixels as the offset set {-a, ..., b}: a = ⌊(λ-1)/2⌋, b = λ-1-a.
struct Segment {
    int a = 0;
    int b = 0;
    int length() const { return a + b + 1; }
};
Segment segmentOf(int length);

// The family of lines for one angle over a W×H image.
//  x-major (α ∈ [0,45] ∪ [135,180)): line c = {(t, c + off(t)) : t = 0..W-1, inside}
//  y-major (α ∈ (45,135)):           line c = {(c + off(t), t) : t = 0..H-1, inside}
// with off(t) = (t·S + 2^15) >> 16 and S = llround(s·65536), s = -tan α or -cot α.
struct LineFamily {
    double angle = 0;      // normalized degrees
    bool yMajor = false;   // true: lines advance along y (t = y)
    std::int32_t slope = 0;  // S, the slope in 16.16 fixed point
    int width = 0;
    int height = 0;
    // The rounding constant of off(): 2^15, except in a sub-image (stripFamily).
    std::int32_t phase = static_cast<std::int32_t>(kLinePhase);

    // Position of the pixel along its line's minor axis, relative to the line index.
    std::int64_t off(std::int64_t t) const { return lineOffset(t, slope, phase); }
    int majorLength() const { return yMajor ? height : width; }
    int minorLength() const { return yMajor ? width : height; }
    // Line indices c that touch the image: [firstLine, lastLine].
    std::int64_t firstLine() const;
    std::int64_t lastLine() const;
    // The in-image range of t for line c: [t0, t1] (t0 > t1 when the line misses the image).
    void extent(std::int64_t c, std::int64_t& t0, std::int64_t& t1) const;
    // Pixel coordinates of line c at major position t.
    void pixel(std::int64_t c, std::int64_t t, std::int64_t& x, std::int64_t& y) const {
        if (yMajor) { x = c + off(t); y = t; } else { x = t; y = c + off(t); }
    }
};

// The fixed-point slope and major axis of an angle (degrees, any value).
LineFamily lineFamily(double angleDegrees, int width, int height);

// `family`'s lines over `rows` rows of its image starting at row `originY`, in the
// coordinates of that strip (row originY becomes row 0): the same pixels on the same lines,
// only relabelled. A y-major family's major axis moves, so it takes the phase of originY
// (pixel_rules.h, linePhaseAt); an x-major one keeps its phase (its lines only change index).
// Image zones (compute/cuda/zones.h) run strips so, and get the whole image's results.
LineFamily stripFamily(const LineFamily& family, std::int64_t originY, int rows);

}  // namespace linescope
