#include "compute/cpu/per_line_morph.h"

#include "compute/cpu/line_algorithms_1d.h"
#include "compute/cpu/sheared_strip.h"
#include "compute/thread_pool.h"

#include <algorithm>
#include <vector>

namespace linescope::cpu {
namespace {

template <class T>
struct LineScratch {
    std::vector<T> f, P, E, g, h, out;
    MonotoneFifo<T> innerQ, outerQ;
    StackScratch<T> stack;
};

// The streaming erosion: the first FIFO of the opening alone.
template <class T, class O>
void fifoInner(const T* P, std::size_t N, std::size_t w, T* E, MonotoneFifo<T>& q) {
    q.reset(w);
    const auto W = static_cast<std::ptrdiff_t>(w);
    for (std::ptrdiff_t j = 0; j < static_cast<std::ptrdiff_t>(N); ++j) {
        while (!q.empty() && !O::below(q.backValue(), P[j])) q.popBack();
        q.pushBack(P[j], j);
        if (q.frontPosition() <= j - W) q.popFront();
        if (j >= W - 1) E[j - W + 1] = q.frontValue();
    }
}

// P = top×padL, f, top×padR (line_algorithms_1d.h says why); returns its length.
template <class T, class O>
std::size_t padLine(const T* f, std::size_t n, int padL, int padR, std::vector<T>& P) {
    const std::size_t N = n + static_cast<std::size_t>(padL + padR);
    P.resize(N);
    std::fill(P.begin(), P.begin() + padL, O::top());
    std::copy(f, f + n, P.begin() + padL);
    std::fill(P.begin() + padL + static_cast<std::ptrdiff_t>(n), P.end(), O::top());
    return N;
}

// result[c] = inner over f[c-padL .. c+padR] ∩ [0, n): erosion (Ascending) or dilation (Descending).
template <class T, class O>
void slidingInner(const T* f, std::size_t n, int padL, int padR, T* result, LineAlgorithm algo, LineScratch<T>& s) {
    const std::size_t w = static_cast<std::size_t>(padL + padR + 1);
    const std::size_t N = padLine<T, O>(f, n, padL, padR, s.P);
    if (algo == LineAlgorithm::Fifo) {
        fifoInner<T, O>(s.P.data(), N, w, result, s.innerQ);
    } else {
        s.g.resize(N);
        s.h.resize(N);
        vanHerkInner<T, O>(s.P.data(), N, w, result, s.g.data(), s.h.data());
    }
}

// Opening (Ascending, pads a,b) or closing (Descending, pads b,a) of one line in one pass.
template <class T, class O>
void singlePassOpening(const T* f, std::size_t n, int padL, int padR, T* result, LineAlgorithm algo,
                       LineScratch<T>& s) {
    const std::size_t w = static_cast<std::size_t>(padL + padR + 1);
    const std::size_t N = padLine<T, O>(f, n, padL, padR, s.P);
    s.out.resize(N);
    if (algo == LineAlgorithm::Fifo) fifoOpening<T, O>(s.P.data(), N, w, s.out.data(), s.innerQ, s.outerQ);
    else stackOpening<T, O>(s.P.data(), N, w, s.out.data(), s.stack);
    std::copy(s.out.begin() + padL, s.out.begin() + padL + static_cast<std::ptrdiff_t>(n), result);
}

template <class T>
void lineOp(MorphOp op, LineAlgorithm algo, const T* f, std::size_t n, Segment seg, T* result, LineScratch<T>& s) {
    using Asc = Order<T, true>;
    using Desc = Order<T, false>;
    // A window longer than the line covers all of it: clamping changes nothing.
    const int cap = static_cast<int>(n) - 1;
    const int a = std::min(seg.a, cap);
    const int b = std::min(seg.b, cap);
    const bool onePass = algo == LineAlgorithm::Fifo || algo == LineAlgorithm::Stack;
    const LineAlgorithm slide = algo == LineAlgorithm::Fifo ? LineAlgorithm::Fifo : LineAlgorithm::VanHerk;
    s.E.resize(n);
    switch (op) {
    case MorphOp::Erode: slidingInner<T, Asc>(f, n, a, b, result, slide, s); break;
    case MorphOp::Dilate: slidingInner<T, Desc>(f, n, b, a, result, slide, s); break;
    case MorphOp::Open:
    case MorphOp::TopHat:
        if (onePass) {
            singlePassOpening<T, Asc>(f, n, a, b, result, algo, s);
        } else {
            slidingInner<T, Asc>(f, n, a, b, s.E.data(), slide, s);
            slidingInner<T, Desc>(s.E.data(), n, b, a, result, slide, s);
        }
        break;
    case MorphOp::Close:
        if (onePass) {
            singlePassOpening<T, Desc>(f, n, b, a, result, algo, s);
        } else {
            slidingInner<T, Desc>(f, n, b, a, s.E.data(), slide, s);
            slidingInner<T, Asc>(s.E.data(), n, a, b, result, slide, s);
        }
        break;
    }
}

}  // namespace

template <class T>
void perLineMorph(MorphOp op, LineAlgorithm algorithm, ImageView<const T> src, ImageView<T> dst,
                  const LineFamily& fam, Segment seg, int threads) {
    const std::int64_t first = fam.firstLine();
    const std::int64_t last = fam.lastLine();
    if (last < first) return;
    parallelFor(static_cast<std::size_t>(last - first + 1), threads, [&](std::size_t begin, std::size_t end) {
        LineScratch<T> s;
        std::vector<T> result;
        for (std::size_t k = begin; k < end; ++k) {
            const std::int64_t c = first + static_cast<std::int64_t>(k);
            std::int64_t t0, t1;
            fam.extent(c, t0, t1);
            if (t0 > t1) continue;
            const auto n = static_cast<std::size_t>(t1 - t0 + 1);
            s.f.resize(n);
            result.resize(n);
            std::int64_t x, y;
            for (std::size_t i = 0; i < n; ++i) {
                fam.pixel(c, t0 + static_cast<std::int64_t>(i), x, y);
                s.f[i] = canonical(src.at(static_cast<int>(x), static_cast<int>(y)));
            }
            lineOp<T>(op, algorithm, s.f.data(), n, seg, result.data(), s);
            for (std::size_t i = 0; i < n; ++i) {
                fam.pixel(c, t0 + static_cast<std::int64_t>(i), x, y);
                T& d = dst.at(static_cast<int>(x), static_cast<int>(y));
                d = op == MorphOp::TopHat
                        ? static_cast<T>(src.at(static_cast<int>(x), static_cast<int>(y)) - result[i])
                        : result[i];
            }
        }
    });
}

template void perLineMorph<std::uint8_t>(MorphOp, LineAlgorithm, ImageView<const std::uint8_t>,
                                         ImageView<std::uint8_t>, const LineFamily&, Segment, int);
template void perLineMorph<std::uint16_t>(MorphOp, LineAlgorithm, ImageView<const std::uint16_t>,
                                          ImageView<std::uint16_t>, const LineFamily&, Segment, int);
template void perLineMorph<float>(MorphOp, LineAlgorithm, ImageView<const float>, ImageView<float>,
                                  const LineFamily&, Segment, int);

}  // namespace linescope::cpu
