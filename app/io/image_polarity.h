// Which way an image's lines point in grey level: dark lines on a light ground (pages, scores,
// prints on paper) want closings, bright lines on a dark ground want openings. One rule for
// the command line's note and the window's task recipes and warning.
#pragma once

#include <opencv2/core.hpp>

#include <optional>

namespace linescope::io {

// True when the image's mean lies above the middle of its range (the type's for uint8 and
// uint16, the image's own finite min…max for float32, NaN and ±inf left out): a light
// ground. Nothing for a flat image, which has no lines either way.
std::optional<bool> meanLevelIsLight(const cv::Mat& image);

}  // namespace linescope::io
