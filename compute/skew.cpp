// Skew from the angular spectrum: the extreme, refined by a parabola, with a confidence.
#include "compute/skew.h"

#include "compute/box_reduce.h"
#include "compute/classic_morph.h"
#include "compute/line_geometry.h"
#include "compute/line_morph.h"
#include "compute/page_flatten.h"
#include "compute/spectrum_peaks.h"
#include "compute/sweep_spectrum.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace linescope {

namespace {
// The depth (largest at the extreme looked for) and the valley around its extreme: where
// the depth stays above half the peak's height over the median.
struct Valley {
    std::vector<double> depth;
    int peak = 0, lo = 0, hi = 0;
    double median = 0, best = 0;
};

Valley valleyOf(const std::vector<double>& spectrum, bool minimum) {
    Valley v;
    const int n = static_cast<int>(spectrum.size());
    v.depth = spectrum;
    if (minimum)
        for (double& x : v.depth) x = -x;
    v.peak = static_cast<int>(std::max_element(v.depth.begin(), v.depth.end()) - v.depth.begin());
    std::vector<double> sorted(v.depth);
    std::nth_element(sorted.begin(), sorted.begin() + n / 2, sorted.end());
    v.median = sorted[static_cast<std::size_t>(n / 2)];
    v.best = v.depth[static_cast<std::size_t>(v.peak)] - v.median;
    const double half = v.median + 0.5 * v.best;
    v.lo = v.hi = v.peak;
    while (v.lo > 0 && v.depth[static_cast<std::size_t>(v.lo - 1)] >= half) --v.lo;
    while (v.hi < n - 1 && v.depth[static_cast<std::size_t>(v.hi + 1)] >= half) ++v.hi;
    return v;
}

// The centre of a valley as the mean of the midpoints between its two walls at several depths
// (a quarter, half and three quarters of the way from the window's lowest to its highest
// depth), each wall crossing interpolated linearly between samples; in samples from 0. NaN
// when a wall does not come back below a quarter within the window.
double valleyCentre(const std::vector<double>& depth, int peak) {
    const int n = static_cast<int>(depth.size());
    const double top = depth[static_cast<std::size_t>(peak)];
    const double base = *std::min_element(depth.begin(), depth.end());
    if (!(top > base)) return NAN;
    auto at = [&](int k) { return depth[static_cast<std::size_t>(k)]; };
    double sum = 0;
    int levels = 0;
    for (double q : {0.25, 0.5, 0.75}) {
        const double level = base + q * (top - base);
        int l = peak, r = peak;
        while (l > 0 && at(l - 1) >= level) --l;
        while (r < n - 1 && at(r + 1) >= level) ++r;
        if (l == 0 || r == n - 1) return NAN;
        const double xl = (l - 1) + (level - at(l - 1)) / (at(l) - at(l - 1));
        const double xr = r + (at(r) - level) / (at(r) - at(r + 1));
        sum += 0.5 * (xl + xr);
        ++levels;
    }
    return sum / levels;
}

}  // namespace

