// Skew from the angular spectrum: the extreme, refined by a parabola, with a confidence.
#include "compute/skew.h"

#include "compute/line_geometry.h"

#include <algorithm>
#include <cmath>

namespace linescope {

SkewResult skewFromSpectrum(const std::vector<double>& spectrum, const AngleSet& angles, bool minimum) {
    const int n = static_cast<int>(spectrum.size());
    if (n == 0) throw Error("the spectrum is empty");
    for (double v : spectrum)
        if (!std::isfinite(v)) throw Error("the spectrum holds a non-finite value");
    // Work on a "depth" that is largest at the extreme we look for.
    std::vector<double> d(spectrum);
    if (minimum)
        for (double& v : d) v = -v;
    const int peak = static_cast<int>(std::max_element(d.begin(), d.end()) - d.begin());

    std::vector<double> sorted(d);
    std::nth_element(sorted.begin(), sorted.begin() + n / 2, sorted.end());
    const double median = sorted[static_cast<std::size_t>(n / 2)];
    const double best = d[static_cast<std::size_t>(peak)] - median;

    // The valley (or peak) of the spectrum: where the depth stays above half the peak's
    // height over the median. A segment fits a thick line over a range of angles, so the
    // extreme is often a flat, bumpy floor rather than one sample: a least-squares parabola
    // through the whole valley (and one sample either side) finds its centre, and is exact
    // for a parabolic peak. A one-sample peak takes the parabola through its neighbours.
    const double half = median + 0.5 * best;
    auto at = [&](int k) { return d[static_cast<std::size_t>(k)]; };
    int lo = peak, hi = peak;
    while (lo > 0 && at(lo - 1) >= half) --lo;
    while (hi < n - 1 && at(hi + 1) >= half) ++hi;
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
        const double ym = at(peak - 1), y0 = at(peak), yp = at(peak + 1);
        const double curvature = ym - 2 * y0 + yp;
        if (curvature < 0) offset = std::clamp(0.5 * (ym - yp) / curvature, -0.5, 0.5);
    }

    // Confidence: how far the peak stands above the median compared with the best local
    // extreme outside its valley (1: nothing else comes close; 0: another is as strong).
    double second = 0;
    for (int k = 0; k < n; ++k) {
        if (k >= lo - 1 && k <= hi + 1) continue;
        const double v = at(k);
        const bool localMax = (k == 0 || v >= at(k - 1)) && (k == n - 1 || v >= at(k + 1));
        if (localMax) second = std::max(second, v - median);
    }
    SkewResult r;
    r.peakIndex = peak;
    r.confidence = best > 0 ? std::clamp(1.0 - second / best, 0.0, 1.0) : 0.0;
    double a = normalizeAngle(angles.start + (peak + offset) * angles.step);  // [0, 180)
    if (a > 90) a -= 180;  // the angle of the lines in (-90, 90]
    r.angle = a;
    return r;
}

int defaultSkewLength(int width, int /*height*/) { return std::clamp(width * 4 / 5, 3, 251); }

template <class T>
SkewResult estimateSkew(ImageView<const T> page, const SkewParams& p, const EngineOptions& opt) {
    if (page.empty()) throw Error("the image is empty");
    const int length = p.length > 0 ? p.length : defaultSkewLength(page.width, page.height);
    SweepRequest req;
    req.op = p.darkLines ? MorphOp::Close : MorphOp::Open;
    req.length = length;
    req.angles = p.angles;
    const SweepResult<T> s = sweep<T>(page, req, opt);
    return skewFromSpectrum(s.spectrum, p.angles, p.darkLines);
}

template SkewResult estimateSkew<std::uint8_t>(ImageView<const std::uint8_t>, const SkewParams&,
                                               const EngineOptions&);
template SkewResult estimateSkew<std::uint16_t>(ImageView<const std::uint16_t>, const SkewParams&,
                                                const EngineOptions&);
template SkewResult estimateSkew<float>(ImageView<const float>, const SkewParams&, const EngineOptions&);

}  // namespace linescope
