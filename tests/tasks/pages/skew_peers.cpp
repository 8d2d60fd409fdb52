// Leptonica's and a Hough-transform deskew's skew estimates (see skew_peers.h).
#include "tests/tasks/pages/skew_peers.h"

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
