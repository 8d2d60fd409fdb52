#include "tests/tasks/prints/orientation_metrics.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace linescope::tasks {

namespace {
constexpr double kDegToRad = std::numbers::pi / 180.0;

int blocksAlong(int pixels, int blockSize) { return (pixels + blockSize - 1) / blockSize; }

cv::Rect blockRect(int bx, int by, int blockSize, cv::Size image) {
    return cv::Rect(bx * blockSize, by * blockSize, blockSize, blockSize) & cv::Rect(cv::Point(), image);
}
}  // namespace

double angleDifference(double a, double b) {
    double d = std::fmod(std::abs(a - b), 180.0);
    return d > 90.0 ? 180.0 - d : d;
}

BlockField truthBlocks(const cv::Mat& orientation, int blockSize) {
    CV_Assert(orientation.type() == CV_32F && blockSize > 0);
    BlockField f{blocksAlong(orientation.cols, blockSize), blocksAlong(orientation.rows, blockSize), blockSize, {}};
    f.degrees.reserve(static_cast<std::size_t>(f.blocksX) * f.blocksY);
    for (int by = 0; by < f.blocksY; ++by)
        for (int bx = 0; bx < f.blocksX; ++bx) {
            const cv::Rect r = blockRect(bx, by, blockSize, orientation.size());
            double c = 0, s = 0;
            for (int y = r.y; y < r.y + r.height; ++y)
                for (int x = r.x; x < r.x + r.width; ++x) {
                    const double t = 2.0 * orientation.at<float>(y, x) * kDegToRad;
                    c += std::cos(t);
                    s += std::sin(t);
                }
            double deg = 0.5 * std::atan2(s, c) / kDegToRad;
            if (deg < 0) deg += 180.0;
            f.degrees.push_back(static_cast<float>(deg >= 180.0 ? 0.0 : deg));
        }
    return f;
}

std::vector<unsigned char> foregroundBlocks(const cv::Mat& mask, int blockSize, double minShare) {
    CV_Assert(mask.type() == CV_8U && blockSize > 0);
    const int bxCount = blocksAlong(mask.cols, blockSize), byCount = blocksAlong(mask.rows, blockSize);
    std::vector<unsigned char> fg;
    fg.reserve(static_cast<std::size_t>(bxCount) * byCount);
    for (int by = 0; by < byCount; ++by)
        for (int bx = 0; bx < bxCount; ++bx) {
            const cv::Rect r = blockRect(bx, by, blockSize, mask.size());
            fg.push_back(cv::countNonZero(mask(r)) >= minShare * r.area() ? 1 : 0);
        }
    return fg;
}

FieldComparison compareFields(const BlockField& estimate, const BlockField& truth,
                              const std::vector<unsigned char>& foreground) {
    if (estimate.blocksX != truth.blocksX || estimate.blocksY != truth.blocksY ||
        estimate.degrees.size() != truth.degrees.size() || foreground.size() != truth.degrees.size())
        throw std::invalid_argument("compareFields: the fields have different block layouts");
    FieldComparison c;
    double sq = 0, abs = 0;
    int in10 = 0, in20 = 0;
    for (std::size_t i = 0; i < truth.degrees.size(); ++i) {
        if (!foreground[i]) continue;
        const double d = angleDifference(estimate.degrees[i], truth.degrees[i]);
        ++c.blocks;
        sq += d * d;
        abs += d;
        in10 += d <= 10.0;
        in20 += d <= 20.0;
    }
    if (c.blocks > 0) {
        c.rmsd = std::sqrt(sq / c.blocks);
        c.meanAbs = abs / c.blocks;
        c.within10 = static_cast<double>(in10) / c.blocks;
        c.within20 = static_cast<double>(in20) / c.blocks;
    }
    return c;
}

}  // namespace linescope::tasks
