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

    double offset = 0;  // the vertex of the parabola through the peak and its neighbours, in steps
    if (peak > 0 && peak < n - 1) {
        const double ym = d[static_cast<std::size_t>(peak - 1)], y0 = d[static_cast<std::size_t>(peak)],
                     yp = d[static_cast<std::size_t>(peak + 1)];
        const double curvature = ym - 2 * y0 + yp;
        if (curvature < 0) offset = std::clamp(0.5 * (ym - yp) / curvature, -0.5, 0.5);
    }

    // Confidence: how far the peak stands above the median compared with the next best
    // local extreme away from it (1: nothing else comes close; 0: another is as strong).
    std::vector<double> sorted(d);
    std::nth_element(sorted.begin(), sorted.begin() + n / 2, sorted.end());
    const double median = sorted[static_cast<std::size_t>(n / 2)];
    const double best = d[static_cast<std::size_t>(peak)] - median;
    double second = 0;
    for (int k = 0; k < n; ++k) {
        if (std::abs(k - peak) <= 1) continue;
        const double v = d[static_cast<std::size_t>(k)];
        const bool localMax = (k == 0 || v >= d[static_cast<std::size_t>(k - 1)]) &&
                              (k == n - 1 || v >= d[static_cast<std::size_t>(k + 1)]);
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

template <class T>
SkewResult estimateSkew(ImageView<const T> page, const SkewParams& p, const EngineOptions& opt) {
    if (page.empty()) throw Error("the image is empty");
    int length = p.length;
    if (length <= 0) length = std::clamp(std::min(page.width, page.height) / 4, 3, 251);
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
