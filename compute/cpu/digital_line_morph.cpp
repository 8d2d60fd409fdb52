// The recursive run decomposition of digital_line_morph.h.
#include "compute/cpu/digital_line_morph.h"

#include "compute/cpu/lattice_window.h"
#include "compute/cpu/pixel_order.h"
#include "compute/cpu/transpose.h"
#include "compute/pixel_rules.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace linescope::cpu {

namespace {

// Measured on the 2-core development VM (tests/bench/cpu-results.md): a level of the
// recursion costs about as much as folding this many points one by one.
constexpr int kDefaultLeafSize = 24;
std::atomic<int> leafSize{kDefaultLeafSize};
// An end run this short is folded point by point rather than through a window of its own.
constexpr std::int64_t kRunPoints = 8;

using detail::floorDivide;

std::int64_t ceilDivide(std::int64_t x, std::int64_t d) { return -floorDivide(-x, d); }

Offset plus(Offset a, Offset b) { return {a.dx + b.dx, a.dy + b.dy}; }
Offset times(std::int64_t k, Offset a) { return {static_cast<int>(k * a.dx), static_cast<int>(k * a.dy)}; }

// Buffers kept by each thread between calls: a fresh image-sized allocation costs more in
// page faults than the passes that fill it (profiled on the development VM).
template <class T>
std::vector<std::vector<T>>& bufferPool() {
    thread_local std::vector<std::vector<T>> pool;
    return pool;
}

template <class T>
LatticeWindowScratch<T>& windowScratch() {
    thread_local LatticeWindowScratch<T> scratch;
    return scratch;
}

// A W×H plane of the padded working domain; its pixels come from and go back to the pool.
template <class T>
struct Plane {
    int width = 0, height = 0;
    std::vector<T> px;
    Plane() = default;
    // Pixels unspecified: every caller writes all of them.
    Plane(int w, int h) : width(w), height(h) {
        auto& pool = bufferPool<T>();
        if (!pool.empty()) {
            px = std::move(pool.back());
            pool.pop_back();
        }
        px.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
    }
    Plane(int w, int h, T fill) : Plane(w, h) { std::fill(px.begin(), px.end(), fill); }
    Plane(Plane&& o) noexcept : width(o.width), height(o.height), px(std::move(o.px)) {}
    Plane& operator=(Plane&& o) noexcept {
        release();
        width = o.width;
        height = o.height;
        px = std::move(o.px);
        return *this;
    }
    ~Plane() { release(); }
    void release() {
        if (px.capacity() == 0) return;
        auto& pool = bufferPool<T>();
        if (pool.size() < 8) pool.push_back(std::move(px));
        px = {};
    }
    T* row(int y) { return px.data() + static_cast<std::ptrdiff_t>(y) * width; }
    const T* row(int y) const { return px.data() + static_cast<std::ptrdiff_t>(y) * width; }
};

// 0 ≤ num < den with 2·num ≤ den, 0 ≤ phase < den: the same points in another basis.
DigitalLinePiece normalized(DigitalLinePiece p) {
    const std::int64_t d = floorDivide(p.num, p.den);  // o(k) = k·d + ⌊(k·(num − d·den) + phase)/den⌋
    p.major = plus(p.major, times(d, p.minor));
    p.num -= d * p.den;
    const std::int64_t e = floorDivide(p.phase, p.den);  // a constant offset along minor
    p.base = plus(p.base, times(e, p.minor));
    p.phase -= e * p.den;
    if (2 * p.num > p.den) {  // o(k) = k − ⌊(k·(den − num) + den − 1 − phase)/den⌋
        p.major = plus(p.major, p.minor);
        p.minor = {-p.minor.dx, -p.minor.dy};
        p.num = p.den - p.num;
        p.phase = p.den - 1 - p.phase;
    }
    if (p.num == 0) p.minor = {0, 0};
    return p;
}

// Whether a normalized single-run piece lies on the line through the origin: base = m·major.
bool collinear(const DigitalLinePiece& p, std::int64_t* m) {
    const Offset a = p.major, b = p.base;
    if (a.dx != 0) {
        if (b.dx % a.dx != 0) return false;
        *m = b.dx / a.dx;
    } else {
        if (a.dy == 0 || b.dy % a.dy != 0) return false;
        *m = b.dy / a.dy;
    }
    return std::int64_t{b.dx} == *m * a.dx && std::int64_t{b.dy} == *m * a.dy;
}

// The piece's points with |dx| < W and |dy| < H: the others never reach the image from
// inside it. The points' coordinates are monotone in k, so those kept are an interval.
DigitalLinePiece clipped(const DigitalLinePiece& p, int W, int H) {
    const auto inside = [&](std::int64_t k) {
        const Offset o = p.point(k);
        return std::abs(o.dx) < W && std::abs(o.dy) < H;
    };
    std::int64_t k0 = 0, k1 = p.count - 1;
    while (k0 <= k1 && !inside(k0)) ++k0;
    while (k1 >= k0 && !inside(k1)) --k1;
    DigitalLinePiece q = p;
    q.count = k1 - k0 + 1;
    if (q.count <= 0) { q.count = 0; return q; }
    q.base = plus(p.base, times(k0, p.major));
    q.phase = p.phase + k0 * p.num;
    return q;
}

template <class T, class O>
class Engine {
public:
    Engine(int W, int H, int padX, int padY) : W_(W), H_(H), padX_(padX), padY_(padY), acc_(W, H, O::top()) {}

