// Sliding-window minimum or maximum down the S lanes of a strip, a batch of rows at a time.
//
// A stage is fed the rows 0 … n−1 of a strip in order and gives back
// E[t] = inner(A[t−p … t+q] ∩ [0, n)) as soon as row t+q has arrived (rows outside [0, n)
// are neutral, as design.md §1 ignores positions off the line). Chaining two stages runs an
// opening or closing as one pass over the strip with only a small ring of rows in cache:
// each input row is read once and each output row written once.
//
// A batch is worked one register of lanes at a time over all its rows, so that the running
// values (van Herk's prefix, the direct kernel's window) stay in registers; only the ring
// rows and the outputs touch memory.
//
// Two kernels with the same interface:
// - VanHerkStage: van Herk/Gil-Werman over blocks of L = p+q+1 rows, 3 comparisons a lane
//   whatever L; a block's suffix minima are computed in place when its last row arrives.
// - DirectStage: the window's rows reduced straight from the ring, L−1 comparisons a lane
//   and no block bookkeeping: cheaper for short windows (kDirectMaxWindow, window_kernel.h).
//
// The caller writes input rows [e0, e1) at row(e) (at most kMaxBatchRows of them), then calls
// run(e1, sink), and after row n−1 calls drain(maxRows, sink) until it returns 0. Both call
// sink(t) once for every output row t that becomes complete, in increasing t, for the
// S-lane row to write it to, before writing any.
#pragma once

#include "compute/cpu/pixel_order.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>

