// How Suzuki–Abe's raster scan meets a whole border (see border_hierarchy.h for why these
// rules hold): whether it is a hole, the scan position that finds it, and the question that
// finds the border met last on its left, from which its parent follows. Shared by the CPU
// and the GPU (LINESCOPE_HD), over the foreground bitmap's rows (PixelBits' layout: a zero
// word left of each row, pixel x at bit x + 64).
#pragma once

#include "compute/contours/border_geometry.h"
#include "compute/contours/border_pieces.h"
#include "compute/contours/contours.h"

#include <cstddef>
#include <cstdint>

namespace linescope::contours {

LINESCOPE_HD inline bool isHoleBorder(const BorderSummary& s) { return s.firstWest != s.first; }

// Where the raster scan meets the border: its first pixel, or for a hole the pixel after s.
LINESCOPE_HD inline PixelKey discoveryKey(const BorderSummary& s) {
    return isHoleBorder(s) ? s.firstEast + 1 : s.first;
}

// The nearest foreground pixel left of x in a row, or −1.
LINESCOPE_HD inline int foregroundLeftOf(const std::uint64_t* row, int x) {
    const auto bit = static_cast<unsigned>(x - 1 + 64);
    unsigned wi = bit >> 6;
    std::uint64_t w = row[wi] & ((std::uint64_t{2} << (bit & 63)) - 1);  // bits at or left of x − 1
    while (w == 0 && wi > 0) w = row[--wi];
    if (w == 0) return -1;
    return static_cast<int>(wi * 64 + 63 - static_cast<unsigned>(countLeadingZeros64(w))) - 64;
}

// The first pixel of the foreground run that holds pixel x of a row (the frame ends every run).
LINESCOPE_HD inline int runStartOf(const std::uint64_t* row, int x) {
    const auto bit = static_cast<unsigned>(x + 64);
    unsigned wi = bit >> 6;
    std::uint64_t w = ~row[wi] & ((std::uint64_t{2} << (bit & 63)) - 1);  // background at or left of x
    while (w == 0) w = ~row[--wi];  // word 0 is frame: all background
    return static_cast<int>(wi * 64 + 63 - static_cast<unsigned>(countLeadingZeros64(w))) - 64 + 1;
}

// "Which border holds the triad of `pixel` whose gap has this cross zero?": for an outer
// border, the east zero of the nearest foreground pixel to its left; for a hole, the west
// zero of the first pixel of the foreground run that ends at s. No question (pixel =
// kNoPixel) when the mode needs no parent for the border (external: holes; ccomp: outer
// borders; list: none) or only background lies to its left.
struct LeftQuery {
    PixelKey pixel = kNoPixel;
    unsigned zero = 0;  // kWestZero or kEastZero
};

LINESCOPE_HD inline LeftQuery leftQuery(const BorderSummary& s, const std::uint64_t* words, std::size_t wordsPerRow,
                                        ContourMode mode) {
    LeftQuery q;
    if (mode == ContourMode::List) return q;
    if (isHoleBorder(s)) {
        if (mode == ContourMode::External) return q;  // holes are not returned
        const int y = keyY(s.firstEast);
        q.pixel = pixelKey(runStartOf(words + static_cast<std::size_t>(y + 1) * wordsPerRow, keyX(s.firstEast)), y);
        q.zero = kWestZero;
    } else {
        if (mode == ContourMode::CComp) return q;  // outer borders are all on top
        const int y = keyY(s.first);
        const int x = foregroundLeftOf(words + static_cast<std::size_t>(y + 1) * wordsPerRow, keyX(s.first));
        if (x < 0) return q;  // nothing but background to the frame
        q.pixel = pixelKey(x, y);
        q.zero = kEastZero;
    }
    return q;
}

}  // namespace linescope::contours
