// Running sweep results over part of an angle set, shared by the one-call sweep (sweep.cpp)
// and the sweep computed a few angles at a time (sweep_in_progress.cpp), so that both fold
// angles with the same kernel and merge parts with the same tie rule: they agree bit for bit.
#pragma once

#include "compute/cpu/sheared_line_morph.h"
#include "compute/cpu/transpose.h"
#include "compute/image.h"
#include "compute/line_geometry.h"
#include "compute/sweep.h"
#include "compute/thread_pool.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace linescope::cpu {

// Running results over part of the angle set, in image layout.
template <class T>
struct PartialSweep {
    Image<T> sup, inf;
    Image<std::uint16_t> arg;
    bool started = false;
};

// Planes for a run, left unwritten: the first angle of a run writes every pixel, since
// every pixel lies on one line of each family.
template <class T>
PartialSweep<T> unwrittenPlanes(int width, int height) {
    return {Image<T>::unwritten(width, height), Image<T>::unwritten(width, height),
            Image<std::uint16_t>::unwritten(width, height), true};
}

// One row of mergeInto: the extremes, and the smallest k reaching the one that orients.
// Separate restrict pointers and no branch, so that the compiler vectorizes it.
template <class T, bool bySup>
inline void mergeRow(T* __restrict s, T* __restrict i, std::uint16_t* __restrict a, const T* __restrict s2,
                     const T* __restrict i2, const std::uint16_t* __restrict a2, int width) {
    for (int x = 0; x < width; ++x) {
        const T sv = s[x], iv = i[x], sw = s2[x], iw = i2[x];
        const std::uint16_t av = a[x], aw = a2[x];
        const bool takeOther = bySup ? (sv < sw || (sv == sw && aw < av)) : (iw < iv || (iw == iv && aw < av));
        a[x] = takeOther ? aw : av;
        s[x] = sv < sw ? sw : sv;
        i[x] = iw < iv ? iw : iv;
    }
}

template <class T>
inline void mergeRows(bool bySup, T* s, T* i, std::uint16_t* a, const T* s2, const T* i2, const std::uint16_t* a2,
                      int width) {
    if (bySup) mergeRow<T, true>(s, i, a, s2, i2, a2, width);
    else mergeRow<T, false>(s, i, a, s2, i2, a2, width);
}

// Folds `other` into `into`: the extremes, and the smallest k reaching the one that
// orients (ties go to the smaller index, whichever part holds it), so parts may be merged
// in any order.
template <class T>
void mergeInto(PartialSweep<T>& into, PartialSweep<T>&& other, bool bySup, int threads) {
    if (!other.started) return;
    if (!into.started) {
        into = std::move(other);
        return;
    }
    const int W = into.sup.width();
    parallelFor(static_cast<std::size_t>(into.sup.height()), threads, [&](std::size_t y0, std::size_t y1) {
        for (int y = static_cast<int>(y0); y < static_cast<int>(y1); ++y)
            mergeRows<T>(bySup, into.sup.view().row(y), into.inf.view().row(y), into.arg.view().row(y),
                         other.sup.view().row(y), other.inf.view().row(y), other.arg.view().row(y), W);
    });
}

// mergeInto for `flat`, the planes of the transposed image: read a square of 64-byte lines at
// a time, turned in a small buffer, so that neither image is read a column at a time.
template <class T>
void mergeTransposedInto(PartialSweep<T>& into, const PartialSweep<T>& flat, bool bySup, int threads) {
    constexpr int B = 64;  // a square of B × B pixels: whole lines of the u16 planes
    const int W = into.sup.width(), H = into.sup.height();
    const std::size_t bands = static_cast<std::size_t>((H + B - 1) / B);
    parallelFor(bands, threads, [&](std::size_t begin, std::size_t end) {
        alignas(64) T s2[B * B];
        alignas(64) T i2[B * B];
        alignas(64) std::uint16_t a2[B * B];
        for (std::size_t band = begin; band < end; ++band) {
            const int y0 = static_cast<int>(band) * B, ny = std::min(B, H - y0);
            for (int x0 = 0; x0 < W; x0 += B) {
                const int nx = std::min(B, W - x0);
                // Pixel (x0 + c, y0 + r) of the image is (y0 + r, x0 + c) of the flat planes.
                transposeTile(flat.sup.view().row(x0) + y0, flat.sup.width(), s2, B, nx, ny);
                transposeTile(flat.inf.view().row(x0) + y0, flat.inf.width(), i2, B, nx, ny);
                transposeTile(flat.arg.view().row(x0) + y0, flat.arg.width(), a2, B, nx, ny);
                for (int r = 0; r < ny; ++r)
                    mergeRows<T>(bySup, into.sup.view().row(y0 + r) + x0, into.inf.view().row(y0 + r) + x0,
                                 into.arg.view().row(y0 + r) + x0, s2 + r * B, i2 + r * B, a2 + r * B, nx);
            }
        }
    });
}

