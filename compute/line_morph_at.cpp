#include "compute/line_morph_at.h"

#include "compute/line_geometry.h"
#include "compute/line_kernel.h"
#include "compute/line_stages.h"
#include "compute/line_window.h"
#include "compute/pixel_rules.h"

#include <algorithm>
#include <cmath>
#include <deque>

namespace linescope {

namespace {

template <class T>
T readPixel(ImageView<const T> src, int x, int y) {
    const T v = canonical(src.at(x, y));
    if constexpr (std::is_same_v<T, float>)
        if (std::isnan(v)) throw Error("the image holds NaN: line operators are undefined there");
    return v;
}

template <class T>
T extremeOf(bool isMin, T acc, T v) {
    return isMin ? minOf(acc, v) : maxOf(acc, v);
}

// One stage over g at every position of [from, to] (clipped to g), each output reading
// [u − w.left, u + w.right] ∩ g: the monotonic-deque sliding window, O(to − from + λ).
template <class T>
std::vector<T> slidingStage(const std::vector<T>& g, bool isMin, StageWindow w, long long from, long long to) {
    const long long n = static_cast<long long>(g.size());
    std::vector<T> out;
    std::deque<long long> q;  // indices of g, values monotone: the front is the extreme
    long long next = std::max(0LL, from - w.left);  // next index of g to push
    for (long long u = from; u <= to; ++u) {
        const long long hi = std::min(n - 1, u + w.right);
        for (; next <= hi; ++next) {
            // Keep the deque's values strictly improving from back to front.
            while (!q.empty() && (isMin ? !(g[q.back()] < g[next]) : !(g[next] < g[q.back()]))) q.pop_back();
            q.push_back(next);
        }
        const long long lo = std::max(0LL, u - w.left);
        while (!q.empty() && q.front() < lo) q.pop_front();
        out.push_back(g[static_cast<std::size_t>(q.front())]);
    }
    return out;
}

// Line paths: the operator on the 1-D signal of the pixel's line (design.md §1), only around it.
template <class T>
T pathsAt(MorphOp op, ImageView<const T> src, int x, int y, double angle, int length) {
    const LinePathThrough path = linePathThrough(angle, src.width, src.height, x, y);
    const long long n = static_cast<long long>(path.pixels.size());
    const LineStages st = lineStagesOf(op, segmentOf(length));
    const long long t = path.index;
    // The signal within the operator's reach of t (positions [lo, hi] of the line).
    const long long lo = std::max(0LL, t - st.reachLeft());
    const long long hi = std::min(n - 1, t + st.reachRight());
    std::vector<T> g;
    g.reserve(static_cast<std::size_t>(hi - lo + 1));
    for (long long u = lo; u <= hi; ++u) {
        const PixelAt p = path.pixels[static_cast<std::size_t>(u)];
        g.push_back(readPixel(src, p.x, p.y));
    }
    // Positions are now relative to lo; clipping to g is clipping to the line, since g holds
    // every line position the windows can reach.
    const long long c = t - lo;
    if (!st.twoStage) return slidingStage(g, st.minFirst, st.first, c, c)[0];
    const long long from = std::max(0LL, c - st.second.left);
    const long long to = std::min(static_cast<long long>(g.size()) - 1, c + st.second.right);
    const std::vector<T> first = slidingStage(g, st.minFirst, st.first, from, to);
    T acc = st.minFirst ? lowestValue<T>() : highestValue<T>();
    for (const T v : first) acc = extremeOf(!st.minFirst, acc, v);
    return acc;
}

// Segment and periodic kernels: ε(p) = min f(p + o), δ(p) = max f(p − o) over the kernel's
// offsets inside the image (reference_kernel_morph's definition), at one pixel.
template <class T>
T kernelAt(MorphOp op, ImageView<const T> src, int x, int y, LineKind kind, double angle, int length) {
    const std::vector<Offset> offsets = lineKernel(kind, angle, length).offsets();
    auto stageAt = [&](bool isMin, long long px, long long py, auto&& value) {
        T acc = isMin ? highestValue<T>() : lowestValue<T>();
        for (const Offset& o : offsets) {
            const long long sx = isMin ? px + o.dx : px - o.dx;
            const long long sy = isMin ? py + o.dy : py - o.dy;
            if (sx < 0 || sy < 0 || sx >= src.width || sy >= src.height) continue;
            acc = extremeOf(isMin, acc, value(static_cast<int>(sx), static_cast<int>(sy)));
        }
        return acc;
    };
    auto f = [&](int px, int py) { return readPixel(src, px, py); };
    const LineStages st = lineStagesOf(op, segmentOf(length));
    if (!st.twoStage) return stageAt(st.minFirst, x, y, f);
    return stageAt(!st.minFirst, x, y, [&](int px, int py) { return stageAt(st.minFirst, px, py, f); });
}

}  // namespace

template <class T>
T lineMorphAt(MorphOp op, ImageView<const T> src, int x, int y, const LineParams& p) {
    if (src.empty()) throw Error("the image is empty");
    const double angle = normalizeAngle(p.angle);
    const T value = p.kind == LineKind::Paths ? pathsAt(op, src, x, y, angle, p.length)
                                              : kernelAt(op, src, x, y, p.kind, angle, p.length);
    if (op != MorphOp::TopHat) return value;
    return static_cast<T>(readPixel(src, x, y) - value);  // f − γ(f) ≥ 0: the opening is anti-extensive
}

template <class T>
std::vector<T> angleResponse(MorphOp op, ImageView<const T> src, int x, int y, const AngleSet& angles, int length,
                             LineKind kind) {
    std::vector<T> out;
    out.reserve(static_cast<std::size_t>(std::max(0, angles.count)));
    for (int k = 0; k < angles.count; ++k) out.push_back(lineMorphAt(op, src, x, y, LineParams{angles.angle(k), length, kind}));
    return out;
}

template <class T>
int bestAngleIndex(const std::vector<T>& values, MorphOp op) {
    const bool lowest = op == MorphOp::Close || op == MorphOp::Dilate;
    int best = -1;
    for (int k = 0; k < static_cast<int>(values.size()); ++k)
        if (best < 0 || (lowest ? values[k] < values[best] : values[best] < values[k])) best = k;
    return best;
}

#define LINESCOPE_LINE_MORPH_AT(T)                                                                             \
    template T lineMorphAt<T>(MorphOp, ImageView<const T>, int, int, const LineParams&);                   \
    template std::vector<T> angleResponse<T>(MorphOp, ImageView<const T>, int, int, const AngleSet&, int,  \
                                             LineKind);                                                    \
    template int bestAngleIndex<T>(const std::vector<T>&, MorphOp);
LINESCOPE_LINE_MORPH_AT(std::uint8_t)
LINESCOPE_LINE_MORPH_AT(std::uint16_t)
LINESCOPE_LINE_MORPH_AT(float)
#undef LINESCOPE_LINE_MORPH_AT

}  // namespace linescope
