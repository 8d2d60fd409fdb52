// The dominant orientations of an angular spectrum (design.md §1): its local extremes,
// refined by a parabola, strongest first. Pure engine.
#pragma once

#include "compute/sweep.h"

#include <vector>

namespace linescope {

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
