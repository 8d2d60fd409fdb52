#include "app/io/deskew.h"

#include <opencv2/imgproc.hpp>

namespace linescope::io {

cv::Mat rotateAboutCentre(const cv::Mat& page, double degrees, RotationBorder border) {
    const cv::Point2f centre(static_cast<float>(page.cols - 1) / 2.0f, static_cast<float>(page.rows - 1) / 2.0f);
    // OpenCV's positive angle turns the picture counter-clockwise on screen (y down), which is
    // design.md's positive direction.
    const cv::Mat m = cv::getRotationMatrix2D(centre, degrees, 1.0);
    const bool white = border == RotationBorder::White;
    cv::Scalar fill = cv::Scalar::all(0);
    if (white) {
        double maxValue = 0;
        if (page.depth() == CV_8U) maxValue = 255;
        else if (page.depth() == CV_16U) maxValue = 65535;
        else cv::minMaxLoc(page.reshape(1), nullptr, &maxValue);
        fill = cv::Scalar::all(maxValue);
    }
    cv::Mat out;
    cv::warpAffine(page, out, m, page.size(), cv::INTER_LINEAR, white ? cv::BORDER_CONSTANT : cv::BORDER_REPLICATE,
                   fill);
    return out;
}

}  // namespace linescope::io
