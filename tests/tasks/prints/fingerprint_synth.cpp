// The generator follows SFinGe's steps; the growth step is make_samples' (resources/tools)
// made fast: each pixel is filtered with its own Gabor kernel, taken from a bank indexed by
// (orientation bin, period bin), instead of filtering the whole image once per bin.
#include "tests/tasks/prints/fingerprint_synth.h"

#include "tests/tasks/prints/synth_noise.h"

#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <vector>

namespace linescope::tasks {

namespace {

constexpr double kPi = std::numbers::pi;

// The Gabor bank: kKernelTaps × kKernelTaps kernels, each row padded to kRowStride floats
// (a zero at the end) so that the inner loop over a row is one fixed-width, vectorisable block.
constexpr int kRadius = 7;
constexpr int kKernelTaps = 2 * kRadius + 1;
constexpr int kRowStride = 16;
constexpr int kKernelFloats = kKernelTaps * kRowStride;
constexpr int kOrientationBins = 90;  // 2° a bin: the ridges follow the field within ±1°
constexpr double kPeriodMin = 7.0, kPeriodMax = 12.0, kPeriodStep = 0.25;
constexpr int kPeriodBins = static_cast<int>((kPeriodMax - kPeriodMin) / kPeriodStep) + 1;

struct GaborBank {
    std::vector<float> taps;  // kOrientationBins × kPeriodBins kernels of kKernelFloats
    const float* kernel(int bin) const { return taps.data() + static_cast<std::size_t>(bin) * kKernelFloats; }
};

// Even Gabor kernels with an isotropic envelope (σ = 0.4 period, as make_samples' 3.5 for 9 px),
// stripes perpendicular to the normal n = (−sin θ, cos θ) of the ridge direction θ (pixel
// coordinates), zero mean (the pattern grows from the noise, not from the mean), unit L1 norm.
const GaborBank& gaborBank() {
    static const GaborBank bank = [] {
        GaborBank b;
        b.taps.assign(static_cast<std::size_t>(kOrientationBins) * kPeriodBins * kKernelFloats, 0.0f);
        for (int o = 0; o < kOrientationBins; ++o)
            for (int p = 0; p < kPeriodBins; ++p) {
                const double theta = kPi * o / kOrientationBins;
                const double period = kPeriodMin + p * kPeriodStep;
                const double sigma = 0.4 * period;
                const double nx = -std::sin(theta), ny = std::cos(theta);
                std::array<double, kKernelTaps * kKernelTaps> k{};
                double sum = 0;
                for (int y = -kRadius; y <= kRadius; ++y)
                    for (int x = -kRadius; x <= kRadius; ++x) {
                        const double v = std::exp(-(x * x + y * y) / (2 * sigma * sigma)) *
                                         std::cos(2 * kPi * (x * nx + y * ny) / period);
                        k[static_cast<std::size_t>((y + kRadius) * kKernelTaps + x + kRadius)] = v;
                        sum += v;
                    }
                const double mean = sum / static_cast<double>(k.size());
                double l1 = 0;
                for (double& v : k) {
                    v -= mean;
                    l1 += std::abs(v);
                }
                float* dst = b.taps.data() + (static_cast<std::size_t>(o) * kPeriodBins + p) * kKernelFloats;
                for (int y = 0; y < kKernelTaps; ++y)
                    for (int x = 0; x < kKernelTaps; ++x)
                        dst[y * kRowStride + x] = static_cast<float>(k[static_cast<std::size_t>(y * kKernelTaps + x)] / l1);
            }
        return b;
    }();
    return bank;
}

// Where the singular points go, in units of the finger's semi-axes (a, b) from its centre;
// jittered per print.
struct Singularities {
    std::vector<cv::Point2d> cores, deltas;
};

Singularities singularitiesFor(PrintClass c, cv::Point2d centre, double a, double b, cv::RNG& rng) {
    auto at = [&](double u, double v) {
        return cv::Point2d(centre.x + (u + rng.uniform(-0.08, 0.08)) * a, centre.y + (v + rng.uniform(-0.06, 0.06)) * b);
    };
    Singularities s;
    switch (c) {
    case PrintClass::Arch: break;
    case PrintClass::TentedArch:
        s.cores = {at(0.0, -0.05)};
        s.deltas = {at(0.0, 0.45)};
        break;
    case PrintClass::LeftLoop:
        s.cores = {at(0.05, -0.12)};
        s.deltas = {at(0.55, 0.4)};
        break;
    case PrintClass::RightLoop:
        s.cores = {at(-0.05, -0.12)};
        s.deltas = {at(-0.55, 0.4)};
        break;
    case PrintClass::Whorl:
        s.cores = {at(-0.08, -0.15), at(0.08, 0.0)};
        s.deltas = {at(-0.6, 0.45), at(0.6, 0.45)};
        break;
    }
    return s;
}

// Ridge direction θ (radians, pixel coordinates: direction (cos θ, sin θ) with y down).
// Sherlock and Monro: θ = θ0 + ½ Σ arg(z − core) − ½ Σ arg(z − delta); for plain arches, whose
// field has no singular points, ridges shaped like hills y = −h(y)·exp(−(x−cx)²/2s²) instead.
cv::Mat orientationModel(cv::Size size, PrintClass c, cv::Point2d centre, double a, double b, cv::RNG& rng,
                         Singularities& s) {
    s = singularitiesFor(c, centre, a, b, rng);
    const double theta0 = rng.uniform(-0.12, 0.12);
    const double hill = rng.uniform(0.25, 0.45) * b, spread = rng.uniform(0.35, 0.5) * a;
    const double hillY = centre.y + rng.uniform(0.0, 0.2) * b;
    cv::Mat theta(size, CV_32F);
    for (int y = 0; y < size.height; ++y) {
        float* row = theta.ptr<float>(y);
        for (int x = 0; x < size.width; ++x) {
            double t = theta0;
            if (c == PrintClass::Arch) {
                const double dx = x - centre.x, dy = (y - hillY) / (0.45 * b);
                const double height = hill * std::exp(-dy * dy);  // hills flatten away from the middle
                t += std::atan(height * dx / (spread * spread) * std::exp(-dx * dx / (2 * spread * spread)));
            } else {
                for (const auto& p : s.cores) t += 0.5 * std::atan2(y - p.y, x - p.x);
                for (const auto& p : s.deltas) t -= 0.5 * std::atan2(y - p.y, x - p.x);
            }
            row[x] = static_cast<float>(t);
        }
    }
    return theta;
}

int wrapBin(double theta) {
    double u = std::fmod(theta / kPi, 1.0);
    if (u < 0) u += 1.0;
    return static_cast<int>(std::lround(u * kOrientationBins)) % kOrientationBins;
}

// SFinGe's growth: sparse ±1 seeds, filtered again and again with the Gabor kernel of each
// pixel's orientation and period, rescaled and clipped to [−1, 1] after each pass. Only pixels
// of `grow` are computed (the finger and a margin around it); the rest stays 0.
cv::Mat growRidges(const cv::Mat& theta, const cv::Mat& period, const cv::Mat& grow, cv::RNG& rng, int iterations) {
    const GaborBank& bank = gaborBank();
    const cv::Size size = theta.size();
    cv::Mat bin(size, CV_32S);
    for (int y = 0; y < size.height; ++y)
        for (int x = 0; x < size.width; ++x) {
            const double p = std::clamp(static_cast<double>(period.at<float>(y, x)), kPeriodMin, kPeriodMax);
            const int pb = static_cast<int>(std::lround((p - kPeriodMin) / kPeriodStep));
            bin.at<int>(y, x) = grow.at<uchar>(y, x) ? wrapBin(theta.at<float>(y, x)) * kPeriodBins + pb : -1;
        }

    cv::Mat field(size, CV_32F, cv::Scalar(0));
    const int seeds = std::max(20, size.area() / 400);
    for (int i = 0; i < seeds; ++i) {
        const int x = rng.uniform(0, size.width), y = rng.uniform(0, size.height);
        if (grow.at<uchar>(y, x)) field.at<float>(y, x) = rng.uniform(0, 2) ? 1.0f : -1.0f;
    }

    cv::Mat padded, next(size, CV_32F);
    for (int it = 0; it < iterations; ++it) {
        // One more column on the right: a kernel row reads kRowStride = kKernelTaps + 1 floats.
        cv::copyMakeBorder(field, padded, kRadius, kRadius, kRadius, kRadius + 1, cv::BORDER_CONSTANT, 0);
        cv::parallel_for_(cv::Range(0, size.height), [&](const cv::Range& rows) {
            for (int y = rows.start; y < rows.end; ++y) {
                const int* bins = bin.ptr<int>(y);
                float* out = next.ptr<float>(y);
                for (int x = 0; x < size.width; ++x) {
                    if (bins[x] < 0) {
                        out[x] = 0;
                        continue;
                    }
                    const float* k = bank.kernel(bins[x]);
                    float acc[kRowStride] = {};
                    for (int r = 0; r < kKernelTaps; ++r) {
                        const float* src = padded.ptr<float>(y + r) + x;
                        const float* kr = k + r * kRowStride;
                        for (int c = 0; c < kRowStride; ++c) acc[c] += kr[c] * src[c];
                    }
                    float sum = 0;
                    for (float v : acc) sum += v;
                    out[x] = sum;
                }
            }
        });
        cv::Scalar mean, sd;
        cv::meanStdDev(next, mean, sd, grow);
        next *= 2.5 / std::max(sd[0], 1e-12);
        cv::max(cv::min(next, 1.0), -1.0, field);
    }
    return field;
}

// Ink of the ridges in [0, 1] from the grown field: pressure moves the threshold, so dry
// areas (threshold up) have thin, broken ridges and wet ones (threshold down) thick, merged ones.
// The grown field is clipped, nearly square across a ridge; a light blur rounds its profile
// so that the threshold changes the ridge width.
cv::Mat pressedInk(const cv::Mat& field, const cv::Mat& threshold) {
    cv::Mat rounded;
    cv::GaussianBlur(field, rounded, cv::Size(), 1.6);
    cv::Mat ink = (rounded - threshold) * 2.0 + 0.5;
    cv::max(cv::min(ink, 1.0), 0.0, ink);
    return ink;
}

}  // namespace

const char* printClassName(PrintClass c) {
    switch (c) {
    case PrintClass::Arch: return "arch";
    case PrintClass::TentedArch: return "tented arch";
    case PrintClass::LeftLoop: return "left loop";
    case PrintClass::RightLoop: return "right loop";
    case PrintClass::Whorl: return "whorl";
    }
    return "?";
}

const char* printQualityName(PrintQuality q) { return q == PrintQuality::Good ? "good" : "degraded"; }

SyntheticPrint makeSyntheticPrint(std::uint64_t seed, PrintQuality quality) {
    cv::RNG rng(seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull);
    const bool degraded = quality == PrintQuality::Degraded;
    SyntheticPrint out;
    out.quality = quality;
    out.printClass = static_cast<PrintClass>(rng.uniform(0, 5));

    // Size: FVC-like 500 dpi images, taller than wide.
    const int w = rng.uniform(300, 451);
    const int h = std::clamp(static_cast<int>(std::lround(w * rng.uniform(1.12, 1.3))), 360, 560);
    const cv::Size size(w, h);

    // Finger: an ellipse on top, a squarer superellipse below, a wavy edge; partial prints
    // have the finger shifted so that part of it falls outside the image.
    const double a = w * rng.uniform(0.36, 0.44), b = h * rng.uniform(0.42, 0.5);
    cv::Point2d centre(w * 0.5 + rng.uniform(-0.04, 0.04) * w, h * 0.52 + rng.uniform(-0.03, 0.03) * h);
    if (degraded && rng.uniform(0, 2) == 1) {
        out.partial = true;
        if (rng.uniform(0, 2)) centre.x += (rng.uniform(0, 2) ? 1 : -1) * rng.uniform(0.2, 0.35) * w;
        else centre.y += (rng.uniform(0, 2) ? 1 : -1) * rng.uniform(0.2, 0.32) * h;
    }
    const cv::Mat edgeWobble = smoothField(size, rng, 40);
    cv::Mat soft(size, CV_32F), grow(size, CV_8U);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const double u = std::abs(x - centre.x) / a, v = std::abs(y - centre.y) / b;
            const double pw = y < centre.y ? 2.0 : 3.5;
            const double r = std::pow(std::pow(u, pw) + std::pow(v, pw), 1.0 / pw) + 0.04 * edgeWobble.at<float>(y, x);
            const double inside = (1.0 - r) * std::min(a, b);  // ≈ pixels inside the edge
            soft.at<float>(y, x) = static_cast<float>(std::clamp(inside / 8.0 + 0.5, 0.0, 1.0));
            grow.at<uchar>(y, x) = inside > -12 ? 255 : 0;
        }
    out.mask = soft > 0.5f;

