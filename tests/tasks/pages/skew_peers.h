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
//
// Adaptive radial projection (L. Pham, T. A. Tran, "Document image skew estimation using
//   adaptive radial projection", ICIP 2022; DISE 2021 data set), as the authors' notebook
//   (github.com/phamquiluan/jdeskew, reproduce.ipynb) runs it for their best DISE-15 figure
//   (mean error 0.07°): the page resized to a height of V = 3072 px, the ink picked out by an
//   adaptive Gaussian threshold (block 15, C −10) of the inverted page, padded to a square of an
//   optimal DFT size, the 2-D DFT's centred magnitude; text lines put their energy on a radial
//   line of the spectrum normal to them, so the magnitude is summed along radial lines from the
//   centre at 600 angles over ±15° (0.05° apart), once over all radii and once from radius
//   W = 328 out (dropping the low frequencies that the page's blocks and margins fill); the
//   argmax of the second profile is the answer when it lies within D = 0.55° of the first's,
//   else the first's (the "adaptive" choice). Samples are taken at truncated coordinates, as
//   theirs. `refine` adds what the paper does not: a parabola through the chosen profile's
//   maximum and its neighbours, for a sub-step answer.
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

struct RadialProjectionParams {
    int height = 3072;         // V: the page's height after resizing
    double range = 15.0;       // degrees either side of 0
    int anglesPerDegree = 20;  // num: 2 · range · num angles, spread evenly over ±range
    int lowCut = 328;          // W: the first radius of the second projection
    double agree = 0.55;       // D: degrees
    bool refine = false;
};
// A peak of the spectrum at the sampled angle t means lines at −t in our convention (the
// authors' code returns −t too); checked by test_skew_accuracy.
inline constexpr double kRadialProjectionSign = -1.0;
// The adaptive radial projection's estimate of an 8-bit grey page (not binarized: it thresholds itself).
double radialProjectionSkew(const cv::Mat& grey, const RadialProjectionParams& p = {});

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
