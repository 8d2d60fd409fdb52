// The classic operators of Thurley & Danell as sequences of line operators.
//
// Every structuring element (SE) is a finite set of offsets k; with the image domain I,
//   erosion  ε(f)(p) = min { f(p + k) : k ∈ SE, p + k ∈ I },
//   dilation δ(f)(p) = max { f(p − k) : k ∈ SE, p − k ∈ I },
// opening δ(ε(f)), closing ε(δ(f)), top-hat f − δ(ε(f)), each step on the image domain.
//
// The sets (see classicSEOffsets), with segmentOf(λ) = {−a..b}, a = ⌊(λ−1)/2⌋, b = λ−1−a:
//   HLine  w:   {(k, 0)  : k ∈ segmentOf(w)}
//   VLine  h:   {(0, k)  : k ∈ segmentOf(h)}
//   Diag45 w:   {(k, −k) : k ∈ segmentOf(w)}   (up-right; y grows downwards)
//   Diag135 w:  {(k, k)  : k ∈ segmentOf(w)}   (up-left: for even w the extra pixel is down-right)
//   Rect w×h:   segmentOf(w) × segmentOf(h)
//   Octagon r:  n = round(r / (2+√2)) (lowered to ⌊(r−1)/2⌋ when that would leave m < 1),
//               m = r − 2n: H(2m+1) ⊕ V(2m+1) ⊕ D45(2n+1) ⊕ D135(2n+1)
//               = {(x, y) : |x| ≤ r, |y| ≤ r, |x| + |y| ≤ r + m}
//               (m ≥ 1 fills the holes that the two diagonals alone leave; the test checks
//               this closed form against the Minkowski sum). r = 0 is the single pixel.
//   Disc r:     ka·[H ⊕ V] ⊕ kd·[D45 ⊕ D135] ⊕ kk·[periodic lines of steps (2,1), (2,−1),
//               (1,2), (1,−2)], each factor the symmetric set {−k..k}·step: a 16-sided
//               zonotope. ka + 2kd + 6kk = r (the extent along the axes is exactly r) and
//               (kd, kk) minimise max |h(θ) − r| over θ = 0°, 1°, …, 45°, h the support
//               function, searched around the continuous optimum (0.1148 r, 0.0890 r).
//               ka ≥ 1 for r ≥ 1 so that the square fills the holes of the sparse factors.
//               Lines at other angles are not used: the engine's arbitrary-angle line paths
//               are per-family digital lines, not translation-invariant 2-D segments.
//
// These agree with OpenCV (default border) as follows: cv::erode with the kernel of the
// offsets' bounding box and the anchor at −(min dx, min dy) (for even w, h this anchor is
// (a_w, a_h) = (⌊(w−1)/2⌋, ⌊(h−1)/2⌋), NOT OpenCV's default ⌊w/2⌋); cv::dilate does not
// reflect its kernel (dst = max src(p + k)), so our dilation equals cv::dilate with the
// kernel of the negated offsets; cv::morphologyEx open/close/tophat equal ours only when
// the offset set is symmetric (all odd sizes, octagons, discs).
//
// Why the sequence of line operators is exact: ignoring the border is padding with +∞ (−∞
// for dilation), and erosion by A ⊕ B equals erosion by A then by B on the padded, infinite
// domain. The line operators only compute inside their image, so a point outside the image
// that a later stage would read is lost. For H then V (rectangles) nothing is lost because
// the image is a product of intervals; for any other sequence of two or more stages the
// stages run on an image padded by the SE's extent with +∞ (−∞), which is then cropped.
// Diagonal and periodic factors share that padded image.

#include "compute/classic_morph.h"

#include "compute/classic_se_offsets.h"
#include "compute/cpu/line_algorithms_1d.h"
#include "compute/line_geometry.h"

#if LINESCOPE_HAVE_CUDA
#include "compute/cuda/cuda_backend.h"
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>
#include <utility>

