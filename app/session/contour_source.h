// Which view contours are traced from: the input image, the result of the line operator, or
// one of the sweep's images. A value type shared by the session (which thresholds that view)
// and the contours dock (its source combo). Any thread.
#pragma once

#include <array>

namespace linescope::session {

enum class ContourSource {
    Original,  // the input image
    Result,    // the line operator at the current angle and λ
    Supremum,  // the sweep's supremum over the angles
    Infimum,   // the sweep's infimum
    Strength,  // the sweep's supremum − infimum
};

inline constexpr std::array<ContourSource, 5> kContourSources = {
    ContourSource::Original, ContourSource::Result, ContourSource::Supremum, ContourSource::Infimum,
    ContourSource::Strength};

// The source's name as the UI shows it: "Original", "Result", "Supremum", "Infimum", "Strength".
constexpr const char* contourSourceName(ContourSource s) {
    switch (s) {
    case ContourSource::Original: return "Original";
    case ContourSource::Result: return "Result";
    case ContourSource::Supremum: return "Supremum";
    case ContourSource::Infimum: return "Infimum";
    case ContourSource::Strength: return "Strength";
    }
    return "?";
}

}  // namespace linescope::session