SkewResult skewFromSpectrum(const std::vector<double>& spectrum, const AngleSet& angles, bool minimum) {
    const int n = static_cast<int>(spectrum.size());
    if (n == 0) throw Error("the spectrum is empty");
    for (double v : spectrum)
        if (!std::isfinite(v)) throw Error("the spectrum holds a non-finite value");
    // A segment fits a thick line over a range of angles, so the extreme is often a flat,
    // bumpy floor rather than one sample: a least-squares parabola through the whole valley
    // (and one sample either side) finds its centre, and is exact for a parabolic peak. A
    // one-sample peak takes the parabola through its neighbours.
    const Valley v = valleyOf(spectrum, minimum);
    const std::vector<double>& d = v.depth;
    const int peak = v.peak, lo = v.lo, hi = v.hi;
    const double median = v.median, best = v.best;
    auto at = [&](int k) { return d[static_cast<std::size_t>(k)]; };
    double offset = 0;  // from the peak, in steps
    const int f0 = std::max(lo - 1, 0), f1 = std::min(hi + 1, n - 1);
    if (best > 0 && f1 - f0 >= 3) {
        // Normal equations of y = c0 + c1·u + c2·u², u = k - peak.
        double S[5] = {}, Y[3] = {};
        for (int k = f0; k <= f1; ++k) {
            const double u = k - peak, y = at(k);
            double p = 1;
            for (int i = 0; i < 5; ++i) { S[i] += p; if (i < 3) Y[i] += p * y; p *= u; }
        }
        const double m[3][3] = {{S[0], S[1], S[2]}, {S[1], S[2], S[3]}, {S[2], S[3], S[4]}};
        auto det3 = [](const double q[3][3]) {
            return q[0][0] * (q[1][1] * q[2][2] - q[1][2] * q[2][1]) - q[0][1] * (q[1][0] * q[2][2] - q[1][2] * q[2][0]) +
                   q[0][2] * (q[1][0] * q[2][1] - q[1][1] * q[2][0]);
        };
        const double D = det3(m);
        double c[3] = {};
        for (int j = 0; j < 3 && D != 0; ++j) {  // Cramer's rule
            double q[3][3];
            for (int r = 0; r < 3; ++r)
                for (int col = 0; col < 3; ++col) q[r][col] = col == j ? Y[r] : m[r][col];
            c[j] = det3(q) / D;
        }
        const double vertex = c[2] < 0 ? -c[1] / (2 * c[2]) : 0;
        if (c[2] < 0 && vertex >= f0 - peak && vertex <= f1 - peak) offset = vertex;
    } else if (peak > 0 && peak < n - 1) {
        offset = parabolaPeakOffset(at(peak - 1), at(peak), at(peak + 1));
    }

    // Confidence: how far the peak stands above the median compared with the best local
    // extreme outside its valley (1: nothing else comes close; 0: another is as strong).
    double second = 0;
    for (int k = 0; k < n; ++k) {
        if (k >= lo - 1 && k <= hi + 1) continue;
        const double x = at(k);
        const bool localMax = (k == 0 || x >= at(k - 1)) && (k == n - 1 || x >= at(k + 1));
        if (localMax) second = std::max(second, x - median);
    }
    SkewResult r;
    r.peakIndex = peak;
    const double spread = at(peak) - *std::min_element(d.begin(), d.end());
    r.separation = best > 0 ? std::clamp(1.0 - second / best, 0.0, 1.0) : 0.0;
    r.prominence = spread > 0 ? std::clamp(best / spread, 0.0, 1.0) : 0.0;
    const bool partialSet = std::abs(std::abs(angles.step) * n - 180.0) > 1e-6;
    r.atRangeEdge = partialSet && n >= 3 && (peak == 0 || peak == n - 1);
    r.confidence = r.atRangeEdge ? 0.0 : r.separation * r.prominence;
    double a = normalizeAngle(angles.start + (peak + offset) * angles.step);  // [0, 180)
    if (a > 90) a -= 180;  // the angle of the lines in (-90, 90]
    r.angle = a;
    return r;
}

int defaultSkewLength(int width, int /*height*/) { return std::max(3, width * 3 / 5); }

int minimumSkewPageSide(int reduction) { return 2 * std::max(1, reduction) * kSkewMinCoarseSide; }

int skewReduction(const SkewParams& p, int width) {
    return p.reduction > 0 ? p.reduction : std::max(1, static_cast<int>(std::lround(double(width) / kSkewWorkingWidth)));
}

long long skewFineAngleCount(double refineRange, double refineStep) {
    const double half = std::max(1.0, std::round(refineRange / refineStep));
    return half > 5e8 ? 1'000'000'000 : 2 * static_cast<long long>(half) + 1;
}

namespace {

std::string shortNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

template <class T>
std::vector<double> spectrumOf(ImageView<const T> page, MorphOp op, int length, const AngleSet& angles,
                               LineKind kind, const EngineOptions& opt) {
    SweepRequest req;
    req.op = op;
    req.length = length;
    req.angles = angles;
    req.kind = kind;
    return sweepSpectrum<T>(page, req, opt).spectrum;
}

}  // namespace

