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

#include <cstdint>
#include <type_traits>

namespace linescope::cpu {

// Running results over part of the angle set, in image layout.
template <class T>
struct PartialSweep {
    Image<T> sup, inf;
    Image<std::uint16_t> arg;
    bool started = false;
};

// Folds `other` into `into`: the extremes, and the smallest k reaching the one that
// orients (ties go to the smaller index, whichever part holds it), so parts may be merged
// in any order.
template <class T>
void mergeInto(PartialSweep<T>& into, const PartialSweep<T>& other, bool bySup, int threads) {
    if (!other.started) return;
    if (!into.started) {
        into.sup = other.sup;
        into.inf = other.inf;
        into.arg = other.arg;
        into.started = true;
        return;
    }
    const int W = into.sup.width();
    parallelFor(static_cast<std::size_t>(into.sup.height()), threads, [&](std::size_t y0, std::size_t y1) {
        for (int y = static_cast<int>(y0); y < static_cast<int>(y1); ++y)
            for (int x = 0; x < W; ++x) {
                T& s = into.sup.at(x, y);
                T& i = into.inf.at(x, y);
                std::uint16_t& a = into.arg.at(x, y);
                const T s2 = other.sup.at(x, y), i2 = other.inf.at(x, y);
                const std::uint16_t a2 = other.arg.at(x, y);
                const bool takeOther = bySup ? (s < s2 || (s == s2 && a2 < a)) : (i2 < i || (i2 == i && a2 < a));
                if (takeOther) a = a2;
                if (s < s2) s = s2;
                if (i2 < i) i = i2;
            }
    });
}

// Angles folded one at a time in increasing k (the kernel keeps the first k on ties, so a
// run must not go back). Flat (x-major) angles run on the transposed image into transposed
// planes, turned back once by finish(), so the image is transposed once per run, not twice
// per angle.
template <class T>
class ShearedRun {
public:
    ShearedRun(ImageView<const T> src, ImageView<const T> srcT, const SweepRequest& req, int threads, bool bySup)
        : src_(src), srcT_(srcT), req_(req), seg_(segmentOf(req.length)), threads_(threads), bySup_(bySup) {}

    // Folds angle k (greater than every k before) and returns its term of the spectrum.
    SpectrumTerm step(int k) {
        const int W = src_.width, H = src_.height;
        LineFamily fam = lineFamily(req_.angles.angle(k), W, H);
        const auto kk = static_cast<std::uint16_t>(k);
        if (fam.yMajor) {
            if (!upright_.started) {
                upright_ = {Image<T>(W, H), Image<T>(W, H), Image<std::uint16_t>(W, H), true};
                uprightPlanes_ = {upright_.sup.view(), upright_.inf.view(), upright_.arg.view(), false};
            }
            return shearedSweepStep<T>(req_.op, src_, fam, seg_, threads_, uprightPlanes_, kk, bySup_);
        }
        if (!flat_.started) {
            flat_ = {Image<T>(H, W), Image<T>(H, W), Image<std::uint16_t>(H, W), true};
            flatPlanes_ = {flat_.sup.view(), flat_.inf.view(), flat_.arg.view(), false};
        }
        fam.yMajor = true;  // the x-major family of the image is y-major on its transpose
        fam.width = H;
        fam.height = W;
        return shearedSweepStep<T>(req_.op, srcT_, fam, seg_, threads_, flatPlanes_, kk, bySup_);
    }

    // The run's results in image layout (the flat angles' planes turned back and merged).
    PartialSweep<T> finish(int mergeThreads) {
        const int W = src_.width, H = src_.height;
        if (flat_.started) {
            PartialSweep<T> back{Image<T>(W, H), Image<T>(W, H), Image<std::uint16_t>(W, H), true};
            transposeImage<T>(flat_.sup.cview(), back.sup.view(), mergeThreads);
            transposeImage<T>(flat_.inf.cview(), back.inf.view(), mergeThreads);
            transposeImage<std::uint16_t>(flat_.arg.cview(), back.arg.view(), mergeThreads);
            mergeInto(upright_, back, bySup_, mergeThreads);
            flat_ = {};
        }
        return std::move(upright_);
    }

private:
    ImageView<const T> src_, srcT_;
    SweepRequest req_;
    Segment seg_;
    int threads_;
    bool bySup_;
    PartialSweep<T> upright_, flat_;
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
    Image<T> s(W, sup.height());
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
