// Copies between the engine's images and OpenCV's, for the suites that use OpenCV as an
// oracle (header only: only those suites link OpenCV).
#pragma once

#include "compute/image.h"

#include <opencv2/core.hpp>

#include <cstdint>
#include <type_traits>

namespace linescope::test {

template <class T>
constexpr int cvDepth() {
    if constexpr (std::is_same_v<T, std::uint8_t>) return CV_8U;
    else if constexpr (std::is_same_v<T, std::uint16_t>) return CV_16U;
    else return CV_32F;
}

// A copy, so that OpenCV never writes into the engine's buffer.
template <class T>
cv::Mat toMat(const Image<T>& img) {
    return cv::Mat(img.height(), img.width(), CV_MAKETYPE(cvDepth<T>(), 1), const_cast<T*>(img.data())).clone();
}

template <class T>
Image<T> fromMat(const cv::Mat& m) {
    Image<T> img(m.cols, m.rows);
    for (int y = 0; y < m.rows; ++y)
        for (int x = 0; x < m.cols; ++x) img.at(x, y) = m.at<T>(y, x);
    return img;
}

}  // namespace linescope::test
