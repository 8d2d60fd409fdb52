// Copies between the engine's images and OpenCV's, for the suites that use OpenCV as an
// oracle (header only: only those suites link OpenCV). The pixel-type mapping is the
// application's own (app/io/image_io.h).
#pragma once

#include "app/io/image_io.h"
#include "compute/image.h"

#include <opencv2/core.hpp>

namespace linescope::test {

template <class T>
constexpr int cvDepth() {
    return io::cvDepthOf<T>();
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
