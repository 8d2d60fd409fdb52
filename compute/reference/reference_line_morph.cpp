// Deliberately naive: every step follows design.md §1 word for word, shares no code with the
// fast paths (not even LineFamily) but the definition's own rules (compute/pixel_rules.h: the
// line offset), and checks the properties the fast paths take for granted
// (each pixel on exactly one line, lines contiguous), so that a disagreement points at the
// engine and not at a shared helper.
#include "compute/reference/reference_line_morph.h"

#include "compute/pixel_rules.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace linescope::reference {
namespace {

struct Family {
    bool yMajor = false;
    std::int64_t slope = 0;  // S
    std::int64_t off(std::int64_t t) const { return lineOffset(t, slope); }
};

double normalizedDegrees(double degrees) {
    double a = std::fmod(degrees, 180.0);
    if (a < 0) a += 180.0;
    // A tiny negative angle plus 180 can round to exactly 180, which belongs to 0.
    if (a >= 180.0) a = 0.0;
    return a;
}

Family familyOf(double angleDeg) {
    const double a = normalizedDegrees(angleDeg);
    Family f;
    f.yMajor = a > 45.0 && a < 135.0;
    const double r = a * std::numbers::pi / 180.0;
    const double s = f.yMajor ? -std::cos(r) / std::sin(r) : -std::tan(r);
    const long long S = std::llround(s * 65536.0);
    // S is held in a 32-bit integer by the engine; |s| ≤ 1 keeps it far inside that range.
    if (S < INT32_MIN || S > INT32_MAX) throw std::logic_error("reference: slope out of 32-bit range");
    f.slope = static_cast<std::int32_t>(S);
    return f;
}

template <class T>
bool less(T a, T b) { return a < b; }

// ε(f)(c) = min of f(c+k), k ∈ {-a..b}, 0 ≤ c+k < n.
template <class T>
std::vector<T> erode1d(const std::vector<T>& f, int a, int b) {
    const std::int64_t n = static_cast<std::int64_t>(f.size());
    std::vector<T> out(f.size());
    for (std::int64_t c = 0; c < n; ++c) {
        bool any = false;
        T m{};
        // Offsets that land outside [0, n) are skipped; clamping the loop to them only saves time.
        for (std::int64_t k = std::max<std::int64_t>(-a, -c); k <= std::min<std::int64_t>(b, n - 1 - c); ++k) {
            const std::int64_t i = c + k;
            if (i < 0 || i >= n) continue;
            if (!any || less(f[static_cast<std::size_t>(i)], m)) m = f[static_cast<std::size_t>(i)];
            any = true;
        }
        // k = 0 is always in B and c is always inside, so the set is never empty.
        if (!any) throw std::logic_error("reference: empty erosion window");
        out[static_cast<std::size_t>(c)] = m;
    }
    return out;
}

// δ(f)(c) = max of f(c−k), k ∈ {-a..b}, 0 ≤ c−k < n.
template <class T>
std::vector<T> dilate1d(const std::vector<T>& f, int a, int b) {
    const std::int64_t n = static_cast<std::int64_t>(f.size());
    std::vector<T> out(f.size());
    for (std::int64_t c = 0; c < n; ++c) {
        bool any = false;
        T m{};
        for (std::int64_t k = std::max<std::int64_t>(-a, c - (n - 1)); k <= std::min<std::int64_t>(b, c); ++k) {
            const std::int64_t i = c - k;
            if (i < 0 || i >= n) continue;
            if (!any || less(m, f[static_cast<std::size_t>(i)])) m = f[static_cast<std::size_t>(i)];
            any = true;
        }
        if (!any) throw std::logic_error("reference: empty dilation window");
        out[static_cast<std::size_t>(c)] = m;
    }
    return out;
}

template <class T>
std::vector<T> apply1d(MorphOp op, const std::vector<T>& f, int a, int b) {
    switch (op) {
    case MorphOp::Erode: return erode1d(f, a, b);
    case MorphOp::Dilate: return dilate1d(f, a, b);
    case MorphOp::Open: return dilate1d(erode1d(f, a, b), a, b);
    case MorphOp::Close: return erode1d(dilate1d(f, a, b), a, b);
    case MorphOp::TopHat: {
        const std::vector<T> g = dilate1d(erode1d(f, a, b), a, b);
        std::vector<T> out(f.size());
        for (std::size_t i = 0; i < f.size(); ++i) {
            if constexpr (std::is_floating_point_v<T>) out[i] = f[i] - g[i];
            else out[i] = static_cast<T>(f[i] - g[i]);  // γ ≤ f, never negative
        }
        return out;
    }
    }
    throw Error("unknown morphological operator");
}

template <class T>
void validate(ImageView<const T> src, double angleDeg, int length) {
    if (src.empty()) throw Error("the image is empty");
    if (length < 1) throw Error("the segment length must be at least 1 pixel (got " + std::to_string(length) + ")");
    if (!std::isfinite(angleDeg)) throw Error("the angle must be a finite number of degrees");
    if constexpr (std::is_floating_point_v<T>) {
        for (int y = 0; y < src.height; ++y)
            for (int x = 0; x < src.width; ++x)
                if (std::isnan(src.at(x, y)))
                    throw Error("the float image holds NaN at (" + std::to_string(x) + ", " + std::to_string(y) + ")");
    }
}

}  // namespace

