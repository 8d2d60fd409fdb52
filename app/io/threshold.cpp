#include "app/io/threshold.h"

#include <opencv2/imgproc.hpp>

#include <cmath>
#include <stdexcept>

namespace linescope::io {

ThresholdRange thresholdRange(const cv::Mat& image) {
    CV_Assert(image.channels() == 1 && !image.empty());
    ThresholdRange r;
    cv::minMaxLoc(image, &r.min, &r.max);
    if (!std::isfinite(r.min) || !std::isfinite(r.max))
        throw std::runtime_error("the float image holds NaN or infinite values: cannot scale it to 8 bits");
    r.integer = image.depth() != CV_32F && image.depth() != CV_64F;
    return r;
}

EightBitScale eightBitScaleOf(const cv::Mat& image) {
    if (image.depth() == CV_8U) return {};
    const ThresholdRange r = thresholdRange(image);
    EightBitScale s;
    s.min = r.min;
    s.max = r.max;
    s.scale = r.max > r.min ? 255.0 / (r.max - r.min) : 1.0;
    s.shift = -r.min * s.scale;
    return s;
}

cv::Mat toEightBit(const cv::Mat& image, const EightBitScale& scale) {
    if (image.depth() == CV_8U) return image;
    cv::Mat eight;
    image.convertTo(eight, CV_8U, scale.scale, scale.shift);
    return eight;
}

cv::Mat toEightBit(const cv::Mat& image) { return toEightBit(image, eightBitScaleOf(image)); }

OtsuResult otsu(const cv::Mat& image) {
    OtsuResult o;
    o.scale = eightBitScaleOf(image);
    o.eight = toEightBit(image, o.scale);
    cv::Mat unused;
    o.eightBit = cv::threshold(o.eight, unused, 0, 1, cv::THRESH_BINARY | cv::THRESH_OTSU);
    o.threshold = image.depth() == CV_8U ? o.eightBit : o.scale.toImageUnits(o.eightBit);
    return o;
}

double otsuThreshold(const cv::Mat& image) { return otsu(image).threshold; }

cv::Mat binarize(const cv::Mat& image, double threshold) {
    const cv::Mat mask = image > threshold;  // 255 where image > threshold
    cv::Mat binary;
    mask.convertTo(binary, CV_8U, 1.0 / 255.0);
    return binary;
}

}  // namespace linescope::io
