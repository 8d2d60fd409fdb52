#include "tests/tasks/prints/texture_synth.h"

#include "tests/tasks/prints/orientation_metrics.h"
#include "tests/tasks/prints/synth_noise.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace linescope::tasks {

namespace {

constexpr double kDegToRad = std::numbers::pi / 180.0;

// Strokes of 1 to 3 pixels, each at its family's orientation with a jitter of σ = 1°, longer
// than the segments a sweep would use; brightness varies from stroke to stroke. The second
// family gets fewer strokes, so the first stays the strongest.
cv::Mat strokes(cv::Size size, const std::vector<double>& orientations, cv::RNG& rng) {
    cv::Mat canvas(size, CV_32F, cv::Scalar(0));
    const double side = std::min(size.width, size.height);
    for (std::size_t f = 0; f < orientations.size(); ++f) {
        const int count = static_cast<int>(size.area() / (f == 0 ? 700.0 : 1100.0));
        for (int i = 0; i < count; ++i) {
            const double a = (orientations[f] + rng.gaussian(1.0)) * kDegToRad;
            const double half = 0.5 * side * rng.uniform(0.2, 0.5);
            const cv::Point2d c(rng.uniform(0.0, 1.0 * size.width), rng.uniform(0.0, 1.0 * size.height));
            const cv::Point2d d(std::cos(a) * half, -std::sin(a) * half);  // (cos α, −sin α): y down
            cv::line(canvas, c - d, c + d, cv::Scalar(rng.uniform(0.6, 1.0)), rng.uniform(1, 4), cv::LINE_AA);
        }
    }
    return canvas;
}

// White noise filtered by a spectrum that is, for each orientation α, a Gaussian wedge
// (σ = 2.5°) around the lines' normal (sin α, cos α) in pixel coordinates times a Gaussian
// ring around the frequency 1/period; the second family has 0.7 of the first's amplitude.
cv::Mat orientedNoise(cv::Size size, const std::vector<double>& orientations, cv::RNG& rng) {
    cv::Mat noise(size, CV_32F);
    rng.fill(noise, cv::RNG::NORMAL, 0.0, 1.0);
    cv::Mat spectrum;
    cv::dft(noise, spectrum, cv::DFT_COMPLEX_OUTPUT);
    const double period = rng.uniform(6.0, 14.0), f0 = 1.0 / period, wedge = 2.5;
    for (int l = 0; l < size.height; ++l) {
        const double v = (l < (size.height + 1) / 2 ? l : l - size.height) / static_cast<double>(size.height);
        auto* row = spectrum.ptr<cv::Vec2f>(l);
        for (int k = 0; k < size.width; ++k) {
            const double u = (k < (size.width + 1) / 2 ? k : k - size.width) / static_cast<double>(size.width);
            const double radius = std::hypot(u, v);
            const double ring = std::exp(-std::pow((radius - f0) / (0.2 * f0), 2) / 2);
            const double dir = std::atan2(v, u) / kDegToRad;  // direction of the frequency, pixel coordinates
            double gain = 0;
            for (std::size_t f = 0; f < orientations.size(); ++f) {
                const double normal = 90.0 - orientations[f];  // the normal (sin α, cos α) at angle 90° − α
                const double d = angleDifference(dir, normal);
                gain += (f == 0 ? 1.0 : 0.7) * std::exp(-d * d / (2 * wedge * wedge));
            }
            row[k] *= static_cast<float>(gain * ring);
        }
    }
    cv::Mat out;
    cv::idft(spectrum, out, cv::DFT_REAL_OUTPUT | cv::DFT_SCALE);
    cv::Scalar mean, sd;
    cv::meanStdDev(out, mean, sd);
    out = (out - mean[0]) / (3.0 * std::max(sd[0], 1e-12)) + 0.5;  // ≈ [0, 1]
    return out;
}

}  // namespace

const char* textureKindName(TextureKind k) { return k == TextureKind::Strokes ? "strokes" : "oriented noise"; }

SyntheticTexture makeSyntheticTexture(std::uint64_t seed) {
    cv::RNG rng(seed * 0xD1B54A32D192ED03ull + 0x8CB92BA72F3D8DD7ull);
    SyntheticTexture t;
    t.kind = rng.uniform(0, 2) ? TextureKind::OrientedNoise : TextureKind::Strokes;
    const cv::Size size(rng.uniform(256, 513), rng.uniform(256, 513));
    t.orientations.push_back(rng.uniform(0.0, 180.0));
    if (rng.uniform(0, 2)) {
        const double second = std::fmod(t.orientations[0] + rng.uniform(35.0, 145.0), 180.0);
        t.orientations.push_back(second);
    }
    const cv::Mat pattern = t.kind == TextureKind::Strokes ? strokes(size, t.orientations, rng)
                                                            : orientedNoise(size, t.orientations, rng);
    static constexpr double kContrasts[] = {40.0, 90.0, 160.0};
    static constexpr double kNoise[] = {3.0, 10.0, 25.0};
    t.contrast = kContrasts[rng.uniform(0, 3)];
    t.noiseSigma = kNoise[rng.uniform(0, 3)];
    cv::Mat img = pattern * t.contrast + (128.0 - 0.5 * t.contrast) + smoothField(size, rng, 60) * 10.0;
    cv::GaussianBlur(img, img, cv::Size(), 0.7);
    addGaussianNoise(img, rng, t.noiseSigma);
    img.convertTo(t.image, CV_8U);
    return t;
}

}  // namespace linescope::tasks
