#include "tests/tasks/prints/synth_noise.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

namespace linescope::tasks {

cv::Mat smoothField(cv::Size size, cv::RNG& rng, double scale) {
    // Blurring a small noise image and resizing it up is much cheaper than blurring full-size
    // noise by a large σ, and as smooth: the field has no detail finer than `scale` anyway.
    const double shrink = std::max(1.0, scale / 4.0);
    const cv::Size small(std::max(4, static_cast<int>(std::ceil(size.width / shrink))),
                         std::max(4, static_cast<int>(std::ceil(size.height / shrink))));
    cv::Mat f(small, CV_32F);
    rng.fill(f, cv::RNG::NORMAL, 0.0, 1.0);
    cv::GaussianBlur(f, f, cv::Size(), scale / shrink, 0, cv::BORDER_REFLECT);
    cv::Mat out;
    cv::resize(f, out, size, 0, 0, cv::INTER_CUBIC);
    double lo = 0, hi = 0;
    cv::minMaxLoc(out, &lo, &hi);
    const double m = std::max({std::abs(lo), std::abs(hi), 1e-12});
    return out / m;
}

void addGaussianNoise(cv::Mat& image32, cv::RNG& rng, double sigma) {
    if (sigma <= 0) return;
    cv::Mat noise(image32.size(), CV_32F);
    rng.fill(noise, cv::RNG::NORMAL, 0.0, sigma);
    image32 += noise;
}

}  // namespace linescope::tasks