    // acc(p) = inner(acc(p), min over the piece's points k of F(p + k)).
    void accumulate(const Plane<T>& F, DigitalLinePiece pc) {
        pc = normalized(pc);
        const std::int64_t n = pc.count;
        if (n <= 0) return;
        const std::int64_t J = floorDivide((n - 1) * pc.num + pc.phase, pc.den);  // o(n−1); o(0) = 0
        std::int64_t m = 0;
        if (J == 0 && collinear(pc, &m)) {  // one run through the pixel: cut by the border exactly
            Plane<T> run(F.width, F.height);
            latticeWindow<T, O>(F.px.data(), run.px.data(), F.width, F.height, pc.major, static_cast<int>(m),
                                static_cast<int>(m + n - 1), windowScratch<T>());
            fold(run, {Offset{}});
            return;
        }
        if (n <= leafSize.load(std::memory_order_relaxed)) {
            std::vector<Offset> points;
            for (std::int64_t k = 0; k < n; ++k) points.push_back(pc.point(k));
            fold(F, points);
            return;
        }
        if (J == 0) {  // one run off the pixel's line: read on the padding (needsPadding)
            fold(window(F, pc.major, n), {pc.base});
            return;
        }
        // Runs j = 0 … J start at K_j = ⌈(j·den − phase)/num⌉ (K_0 = 0); full runs 1 … J−1.
        const std::int64_t ell = pc.den / pc.num;  // ≥ 2
        const std::int64_t K1 = ceilDivide(pc.den - pc.phase, pc.num);
        const std::int64_t KJ = ceilDivide(J * pc.den - pc.phase, pc.num);
        const Offset lastStart = plus(pc.base, plus(times(KJ, pc.major), times(J, pc.minor)));
        Plane<T> runWindow = window(F, pc.major, ell);
        std::vector<Offset> windowShifts, pointShifts;
        // A run of L points from `start`: two windows of ℓ when L ≥ ℓ (a run is at most ℓ + 1),
        // else its points, or a window of its own when it is long.
        const auto foldRun = [&](Offset start, std::int64_t L) {
            if (L >= ell) {
                windowShifts.push_back(start);
                if (L > ell) windowShifts.push_back(plus(start, times(L - ell, pc.major)));
            } else if (L <= kRunPoints) {
                for (std::int64_t i = 0; i < L; ++i) pointShifts.push_back(plus(start, times(i, pc.major)));
            } else {
                fold(window(F, pc.major, L), {start});
            }
        };
        foldRun(pc.base, K1);
        foldRun(lastStart, n - KJ);
        if (J >= 2) {  // the head of run 1 and the tail of run J−1
            windowShifts.push_back(plus(pc.base, plus(times(K1, pc.major), pc.minor)));
            windowShifts.push_back(plus(pc.base, plus(times(KJ - ell, pc.major), times(J - 1, pc.minor))));
        }
        fold(runWindow, windowShifts);
        fold(F, pointShifts);
        if (J < 3) return;
        // Corners between full runs j and j+1 (j = 1 … J−2) at base + K_{j+1}·A + j·B.
        Plane<T> corners = corner(runWindow, times(-ell, pc.major), pc.minor);
        runWindow = {};
        DigitalLinePiece next;
        next.base = plus(pc.base, pc.minor);
        next.major = pc.minor;
        next.minor = pc.major;
        next.count = J - 2;
        next.num = pc.den;
        next.den = pc.num;
        next.phase = 2 * pc.den - pc.phase + pc.num - 1;
        accumulate(corners, next);
    }

    Plane<T>& result() { return acc_; }

private:
    // The window of `len` points along `step` from each pixel of F.
    Plane<T> window(const Plane<T>& F, Offset step, std::int64_t len) {
        Plane<T> out(F.width, F.height);
        if (len == 1) { std::copy(F.px.begin(), F.px.end(), out.px.begin()); return out; }
        latticeWindow<T, O>(F.px.data(), out.px.data(), F.width, F.height, step, 0, static_cast<int>(len - 1),
                            windowScratch<T>(), false);
        return out;
    }

    // C(p) = inner(R(p + u), R(p + v)), outside the plane ignored.
    Plane<T> corner(const Plane<T>& R, Offset u, Offset v) {
        Plane<T> out(R.width, R.height, O::top());
        for (Offset s : {u, v})
            for (int y = 0; y < R.height; ++y) {
                const int sy = y + s.dy;
                if (sy < 0 || sy >= R.height) continue;
                const int x0 = std::max(0, -s.dx), x1 = std::min(R.width, R.width - s.dx);
                T* o = out.row(y);
                const T* r = R.row(sy) + s.dx;
                for (int x = x0; x < x1; ++x) o[x] = O::inner(o[x], r[x]);
            }
        return out;
    }

