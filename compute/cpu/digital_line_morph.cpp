// The recursive run decomposition of digital_line_decomposition.h, on the host.
#include "compute/cpu/digital_line_morph.h"

#include "compute/cpu/lattice_window.h"
#include "compute/digital_line_decomposition.h"
#include "compute/cpu/pixel_order.h"
#include "compute/cpu/transpose.h"
#include "compute/pixel_rules.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace linescope::cpu {

namespace {

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

// The passes of digital_line::accumulate on the host, into the accumulator acc_ (W×H).
template <class T, class O>
class HostExecutor {
public:
    using Plane = cpu::Plane<T>;

    HostExecutor(int W, int H, int padX, int padY) : W_(W), H_(H), padX_(padX), padY_(padY), acc_(W, H, O::top()) {}

    Plane window(const Plane& F, Offset step, std::int64_t lo, std::int64_t hi, bool exact) {
        Plane out(F.width, F.height);
        if (lo == 0 && hi == 0) {
            std::copy(F.px.begin(), F.px.end(), out.px.begin());
            return out;
        }
        latticeWindow<T, O>(F.px.data(), out.px.data(), F.width, F.height, step, static_cast<int>(lo),
                            static_cast<int>(hi), windowScratch<T>(), exact);
        return out;
    }

    void foldWindow(const Plane& F, Offset step, std::int64_t lo, std::int64_t hi, bool exact, Offset s) {
        fold(window(F, step, lo, hi, exact), {s});
    }

    Plane corner(const Plane& R, Offset u, Offset v) {
        Plane out(R.width, R.height, O::top());
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

    // A row at a time, every shift, so that the accumulator's row stays in the cache.
    void fold(const Plane& F, const std::vector<Offset>& shifts) {
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

    Plane& result() { return acc_; }

private:
    int W_, H_, padX_, padY_;
    Plane acc_;
};

template <class T, class O>
void run(ImageView<const T> src, ImageView<T> dst, const std::vector<DigitalLinePiece>& pieces) {
    const int W = src.width, H = src.height;
    // A single run or a folded piece reads the source only, and the windows ignore the
    // border exactly; only the recursion's intermediate images need the padding.
    const digital_line::Padding pad = digital_line::paddingOf(pieces);
    Plane<T> F(W + 2 * pad.x, H + 2 * pad.y, O::top());
    for (int y = 0; y < H; ++y) {
        const T* s = src.row(y);
        T* f = F.row(y + pad.y) + pad.x;
        for (int x = 0; x < W; ++x) f[x] = canonical(s[x]);
    }
    HostExecutor<T, O> ex(W, H, pad.x, pad.y);
    for (const DigitalLinePiece& p : pieces) digital_line::accumulate(ex, F, p);
    Plane<T>& acc = ex.result();
    for (int y = 0; y < H; ++y) std::copy(acc.row(y), acc.row(y) + W, dst.row(y));
}

}  // namespace

void setDigitalLineLeafSize(int points) { digital_line::setLeafSize(points); }

template <class T>
void digitalLineErodeDilate(bool erode, ImageView<const T> src, ImageView<T> dst, const LineKernel& kernel) {
    std::vector<DigitalLinePiece> pieces = digital_line::stagePieces(erode, kernel, src.width, src.height);
    // Runs along the rows would make the windows' passes sequential; on the transposed image
    // they run down the columns, a row of chains at a time.
    const bool alongRows = !pieces.empty() && digital_line::normalized(pieces.front()).major.dy == 0;
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