#ifndef LINESCOPE_ISA
#define LINESCOPE_ISA generic
#endif
namespace linescope::cpu {
inline namespace LINESCOPE_ISA {  // one copy per instruction set (see pixel_order.h)

// The widest vector register of the instruction set this copy is compiled for; a lane
// chunk is one such register (GCC/Clang vector extensions, so each ISA gets its own).
#if defined(__AVX512BW__)
inline constexpr int kVectorBytes = 64;
#elif defined(__AVX2__)
inline constexpr int kVectorBytes = 32;
#else
inline constexpr int kVectorBytes = 16;
#endif

template <class T>
struct LaneVector {
    typedef T V __attribute__((vector_size(kVectorBytes)));
    static constexpr int C = kVectorBytes / static_cast<int>(sizeof(T));  // lanes in a register

    [[gnu::always_inline]] static V load(const T* p) {
        V v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    [[gnu::always_inline]] static void store(T* p, V v) { std::memcpy(p, &v, sizeof v); }
    // Order::inner on every lane; equal values are equal bits (pixel_rules.h), so the tie
    // rule does not matter.
    template <class O>
    [[gnu::always_inline]] static V inner(V x, V y) {
        if constexpr (O::below(T(0), T(1))) return y < x ? y : x;
        else return x < y ? y : x;
    }
};

// A row of S lanes copied a register at a time (no library call for a few vector moves).
template <class T, int S>
[[gnu::always_inline]] inline void copyLanes(T* d, const T* s) {
    using LV = LaneVector<T>;
    for (int j = 0; j < S; j += LV::C) LV::store(d + j, LV::load(s + j));
}

// Rows in one batch at most: the pointer tables of a batch live on the stack.
inline constexpr int kMaxBatchRows = 64;

// Ring geometry shared by both kernels: a power of two of rows, so that a row's slot is a mask.
template <class T, int S>
class RowRing {
public:
    // Rows a ring must hold for a window of L rows over n rows fed `batch` rows at a time:
    // a batch's rows plus the L−1 before them that its windows reach (never more than n).
    static int rowsFor(int n, int L, int batch) {
        const long long live = std::min<long long>(static_cast<long long>(L) + batch, n);
        return static_cast<int>(std::bit_ceil(static_cast<unsigned long long>(std::max(1LL, live))));
    }
    void attach(T* base, int rows) {
        base_ = base;
        mask_ = rows - 1;
    }
    T* row(int r) const { return base_ + static_cast<std::ptrdiff_t>(r & mask_) * S; }

private:
    T* base_ = nullptr;
    int mask_ = 0;
};

template <class T, class O, int S>
class VanHerkStage {
    using LV = LaneVector<T>;
    using V = typename LV::V;
    static constexpr int C = LV::C;
    static_assert(S % C == 0, "a strip is a whole number of registers");

public:
    // Blocks start at rows ≡ −p (mod L): the window of row t then starts in the block of
    // t−p and ends in the next one (or is exactly one block), as van Herk requires.
    void begin(T* ring, int ringRows, int n, int p, int q) {
        n_ = n;
        p_ = p;
        q_ = q;
        L_ = p + q + 1;
        ring_.attach(ring, ringRows);
        e_ = 0;
        phase_ = p % L_;
        next_ = 0;
    }
    T* row(int e) const { return ring_.row(e); }

    template <class Sink>
    void run(int e1, Sink&& sink) {
        const int e0 = e_;
        T* outs[kMaxBatchRows];
        for (int e = std::max(e0, q_); e < e1; ++e) outs[e - e0] = sink(next_++);
        for (int j = 0; j < S; j += C) {
            V g = LV::load(g_ + j);
            int ph = phase_;
            for (int e = e0; e < e1; ++e) {
                const V a = LV::load(ring_.row(e) + j);
                g = ph == 0 || e == 0 ? a : LV::template inner<O>(g, a);
                // The window of t = e−q is complete (block 0 ends at row q, so never before);
                // it is this block, or starts in the previous one, whose rows hold suffix
                // minima by now (rows before 0 are neutral: the suffix from row 0 stands in).
                if (e >= q_) {
                    const V o = ph == L_ - 1 ? g : LV::template inner<O>(LV::load(ring_.row(std::max(e - L_ + 1, 0)) + j), g);
                    LV::store(outs[e - e0] + j, o);
                }
                if (ph == L_ - 1) suffixInPlace(j, std::max(e - L_ + 1, 0), e, a);
                if (++ph == L_) ph = 0;
            }
            LV::store(g_ + j, g);
        }
        phase_ = static_cast<int>((static_cast<long long>(phase_) + (e1 - e0)) % L_);
        e_ = e1;
    }

    // After row n−1, at most maxRows (≤ kMaxBatchRows) more outputs a call; returns how
    // many (0: done). The last block ends early, and the windows of rows past n−1−q find
    // neutral rows beyond it: a window starting in the last block is its suffix; one
    // starting earlier also takes the last block's prefix, which stopped at row n−1.
    template <class Sink>
    int drain(int maxRows, Sink&& sink) {
        const int lastPhase = phase_ == 0 ? L_ - 1 : phase_ - 1;
        const int lastStart = n_ - 1 - lastPhase;
        if (e_ == n_) {  // first call: finish the last block's suffixes
            if (lastPhase != L_ - 1)
                for (int j = 0; j < S; j += C)
                    suffixInPlace(j, std::max(lastStart, 0), n_ - 1, LV::load(ring_.row(n_ - 1) + j));
            ++e_;
        }
        const int t0 = next_, t1 = std::min(n_, t0 + maxRows);
        T* outs[kMaxBatchRows];
        for (int t = t0; t < t1; ++t) outs[t - t0] = sink(t);
        for (int j = 0; j < S; j += C) {
            const V g = LV::load(g_ + j);
            for (int t = t0; t < t1; ++t) {
                const int s = t - p_;
                const V h = LV::load(ring_.row(std::max(s, 0)) + j);
                LV::store(outs[t - t0] + j, s >= lastStart ? h : LV::template inner<O>(h, g));
            }
        }
        next_ = t1;
        return t1 - t0;
    }
    int nextOut() const { return next_; }

private:
    // Lanes [j, j+C) of rows [r0, r1] become their suffix minima within [r0, r1]; `last`
    // holds row r1's lanes already.
    [[gnu::always_inline]] void suffixInPlace(int j, int r0, int r1, V last) {
        V h = last;
        for (int r = r1 - 1; r >= r0; --r) {
            T* x = ring_.row(r) + j;
            h = LV::template inner<O>(h, LV::load(x));
            LV::store(x, h);
        }
    }

    RowRing<T, S> ring_;
    int n_ = 0, p_ = 0, q_ = 0, L_ = 1;
    int e_ = 0;      // the next input row
    int phase_ = 0;  // (e_ + p) mod L: e_'s position in its block
    int next_ = 0;   // the next output row
    alignas(64) T g_[S];  // prefix of the current block up to the last row run
};

template <class T, class O, int S>
class DirectStage {
    using LV = LaneVector<T>;
    using V = typename LV::V;
    static constexpr int C = LV::C;

public:
    void begin(T* ring, int ringRows, int n, int p, int q) {
        n_ = n;
        p_ = p;
        q_ = q;
        ring_.attach(ring, ringRows);
        e_ = 0;
        next_ = 0;
    }
    T* row(int e) const { return ring_.row(e); }

    template <class Sink>
    void run(int e1, Sink&& sink) {
        const int e0 = e_;
        const int first = std::max(e0, q_);  // rows before q complete no window
        T* outs[kMaxBatchRows];
        for (int e = first; e < e1; ++e) outs[e - e0] = sink(next_++);
        for (int e = first; e < e1; ++e) windowInner(outs[e - e0], std::max(e - q_ - p_, 0), e);
        e_ = e1;
    }
    template <class Sink>
    int drain(int maxRows, Sink&& sink) {
        const int t0 = next_, t1 = std::min(n_, t0 + maxRows);
        for (; next_ < t1; ++next_) windowInner(sink(next_), std::max(next_ - p_, 0), n_ - 1);
        return t1 - t0;
    }
    int nextOut() const { return next_; }

private:
    // inner of rows [r0, r1] into out, a register of lanes at a time.
    void windowInner(T* out, int r0, int r1) const {
        for (int j = 0; j < S; j += C) {
            V acc = LV::load(ring_.row(r1) + j);
            for (int r = r1 - 1; r >= r0; --r) acc = LV::template inner<O>(acc, LV::load(ring_.row(r) + j));
            LV::store(out + j, acc);
        }
    }

    RowRing<T, S> ring_;
    int n_ = 0, p_ = 0, q_ = 0;
    int e_ = 0, next_ = 0;
};

}  // namespace LINESCOPE_ISA
}  // namespace linescope::cpu
