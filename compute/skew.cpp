// Skew from the angular spectrum: the extreme, refined by a parabola, with a confidence.
#include "compute/skew.h"

#include "compute/box_reduce.h"
#include "compute/classic_morph.h"
#include "compute/line_geometry.h"
#include "compute/line_morph.h"
#include "compute/page_flatten.h"
#include "compute/spectrum_peaks.h"
#include "compute/band_algorithm.h"
#include "compute/skew_stages.h"
#include "compute/sweep_spectrum.h"

#if LINESCOPE_HAVE_CUDA
#include "compute/cuda/skew_device.h"
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

namespace linescope {

namespace skew_detail {

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

}  // namespace skew_detail

using skew_detail::Valley;
using skew_detail::valleyCentre;
using skew_detail::valleyOf;

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

// The stages' images on the host, each engine call on opt's backend.
template <class T>
class HostPages {
public:
    struct Page {
        std::shared_ptr<const Image<T>> owned;  // null: the caller's page
        ImageView<const T> view;
    };
    explicit HostPages(const EngineOptions& opt) : opt_(opt) {}

    static int width(const Page& p) { return p.view.width; }
    static int height(const Page& p) { return p.view.height; }
    Page reduce(const Page& p, int factor) { return own(boxReduce<T>(p.view, factor, opt_)); }
    Page flatten(const Page& p, int side, bool darkLines) {
        return own(flattenBackground<T>(p.view, side, darkLines, opt_));
    }
    Page lineMorph(MorphOp op, const Page& p, const LineParams& line) {
        return own(linescope::lineMorph<T>(op, p.view, line, opt_));
    }
    Page squareMorph(MorphOp op, const Page& p, int side) {
        Image<T> out(p.view.width, p.view.height);
        classicMorph<T>(op, p.view, out.view(), ClassicSE{ClassicShape::Rect, side, side}, opt_);
        return own(std::move(out));
    }
    std::vector<double> spectrum(const Page& p, MorphOp op, int length, const AngleSet& angles, LineKind kind) {
        return sweepSpectrum<T>(p.view, SweepRequest{op, length, angles, kind}, opt_).spectrum;
    }

private:
    static Page own(Image<T>&& image) {
        auto owned = std::make_shared<const Image<T>>(std::move(image));
        return {owned, owned->cview()};
    }
    const EngineOptions& opt_;
};

#if LINESCOPE_HAVE_CUDA
bool stagesForcedToHost() {
    const char* v = std::getenv("LINESCOPE_SKEW_STAGES");
    return v && std::string(v) == "host";
}
#endif

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
#if LINESCOPE_HAVE_CUDA
    // Integer pages on the GPU stay in device memory from their upload to the last spectrum
    // (LINESCOPE_SKEW_STAGES=host: each stage through the host, as benchmarks compare).
    if constexpr (!std::is_floating_point_v<T>)
        if (resolveBackend(opt.backend) == Backend::Cuda && usesBandKernel(opt.algorithm) &&
            p.kind == LineKind::Paths && !stagesForcedToHost())
            if (std::optional<SkewEstimate> onDevice = cuda::estimateSkewOnDevice<T>(page, p, e)) return *onDevice;
#endif
    HostPages<T> pages(opt);
    return skew_detail::estimateStages(pages, typename HostPages<T>::Page{nullptr, page}, p, e);
}

template SkewEstimate estimateSkew<std::uint8_t>(ImageView<const std::uint8_t>, const SkewParams&,
                                               const EngineOptions&);
template SkewEstimate estimateSkew<std::uint16_t>(ImageView<const std::uint16_t>, const SkewParams&,
                                                const EngineOptions&);
template SkewEstimate estimateSkew<float>(ImageView<const float>, const SkewParams&, const EngineOptions&);

}  // namespace linescope
