// Photo-like blocks pasted into text pages (see photo_pages.h).
#include "tests/tasks/pages/photo_pages.h"

#include "tests/tasks/prints/synth_noise.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace linescope::tasks {

cv::Mat makePhoto(cv::Size size, std::uint64_t seed) {
    cv::RNG rng(seed ^ 0xA5A5F0F0C3C3ULL);
    const double w = size.width, h = size.height;
    cv::Mat f(size, CV_32F);
    // Sky above a horizon through a random point, tilted by up to ±30°; each side its own
    // vertical gradient. Photos of the world have straight edges at any angle.
    const double tilt = rng.uniform(-30.0, 30.0) * std::numbers::pi / 180.0;
    const double hx = rng.uniform(0.2, 0.8) * w, hy = rng.uniform(0.3, 0.7) * h;
    const double skyTop = rng.uniform(150.0, 230.0), skyLow = rng.uniform(120.0, 210.0);
    const double groundTop = rng.uniform(40.0, 140.0), groundLow = rng.uniform(20.0, 120.0);
    for (int y = 0; y < size.height; ++y) {
        float* row = f.ptr<float>(y);
        for (int x = 0; x < size.width; ++x) {
            const double above = (hy - y) * std::cos(tilt) - (x - hx) * std::sin(tilt);  // > 0: sky
            const double t = y / h;
            row[x] = static_cast<float>(above > 0 ? skyTop + (skyLow - skyTop) * t : groundTop + (groundLow - groundTop) * t);
        }
    }
    // Clouds, foliage: blobs at two scales.
    f += smoothField(size, rng, 0.08 * std::min(w, h)) * rng.uniform(20.0, 45.0);
    f += smoothField(size, rng, 0.015 * std::min(w, h)) * rng.uniform(8.0, 20.0);
    // Buildings, boxes: a few filled rotated rectangles with straight edges at random angles.
    const int shapes = rng.uniform(2, 6);
    for (int i = 0; i < shapes; ++i) {
        const cv::RotatedRect r(cv::Point2f(static_cast<float>(rng.uniform(0.0, w)), static_cast<float>(rng.uniform(0.0, h))),
                                cv::Size2f(static_cast<float>(rng.uniform(0.05, 0.3) * w), static_cast<float>(rng.uniform(0.1, 0.5) * h)),
                                static_cast<float>(rng.uniform(-60.0, 60.0)));
        cv::Point2f p[4];
        r.points(p);
        const cv::Point q[4] = {p[0], p[1], p[2], p[3]};
        cv::fillConvexPoly(f, q, 4, cv::Scalar(rng.uniform(20.0, 220.0)), cv::LINE_AA);
    }
    cv::GaussianBlur(f, f, cv::Size(), 1.2);  // the lens
    addGaussianNoise(f, rng, rng.uniform(4.0, 10.0));  // grain
    cv::Mat out;
    f.convertTo(out, CV_8U);
    return out;
}

cv::Mat withPhotos(const cv::Mat& page, int count, std::uint64_t seed) {
    CV_Assert(page.type() == CV_8UC1 && count >= 1 && count <= 2);
    cv::RNG rng(seed);
    cv::Mat out = page.clone();
    // The page's text area (about 1 in margins at 300 dpi), split into `count` bands.
    const int left = page.cols / 9, right = page.cols - page.cols / 9;
    const int top = page.rows / 8, bottom = page.rows - page.rows / 10;
    const int band = (bottom - top) / count;
    for (int i = 0; i < count; ++i) {
        const int pw = static_cast<int>(rng.uniform(0.40, 0.65) * page.cols);
        const int ph = static_cast<int>(rng.uniform(0.14, 0.22) * page.rows);
        const int x = rng.uniform(left, std::max(left + 1, right - pw));
        const int y = top + i * band + rng.uniform(0, std::max(1, band - ph));
        const cv::Rect r = cv::Rect(x, y, pw, ph) & cv::Rect(0, 0, page.cols, page.rows);
        makePhoto(r.size(), rng.next()).copyTo(out(r));
    }
    return out;
}

std::string photoPageName(const std::string& textPage) {
    return "photo-" + (textPage.rfind("text-", 0) == 0 ? textPage.substr(5) : textPage);
}

}  // namespace linescope::tasks