    // acc(p) = inner(acc(p), F(p + pad + s)) for every shift s, a row at a time.
    void fold(const Plane<T>& F, const std::vector<Offset>& shifts) {
        for (int y = 0; y < H_; ++y) {
            T* a = acc_.row(y);
            for (const Offset& s : shifts) {
                const int sy = y + padY_ + s.dy;
                if (sy < 0 || sy >= F.height) continue;
                const int dx = padX_ + s.dx;
                const int x0 = std::max(0, -dx), x1 = std::min(W_, F.width - dx);
                const T* f = F.row(sy) + dx;
                for (int x = x0; x < x1; ++x) a[x] = O::inner(a[x], f[x]);
            }
        }
    }

    int W_, H_, padX_, padY_;
    Plane<T> acc_;
};

// Whether the piece reads intermediate images away from the pixel (a level of the recursion,
// or one run off the line through the pixel), which the padding makes exact.
bool needsPadding(const DigitalLinePiece& piece) {
    const DigitalLinePiece p = normalized(piece);
    std::int64_t m = 0;
    const bool oneRun = floorDivide((p.count - 1) * p.num + p.phase, p.den) == 0;
    if (oneRun && collinear(p, &m)) return false;
    return p.count > leafSize.load(std::memory_order_relaxed);
}

template <class T, class O>
void run(ImageView<const T> src, ImageView<T> dst, const std::vector<DigitalLinePiece>& pieces) {
    const int W = src.width, H = src.height;
    // A single run or a folded piece reads the source only, and the windows ignore the
    // border exactly; only the recursion's intermediate images need the padding.
    int padX = 0, padY = 0;
    for (const DigitalLinePiece& p : pieces) {
        if (!needsPadding(p)) continue;
        for (std::int64_t k : {std::int64_t{0}, p.count - 1}) {  // the ends bound a monotone piece
            const Offset o = p.point(k);
            padX = std::max(padX, std::abs(o.dx));
            padY = std::max(padY, std::abs(o.dy));
        }
    }
    Plane<T> F(W + 2 * padX, H + 2 * padY, O::top());
    for (int y = 0; y < H; ++y) {
        const T* s = src.row(y);
        T* f = F.row(y + padY) + padX;
        for (int x = 0; x < W; ++x) f[x] = canonical(s[x]);
    }
    Engine<T, O> engine(W, H, padX, padY);
    for (const DigitalLinePiece& p : pieces) engine.accumulate(F, p);
    Plane<T>& acc = engine.result();
    for (int y = 0; y < H; ++y) std::copy(acc.row(y), acc.row(y) + W, dst.row(y));
}

}  // namespace

void setDigitalLineLeafSize(int points) { leafSize.store(points > 0 ? points : kDefaultLeafSize); }

template <class T>
void digitalLineErodeDilate(bool erode, ImageView<const T> src, ImageView<T> dst, const LineKernel& kernel) {
    std::vector<DigitalLinePiece> pieces;
    for (DigitalLinePiece p : kernel.pieces) {
        if (!erode) {  // δ(f)(p) = max f(p − k): the reflected points
            p.base = {-p.base.dx, -p.base.dy};
            p.major = {-p.major.dx, -p.major.dy};
            p.minor = {-p.minor.dx, -p.minor.dy};
        }
        p = clipped(p, src.width, src.height);
        if (p.count > 0) pieces.push_back(p);
    }
    // Runs along the rows would make the windows' passes sequential; on the transposed image
    // they run down the columns, a row of chains at a time.
    const bool alongRows = !pieces.empty() && normalized(pieces.front()).major.dy == 0;
    if (alongRows && src.width > 1 && src.height > 1) {
        Image<T> srcT(src.height, src.width), dstT(src.height, src.width);
        transposeImage<T>(src, srcT.view(), 1);
        for (DigitalLinePiece& p : pieces) {
            for (Offset* o : {&p.base, &p.major, &p.minor}) *o = {o->dy, o->dx};
        }
        if (erode) run<T, Order<T, true>>(srcT.cview(), dstT.view(), pieces);
        else run<T, Order<T, false>>(srcT.cview(), dstT.view(), pieces);
        transposeImage<T>(dstT.cview(), dst, 1);
        return;
    }
    if (erode) run<T, Order<T, true>>(src, dst, pieces);
    else run<T, Order<T, false>>(src, dst, pieces);
}

template void digitalLineErodeDilate<std::uint8_t>(bool, ImageView<const std::uint8_t>, ImageView<std::uint8_t>,
                                                   const LineKernel&);
template void digitalLineErodeDilate<std::uint16_t>(bool, ImageView<const std::uint16_t>, ImageView<std::uint16_t>,
                                                    const LineKernel&);
template void digitalLineErodeDilate<float>(bool, ImageView<const float>, ImageView<float>, const LineKernel&);

}  // namespace linescope::cpu
