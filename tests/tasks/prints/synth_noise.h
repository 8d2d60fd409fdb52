// Random fields shared by the fingerprint and texture generators (tests/tasks/prints):
// smooth fields for slowly varying parameters and pixel noise. Deterministic from the cv::RNG
// they are given. Any thread; no shared state.
#pragma once

#include <opencv2/core.hpp>

namespace linescope::tasks {

// A smooth random field (CV_32F) scaled to [-1, 1], with features about `scale` pixels wide:
// white noise blurred by a Gaussian of σ = scale.
cv::Mat smoothField(cv::Size size, cv::RNG& rng, double scale);

// Adds Gaussian noise of σ `sigma` grey levels to a CV_32F image.
void addGaussianNoise(cv::Mat& image32, cv::RNG& rng, double sigma);

}  // namespace linescope::tasks