namespace linescope {

namespace {

void requireAtLeast(int value, int least, const char* what) {
    if (value < least)
        throw Error(std::string("the structuring element's ") + what + " must be at least " +
                    std::to_string(least) + " (got " + std::to_string(value) + ")");
}

LineStage segmentStage(int dx, int dy, int length) {
    const Segment s = segmentOf(length);
    return {dx, dy, s.a, s.b};
}

struct DiscFactors {
    int ka = 0, kd = 0, kk = 0;
};

// The support function of the disc's zonotope in the direction θ (radians).
double discSupport(const DiscFactors& f, double theta) {
    const double c = std::cos(theta), s = std::sin(theta);
    return f.ka * (std::abs(c) + std::abs(s)) + f.kd * (std::abs(c + s) + std::abs(c - s)) +
           f.kk * (std::abs(2 * c + s) + std::abs(2 * c - s) + std::abs(c + 2 * s) + std::abs(c - 2 * s));
}

DiscFactors discFactors(int r) {
    if (r == 0) return {};
    // The continuous optimum: a tangential 16-gon whose edge lengths follow the angular
    // gaps between the 8 directions; rounding it needs a small local search.
    const int d0 = static_cast<int>(std::lround(0.1148 * r));
    const int k0 = static_cast<int>(std::lround(0.0890 * r));
    DiscFactors best{r, 0, 0};
    double bestErr = std::numeric_limits<double>::infinity();
    for (int kd = std::max(0, d0 - 3); kd <= d0 + 3; ++kd) {
        for (int kk = std::max(0, k0 - 3); kk <= k0 + 3; ++kk) {
            const std::int64_t ka = static_cast<std::int64_t>(r) - 2 * std::int64_t{kd} - 6 * std::int64_t{kk};
            if (ka < 1) continue;
            const DiscFactors f{static_cast<int>(ka), kd, kk};
            double err = 0;
            for (int deg = 0; deg <= 45; ++deg)
                err = std::max(err, std::abs(discSupport(f, deg * std::numbers::pi / 180.0) - r));
            if (err < bestErr - 1e-9) { bestErr = err; best = f; }  // ties: the first found
        }
    }
    return best;
}

bool isContiguousLine(const LineStage& s, double* angle) {
    if (s.dx == 1 && s.dy == 0) { *angle = 0; return true; }
    if (s.dx == 0 && s.dy == 1) { *angle = 90; return true; }
    if (s.dx == 1 && s.dy == -1) { *angle = 45; return true; }   // off(t) = −t at 45°
    if (s.dx == 1 && s.dy == 1) { *angle = 135; return true; }   // off(t) = +t at 135°
    return false;
}

// out[i] = inner of g[i + lo .. i + hi] clipped to [0, n) (lo ≤ 0 ≤ hi): the engine's
// van Herk/Gil-Werman over the chain padded with the neutral value, as for line paths.
template <class T, class O>
void windowed1D(const std::vector<T>& g, int lo, int hi, std::vector<T>& padded, std::vector<T>& fwd,
                std::vector<T>& bwd, std::vector<T>& out) {
    const int n = static_cast<int>(g.size());
    lo = std::max(lo, -(n - 1));  // offsets past the chain's end read nothing
    hi = std::min(hi, n - 1);
    padded.assign(g.size() + static_cast<std::size_t>(hi - lo), O::top());
    std::copy(g.begin(), g.end(), padded.begin() - lo);
    fwd.resize(padded.size());
    bwd.resize(padded.size());
    out.resize(g.size());
    cpu::vanHerkInner<T, O>(padded.data(), padded.size(), static_cast<std::size_t>(hi - lo + 1), out.data(),
                            fwd.data(), bwd.data());
}

// Erosion or dilation by the periodic line {k·(dx, dy) : k = −a..b}: a 1-D window along
// every chain p, p + step, p + 2·step, … of the image (the border ignored).
template <class T>
void periodicLineMorph(bool erode, ImageView<const T> src, ImageView<T> dst, LineStage s) {
    if (s.dx < 0 || (s.dx == 0 && s.dy < 0)) { s.dx = -s.dx; s.dy = -s.dy; std::swap(s.a, s.b); }
    const int w = src.width, hgt = src.height;
    auto inside = [&](std::int64_t x, std::int64_t y) { return x >= 0 && x < w && y >= 0 && y < hgt; };
    std::vector<T> g, h, fwd, bwd, out;
    for (int y0 = 0; y0 < hgt; ++y0) {
        for (int x0 = 0; x0 < w; ++x0) {
            if (inside(std::int64_t{x0} - s.dx, std::int64_t{y0} - s.dy)) continue;  // not a chain start
            g.clear();
            for (std::int64_t x = x0, y = y0; inside(x, y); x += s.dx, y += s.dy)
                g.push_back(src.at(static_cast<int>(x), static_cast<int>(y)));
            if (erode)
                windowed1D<T, cpu::Order<T, true>>(g, -s.a, s.b, h, fwd, bwd, out);
            else  // δ(f)(i) = max f(i − k), k ∈ [−a, b]: the window [−b, a]
                windowed1D<T, cpu::Order<T, false>>(g, -s.b, s.a, h, fwd, bwd, out);
            std::size_t i = 0;
            for (std::int64_t x = x0, y = y0; inside(x, y); x += s.dx, y += s.dy)
                dst.at(static_cast<int>(x), static_cast<int>(y)) = out[i++];
        }
    }
}

template <class T>
void runStage(bool erode, ImageView<const T> src, ImageView<T> dst, const LineStage& s,
              const EngineOptions& opt) {
    double angle = 0;
    if (isContiguousLine(s, &angle)) {
        const Segment seg = segmentOf(s.a + s.b + 1);
        if (seg.a != s.a || seg.b != s.b)  // every stage we build is a segmentOf or symmetric
            throw Error("internal: a line stage that is not a centred segment");
        lineMorph<T>(erode ? MorphOp::Erode : MorphOp::Dilate, src, dst, LineParams{angle, s.a + s.b + 1}, opt);
    } else {
        periodicLineMorph<T>(erode, src, dst, s);
    }
}

template <class T>
void copyInto(ImageView<const T> src, ImageView<T> dst) {
    for (int y = 0; y < src.height; ++y) std::copy(src.row(y), src.row(y) + src.width, dst.row(y));
}

// ε or δ by the Minkowski sum of the stages, exactly (see the comment at the top).
template <class T>
void runStages(bool erode, ImageView<const T> src, ImageView<T> dst, const std::vector<LineStage>& stages,
               const EngineOptions& opt) {
    if (stages.empty()) { copyInto(src, dst); return; }
    const bool axisOnly = std::all_of(stages.begin(), stages.end(),
                                      [](const LineStage& s) { return s.dx == 0 || s.dy == 0; });
    if (stages.size() == 1 || axisOnly) {
        // Ping-pong between dst and one scratch image so that the last stage writes dst.
        Image<T> scratch;
        if (stages.size() > 1) scratch = Image<T>(src.width, src.height);
        ImageView<const T> in = src;
        for (std::size_t i = 0; i < stages.size(); ++i) {
            const ImageView<T> out = ((stages.size() - 1 - i) % 2 == 0) ? dst : scratch.view();
            runStage<T>(erode, in, out, stages[i], opt);
            in = out;
        }
        return;
    }
    std::int64_t padX = 0, padY = 0;
    for (const LineStage& s : stages) {
        const std::int64_t reach = std::max(s.a, s.b);
        padX += reach * std::abs(s.dx);
        padY += reach * std::abs(s.dy);
    }
    const std::int64_t pw = src.width + 2 * padX, ph = src.height + 2 * padY;
    if (pw > std::numeric_limits<int>::max() || ph > std::numeric_limits<int>::max() ||
        pw * ph > (std::int64_t{1} << 31))
        throw Error("the structuring element is too large: its padded working image would be " +
                    std::to_string(pw) + "x" + std::to_string(ph) + " pixels");
    const T fill = erode ? highestValue<T>() : lowestValue<T>();
    Image<T> a(static_cast<int>(pw), static_cast<int>(ph), fill), b(static_cast<int>(pw), static_cast<int>(ph));
    const auto px = static_cast<int>(padX), py = static_cast<int>(padY);
    auto centre = [&](Image<T>& img) {
        return ImageView<T>(img.data() + static_cast<std::ptrdiff_t>(py) * img.width() + px, src.width,
                            src.height, img.width());
    };
    copyInto(src, centre(a));
    for (const LineStage& s : stages) {
        runStage<T>(erode, a.cview(), b.view(), s, opt);
        std::swap(a, b);
    }
    copyInto(ImageView<const T>(centre(a)), dst);
}

}  // namespace

const char* classicShapeName(ClassicShape s) {
    switch (s) {
    case ClassicShape::HLine: return "HLine";
    case ClassicShape::VLine: return "VLine";
    case ClassicShape::Diag45: return "Diag45";
    case ClassicShape::Diag135: return "Diag135";
    case ClassicShape::Rect: return "Rect";
    case ClassicShape::Octagon: return "Octagon";
    case ClassicShape::Disc: return "Disc";
    }
    return "?";
}

const char* classicMethodName(ClassicMethod m) {
    switch (m) {
    case ClassicMethod::Auto: return "auto";
    case ClassicMethod::VanHerk: return "vhgw";
    case ClassicMethod::VanHerkTranspose: return "vhgw-transpose";
    case ClassicMethod::Naive: return "naive";
    case ClassicMethod::Global: return "global";
    case ClassicMethod::SharedTile: return "tile";
    }
    return "?";
}

ClassicMethod parseClassicMethod(const std::string& s) {
    for (auto m : {ClassicMethod::Auto, ClassicMethod::VanHerk, ClassicMethod::VanHerkTranspose, ClassicMethod::Naive,
                   ClassicMethod::Global, ClassicMethod::SharedTile})
        if (s == classicMethodName(m)) return m;
    throw Error("unknown classic method '" + s + "' (expected auto, vhgw, vhgw-transpose, naive, global or tile)");
}

std::vector<LineStage> classicSEStages(const ClassicSE& se) {
    std::vector<LineStage> st;
    switch (se.shape) {
    case ClassicShape::HLine:
        requireAtLeast(se.width, 1, "width");
        st.push_back(segmentStage(1, 0, se.width));
        break;
    case ClassicShape::VLine:
        requireAtLeast(se.height, 1, "height");
        st.push_back(segmentStage(0, 1, se.height));
        break;
    case ClassicShape::Diag45:
        requireAtLeast(se.width, 1, "width");
        st.push_back(segmentStage(1, -1, se.width));
        break;
    case ClassicShape::Diag135:
        requireAtLeast(se.width, 1, "width");
        st.push_back(segmentStage(1, 1, se.width));
        break;
    case ClassicShape::Rect:
        requireAtLeast(se.width, 1, "width");
        requireAtLeast(se.height, 1, "height");
        st.push_back(segmentStage(1, 0, se.width));
        st.push_back(segmentStage(0, 1, se.height));
        break;
    case ClassicShape::Octagon: {
        requireAtLeast(se.radius, 0, "radius");
        const int r = se.radius;
        int n = static_cast<int>(std::lround(r / (2.0 + std::numbers::sqrt2)));  // regular: m = √2·n
        if (r >= 1 && r - 2 * n < 1) n = (r - 1) / 2;
        const int m = r - 2 * n;
        st.push_back({1, 0, m, m});
        st.push_back({0, 1, m, m});
        st.push_back({1, -1, n, n});
        st.push_back({1, 1, n, n});
        break;
    }
    case ClassicShape::Disc: {
        requireAtLeast(se.radius, 0, "radius");
        const DiscFactors f = discFactors(se.radius);
        st.push_back({1, 0, f.ka, f.ka});
        st.push_back({0, 1, f.ka, f.ka});
        st.push_back({1, -1, f.kd, f.kd});
        st.push_back({1, 1, f.kd, f.kd});
        st.push_back({2, 1, f.kk, f.kk});
        st.push_back({2, -1, f.kk, f.kk});
        st.push_back({1, 2, f.kk, f.kk});
        st.push_back({1, -2, f.kk, f.kk});
        break;
    }
    default:
        throw Error("unknown classic structuring element shape");
    }
    std::erase_if(st, [](const LineStage& s) { return s.a == 0 && s.b == 0; });
    return st;
}

std::vector<Offset> classicSEOffsets(const ClassicSE& se) {
    const std::vector<LineStage> stages = classicSEStages(se);
    std::int64_t rx = 0, ry = 0;
    for (const LineStage& s : stages) {
        rx += std::int64_t{std::max(s.a, s.b)} * std::abs(s.dx);
        ry += std::int64_t{std::max(s.a, s.b)} * std::abs(s.dy);
    }
    const std::int64_t bw = 2 * rx + 1, bh = 2 * ry + 1;
    if (bw * bh > (std::int64_t{1} << 30)) throw Error("the structuring element is too large to list its offsets");
    // A bitmap over the bounding box, grown one stage at a time.
    const auto idx = [&](std::int64_t x, std::int64_t y) { return static_cast<std::size_t>((y + ry) * bw + (x + rx)); };
    std::vector<char> cur(static_cast<std::size_t>(bw * bh), 0), next;
    cur[idx(0, 0)] = 1;
    for (const LineStage& s : stages) {
        next.assign(cur.size(), 0);
        for (std::int64_t y = -ry; y <= ry; ++y)
            for (std::int64_t x = -rx; x <= rx; ++x) {
                if (!cur[idx(x, y)]) continue;
                for (std::int64_t k = -s.a; k <= s.b; ++k) next[idx(x + k * s.dx, y + k * s.dy)] = 1;
            }
        cur.swap(next);
    }
    std::vector<Offset> out;
    for (std::int64_t y = -ry; y <= ry; ++y)
        for (std::int64_t x = -rx; x <= rx; ++x)
            if (cur[idx(x, y)]) out.push_back({static_cast<int>(x), static_cast<int>(y)});
    return out;
}

template <class T>
void classicMorph(MorphOp op, ImageView<const T> src, ImageView<T> dst, const ClassicSE& se,
                  const EngineOptions& opt) {
    requireSameSize(src, dst);
    if (static_cast<const void*>(src.data) == static_cast<const void*>(dst.data))
        throw Error("the output image must not be the input image");
    requireNoNaN(src);
    const std::vector<LineStage> stages = classicSEStages(se);
    const Backend backend = resolveBackend(opt.backend);  // throws when CUDA is asked for and missing
#if LINESCOPE_HAVE_CUDA
    if (backend == Backend::Cuda) {
        cuda::classicMorph<T>(op, src, dst, se);
        return;
    }
#else
    (void)backend;
#endif
    switch (op) {
    case MorphOp::Erode:
        runStages<T>(true, src, dst, stages, opt);
        return;
    case MorphOp::Dilate:
        runStages<T>(false, src, dst, stages, opt);
        return;
    case MorphOp::Open:
    case MorphOp::Close:
    case MorphOp::TopHat: {
        const bool erodeFirst = op != MorphOp::Close;
        Image<T> mid(src.width, src.height);
        runStages<T>(erodeFirst, src, mid.view(), stages, opt);
        runStages<T>(!erodeFirst, mid.cview(), dst, stages, opt);
        if (op == MorphOp::TopHat)  // f − γ(f) ≥ 0: the opening is anti-extensive
            for (int y = 0; y < src.height; ++y)
                for (int x = 0; x < src.width; ++x) dst.at(x, y) = static_cast<T>(src.at(x, y) - dst.at(x, y));
        return;
    }
    }
    throw Error("unknown morphological operation");
}

template void classicMorph<std::uint8_t>(MorphOp, ImageView<const std::uint8_t>, ImageView<std::uint8_t>,
                                         const ClassicSE&, const EngineOptions&);
template void classicMorph<std::uint16_t>(MorphOp, ImageView<const std::uint16_t>, ImageView<std::uint16_t>,
                                          const ClassicSE&, const EngineOptions&);
template void classicMorph<float>(MorphOp, ImageView<const float>, ImageView<float>, const ClassicSE&,
                                  const EngineOptions&);

}  // namespace linescope
