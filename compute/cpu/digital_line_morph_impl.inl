// The host executor of the run decomposition, compiled once per instruction set
// (digital_line_morph_{generic,avx2,avx512}.cpp, flags in compute/CMakeLists.txt) with
// LINESCOPE_ISA naming the namespace; digital_line_morph.cpp picks one at run time.
#include "compute/cpu/digital_line_morph.h"

#include "compute/cpu/lattice_window.h"
#include "compute/cpu/pixel_order.h"
#include "compute/cpu/transpose.h"
#include "compute/digital_line_decomposition.h"
#include "compute/pixel_rules.h"
#include "compute/thread_pool.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace linescope::cpu {
inline namespace LINESCOPE_ISA {

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

// Planes are told apart by a serial number, not their address: the pool hands a released
// plane's memory to the next one.
inline std::uint64_t nextPlaneSerial() {
    thread_local std::uint64_t serial = 0;
    return ++serial;
}

// A W×H plane of the padded working domain; its pixels come from and go back to the pool.
// Written once, when made: a plane's serial names its contents.
template <class T>
struct Plane {
    int width = 0, height = 0;
    std::vector<T> px;
    std::uint64_t serial = 0;
    Plane() = default;
    // Pixels unspecified: every caller writes all of them.
    Plane(int w, int h) : width(w), height(h), serial(nextPlaneSerial()) {
        auto& pool = bufferPool<T>();
        if (!pool.empty()) {
            px = std::move(pool.back());
            pool.pop_back();
        }
        px.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
    }
    Plane(int w, int h, T fill) : Plane(w, h) { std::fill(px.begin(), px.end(), fill); }
    Plane(Plane&& o) noexcept : width(o.width), height(o.height), px(std::move(o.px)), serial(o.serial) {}
    Plane& operator=(Plane&& o) noexcept {
        release();
        width = o.width;
        height = o.height;
        px = std::move(o.px);
        serial = o.serial;
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

// o(x) = inner(o(x), r(x)) over n pixels (u8 pixels alias everything: restrict lets the
// loop vectorize without a run-time overlap test).
template <class T, class O>
void foldRow(T* __restrict o, const T* __restrict r, int n) {
    for (int x = 0; x < n; ++x) o[x] = O::inner(o[x], r[x]);
}

template <class T, class O>
void foldRows4(T* __restrict o, const T* __restrict r0, const T* __restrict r1, const T* __restrict r2,
               const T* __restrict r3, int n) {
    for (int x = 0; x < n; ++x) o[x] = O::inner(O::inner(o[x], r0[x]), O::inner(O::inner(r1[x], r2[x]), r3[x]));
}

template <class T, class O>
void innerRows2(T* __restrict o, const T* __restrict a, const T* __restrict b, int n) {
    for (int x = 0; x < n; ++x) o[x] = O::inner(a[x], b[x]);
}

// A source row read at an offset: src[x] stands for o[x0 + x], x < x1 − x0.
template <class T>
struct ShiftedRow {
    const T* src;
    int x0, x1;
};

// o = the inner of the rows over n pixels, the neutral value where none reaches. Two rows
// (the windows of two points and the corners) take one pass where both reach, a fill and a
// fold only over the few pixels at the sides; other counts a fill and a fold a row.
template <class T, class O>
void innerOfRows(T* o, int n, const ShiftedRow<T>* rows, int count) {
    const int both0 = count == 2 ? std::max(rows[0].x0, rows[1].x0) : 0;
    const int both1 = count == 2 ? std::min(rows[0].x1, rows[1].x1) : 0;
    if (both1 <= both0) {
        std::fill(o, o + n, O::top());
        for (int i = 0; i < count; ++i) foldRow<T, O>(o + rows[i].x0, rows[i].src, rows[i].x1 - rows[i].x0);
        return;
    }
    std::fill(o, o + both0, O::top());
    std::fill(o + both1, o + n, O::top());
    for (int i = 0; i < 2; ++i) {
        const ShiftedRow<T>& r = rows[i];
        if (r.x0 < both0) foldRow<T, O>(o + r.x0, r.src, both0 - r.x0);
        if (r.x1 > both1) foldRow<T, O>(o + both1, r.src + (both1 - r.x0), r.x1 - both1);
    }
    innerRows2<T, O>(o + both0, rows[0].src + (both0 - rows[0].x0), rows[1].src + (both0 - rows[1].x0), both1 - both0);
}

template <class T>
void canonicalRow(const T* __restrict s, T* __restrict d, int n) {
    for (int x = 0; x < n; ++x) d[x] = canonical(s[x]);
}

// Row bands over the engine's workers: rows of one band are contiguous, so each pass's rows
// are whole vector loops; a band that throws is rethrown by parallelFor after the others ran.
template <class Body>
void forRows(int rows, int threads, const Body& body) {
    parallelFor(static_cast<std::size_t>(rows), threads, [&](std::size_t begin, std::size_t end) {
        for (int y = static_cast<int>(begin); y < static_cast<int>(end); ++y) body(y);
    });
}

// The passes of digital_line::accumulate on the host, into the accumulator acc_ (the output).
template <class T, class O>
class HostExecutor {
public:
    using Plane = cpu::Plane<T>;

    // Windows of at most this many points are a fold of their points (one pass over the
    // shifted rows) rather than van Herk's three passes and two scratch planes.
    static constexpr std::int64_t kShortWindow = 4;

    // acc: the output, W×H; its pixels are written by the first fold (or by finish()).
    HostExecutor(ImageView<T> acc, int W, int H, int padX, int padY, int threads)
        : W_(W), H_(H), padX_(padX), padY_(padY), threads_(threads), acc_(acc) {}

    Plane window(const Plane& F, Offset step, std::int64_t lo, std::int64_t hi, bool exact) {
        Plane out(F.width, F.height);
        if (hi - lo + 1 <= kShortWindow) {  // the points' inner, those outside F ignored (exact)
            forRows(F.height, threads_, [&](int y) {
                ShiftedRow<T> rows[kShortWindow];
                int count = 0;
                for (std::int64_t i = lo; i <= hi; ++i) {
                    const std::int64_t sy = y + i * step.dy, dx = i * step.dx;
                    if (sy < 0 || sy >= F.height) continue;
                    const int x0 = static_cast<int>(std::clamp<std::int64_t>(-dx, 0, F.width));
                    const int x1 = static_cast<int>(std::clamp<std::int64_t>(F.width - dx, x0, F.width));
                    if (x1 > x0) rows[count++] = {F.row(static_cast<int>(sy)) + dx + x0, x0, x1};
                }
                innerOfRows<T, O>(out.row(y), F.width, rows, count);
            });
            return out;
        }
        latticeWindow<T, O>(F.px.data(), out.px.data(), F.width, F.height, step, static_cast<int>(lo),
                            static_cast<int>(hi), windowScratch<T>(), exact, threads_);
        return out;
    }

    void foldWindow(const Plane& F, Offset step, std::int64_t lo, std::int64_t hi, bool exact, Offset s) {
        if (hi - lo + 1 <= kShortWindow) {  // fold the points: the same values, cut or not
            std::vector<Offset> points;
            for (std::int64_t i = lo; i <= hi; ++i)
                points.push_back({static_cast<int>(s.dx + i * step.dx), static_cast<int>(s.dy + i * step.dy)});
            fold(F, points);
            return;
        }
        // The two end runs of a level are often the same window of the same plane at two
        // shifts (63.4°, λ 251: two of 61 points): the last one is kept and read again.
        const WindowKey key{F.serial, step, lo, hi, exact};
        if (!(lastWindow_.width > 0 && lastKey_ == key)) {
            lastWindow_ = window(F, step, lo, hi, exact);
            lastKey_ = key;
        }
        fold(lastWindow_, {s});
    }

    Plane corner(const Plane& R, Offset u, Offset v) {
        Plane out(R.width, R.height);
        forRows(R.height, threads_, [&](int y) {
            ShiftedRow<T> rows[2];
            int count = 0;
            for (Offset s : {u, v}) {
                const int sy = y + s.dy;
                if (sy < 0 || sy >= R.height) continue;
                const int x0 = std::max(0, -s.dx), x1 = std::min(R.width, R.width - s.dx);
                if (x1 > x0) rows[count++] = {R.row(sy) + s.dx + x0, x0, x1};
            }
            innerOfRows<T, O>(out.row(y), R.width, rows, count);
        });
        return out;
    }

    // A row at a time, every shift, so that the accumulator's row stays in the cache; the
    // shifted rows that cover the whole row go four at a time (one load and store of the
    // accumulator for four rows), the rest one by one.
    void fold(const Plane& F, const std::vector<Offset>& shifts) {
        if (shifts.empty()) return;
        const bool fresh = fresh_;  // the first fold writes the accumulator instead of reading it
        forRows(H_, threads_, [&](int y) {
            T* a = acc_.row(y);
            bool started = !fresh;
            const T* full[4];
            int nFull = 0;
            for (const Offset& s : shifts) {
                const int sy = y + padY_ + s.dy;
                if (sy < 0 || sy >= F.height) continue;
                const int dx = padX_ + s.dx;
                const int x0 = std::max(0, -dx), x1 = std::min(W_, F.width - dx);
                if (x0 == 0 && x1 == W_) {
                    const T* r = F.row(sy) + dx;
                    if (!started) {
                        std::copy(r, r + W_, a);
                        started = true;
                        continue;
                    }
                    full[nFull++] = r;
                    if (nFull == 4) {
                        foldRows4<T, O>(a, full[0], full[1], full[2], full[3], W_);
                        nFull = 0;
                    }
                } else if (x1 > x0) {
                    if (!started) {
                        std::fill(a, a + W_, O::top());
                        started = true;
                    }
                    foldRow<T, O>(a + x0, F.row(sy) + dx + x0, x1 - x0);
                }
            }
            if (!started) std::fill(a, a + W_, O::top());
            for (int i = 0; i < nFull; ++i) foldRow<T, O>(a, full[i], W_);
        });
        fresh_ = false;
    }

    // The neutral value where no fold came (no piece).
    void finish() {
        if (fresh_) forRows(H_, threads_, [&](int y) { std::fill(acc_.row(y), acc_.row(y) + W_, O::top()); });
        fresh_ = false;
    }

private:
    struct WindowKey {
        std::uint64_t plane = 0;
        Offset step;
        std::int64_t lo = 0, hi = 0;
        bool exact = false;
        bool operator==(const WindowKey&) const = default;
    };
    int W_, H_, padX_, padY_, threads_;
    ImageView<T> acc_;
    bool fresh_ = true;
    Plane lastWindow_;  // the last long window foldWindow made, and what it is
    WindowKey lastKey_;
};

template <class T, class O>
void run(ImageView<const T> src, ImageView<T> dst, const std::vector<DigitalLinePiece>& pieces, int threads) {
    const int W = src.width, H = src.height;
    // A single run or a folded piece reads the source only, and the windows ignore the
    // border exactly; only the recursion's intermediate images need the padding.
    const digital_line::Padding pad = digital_line::paddingOf(pieces);
    Plane<T> F(W + 2 * pad.x, H + 2 * pad.y);
    forRows(F.height, threads, [&](int y) {
        T* f = F.row(y);
        const int sy = y - pad.y;
        if (sy < 0 || sy >= H) {
            std::fill(f, f + F.width, O::top());
            return;
        }
        const T* s = src.row(sy);
        std::fill(f, f + pad.x, O::top());
        canonicalRow<T>(s, f + pad.x, W);
        std::fill(f + pad.x + W, f + F.width, O::top());
    });
    HostExecutor<T, O> ex(dst, W, H, pad.x, pad.y, threads);  // folds straight into the output
    for (const DigitalLinePiece& p : pieces) digital_line::accumulate(ex, F, p);
    ex.finish();
}

}  // namespace

template <class T>
void digitalLineErodeDilateIsa(bool erode, ImageView<const T> src, ImageView<T> dst, const LineKernel& kernel,
                           int threads) {
    std::vector<DigitalLinePiece> pieces = digital_line::stagePieces(erode, kernel, src.width, src.height);
    // One run of collinear points across the rows (periodic lines): one exact window from the
    // source to the output, no padded planes.
    Offset A;
    std::int64_t lo = 0, hi = 0;
    if (pieces.size() == 1 && collinearRun(pieces.front(), &A, &lo, &hi) && A.dy != 0) {
        if (erode)
            latticeWindowDirect<T, Order<T, true>>(src, dst, A, static_cast<int>(lo), static_cast<int>(hi),
                                                   windowScratch<T>(), threads);
        else
            latticeWindowDirect<T, Order<T, false>>(src, dst, A, static_cast<int>(lo), static_cast<int>(hi),
                                                    windowScratch<T>(), threads);
        return;
    }
    // Runs along the rows would make the windows' passes sequential; on the transposed image
    // they run down the columns, a row of chains at a time.
    const bool alongRows = !pieces.empty() && digital_line::normalized(pieces.front()).major.dy == 0;
    if (alongRows && src.width > 1 && src.height > 1) {
        Image<T> srcT(src.height, src.width), dstT(src.height, src.width);
        transposeImage<T>(src, srcT.view(), threads);
        for (DigitalLinePiece& p : pieces) {
            for (Offset* o : {&p.base, &p.major, &p.minor}) *o = {o->dy, o->dx};
        }
        if (erode) run<T, Order<T, true>>(srcT.cview(), dstT.view(), pieces, threads);
        else run<T, Order<T, false>>(srcT.cview(), dstT.view(), pieces, threads);
        transposeImage<T>(dstT.cview(), dst, threads);
        return;
    }
    if (erode) run<T, Order<T, true>>(src, dst, pieces, threads);
    else run<T, Order<T, false>>(src, dst, pieces, threads);
}

template void digitalLineErodeDilateIsa<std::uint8_t>(bool, ImageView<const std::uint8_t>, ImageView<std::uint8_t>,
                                                   const LineKernel&, int);
template void digitalLineErodeDilateIsa<std::uint16_t>(bool, ImageView<const std::uint16_t>, ImageView<std::uint16_t>,
                                                    const LineKernel&, int);
template void digitalLineErodeDilateIsa<float>(bool, ImageView<const float>, ImageView<float>, const LineKernel&,
                                            int);

}  // namespace LINESCOPE_ISA
}  // namespace linescope::cpu
