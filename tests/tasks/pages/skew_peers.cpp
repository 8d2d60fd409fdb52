// Leptonica's and a Hough-transform deskew's skew estimates (see skew_peers.h).
#include "tests/tasks/pages/skew_peers.h"

#include "compute/spectrum_peaks.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#ifdef LINESCOPE_HAVE_LEPTONICA
#include <allheaders.h>
#endif

namespace linescope::tasks {

cv::Mat otsuInk(const cv::Mat& grey) {
    CV_Assert(grey.type() == CV_8UC1);
    cv::Mat ink;
    cv::threshold(grey, ink, 0, 255, cv::THRESH_BINARY_INV | cv::THRESH_OTSU);
    return ink;
}

std::optional<double> houghSkew(const cv::Mat& ink) {
    // Lines near horizontal only: normals θ within 90° ± 15°; OpenCV returns them strongest first.
    std::vector<cv::Vec2f> lines;
    const double step = 0.1 * CV_PI / 180.0;
    cv::HoughLines(ink, lines, 1.0, step, std::max(1, ink.cols / 10), 0, 0, 75.0 * CV_PI / 180.0, 105.0 * CV_PI / 180.0);
    if (lines.empty()) return std::nullopt;
    // The normal (cos θ, sin θ) of a line at our angle α (direction (cos α, −sin α), y down) is
    // (sin α, cos α), so α = 90° − θ.
    std::vector<double> angles;
    for (std::size_t i = 0; i < std::min<std::size_t>(lines.size(), kHoughStrongest); ++i)
        angles.push_back(90.0 - lines[i][1] * 180.0 / CV_PI);
    std::sort(angles.begin(), angles.end());
    const std::size_t n = angles.size();
    return n % 2 ? angles[n / 2] : 0.5 * (angles[n / 2 - 1] + angles[n / 2]);
}

namespace {

// The centred magnitude of the 2-D DFT of the page's ink (see skew_peers.h), a square.
cv::Mat inkSpectrumMagnitude(const cv::Mat& grey, int height) {
    cv::Mat page;
    const double ratio = static_cast<double>(height) / grey.rows;
    cv::resize(grey, page, cv::Size(), ratio, ratio, cv::INTER_LINEAR);
    const int n = cv::getOptimalDFTSize(std::max(page.rows, page.cols));
    cv::copyMakeBorder(page, page, 0, n - page.rows, 0, n - page.cols, cv::BORDER_CONSTANT, cv::Scalar(255));
    cv::Mat ink;
    cv::adaptiveThreshold(~page, ink, 255, cv::ADAPTIVE_THRESH_GAUSSIAN_C, cv::THRESH_BINARY, 15, -10);
    cv::Mat f, spectrum;
    ink.convertTo(f, CV_32F);
    cv::dft(f, spectrum, cv::DFT_COMPLEX_OUTPUT);
    cv::Mat planes[2], magnitude;
    cv::split(spectrum, planes);
    cv::magnitude(planes[0], planes[1], magnitude);
    // fftshift: the zero frequency to (n/2, n/2).
    const int h = n / 2;
    cv::Mat shifted(magnitude.size(), magnitude.type());
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) shifted.at<float>((y + h) % n, (x + h) % n) = magnitude.at<float>(y, x);
    return shifted;
}

std::size_t argmax(const std::vector<double>& v) {
    return static_cast<std::size_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

}  // namespace

double radialProjectionSkew(const cv::Mat& grey, const RadialProjectionParams& p) {
    CV_Assert(grey.type() == CV_8UC1);
    const cv::Mat m = inkSpectrumMagnitude(grey, p.height);
    const int c = m.rows / 2, r = m.rows / 2;
    const int count = static_cast<int>(2 * p.range * p.anglesPerDegree);
    std::vector<double> angles(static_cast<std::size_t>(count)), all(angles.size()), high(angles.size());
    for (int i = 0; i < count; ++i) {
        // numpy.linspace(−range, range, count)
        const double deg = -p.range + 2 * p.range * i / std::max(1, count - 1);
        const double t = deg * CV_PI / 180.0;
        double sumAll = 0, sumHigh = 0;
        for (int x = 0; x < r; ++x) {
            const float v = m.at<float>(c + static_cast<int>(x * std::cos(t)), c + static_cast<int>(-x * std::sin(t)));
            sumAll += v;
            if (x >= p.lowCut) sumHigh += v;
        }
        angles[static_cast<std::size_t>(i)] = deg;
        all[static_cast<std::size_t>(i)] = sumAll;
        high[static_cast<std::size_t>(i)] = sumHigh;
    }
    const std::size_t iAll = argmax(all), iHigh = argmax(high);
    const bool useHigh = std::abs(angles[iAll] - angles[iHigh]) <= p.agree;
    const std::vector<double>& profile = useHigh ? high : all;
    const std::size_t k = useHigh ? iHigh : iAll;
    double a = angles[k];
    if (p.refine && k > 0 && k + 1 < profile.size())
        a += parabolaPeakOffset(profile[k - 1], profile[k], profile[k + 1]) * (angles[1] - angles[0]);
    // The sampled line (row c + x·cos t, column c − x·sin t) is the normal (sin α, cos α) of
    // lines at α = −t (design.md §1: direction (cos α, −sin α), y down).
    return a * kRadialProjectionSign;
}

#ifdef LINESCOPE_HAVE_LEPTONICA
struct LeptonicaPix {
    PIX* p = nullptr;
    ~LeptonicaPix() { pixDestroy(&p); }
};
bool leptonicaAvailable() { return true; }

LeptonicaImage leptonicaBinary(const cv::Mat& ink) {
    CV_Assert(ink.type() == CV_8UC1);
    LeptonicaImage out;
    out.pix = new LeptonicaPix;
    out.pix->p = pixCreate(ink.cols, ink.rows, 1);
    l_uint32* data = pixGetData(out.pix->p);
    const l_int32 wpl = pixGetWpl(out.pix->p);
    for (int y = 0; y < ink.rows; ++y) {
        const uchar* row = ink.ptr<uchar>(y);
        l_uint32* line = data + static_cast<std::ptrdiff_t>(y) * wpl;
        for (int x = 0; x < ink.cols; ++x)
            if (row[x]) SET_DATA_BIT(line, x);  // 1 bpp: 1 = ink (black)
    }
    return out;
}

std::optional<double> leptonicaSkew(const LeptonicaImage& binary, double rangeDeg) {
    if (!binary.pix || !binary.pix->p) return std::nullopt;
    // Leptonica warns on stderr for every page whose maximum lies at the sweep's edge; the
    // tables already show those pages' errors.
    static const bool quiet = [] {
        setMsgSeverity(L_SEVERITY_ERROR);
        return true;
    }();
    (void)quiet;
    l_float32 angle = 0, conf = 0;
    // pixFindSkew's defaults (skew.c): sweep reduction 4, search reduction 2, sweep step 1°,
    // binary search down to 0.01°.
    const l_ok bad = rangeDeg == 7.0 ? pixFindSkew(binary.pix->p, &angle, &conf)
                                     : pixFindSkewSweepAndSearch(binary.pix->p, &angle, &conf, 4, 2,
                                                                 static_cast<l_float32>(rangeDeg), 1.0F, 0.01F);
    if (bad) return std::nullopt;
    return kLeptonicaSign * angle;
}
#else
struct LeptonicaPix {};
bool leptonicaAvailable() { return false; }
LeptonicaImage leptonicaBinary(const cv::Mat&) { return {}; }
std::optional<double> leptonicaSkew(const LeptonicaImage&, double) { return std::nullopt; }
#endif

LeptonicaImage::LeptonicaImage() = default;
LeptonicaImage::~LeptonicaImage() { delete pix; }
LeptonicaImage::LeptonicaImage(LeptonicaImage&& o) noexcept : pix(o.pix) { o.pix = nullptr; }
LeptonicaImage& LeptonicaImage::operator=(LeptonicaImage&& o) noexcept {
    std::swap(pix, o.pix);
    return *this;
}

}  // namespace linescope::tasks