template <class T>
Image<T> referenceLineMorph(MorphOp op, ImageView<const T> src, double angleDeg, int length) {
    validate(src, angleDeg, length);
    const Family fam = familyOf(angleDeg);
    const int a = (length - 1) / 2;  // ⌊(λ−1)/2⌋ for λ ≥ 1
    const int b = length - 1 - a;
    const std::int64_t W = src.width, H = src.height;
    const std::int64_t n = fam.yMajor ? H : W;  // major length
    const std::int64_t m = fam.yMajor ? W : H;  // minor length

    // Every line index that any pixel can have: pixel at (t, u) (major, minor) is on line u − off(t).
    std::int64_t cLo = INT64_MAX, cHi = INT64_MIN;
    for (std::int64_t t = 0; t < n; ++t) {
        cLo = std::min(cLo, 0 - fam.off(t));
        cHi = std::max(cHi, m - 1 - fam.off(t));
    }

    Image<T> out(src.width, src.height);
    std::vector<int> visits(static_cast<std::size_t>(W * H), 0);
    std::vector<T> signal;
    std::vector<std::int64_t> tOf;
    for (std::int64_t c = cLo; c <= cHi; ++c) {
        signal.clear();
        tOf.clear();
        for (std::int64_t t = 0; t < n; ++t) {
            const std::int64_t u = c + fam.off(t);
            if (u < 0 || u >= m) continue;
            const std::int64_t x = fam.yMajor ? u : t, y = fam.yMajor ? t : u;
            signal.push_back(src.at(static_cast<int>(x), static_cast<int>(y)));
            tOf.push_back(t);
        }
        if (signal.empty()) continue;
        // Design.md promises the in-image part is contiguous; the 1-D positions rely on it.
        if (tOf.back() - tOf.front() + 1 != static_cast<std::int64_t>(tOf.size()))
            throw std::logic_error("reference: line " + std::to_string(c) + " is not contiguous");
        const std::vector<T> result = apply1d(op, signal, a, b);
        for (std::size_t i = 0; i < result.size(); ++i) {
            const std::int64_t t = tOf[i], u = c + fam.off(t);
            const std::int64_t x = fam.yMajor ? u : t, y = fam.yMajor ? t : u;
            out.at(static_cast<int>(x), static_cast<int>(y)) = result[i];
            ++visits[static_cast<std::size_t>(y * W + x)];
        }
    }
    for (std::size_t i = 0; i < visits.size(); ++i)
        if (visits[i] != 1)
            throw std::logic_error("reference: pixel " + std::to_string(i) + " lies on " + std::to_string(visits[i]) +
                                   " lines");
    return out;
}

template <class T>
SweepResult<T> referenceSweep(ImageView<const T> src, const SweepRequest& req) {
    if (req.op == MorphOp::TopHat) throw Error("a sweep takes erode, dilate, open or close");
    const AngleSet& as = req.angles;
    if (as.count < 1 || as.count > kMaxSweepAngles)
        throw Error("a sweep takes 1 to " + std::to_string(kMaxSweepAngles) + " angles");
    if (!std::isfinite(as.start) || !std::isfinite(as.step)) throw Error("the angles must be finite");
    const bool towardsInf = req.op == MorphOp::Close || req.op == MorphOp::Dilate;

    SweepResult<T> r;
    r.angles = as;
    r.op = req.op;
    r.argIndex = Image<std::uint16_t>(src.width, src.height, 0);
    for (int k = 0; k < as.count; ++k) {
        const Image<T> g = referenceLineMorph(req.op, src, as.angle(k), req.length);
        if (k == 0) {
            r.sup = g;
            r.inf = g;
        } else {
            for (int y = 0; y < src.height; ++y)
                for (int x = 0; x < src.width; ++x) {
                    const T v = g.at(x, y);
                    // Strict comparisons keep the first k that reaches the extreme: the smallest k.
                    if (r.sup.at(x, y) < v) {
                        r.sup.at(x, y) = v;
                        if (!towardsInf) r.argIndex.at(x, y) = static_cast<std::uint16_t>(k);
                    }
                    if (v < r.inf.at(x, y)) {
                        r.inf.at(x, y) = v;
                        if (towardsInf) r.argIndex.at(x, y) = static_cast<std::uint16_t>(k);
                    }
                }
        }
        if constexpr (std::is_floating_point_v<T>) {
            double total = 0;
            for (int y = 0; y < src.height; ++y) {
                double row = 0;
                for (int x = 0; x < src.width; ++x) row += static_cast<double>(g.at(x, y));
                total += row;
            }
            r.spectrum.push_back(total);
        } else {
            std::int64_t total = 0;
            for (int y = 0; y < src.height; ++y)
                for (int x = 0; x < src.width; ++x) total += g.at(x, y);
            r.spectrumExact.push_back(total);
            r.spectrum.push_back(static_cast<double>(total));
        }
    }
    r.strength = Image<T>(src.width, src.height);
    for (int y = 0; y < src.height; ++y)
        for (int x = 0; x < src.width; ++x) {
            if constexpr (std::is_floating_point_v<T>) r.strength.at(x, y) = r.sup.at(x, y) - r.inf.at(x, y);
            else r.strength.at(x, y) = static_cast<T>(r.sup.at(x, y) - r.inf.at(x, y));
        }
    return r;
}

#define LINESCOPE_REFERENCE_INSTANTIATE(T)                                                              \
    template Image<T> referenceLineMorph<T>(MorphOp, ImageView<const T>, double, int);                  \
    template SweepResult<T> referenceSweep<T>(ImageView<const T>, const SweepRequest&);
LINESCOPE_REFERENCE_INSTANTIATE(std::uint8_t)
LINESCOPE_REFERENCE_INSTANTIATE(std::uint16_t)
LINESCOPE_REFERENCE_INSTANTIATE(float)
#undef LINESCOPE_REFERENCE_INSTANTIATE

}  // namespace linescope::reference
