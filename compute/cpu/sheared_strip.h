// A strip of the sheared kernel: S parallel lines ("lanes") whose pixels at one major
// position form one row of S values, run through an operator as a stream of rows.
#pragma once

#include "compute/cpu/window_kernel.h"
#include "compute/cpu/window_stream.h"
#include "compute/line_geometry.h"
#include "compute/line_morph.h"

#include <algorithm>
#include <cstdint>

// Compiled into each instruction set's kernels: the inline namespace keeps their
// copies apart, so the linker never hands an AVX-512 copy to a generic caller.
#ifndef LINESCOPE_ISA
#define LINESCOPE_ISA generic
#endif
namespace linescope::cpu {
inline namespace LINESCOPE_ISA {

// Which lanes [lo, hi) of a strip starting at line u0 are inside the image at row t.
struct StripGeometry {
    int width;
    int lanes;
    std::int64_t u0;
    const LineFamily* family;
    void validLanes(int t, int& lo, int& hi) const {
        const std::int64_t x0 = u0 + family->off(t);
        lo = static_cast<int>(std::clamp<std::int64_t>(-x0, 0, lanes));
        hi = static_cast<int>(std::clamp<std::int64_t>(width - x0, 0, lanes));
    }
};

// Rows a strip's stages take at a time: enough to amortize each register's setup over the
// batch, few enough that a batch's ring rows stay in L1.
inline constexpr int kBatchRows = 16;

// Rows of ring each of a strip's (at most two) stages needs, for strips of up to `rows` rows.
template <class T, int S>
int stripRingRows(int rows, Segment seg) {
    return RowRing<T, S>::rowsFor(rows, seg.a + seg.b + 1, kBatchRows);
}

// `op` down a strip of `rows` rows as one stage (erosion, dilation) or two chained ones
// (opening, closing), with window kernel K.
// load(i, row, fill) writes input row i, with `fill` (neutral for the first stage) in lanes
// outside the image; mask(i, row, fill) resets those lanes of an intermediate row to the
// second stage's neutral value; target(i) gives where finished row i may be written
// whole (its final place) or nullptr, and deliver(i, row) takes the other finished rows, all
// S lanes, in increasing i. ring1 and ring2 hold stripRingRows() rows of S lanes each.
template <class T, int S, template <class, class, int> class K, class Load, class Mask, class Target, class Deliver>
void runStripStages(MorphOp op, T* ring1, T* ring2, int rows, int a, int b, Load&& load, Mask&& mask, Target&& target,
                    Deliver&& deliver) {
    using Asc = Order<T, true>;
    using Desc = Order<T, false>;
    constexpr int B = kBatchRows;
    const int ringRows = RowRing<T, S>::rowsFor(rows, a + b + 1, B);
    alignas(64) T outBuf[B * S];
    bool inPlace[B];  // output row written straight to its target
    int outBase = 0;
    auto buffered = [&](int t) { return outBuf + static_cast<std::ptrdiff_t>(t - outBase) * S; };
    auto toOut = [&](int t) {
        T* p = target(t);
        inPlace[t - outBase] = p != nullptr;
        return p ? p : buffered(t);
    };
    auto handOn = [&](int t1) {
        for (int t = outBase; t < t1; ++t)
            if (!inPlace[t - outBase]) deliver(t, static_cast<const T*>(buffered(t)));
    };
    // Runs `last` over input rows up to e1 and hands its outputs on.
    auto finish = [&](auto& last, int e1) {
        outBase = last.nextOut();
        last.run(e1, toOut);
        handOn(last.nextOut());
    };
    auto drainOut = [&](auto& last) {
        for (;;) {
            outBase = last.nextOut();
            if (last.drain(B, toOut) == 0) break;
            handOn(last.nextOut());
        }
    };
    auto single = [&](auto& st, int p, int q, T fill) {
        st.begin(ring1, ringRows, rows, p, q);
        for (int e0 = 0; e0 < rows; e0 += B) {
            const int e1 = std::min(rows, e0 + B);
            for (int e = e0; e < e1; ++e) load(e, st.row(e), fill);
            finish(st, e1);
        }
        drainOut(st);
    };
    auto chained = [&](auto& s1, auto& s2, int p, int q, T fill1, T fill2) {
        s1.begin(ring1, ringRows, rows, p, q);
        s2.begin(ring2, ringRows, rows, q, p);  // the second half's window is the first's reflected
        auto toStage2 = [&](int t) { return s2.row(t); };
        auto feed = [&](int t0) {  // s1 has written rows [t0, s1.nextOut()) into s2's ring
            for (int t = t0; t < s1.nextOut(); ++t) mask(t, s2.row(t), fill2);
            finish(s2, s1.nextOut());
        };
        for (int e0 = 0; e0 < rows; e0 += B) {
            const int e1 = std::min(rows, e0 + B);
            for (int e = e0; e < e1; ++e) load(e, s1.row(e), fill1);
            const int t0 = s1.nextOut();
            s1.run(e1, toStage2);
            feed(t0);
        }
        for (;;) {
            const int t0 = s1.nextOut();
            if (s1.drain(B, toStage2) == 0) break;
            feed(t0);
        }
        drainOut(s2);
    };
    switch (op) {
    case MorphOp::Erode: { K<T, Asc, S> st; single(st, a, b, Asc::top()); break; }
    case MorphOp::Dilate: { K<T, Desc, S> st; single(st, b, a, Desc::top()); break; }
    case MorphOp::Open:
    case MorphOp::TopHat: { K<T, Asc, S> s1; K<T, Desc, S> s2; chained(s1, s2, a, b, Asc::top(), Desc::top()); break; }
    case MorphOp::Close: { K<T, Desc, S> s1; K<T, Asc, S> s2; chained(s1, s2, b, a, Desc::top(), Asc::top()); break; }
    }
}

// runStripStages with the kernel that `kernel` picks for this window length.
template <class T, int S, class Load, class Mask, class Target, class Deliver>
void runStrip(MorphOp op, WindowKernel kernel, T* ring1, T* ring2, int rows, int a, int b, Load&& load, Mask&& mask,
              Target&& target, Deliver&& deliver) {
    if (usesDirectKernel(kernel, a + b + 1))
        runStripStages<T, S, DirectStage>(op, ring1, ring2, rows, a, b, load, mask, target, deliver);
    else
        runStripStages<T, S, VanHerkStage>(op, ring1, ring2, rows, a, b, load, mask, target, deliver);
}

}  // namespace LINESCOPE_ISA
}  // namespace linescope::cpu
