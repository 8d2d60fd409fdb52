// AnyImage ↔ cv::Mat: the one place the session's images meet OpenCV (files, exports, Otsu).
#pragma once

#include "app/session/snapshot.h"

#include <opencv2/core.hpp>

namespace linescope::session {

// A copy of a one-channel CV_8U, CV_16U or CV_32F image (io::readImage's types).
AnyImage anyImageOf(const cv::Mat& m);
// A cv::Mat copy of the image, of its own pixel type.
cv::Mat matOf(const AnyImage& img);

}  // namespace linescope::session
