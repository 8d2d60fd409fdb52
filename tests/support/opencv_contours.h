// What OpenCV's findContours hierarchy implies, for the suites that compare contours with it
// (header only: only those suites link OpenCV).
#pragma once

#include <opencv2/core.hpp>

#include <vector>

namespace linescope::test {

// Hole flags from a RETR_TREE or RETR_CCOMP hierarchy: hole borders are those at odd depth.
inline std::vector<bool> holesByDepth(const std::vector<cv::Vec4i>& hierarchy) {
    std::vector<bool> hole(hierarchy.size());
    for (std::size_t i = 0; i < hierarchy.size(); ++i) {
        int depth = 0;
        for (int p = hierarchy[i][3]; p >= 0; p = hierarchy[static_cast<std::size_t>(p)][3]) ++depth;
        hole[i] = depth % 2 == 1;
    }
    return hole;
}

}  // namespace linescope::test
