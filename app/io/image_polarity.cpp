#include "app/io/image_polarity.h"

#include <cfloat>

namespace linescope::io {

std::optional<bool> meanLevelIsLight(const cv::Mat& image) {
    cv::Mat finite;  // empty: every pixel counts
    if (image.depth() == CV_32F || image.depth() == CV_64F) finite = cv::abs(image) <= DBL_MAX;  // false for NaN, ±inf
    double lo = 0, hi = 0;
    cv::minMaxLoc(image, &lo, &hi, nullptr, nullptr, finite);
    if (!(lo < hi)) return std::nullopt;
    const double middle = image.depth() == CV_8U ? 127.5 : image.depth() == CV_16U ? 32767.5 : (lo + hi) / 2;
    return cv::mean(image, finite)[0] > middle;
}

}  // namespace linescope::io
