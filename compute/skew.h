// Skew of a page or music sheet from an angular spectrum (design.md §1).
#pragma once

#include "compute/backend.h"
#include "compute/image.h"
#include "compute/sweep.h"

#include <vector>

namespace linescope {

struct SkewResult {
    double angle = 0;       // degrees, counter-clockwise positive: the angle of the lines, in (-90, 90]
    // 0 … 1: separation × prominence (below), 0 at a range edge; estimateSkew multiplies the
    // coarse stage's by the fine stage's separation. At or above kSkewConfidentThreshold the
    // image has a dominant line direction and the angle is right within 0.1° on the
    // calibration sets (the constant says what was measured).
    double confidence = 0;
    double separation = 0;  // 1 − (the best other local extreme) / (the peak), both over the median
    double prominence = 0;  // (peak − median) / (peak − the spectrum's other end): 1 for a lone, narrow valley
    bool atRangeEdge = false;  // the extreme is the first or last angle of a partial set: the
                               // lines may lie outside the range; confidence is then 0
    int peakIndex = 0;      // k of the spectrum's extreme
};

// What estimateSkew found, with the coarse spectrum it searched (for plots).
struct SkewEstimate : SkewResult {
    int reduction = 1;             // the working page's reduction factor
    int coarseLength = 0;          // λ of the coarse stage (on the page reduced 2 × reduction)
    int length = 0;                // λ of the fine stage (on the working page)
    AngleSet angles;               // the coarse angles
    std::vector<double> spectrum;  // the coarse spectrum
    double coarseAngle = 0;        // the coarse stage's estimate
    SkewResult fine;               // the fine stage's own result (its confidence is not the estimate's)
};

// The extreme of the spectrum (its minimum when `minimum`), refined by a parabola through
// its neighbours. Throws Error on an empty spectrum.
SkewResult skewFromSpectrum(const std::vector<double>& spectrum, const AngleSet& angles, bool minimum);

// The confidence at or above which a skew estimate is shown as the page's angle; below it the
// image has no dominant line direction in the range. Calibrated by tests/tasks/prints/
// test_skew_confidence.cpp, default SkewParams, CPU: of 99 pages with a known skew (the two
// committed task pages × 16 angles × 3 degradations, and the three page samples), 76 reach
// 0.75 and 75 of them are right within 0.1° (issue 20's engine with the short segment where
// the long one's fine valleys are not clearly one; before it 57 and 56, and before issue 20
// 23 of 23); 21 right and 2 wrong ones stay below. None of the 25 prints and textures
// without a line direction in the range (12 synthetic prints, 8 synthetic textures, the 5
// print and texture samples) reaches it.
inline constexpr double kSkewConfidentThreshold = 0.75;

// estimateSkew, in two stages chosen from rendered scores and text pages at 300 dpi
// (tests/tasks/pages; figures in tests/bench/task-results.md):
//   1. the page is reduced by box averaging to about kSkewWorkingWidth pixels across, its
//      background taken away (flattenBackground, a square of `flatten` × that width: dark
//      margins, photographs and lighting become paper, strokes keep their contrast), and its
//      ink smeared along the lines (an erosion, or a dilation for bright lines, by a segment
//      of `smear` × that width at the range's middle angle), so that the letters and words
//      of a text line become one dark run and staff lines survive any small gap;
//   2. coarse: the spectrum of closings (openings for bright lines) over `angles` on that
//      page reduced by a further 2, with λ = kSkewCoarseLengthShare of its width (where it
//      comes out flat, the words stayed apart: the smear doubles, twice at most);
//   3. fine: the spectrum over the coarse angle ± refineRange in refineStep steps on the
//      working page, with λ = 3/5 of its width (the window doubles until the valley's walls
//      lie inside it); the centre between the valley's walls (the midpoints at a quarter,
//      half and three quarters of its depth) is the estimate: the mean of two such spectra,
//      each weighted by its separation, one of the ink smeared by a small square
//      (kSkewSquareSmearShare: no direction to pull towards), one of the page of stage 1, each
//      taken where its valley lies within half a coarse step of the coarse angle (both, within
//      two steps, where they agree within kSkewFineAgreement; the second not where its centre
//      lies within half a fine step of the range's middle, the smear's own direction, which
//      holds it there); where neither, or where neither valley reaches a separation of
//      kSkewFineMinSeparation (lines shorter than the segment), a segment of
//      kSkewCoarseLengthShare of the width.
// Long segments resolve small angles: a segment of λ pixels leaves a line of thickness t
// within ±t/λ radians, and line paths quantize sub-pixel offsets, which biases short
// segments towards 0°. The lines of a page run across most of it, so λ is a share of it.
// 1200 (a 300-dpi page reduced by 2) rather than 800: line paths quantize a line's offset to
// a pixel, which pulled estimates of small rotations towards 0° on the smaller page.
inline constexpr int kSkewWorkingWidth = 1200;
inline constexpr double kSkewCoarseLengthShare = 0.3;
inline constexpr double kSkewSquareSmearShare = 0.004;  // the fine stage's square smear (5 px at 1240)
inline constexpr double kSkewFineAgreement = 0.2;       // degrees: the fine stage's two estimates agree
inline constexpr double kSkewFineMinSeparation = 0.5;   // the long segment's clearer fine valley, or the short one decides

struct SkewParams {
    int length = 0;              // the fine stage's λ on the working page; 0 = 3/5 of its width
    AngleSet angles{-16, 0.5, 65};  // the coarse search
    bool darkLines = true;       // dark lines on light paper: closings (minimum); else openings (maximum)
    double refineRange = 1.0;    // degrees either side of the coarse estimate; 0 = no fine stage
    double refineStep = 0.05;    // degrees
    int reduction = 0;           // the working page's reduction factor; 0 = width / kSkewWorkingWidth, rounded, ≥ 1
    double smear = 0.01;         // the smearing segment as a share of the working width; 0 = none
    double flatten = 0.009;      // the background square's side as a share of the working width; 0 = none
    LineKind kind = LineKind::Paths;  // the digital line of the smear and the spectra (line_kind.h);
                                      // kSkewConfidentThreshold was calibrated with line paths
};

// The fine stage's λ on a page `width` pixels wide: 3/5 of it, at least 3.
int defaultSkewLength(int width, int height);

// The coarse stage works on the page reduced by 2 × reduction, which must keep at least
// kSkewMinCoarseSide pixels a side for a spectrum that says anything: smaller pages are
// refused (a 1×1 page has a flat spectrum and no angle).
inline constexpr int kSkewMinCoarseSide = 8;
// The smallest page side estimateSkew takes at this reduction factor (≥ 1).
int minimumSkewPageSide(int reduction);
// The reduction factor estimateSkew uses for a page `width` pixels wide (p.reduction, or
// width / kSkewWorkingWidth rounded, at least 1).
int skewReduction(const SkewParams& p, int width);
// The number of angles of the fine stage's first window: 2·round(range / step) + 1, at
// least 3 (capped at a billion); estimateSkew refuses more than kMaxSweepAngles.
long long skewFineAngleCount(double refineRange, double refineStep);

// Throws Error on an empty page, one smaller than minimumSkewPageSide, NaN pixels, or
// parameters out of range. The angle returned lies within the range of p.angles (as a
// direction, modulo 180°): the fine stage searches no further than the coarse one.
template <class T>
SkewEstimate estimateSkew(ImageView<const T> page, const SkewParams& p = {}, const EngineOptions& opt = {});

}  // namespace linescope