// The planes of the transposed image turned back into image layout.
template <class T>
PartialSweep<T> transposedBack(const PartialSweep<T>& flat, int threads) {
    const int W = flat.sup.height(), H = flat.sup.width();
    PartialSweep<T> back = unwrittenPlanes<T>(W, H);
    transposeImage<T>(flat.sup.cview(), back.sup.view(), threads);
    transposeImage<T>(flat.inf.cview(), back.inf.view(), threads);
    transposeImage<std::uint16_t>(flat.arg.cview(), back.arg.view(), threads);
    return back;
}

// A run's planes: those of the upright angles in image layout, those of the flat angles on
// the transposed image.
template <class T>
struct RunPlanes {
    PartialSweep<T> upright, flat;
};

// Merges every part's planes, each layout in its own, then the flat ones turned into image
// layout once.
template <class T>
PartialSweep<T> combine(std::vector<RunPlanes<T>>&& parts, bool bySup, int threads) {
    PartialSweep<T> upright, flat;
    for (auto& p : parts) {
        mergeInto(upright, std::move(p.upright), bySup, threads);
        mergeInto(flat, std::move(p.flat), bySup, threads);
    }
    if (!flat.started) return upright;
    if (!upright.started) return transposedBack(flat, threads);
    mergeTransposedInto(upright, flat, bySup, threads);
    return upright;
}

// Angles folded one at a time, in increasing k within each layout (the kernel keeps the
// first k on ties, so a layout's planes must not go back). Flat (x-major) angles run on the
// transposed image into transposed planes, merged into image layout once at the end, so the
// image is transposed once per run, not twice per angle.
template <class T>
class ShearedRun {
public:
    ShearedRun(ImageView<const T> src, ImageView<const T> srcT, const SweepRequest& req, int threads, bool bySup)
        : src_(src), srcT_(srcT), req_(req), seg_(segmentOf(req.length)), threads_(threads), bySup_(bySup) {}

    // Folds angle k (greater than every k before it of its layout) and returns its term of
    // the spectrum.
    SpectrumTerm step(int k) {
        const int W = src_.width, H = src_.height;
        LineFamily fam = lineFamily(req_.angles.angle(k), W, H);
        const auto kk = static_cast<std::uint16_t>(k);
        if (fam.yMajor) {
            if (!planes_.upright.started) {
                planes_.upright = unwrittenPlanes<T>(W, H);
                uprightPlanes_ = {planes_.upright.sup.view(), planes_.upright.inf.view(), planes_.upright.arg.view(), false};
            }
            return shearedSweepStep<T>(req_.op, src_, fam, seg_, threads_, uprightPlanes_, kk, bySup_);
        }
        if (!planes_.flat.started) {
            planes_.flat = unwrittenPlanes<T>(H, W);
            flatPlanes_ = {planes_.flat.sup.view(), planes_.flat.inf.view(), planes_.flat.arg.view(), false};
        }
        fam.yMajor = true;  // the x-major family of the image is y-major on its transpose
        fam.width = H;
        fam.height = W;
        return shearedSweepStep<T>(req_.op, srcT_, fam, seg_, threads_, flatPlanes_, kk, bySup_);
    }

    // Ends the run: its planes in their two layouts (see combine()).
    RunPlanes<T> take() {
        RunPlanes<T> p = std::move(planes_);
        planes_ = {};
        uprightPlanes_ = {};
        flatPlanes_ = {};
        return p;
    }

    // Ends the run: its results in image layout.
    PartialSweep<T> finish(int mergeThreads) {
        std::vector<RunPlanes<T>> parts;
        parts.push_back(take());
        return combine(std::move(parts), bySup_, mergeThreads);
    }

private:
    ImageView<const T> src_, srcT_;
    SweepRequest req_;
    Segment seg_;
    int threads_;
    bool bySup_;
    RunPlanes<T> planes_;
    SweepPlanes<T> uprightPlanes_, flatPlanes_;
};

// Writes Σ op_k of angle k into the result's spectrum.
template <class T>
void setSpectrum(SweepResult<T>& r, int k, const SpectrumTerm& t) {
    const auto kz = static_cast<std::size_t>(k);
    if constexpr (std::is_floating_point_v<T>) {
        r.spectrum[kz] = t.sum;
    } else {
        r.spectrumExact[kz] = t.exact;
        r.spectrum[kz] = static_cast<double>(t.exact);
    }
}

// strength = sup − inf, row by row on `threads` workers.
template <class T>
Image<T> strengthOf(const Image<T>& sup, const Image<T>& inf, int threads) {
    const int W = sup.width();
    Image<T> s = Image<T>::unwritten(W, sup.height());
    parallelFor(static_cast<std::size_t>(sup.height()), threads, [&](std::size_t y0, std::size_t y1) {
        for (int y = static_cast<int>(y0); y < static_cast<int>(y1); ++y) {
            const T* a = sup.view().row(y);
            const T* b = inf.view().row(y);
            T* d = s.view().row(y);
            for (int x = 0; x < W; ++x) d[x] = static_cast<T>(a[x] - b[x]);
        }
    });
    return s;
}

}  // namespace linescope::cpu
