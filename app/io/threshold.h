// Thresholds of images for contours, shared by linescope-cli and the desktop app: the range a
// threshold can span, Otsu's threshold in the image's own units, and "pixel > T" as a binary
// image. Plain functions of their arguments: any thread.
#pragma once

#include <opencv2/core.hpp>

namespace linescope::io {

// The values of a one-channel CV_8U, CV_16U or CV_32F image, for a threshold control.
struct ThresholdRange {
    double min = 0;
    double max = 0;
    bool integer = true;  // uint8 and uint16: "pixel > T" only changes at whole T
};

// The smallest and largest pixel value, for NaN-free images (the session and the engine
// refuse NaN before this is reached; cv::minMaxLoc passes over NaN pixels, so with NaN the
// range is that of the other pixels). Throws std::runtime_error when the minimum or maximum
// is infinite.
ThresholdRange thresholdRange(const cv::Mat& image);

// The linear map of an image onto 8 bits: eight = saturate_cast<uchar>(value · scale + shift),
// so min → 0 and max → 255 (a constant image keeps scale 1). An 8-bit image maps as it is.
struct EightBitScale {
    double min = 0, max = 255;  // the image's range (0 and 255 for an 8-bit image)
    double scale = 1, shift = 0;
    // An 8-bit value back in the image's units: (eight − shift) / scale = min + eight·(max − min)/255.
    double toImageUnits(double eight) const { return (eight - shift) / scale; }
};

// The scale of `image` (throws as thresholdRange does).
EightBitScale eightBitScaleOf(const cv::Mat& image);
// `image` mapped to CV_8U by `scale` (an 8-bit image is returned as it is, not copied).
cv::Mat toEightBit(const cv::Mat& image, const EightBitScale& scale);
cv::Mat toEightBit(const cv::Mat& image);

// Otsu's threshold with its 8-bit details.
struct OtsuResult {
    double threshold = 0;  // in the image's units: scale.toImageUnits(eightBit)
    double eightBit = 0;   // cv::threshold(THRESH_OTSU) of the 8-bit image, 0 … 255
    EightBitScale scale;   // how the image was mapped to 8 bits
    cv::Mat eight;         // the 8-bit image Otsu saw
};

// Otsu's threshold (cv::threshold with THRESH_OTSU), which needs 8 bits: uint16 and float
// images are first mapped min → 0, max → 255 (EightBitScale), and the 8-bit threshold t8 is
// mapped back linearly: T = min + t8 · (max − min) / 255. For uint8 images T = t8 exactly.
// For other types "pixel > T" is Otsu's split up to rounding: a pixel within half an 8-bit
// step above T has eight ≤ t8 (rounds down onto t8) yet value > T, so binarizing the 8-bit
// image with t8 and the image with T can differ on those pixels. Throws as thresholdRange.
OtsuResult otsu(const cv::Mat& image);
double otsuThreshold(const cv::Mat& image);

// The binary image "pixel > threshold" as CV_8U 0 / 1 (NaN compares false).
cv::Mat binarize(const cv::Mat& image, double threshold);

}  // namespace linescope::io
