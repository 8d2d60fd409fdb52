// The stages of the skew estimate (skew.h) over images wherever they live: estimateSkew runs
// them on host images (each engine call on its backend), cuda::estimateSkewOnDevice on images
// that stay in device memory from the page's upload to the last spectrum. One body, so that
// both give the same estimate.
//
// `Pages` provides `Page` (a copyable handle to an image) and
//   int width(const Page&), height(const Page&);
//   Page reduce(const Page&, int factor);                      // boxReduce
//   Page flatten(const Page&, int side, bool darkLines);       // flattenBackground
//   Page lineMorph(MorphOp, const Page&, const LineParams&);   // lineMorph
//   Page squareMorph(MorphOp, const Page&, int side);          // classicMorph by a side² square
//   std::vector<double> spectrum(const Page&, MorphOp, int length, const AngleSet&, LineKind);
#pragma once

#include "compute/line_geometry.h"
#include "compute/line_morph.h"
#include "compute/skew.h"
#include "compute/sweep.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace linescope::skew_detail {

// The depth (largest at the extreme looked for) and the valley around its extreme: where
// the depth stays above half the peak's height over the median.
struct Valley {
    std::vector<double> depth;
    int peak = 0, lo = 0, hi = 0;
    double median = 0, best = 0;
};
Valley valleyOf(const std::vector<double>& spectrum, bool minimum);
// The centre of a valley as the mean of the midpoints between its two walls at several depths
// (a quarter, half and three quarters of the way from the window's lowest to its highest
// depth), each wall crossing interpolated linearly between samples; in samples from 0. NaN
// when a wall does not come back below a quarter within the window.
double valleyCentre(const std::vector<double>& depth, int peak);

