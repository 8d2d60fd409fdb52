// Rotation and scanner-like degradations of clean pages (see page_degrade.h).
#include "tests/tasks/pages/page_degrade.h"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace linescope::tasks {

const char* profileName(DegradeProfile p) {
    switch (p) {
    case DegradeProfile::Clean: return "clean";
    case DegradeProfile::Scan: return "scan";
    case DegradeProfile::Hard: return "hard";
    }
    return "?";
}

DegradeProfile parseProfile(const std::string& name) {
    for (DegradeProfile p : kAllProfiles)
        if (name == profileName(p)) return p;
    throw std::invalid_argument("unknown degradation profile '" + name + "' (clean, scan, hard)");
}

int jpegQualityOf(DegradeProfile p) {
    switch (p) {
    case DegradeProfile::Clean: return 0;
    case DegradeProfile::Scan: return 75;
    case DegradeProfile::Hard: return 40;
    }
    return 0;
}

cv::Mat rotatePage(const cv::Mat& page, double degrees) {
    CV_Assert(page.type() == CV_8UC1);
    const cv::Point2f centre(static_cast<float>(page.cols - 1) / 2.0F, static_cast<float>(page.rows - 1) / 2.0F);
    const cv::Mat m = cv::getRotationMatrix2D(centre, degrees, 1.0);
    cv::Mat out;
    cv::warpAffine(page, out, m, page.size(), cv::INTER_CUBIC, cv::BORDER_CONSTANT, cv::Scalar(255));
    return out;
}

