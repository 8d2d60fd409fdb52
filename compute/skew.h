// Skew of a page or music sheet from an angular spectrum (design.md §1).
#pragma once

#include "compute/backend.h"
#include "compute/image.h"
#include "compute/sweep.h"

#include <vector>

namespace linescope {

struct SkewResult {
    double angle = 0;       // degrees, counter-clockwise positive: the angle of the lines, in (-90, 90]
    double confidence = 0;  // 0 … 1: the peak's prominence over the rest of the spectrum
    int peakIndex = 0;      // k of the spectrum's extreme
};

// The extreme of the spectrum (its minimum when `minimum`), refined by a parabola through
// its neighbours. Throws Error on an empty spectrum.
SkewResult skewFromSpectrum(const std::vector<double>& spectrum, const AngleSet& angles, bool minimum);

struct SkewParams {
    int length = 0;          // λ; 0 = four fifths of the image width, at most 251
    AngleSet angles{-10, 0.25, 81};
    bool darkLines = true;   // dark lines on light paper: closings (minimum); else openings (maximum)
};

// The λ estimateSkew uses when SkewParams::length is 0: four fifths of the page width,
// 3 … 251 (long segments resolve small angles; the lines run across the page).
int defaultSkewLength(int width, int height);

template <class T>
SkewResult estimateSkew(ImageView<const T> page, const SkewParams& p = {}, const EngineOptions& opt = {});

}  // namespace linescope