// The estimate of `page` after estimateSkew's checks, which set e.reduction.
template <class Pages>
SkewEstimate estimateStages(Pages& pages, const typename Pages::Page& page, const SkewParams& p, SkewEstimate e) {
    using Page = typename Pages::Page;
    const MorphOp op = p.darkLines ? MorphOp::Close : MorphOp::Open;
    const MorphOp smearOp = p.darkLines ? MorphOp::Erode : MorphOp::Dilate;

    // The working page: reduced, then its ink smeared along the lines' middle direction.
    Page work = e.reduction > 1 ? pages.reduce(page, e.reduction) : page;
    // Its background taken away first (page_flatten.h): dark scanner-bed margins, photographs
    // and the edges of both have long straight edges at any angle, which won over the text.
    if (const int side = static_cast<int>(std::lround(p.flatten * pages.width(work))) | 1; side > 1)
        work = pages.flatten(work, side, p.darkLines);
    const Page unsmeared = work;
    const int smear = static_cast<int>(std::lround(p.smear * pages.width(work)));
    const double middle = p.angles.angle(0) + 0.5 * (p.angles.count - 1) * p.angles.step;
    SkewResult c;
    // Coarse: the whole range on the page reduced by a further 2, with a shorter segment than
    // the fine stage's: the lines of a column, a table cell's row or a typewritten memo are
    // shorter than 3/5 of the page, and their valley must show here. Where the smear leaves
    // the words of a line apart (large type on a small page: the bundled text page), nothing
    // dark survives at any angle and the spectrum is flat: the smear doubles, twice at most.
    for (int length = smear;; length *= 2) {
        if (length >= 2) work = pages.lineMorph(smearOp, unsmeared, LineParams{middle, length, p.kind});
        const Page coarse = pages.reduce(work, 2);
        e.coarseLength = std::max(3, static_cast<int>(kSkewCoarseLengthShare * pages.width(coarse)));
        e.angles = p.angles;
        e.spectrum = pages.spectrum(coarse, op, e.coarseLength, p.angles, p.kind);
        c = skewFromSpectrum(e.spectrum, p.angles, p.darkLines);
        const auto [low, high] = std::minmax_element(e.spectrum.begin(), e.spectrum.end());
        const bool flatSpectrum = *high - *low <= 1e-4 * std::max(std::abs(*high), std::abs(*low));
        if (!flatSpectrum || length < 2 || length >= 4 * smear) break;
    }
    static_cast<SkewResult&>(e) = c;
    e.coarseAngle = c.angle;
    e.length = p.length > 0 ? p.length : defaultSkewLength(pages.width(work), pages.height(work));
    if (p.refineRange <= 0) return e;

    // Fine: around the coarse estimate on the working page. The valley must lie inside the
    // window, with the spectrum rising on both sides: where it reaches an end (thick lines,
    // short segments: a wide flat floor), the window doubles.
    const double coarseHalfRange = 0.5 * std::abs(p.angles.step) * std::max(p.angles.count - 1, 1);
    const double first = p.angles.angle(0), last = p.angles.angle(p.angles.count - 1);
    const double lo = std::min(first, last), hi = std::max(first, last);
    const double refineStep = p.refineStep;
    // One fine search of `fineWork` with segment `length`, into e.fine: how far its valley's
    // centre lies from the coarse angle, or infinity when the valley is not bracketed by a
    // window of ±maxRange. Far from the coarse angle, it is a wandering valley, not the coarse
    // one refined.
    auto fineStage = [&](const Page& fineWork, int length, double maxRange) {
        for (double range = p.refineRange;; range *= 2) {
            const int half = std::max(1, static_cast<int>(std::lround(range / refineStep)));
            const AngleSet fine{c.angle - half * refineStep, refineStep, 2 * half + 1};
            const std::vector<double> fineSpectrum = pages.spectrum(fineWork, op, length, fine, p.kind);
            const Valley v = valleyOf(fineSpectrum, p.darkLines);
            const bool bracketed = v.lo > 0 && v.hi < fine.count - 1;
            if (!bracketed && range < maxRange && range < coarseHalfRange && fine.count * 2 <= kMaxSweepAngles) continue;
            e.fine = skewFromSpectrum(fineSpectrum, fine, p.darkLines);
            // The fine valley of a long segment is a trapezoid (flat where the segment fits
            // inside the thick text line); its walls, not its bumpy floor, say where its
            // centre is. The parabola's vertex stays where the walls leave the window.
            const double centre = valleyCentre(v.depth, e.fine.peakIndex);
            if (std::isfinite(centre)) {
                const double a = normalizeAngle(fine.start + centre * fine.step);
                e.fine.angle = a > 90 ? a - 180 : a;
            }
            e.length = length;
            return bracketed ? std::abs(std::remainder(e.fine.angle - c.angle, 180.0)) : INFINITY;
        }
    };
    // Two fine spectra of the segment 3/5 of the width long, each precise where the other is
    // not, and their estimates averaged when both find the coarse valley (halving the errors
    // of degraded text pages, where they err in different ways):
    // 1. the ink smeared by a small square (kSkewSquareSmearShare of the width), which has no
    //    direction: smeared along the range's middle, letters grow staircase tails that pull
    //    the valley towards it (0.1–0.4° on typewritten and two-column pages at 4–11°), and
    //    rotations below 0.1° read as 0. Where the words of a line stay apart, no valley;
    // 2. the ink smeared along the range's middle (the coarse page's), which joins the words.
    // Where neither finds it, or neither valley is clearly one, a segment of the coarse stage's
    // share of the width on the second: the lines of two columns without a rule across are
    // shorter than 3/5 of the page.
    const int shortLength = std::max(3, static_cast<int>(kSkewCoarseLengthShare * pages.width(work)));
    Page squareSmeared = unsmeared;  // no smear asked: none
    if (const int side = static_cast<int>(std::lround(kSkewSquareSmearShare * pages.width(unsmeared))) | 1;
        smear >= 2 && side > 1)
        squareSmeared = pages.squareMorph(smearOp, unsmeared, side);
    const int longLength = e.length;
    const double step = std::abs(p.angles.step);
    const double squareOff = fineStage(squareSmeared, longLength, 2 * p.refineRange);
    const SkewResult squareFine = e.fine;
    const double alongOff = fineStage(work, longLength, 4 * p.refineRange);
    // Each valid within half a coarse step of the coarse angle; both, further (up to 2 steps:
    // the coarse stage misses by 0.6–0.8° on some degraded typewritten pages) when they
    // agree within kSkewFineAgreement, which two wandering valleys hardly do.
    const bool agree = std::abs(squareFine.angle - e.fine.angle) <= kSkewFineAgreement && squareOff <= 2 * step &&
                       alongOff <= 2 * step;
    bool square = squareOff <= 0.5 * step || agree, along = alongOff <= 0.5 * step || agree;
    // Lines shorter than the segment (two columns without a rule across, cropped): no segment
    // fits a line, and both spectra keep only a bumpy floor whose lowest point wanders within
    // the coarse step (0.1–0.5° off, often of the wrong sign at small rotations). Where neither
    // valley is clearly one (kSkewFineMinSeparation), the shorter segment below decides.
    const bool canShorten = p.length == 0 && shortLength < longLength;  // a length the caller chose is the only one tried
    if (canShorten && std::max(square ? squareFine.separation : 0.0, along ? e.fine.separation : 0.0) < kSkewFineMinSeparation)
        square = along = false;
    // The page smeared along the range's middle has a notch one fine sample wide at the
    // sample nearest that direction (measured at 0°, the default middle: its segments are the
    // smear's rows, with no step across the page, and fit the runs the smear joined better
    // than their neighbours). It holds the valley's centre there: rotations of ±0.05–0.07°
    // read as 0 on two-column pages. A centre within half a fine step of the middle is that
    // notch, not a measurement, where the square-smeared page has a valley of its own.
    if (square && along && std::abs(std::remainder(e.fine.angle - middle, 180.0)) < 0.5 * refineStep) along = false;
    if (square && along) {
        // Each weighted by its separation: a bumpy floor (another extreme nearly as deep in
        // the window) says less about where the valley is than a clean one.
        const double ws = squareFine.separation, wa = e.fine.separation;
        e.fine.angle = ws + wa > 0 ? (ws * squareFine.angle + wa * e.fine.angle) / (ws + wa)
                                   : 0.5 * (squareFine.angle + e.fine.angle);
        e.fine.separation = std::min(squareFine.separation, e.fine.separation);
    } else if (square) {
        e.fine = squareFine;
    } else if (!along && canShorten) {
        fineStage(work, shortLength, coarseHalfRange);
    }
    // The answer never leaves the range searched (a page without lines has a flat spectrum
    // whose fine window can wander past its end): the same direction nearest the range, held
    // to its ends. An extreme at or past an end is flagged.
    const double a = e.fine.angle + 180 * std::round((0.5 * (lo + hi) - e.fine.angle) / 180);
    e.angle = std::clamp(a, lo, hi);
    if (a <= lo + 0.5 * refineStep || a >= hi - 0.5 * refineStep) e.atRangeEdge = true;
    // A wrong coarse valley, or a bumpy fine floor, leaves the fine stage without one clear
    // extreme: its separation discounts the coarse confidence (kSkewConfidentThreshold).
    e.confidence = e.atRangeEdge ? 0.0 : c.confidence * e.fine.separation;
    return e;
}

}  // namespace linescope::skew_detail
