// A granulometry (compute/granulometry.h) as the text files the command line writes and the
// window exports: CSV (one row a length) and JSON (one object).
#pragma once

#include "compute/granulometry.h"

#include <optional>
#include <string>

namespace linescope::io {

// What the numbers are of: the request, and the engine's time (JSON only; negative: left out).
struct GranulometryInfo {
    GranulometryRequest request;  // angle or angle set, Λ, line kind, rectangle (its mask is not written)
    double timeMs = -1;
};

// S(λ)/S(1) for λ = 1 … Λ+1: the curve a plot shows; nullopt where S(1) ≤ 0 (a float image
// whose sum is not positive has no fraction to show).
std::optional<double> normalizedSum(const Granulometry& g, int length);

// "# line=paths", "# angle=30" (or "# angles=start:stop:step" and "# supremum"), "# region=x,y,w,h"
// or "# region=whole", "# pixels=N", then "length,sum,normalized,pattern_spectrum" and one
// row for each λ = 1 … Λ+1 (the last row, the residual S(Λ+1), has no pattern spectrum).
// Sums of integer images are written exactly; doubles in their shortest round-trip text.
std::string granulometryCsv(const Granulometry& g, const GranulometryInfo& info);

// {"line", "angle" | "angles": [...], "supremum", "max_length", "region": [x, y, w, h] | null,
//  "pixels", "lengths": [1 … Λ+1], "sums": [...], "normalized": [...], "pattern_spectrum": [...Λ],
//  "residual", "time_ms"} and a newline.
std::string granulometryJson(const Granulometry& g, const GranulometryInfo& info);

}  // namespace linescope::io
