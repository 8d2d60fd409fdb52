// Peaks of an angular spectrum: topographic prominence over a linear or circular sequence.
#include "compute/spectrum_peaks.h"

#include "compute/line_geometry.h"

#include <algorithm>
#include <cmath>

namespace linescope {

namespace {

bool coversHalfTurn(const AngleSet& a) { return std::abs(std::abs(a.step) * a.count - 180.0) < 1e-9 * 180.0; }

// The height of peak i over the higher of the lowest points on each side before a higher
// sample (scipy.signal's prominence); on a circle each side walks at most once around.
double prominenceOf(const std::vector<double>& d, int i, bool circular) {
    const int n = static_cast<int>(d.size());
    const double v = d[static_cast<std::size_t>(i)];
    double base[2] = {v, v};
    for (int side = 0; side < 2; ++side) {
        const int dir = side == 0 ? -1 : 1;
        double low = v;
        for (int s = 1; s < n; ++s) {
            int k = i + dir * s;
            if (circular) k = ((k % n) + n) % n;
            else if (k < 0 || k >= n) break;
            const double x = d[static_cast<std::size_t>(k)];
            if (x > v) break;
            low = std::min(low, x);
        }
        base[side] = low;
    }
    return v - std::max(base[0], base[1]);
}

}  // namespace

std::vector<SpectrumPeak> spectrumPeaks(const std::vector<double>& spectrum, const AngleSet& angles, bool minimum,
                                        int maxPeaks, double minProminence) {
    const int n = static_cast<int>(spectrum.size());
    if (n == 0) throw Error("the spectrum is empty");
    if (n != angles.count) throw Error("the spectrum and the angle set differ in length");
    for (double v : spectrum)
        if (!std::isfinite(v)) throw Error("the spectrum holds a non-finite value");
    std::vector<double> d(spectrum);
    if (minimum)
        for (double& v : d) v = -v;
    const auto [lo, hi] = std::minmax_element(d.begin(), d.end());
    const double range = *hi - *lo;
    if (n < 3 || range <= 0) return {};
    const bool circular = coversHalfTurn(angles);
    auto at = [&](int k) {
        if (circular) k = ((k % n) + n) % n;
        return d[static_cast<std::size_t>(k)];
    };

    std::vector<SpectrumPeak> peaks;
    for (int i = 0; i < n; ++i) {
        const bool hasLeft = circular || i > 0, hasRight = circular || i < n - 1;
        // A plateau counts once, at its first sample.
        if (hasLeft && !(d[static_cast<std::size_t>(i)] > at(i - 1))) continue;
        if (hasRight && !(d[static_cast<std::size_t>(i)] >= at(i + 1))) continue;
        const double prominence = prominenceOf(d, i, circular) / range;
        if (prominence < minProminence) continue;
        const double offset = hasLeft && hasRight ? parabolaPeakOffset(at(i - 1), at(i), at(i + 1)) : 0.0;
        SpectrumPeak p;
        p.index = i;
        p.prominence = prominence;
        p.angle = angles.angle(i) + offset * angles.step;
        if (circular) p.angle = normalizeAngle(p.angle);
        peaks.push_back(p);
    }
    std::stable_sort(peaks.begin(), peaks.end(),
                     [](const SpectrumPeak& a, const SpectrumPeak& b) { return a.prominence > b.prominence; });
    if (static_cast<int>(peaks.size()) > maxPeaks) peaks.resize(static_cast<std::size_t>(std::max(maxPeaks, 0)));
    return peaks;
}

}  // namespace linescope
