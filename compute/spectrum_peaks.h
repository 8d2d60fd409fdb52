// The dominant orientations of an angular spectrum (design.md §1): its local extremes,
// refined by a parabola, strongest first. Pure engine.
#pragma once

#include "compute/sweep.h"

#include <algorithm>
#include <vector>

namespace linescope {

// Where the parabola through three equally spaced samples (ym, y0, yp) peaks, in steps from
// the middle one, within ±0.5; 0 when they do not bend downwards.
inline double parabolaPeakOffset(double ym, double y0, double yp) {
    const double curvature = ym - 2 * y0 + yp;
    return curvature < 0 ? std::clamp(0.5 * (ym - yp) / curvature, -0.5, 0.5) : 0.0;
}

struct SpectrumPeak {
    double angle = 0;       // degrees; in [0, 180) when the angle set covers 180°
    double prominence = 0;  // height over the higher of the two valleys around it, / (max − min)
    int index = 0;          // k of the sample at the extreme
};

// Local maxima of `spectrum` (minima when `minimum`), with prominence ≥ minProminence, at
// most maxPeaks, strongest first. A set that covers 180° (count·step = 180) wraps around.
std::vector<SpectrumPeak> spectrumPeaks(const std::vector<double>& spectrum, const AngleSet& angles,
                                        bool minimum, int maxPeaks = 4, double minProminence = 0.1);

}  // namespace linescope
