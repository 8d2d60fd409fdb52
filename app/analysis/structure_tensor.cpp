#include "app/analysis/structure_tensor.h"

#include <opencv2/imgproc.hpp>

#include <cmath>
#include <numbers>

namespace linescope::analysis {

BlockField structureTensorField(const cv::Mat& image, const StructureTensorParams& p) {
    CV_Assert(image.channels() == 1 && p.blockSize > 0);
    cv::Mat f;
    image.convertTo(f, CV_32F);
    if (p.gradientSigma > 0) cv::GaussianBlur(f, f, cv::Size(), p.gradientSigma, 0, cv::BORDER_REFLECT);
    cv::Mat gx, gy;
    cv::Sobel(f, gx, CV_32F, 1, 0, cv::FILTER_SCHARR, 1.0, 0.0, cv::BORDER_REFLECT);
    cv::Sobel(f, gy, CV_32F, 0, 1, cv::FILTER_SCHARR, 1.0, 0.0, cv::BORDER_REFLECT);
    cv::Mat jxx = gx.mul(gx), jxy = gx.mul(gy), jyy = gy.mul(gy);
    for (cv::Mat* j : {&jxx, &jxy, &jyy}) {
        if (p.windowSigma <= 0) continue;
        if (p.boxWindow) {
            const int side = 2 * static_cast<int>(std::lround(p.windowSigma / 2)) + 1;
            cv::boxFilter(*j, *j, -1, cv::Size(side, side), cv::Point(-1, -1), true, cv::BORDER_REFLECT);
        } else {
            cv::GaussianBlur(*j, *j, cv::Size(), p.windowSigma, 0, cv::BORDER_REFLECT);
        }
    }

    const int b = p.blockSize;
    BlockField out{(image.cols + b - 1) / b, (image.rows + b - 1) / b, b, {}};
    out.degrees.reserve(static_cast<std::size_t>(out.blocksX) * out.blocksY);
    const cv::Rect frame(cv::Point(), image.size());
    for (int by = 0; by < out.blocksY; ++by)
        for (int bx = 0; bx < out.blocksX; ++bx) {
            const cv::Rect r = cv::Rect(bx * b, by * b, b, b) & frame;
            const double sxx = cv::sum(jxx(r))[0], sxy = cv::sum(jxy(r))[0], syy = cv::sum(jyy(r))[0];
            // Dominant gradient direction φ in pixel coordinates (y down); the ridges run at
            // φ + 90°, and on screen (y up) that is the angle −(φ + 90°).
            const double phi = 0.5 * std::atan2(2.0 * sxy, sxx - syy) * 180.0 / std::numbers::pi;
            double deg = std::fmod(-(phi + 90.0), 180.0);
            if (deg < 0) deg += 180.0;
            out.degrees.push_back(static_cast<float>(deg >= 180.0 ? 0.0 : deg));
        }
    return out;
}

}  // namespace linescope::analysis