template <class T>
SkewEstimate estimateSkew(ImageView<const T> page, const SkewParams& p, const EngineOptions& opt) {
    if (page.empty()) throw Error("the image is empty");
    if (p.angles.count < 1) throw Error("the skew search needs at least one angle");
    if (!(p.refineRange >= 0) || !(p.refineStep > 0)) throw Error("the skew refinement needs a range ≥ 0 and a step > 0");
    if (p.reduction < 0 || p.length < 0 || !(p.smear >= 0 && p.smear < 1) || !(p.flatten >= 0 && p.flatten < 1))
        throw Error("the skew parameters must not be negative (smear, flatten: a share of the width below 1)");
    if (p.refineRange > 0 && skewFineAngleCount(p.refineRange, p.refineStep) > kMaxSweepAngles)
        throw Error("the skew refinement over ±" + shortNumber(p.refineRange) + "° in steps of " +
                    shortNumber(p.refineStep) + "° gives more than " + std::to_string(kMaxSweepAngles) + " angles");
    requireNoNaN(page);
    SkewEstimate e;
    e.reduction = skewReduction(p, page.width);
    if (const int minSide = minimumSkewPageSide(e.reduction); page.width < minSide || page.height < minSide)
        throw Error("the page is " + std::to_string(page.width) + "×" + std::to_string(page.height) +
                    " pixels: too small for a skew estimate, which needs at least " + std::to_string(minSide) + "×" +
                    std::to_string(minSide) + (e.reduction > 1 ? " at reduction " + std::to_string(e.reduction) : ""));
    const MorphOp op = p.darkLines ? MorphOp::Close : MorphOp::Open;

    // The working page: reduced, then its ink smeared along the lines' middle direction.
    Image<T> working = e.reduction > 1 ? boxReduce<T>(page, e.reduction, opt) : Image<T>();
    ImageView<const T> work = e.reduction > 1 ? working.cview() : page;
    // Its background taken away first (page_flatten.h): dark scanner-bed margins, photographs
    // and the edges of both have long straight edges at any angle, which won over the text.
    Image<T> flat;
    if (const int side = static_cast<int>(std::lround(p.flatten * work.width)) | 1; side > 1) {
        flat = flattenBackground<T>(work, side, p.darkLines, opt);
        work = flat.cview();
    }
    const ImageView<const T> unsmeared = work;
    const int smear = static_cast<int>(std::lround(p.smear * work.width));
    const double middle = p.angles.angle(0) + 0.5 * (p.angles.count - 1) * p.angles.step;
    Image<T> smeared;
    SkewResult c;
    // Coarse: the whole range on the page reduced by a further 2, with a shorter segment than
    // the fine stage's: the lines of a column, a table cell's row or a typewritten memo are
    // shorter than 3/5 of the page, and their valley must show here. Where the smear leaves
    // the words of a line apart (large type on a small page: the bundled text page), nothing
    // dark survives at any angle and the spectrum is flat: the smear doubles, twice at most.
    for (int length = smear;; length *= 2) {
        if (length >= 2) {
            smeared = lineMorph<T>(p.darkLines ? MorphOp::Erode : MorphOp::Dilate, unsmeared, LineParams{middle, length, p.kind}, opt);
            work = smeared.cview();
        }
        const Image<T> coarse = boxReduce<T>(work, 2, opt);
        e.coarseLength = std::max(3, static_cast<int>(kSkewCoarseLengthShare * coarse.width()));
        e.angles = p.angles;
        e.spectrum = spectrumOf<T>(coarse.cview(), op, e.coarseLength, p.angles, p.kind, opt);
        c = skewFromSpectrum(e.spectrum, p.angles, p.darkLines);
        const auto [low, high] = std::minmax_element(e.spectrum.begin(), e.spectrum.end());
        const bool flatSpectrum = *high - *low <= 1e-4 * std::max(std::abs(*high), std::abs(*low));
        if (!flatSpectrum || length < 2 || length >= 4 * smear) break;
    }
    static_cast<SkewResult&>(e) = c;
    e.coarseAngle = c.angle;
    e.length = p.length > 0 ? p.length : defaultSkewLength(work.width, work.height);
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
    auto fineStage = [&](ImageView<const T> fineWork, int length, double maxRange) {
        for (double range = p.refineRange;; range *= 2) {
            const int half = std::max(1, static_cast<int>(std::lround(range / refineStep)));
            const AngleSet fine{c.angle - half * refineStep, refineStep, 2 * half + 1};
            const std::vector<double> fineSpectrum = spectrumOf<T>(fineWork, op, length, fine, p.kind, opt);
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
    const int shortLength = std::max(3, static_cast<int>(kSkewCoarseLengthShare * work.width));
    ImageView<const T> squareSmeared = unsmeared;  // no smear asked: none
    Image<T> squared;
    if (const int side = static_cast<int>(std::lround(kSkewSquareSmearShare * unsmeared.width)) | 1; smear >= 2 && side > 1) {
        squared = Image<T>(unsmeared.width, unsmeared.height);
        classicMorph<T>(p.darkLines ? MorphOp::Erode : MorphOp::Dilate, unsmeared, squared.view(),
                        ClassicSE{ClassicShape::Rect, side, side}, opt);
        squareSmeared = squared.cview();
    }
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

template SkewEstimate estimateSkew<std::uint8_t>(ImageView<const std::uint8_t>, const SkewParams&,
                                               const EngineOptions&);
template SkewEstimate estimateSkew<std::uint16_t>(ImageView<const std::uint16_t>, const SkewParams&,
                                                const EngineOptions&);
template SkewEstimate estimateSkew<float>(ImageView<const float>, const SkewParams&, const EngineOptions&);

}  // namespace linescope