    // Orientation: the class's model plus a smooth perturbation that is part of the truth.
    Singularities singular;
    cv::Mat theta = orientationModel(size, out.printClass, centre, a, b, rng, singular);
    out.cores = singular.cores;
    out.deltas = singular.deltas;
    theta += smoothField(size, rng, 50) * (rng.uniform(5.0, 9.0) * kPi / 180.0);
    out.orientation.create(size, CV_32F);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            double deg = std::fmod(-theta.at<float>(y, x) * 180.0 / kPi, 180.0);  // y down → CCW on screen
            if (deg < 0) deg += 180.0;
            out.orientation.at<float>(y, x) = static_cast<float>(deg >= 180.0 ? 0.0 : deg);
        }

    out.period = smoothField(size, rng, 70) * 1.2 + rng.uniform(8.5, 10.0);
    cv::max(cv::min(out.period, 11.5), 7.5, out.period);

    const cv::Mat field = growRidges(theta, out.period, grow, rng, 12);

    // Rendering. Good: even pressure, light noise and blur. Degraded: dry and wet patches,
    // faint areas, creases (ridge-free lines), smudges, scratches, strong noise and blur.
    const cv::Mat threshold = degraded ? smoothField(size, rng, 45) * 0.7 + rng.uniform(-0.1, 0.3)
                                       : smoothField(size, rng, 45) * 0.12;
    cv::Mat ink = pressedInk(field, threshold);
    if (degraded) {
        const int creases = rng.uniform(1, 5);
        for (int i = 0; i < creases; ++i) {
            const double ang = rng.uniform(-0.5, 0.5) + (rng.uniform(0, 3) == 0 ? kPi / 2 : 0.0);
            const cv::Point2d p(rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h);
            const cv::Point2d d(std::cos(ang) * w, std::sin(ang) * w);
            cv::line(ink, p - d, p + d, cv::Scalar(0), rng.uniform(2, 6), cv::LINE_AA);
        }
    }
    const cv::Mat contrast = soft.mul(degraded ? smoothField(size, rng, 60) * 0.45 + 0.55
                                               : smoothField(size, rng, 60) * 0.12 + 0.85);
    const double paper = rng.uniform(215.0, 240.0), depth = degraded ? rng.uniform(110.0, 170.0) : rng.uniform(150.0, 190.0);
    cv::Mat img = smoothField(size, rng, 80) * 8.0 + paper - ink.mul(contrast) * depth;
    if (degraded) {
        cv::Mat smudge(size, CV_32F, cv::Scalar(0));
        const int blobs = rng.uniform(2, 6);
        for (int i = 0; i < blobs; ++i)
            cv::ellipse(smudge, cv::Point(rng.uniform(0, w), rng.uniform(0, h)),
                        cv::Size(rng.uniform(10, 60), rng.uniform(10, 60)), rng.uniform(0.0, 180.0), 0, 360,
                        cv::Scalar(rng.uniform(30.0, 80.0)), cv::FILLED);
        cv::GaussianBlur(smudge, smudge, cv::Size(), 12);
        img -= smudge;
        const int scratches = rng.uniform(0, 4);
        for (int i = 0; i < scratches; ++i) {
            const cv::Point p(rng.uniform(0, w), rng.uniform(0, h)), q(rng.uniform(0, w), rng.uniform(0, h));
            cv::line(img, p, q, cv::Scalar(rng.uniform(0, 2) ? 250.0 : 60.0), 1, cv::LINE_AA);
        }
    }
    cv::GaussianBlur(img, img, cv::Size(), degraded ? rng.uniform(1.2, 2.0) : rng.uniform(0.5, 0.8));
    addGaussianNoise(img, rng, degraded ? rng.uniform(15.0, 30.0) : rng.uniform(3.0, 6.0));
    img.convertTo(out.image, CV_8U);  // saturating
    return out;
}

}  // namespace linescope::tasks