namespace {

// What one profile does; ranges are drawn uniformly per page.
struct ProfileSpec {
    double paperLo, paperHi;      // grey of the paper (the page's 255 maps here)
    double inkLo, inkHi;          // grey of the ink (0 maps here)
    double blurLo, blurHi;        // Gaussian σ in pixels
    double noiseLo, noiseHi;      // Gaussian noise σ in grey levels
    double lightLo, lightHi;      // relative darkening across the page by a linear gradient
    double vignette;              // extra darkening towards the corners (relative)
    double speckle;               // share of pixels flipped to dark or light dust
    int darkSidesMax;             // scanner-bed margins: on 0 … this many sides
    double cropLo, cropHi;        // share of each side cropped away (0 = none)
};

ProfileSpec specOf(DegradeProfile p) {
    switch (p) {
    case DegradeProfile::Clean: return {255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    case DegradeProfile::Scan: return {232, 248, 15, 45, 0.5, 0.9, 3, 6, 0.04, 0.12, 0.0, 0.0, 0, 0, 0};
    case DegradeProfile::Hard: return {205, 240, 35, 80, 1.1, 1.7, 9, 15, 0.25, 0.45, 0.15, 0.002, 2, 0.02, 0.07};
    }
    return {};
}

double draw(cv::RNG& rng, double lo, double hi) { return lo == hi ? lo : rng.uniform(lo, hi); }

}  // namespace

cv::Mat degradeBeforeJpeg(const cv::Mat& rotated, DegradeProfile p, std::uint64_t seed) {
    CV_Assert(rotated.type() == CV_8UC1);
    if (p == DegradeProfile::Clean) return rotated.clone();
    const ProfileSpec s = specOf(p);
    cv::RNG rng(seed ^ 0x9E3779B97F4A7C15ULL);

    // Cropped borders (the scanner's window smaller than the sheet): cut into the content.
    cv::Rect keep(0, 0, rotated.cols, rotated.rows);
    if (s.cropHi > 0) {
        const int l = cvRound(draw(rng, s.cropLo, s.cropHi) * rotated.cols);
        const int r = cvRound(draw(rng, s.cropLo, s.cropHi) * rotated.cols);
        const int t = cvRound(draw(rng, s.cropLo, s.cropHi) * rotated.rows);
        const int b = cvRound(draw(rng, s.cropLo, s.cropHi) * rotated.rows);
        keep = cv::Rect(l, t, rotated.cols - l - r, rotated.rows - t - b);
    }
    cv::Mat f;
    rotated(keep).convertTo(f, CV_32F, 1.0 / 255.0);  // 1 = paper, 0 = ink

    // Blur of the optics, then paper and ink greys.
    const double sigma = draw(rng, s.blurLo, s.blurHi);
    if (sigma > 0) cv::GaussianBlur(f, f, cv::Size(), sigma);
    const double paper = draw(rng, s.paperLo, s.paperHi), ink = draw(rng, s.inkLo, s.inkHi);
    f = f * (paper - ink) + ink;

    // Uneven lighting: a linear gradient in a random direction, plus a vignette.
    const int w = f.cols, h = f.rows;
    const double dir = rng.uniform(0.0, 2 * CV_PI), strength = draw(rng, s.lightLo, s.lightHi);
    const double gx = std::cos(dir), gy = std::sin(dir);
    const double half = 0.5 * (std::abs(gx) * w + std::abs(gy) * h);
    for (int y = 0; y < h; ++y) {
        float* row = f.ptr<float>(y);
        const double dy = y - h / 2.0;
        for (int x = 0; x < w; ++x) {
            const double dx = x - w / 2.0;
            const double t = 0.5 + 0.5 * (dx * gx + dy * gy) / half;  // 0 … 1 across the page
            const double r2 = (dx * dx) / (0.25 * w * w) + (dy * dy) / (0.25 * h * h);  // 0 centre … 2 corners
            row[x] = static_cast<float>(row[x] * (1.0 - strength * t) * (1.0 - s.vignette * 0.5 * r2));
        }
    }

    // Scanner-bed margins: dark bands along one or two sides, at the image edge.
    const int sides = s.darkSidesMax > 0 ? rng.uniform(1, s.darkSidesMax + 1) : 0;
    std::vector<int> order{0, 1, 2, 3};
    for (int i = 3; i > 0; --i) std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(rng.uniform(0, i + 1))]);
    for (int k = 0; k < sides; ++k) {
        const int side = order[static_cast<std::size_t>(k)];
        const int extent = side < 2 ? w : h;
        const int band = cvRound(rng.uniform(0.015, 0.05) * extent);
        const float bed = static_cast<float>(rng.uniform(20.0, 60.0));
        cv::Rect r = side == 0 ? cv::Rect(0, 0, band, h) : side == 1 ? cv::Rect(w - band, 0, band, h)
                   : side == 2 ? cv::Rect(0, 0, w, band) : cv::Rect(0, h - band, w, band);
        f(r).setTo(bed);
    }

    // Sensor noise and dust.
    cv::Mat noise(f.size(), CV_32F);
    rng.fill(noise, cv::RNG::NORMAL, 0.0, draw(rng, s.noiseLo, s.noiseHi));
    f += noise;
    if (s.speckle > 0) {
        const int n = cvRound(s.speckle * w * h);
        for (int i = 0; i < n; ++i) f.at<float>(rng.uniform(0, h), rng.uniform(0, w)) = rng.uniform(0, 2) ? 255.F : 0.F;
    }
    cv::Mat out;
    f.convertTo(out, CV_8U);  // rounds and saturates
    return out;
}

cv::Mat jpegRoundTrip(const cv::Mat& img, int quality) {
    if (quality <= 0) return img;
    std::vector<uchar> bytes;
    cv::imencode(".jpg", img, bytes, {cv::IMWRITE_JPEG_QUALITY, quality});
    return cv::imdecode(bytes, cv::IMREAD_GRAYSCALE);
}

cv::Mat makeSkewedPage(const cv::Mat& page, double degrees, DegradeProfile p, std::uint64_t seed) {
    return jpegRoundTrip(degradeBeforeJpeg(rotatePage(page, degrees), p, seed), jpegQualityOf(p));
}

}  // namespace linescope::tasks
