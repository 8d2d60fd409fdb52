// The skew estimators a user would otherwise reach for (issue 6), on 8-bit grey pages, in our
// angle convention (design.md §1: degrees, counter-clockwise positive = lines rising to the
// right). Plain functions, any thread. The binarization each needs is a separate step so the
// evaluation can keep it outside the timer.
//
// Leptonica (compiled when pkg-config finds lept, LINESCOPE_HAVE_LEPTONICA):
//   pixFindSkew on the Otsu-binarized page (1 bpp, ink = 1): its defaults are a ±7° sweep in
//   1° steps at 4× reduction, then a binary search to 0.01° at 2× reduction. The "±10°" entry
//   is pixFindSkewSweepAndSearch with the same reductions and steps and a 10° sweep range,
//   since the data set's angles reach ±10°. Leptonica reports the angle that deskews the page
//   with its own sign; measured on a page rotated by +2° (see test_skew_accuracy) it returns
//   +2 for lines rising to the right, so our angle is the returned one unchanged
//   (kLeptonicaSign = +1 below, checked by the test).
//
// Hough deskew with OpenCV, as commonly done: Otsu-binarize inverted (ink = 255), then the
//   standard cv::HoughLines (ρ = 1 px, θ = 0.1°, threshold = width / 10 votes) restricted to
//   lines within ±15° of horizontal (min_theta 75°, max_theta 105°), and the median angle of the
//   20 strongest lines; no answer when none reaches the threshold. (HoughLinesP with the same
//   θ resolution took 8–17 s a page at 300 dpi here, too slow to be what a user runs.)
#pragma once

#include <opencv2/core.hpp>

#include <cstddef>
#include <optional>

namespace linescope::tasks {

// Otsu threshold of an 8-bit grey page: 255 where the page is darker than the threshold (ink).
cv::Mat otsuInk(const cv::Mat& grey);

inline constexpr std::size_t kHoughStrongest = 20;
// The Hough estimate on otsuInk(page); nullopt when no near-horizontal line was found.
std::optional<double> houghSkew(const cv::Mat& ink);

bool leptonicaAvailable();
// pixFindSkew (rangeDeg = 7, its default) or pixFindSkewSweepAndSearch (any other range) on a
// Leptonica 1-bpp image made by leptonicaBinary; nullopt when Leptonica fails. Without
// Leptonica both return nullopt.
struct LeptonicaPix;  // owns a PIX*
struct LeptonicaImage {
    LeptonicaImage();
    ~LeptonicaImage();
    LeptonicaImage(LeptonicaImage&&) noexcept;
    LeptonicaImage& operator=(LeptonicaImage&&) noexcept;
    LeptonicaPix* pix = nullptr;
};
inline constexpr double kLeptonicaSign = +1.0;
LeptonicaImage leptonicaBinary(const cv::Mat& ink);
std::optional<double> leptonicaSkew(const LeptonicaImage& binary, double rangeDeg = 7.0);

}  // namespace linescope::tasks
