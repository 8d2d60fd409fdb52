// One-dimensional line operators on a padded signal, one line at a time.
//
// Every operator of design.md §1 on a line f[0..n-1] is a sliding-window operator over
// the padded signal P = top×padL, f, top×padR (length N = n + padL + padR), whose windows
// are all w = padL + padR + 1 consecutive samples:
//   erosion  (Ascending,  pads a,b): ε(c) = min P[c .. c+w-1]
//   dilation (Descending, pads b,a): δ(c) = max P[c .. c+w-1]
//   opening  (Ascending,  pads a,b): γ(c) = max over windows of P containing c+a of their min
//   closing  (Descending, pads b,a): φ(c) = the same in the reversed order, at c+b
// Padding with `top` never changes a window's inner value, and because exactly padL and
// padR samples are added, the windows are exactly those centred on a pixel of the line:
// windows that hang further over the border (which the definition excludes) do not exist.
#pragma once

#include "compute/cpu/pixel_order.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace linescope::cpu {

// van Herk/Gil-Werman: E[s] = inner(P[s .. s+w-1]) for s = 0 .. N-w, 3 comparisons a sample
// whatever w. g and h are scratch of N samples.
template <class T, class O>
void vanHerkInner(const T* P, std::size_t N, std::size_t w, T* E, T* g, T* h) {
    if (N < w) return;
    for (std::size_t i = 0; i < N; ++i) g[i] = (i % w == 0) ? P[i] : O::inner(g[i - 1], P[i]);
    for (std::size_t i = N; i-- > 0;)
        h[i] = (i % w == w - 1 || i == N - 1) ? P[i] : O::inner(h[i + 1], P[i]);
    for (std::size_t s = 0; s + w <= N; ++s) E[s] = O::inner(h[s], g[s + w - 1]);
}

// A bounded ring of (value, position) pairs: the FIFO of Bartovsky et al. Its capacity is a
// power of two ≥ w + 1 so that indexing is a mask, as in Karas et al.'s GPU version.
template <class T>
class MonotoneFifo {
public:
    void reset(std::size_t w) {
        std::size_t cap = 2;
        while (cap < w + 1) cap <<= 1;
        if (values_.size() < cap) { values_.resize(cap); positions_.resize(cap); }
        mask_ = cap - 1;
        head_ = tail_ = 0;
    }
    bool empty() const { return head_ == tail_; }
    T frontValue() const { return values_[head_ & mask_]; }
    std::ptrdiff_t frontPosition() const { return positions_[head_ & mask_]; }
    T backValue() const { return values_[(tail_ - 1) & mask_]; }
    void popFront() { ++head_; }
    void popBack() { --tail_; }
    void pushBack(T v, std::ptrdiff_t p) {
        values_[tail_ & mask_] = v;
        positions_[tail_ & mask_] = p;
        ++tail_;
    }

private:
    std::vector<T> values_;
    std::vector<std::ptrdiff_t> positions_;
    std::size_t mask_ = 0, head_ = 0, tail_ = 0;
};

// Bartovsky et al.'s streaming opening: the signal is read once in order and the output
// follows the input with a fixed latency of w-1 samples. One FIFO keeps the candidates for
// the inner value of the current window (increasing), the other the candidates for the
// outer value over the windows that cover the output sample (decreasing); each holds at
// most w entries. out[i] for i in [0, N) is the opening at padded position i.
template <class T, class O>
void fifoOpening(const T* P, std::size_t N, std::size_t w, T* out, MonotoneFifo<T>& innerQ,
                 MonotoneFifo<T>& outerQ) {
    if (N < w) return;
    innerQ.reset(w);
    outerQ.reset(w);
    const auto W = static_cast<std::ptrdiff_t>(w);
    const auto last = static_cast<std::ptrdiff_t>(N - w);  // the last window start
    for (std::ptrdiff_t j = 0; j < static_cast<std::ptrdiff_t>(N) + W - 1; ++j) {
        if (j < static_cast<std::ptrdiff_t>(N)) {
            const T x = P[j];
            while (!innerQ.empty() && !O::below(innerQ.backValue(), x)) innerQ.popBack();
            innerQ.pushBack(x, j);
            if (innerQ.frontPosition() <= j - W) innerQ.popFront();
        }
        const std::ptrdiff_t s = j - W + 1;  // the window [s, j] is complete
        if (s < 0) continue;
        if (s <= last) {
            const T e = innerQ.frontValue();
            while (!outerQ.empty() && !O::below(e, outerQ.backValue())) outerQ.popBack();
            outerQ.pushBack(e, s);
        }
        // Sample s is covered by the windows starting in [s-w+1, s]; all are known now.
        while (outerQ.frontPosition() < s - W + 1) outerQ.popFront();
        out[s] = outerQ.frontValue();
    }
}

// Morard et al.'s stack opening: a stack of nested cords (maximal runs of samples at or
// above a level) read in one pass. A cord that is popped knows its length; if it is at
// least w (or holds such a cord), every sample in it not yet written by a higher valid
// cord takes its level. Samples awaiting their value are kept as a stack of intervals so
// that each is written once: O(1) amortized per sample whatever w.
template <class T>
struct StackScratch {
    struct Cord { T level; std::ptrdiff_t start; bool valid; };
    struct Pending { std::ptrdiff_t first, last; };
    std::vector<Cord> cords;
    std::vector<Pending> pending;
};

template <class T, class O>
void stackOpening(const T* P, std::size_t N, std::size_t w, T* out, StackScratch<T>& st) {
    using Cord = typename StackScratch<T>::Cord;
    auto& cords = st.cords;
    auto& pending = st.pending;
    cords.clear();
    pending.clear();
    const auto W = static_cast<std::ptrdiff_t>(w);
    const auto n = static_cast<std::ptrdiff_t>(N);
    for (std::ptrdiff_t j = 0; j <= n; ++j) {
        const bool end = j == n;
        const T x = end ? O::bottom() : P[j];
        std::ptrdiff_t start = j;
        bool validBelow = false;
        while (!cords.empty() && (end || O::below(x, cords.back().level))) {
            const Cord c = cords.back();
            cords.pop_back();
            const bool valid = c.valid || validBelow || j - c.start >= W;
            if (valid) {
                // Write the level over the pending samples of [c.start, j-1].
                while (!pending.empty() && pending.back().last >= c.start) {
                    auto& p = pending.back();
                    const std::ptrdiff_t from = std::max(p.first, c.start);
                    std::fill(out + from, out + p.last + 1, c.level);
                    if (p.first < c.start) { p.last = c.start - 1; break; }
                    pending.pop_back();
                }
            }
            validBelow = valid;  // the cord below contains this one
            start = c.start;
        }
        if (end) break;
        if (!cords.empty() && !O::below(cords.back().level, x)) {
            cords.back().valid = cords.back().valid || validBelow;  // same level: the cord goes on
        } else {
            cords.push_back({x, start, validBelow});
        }
        if (!pending.empty() && pending.back().last == j - 1) pending.back().last = j;
        else pending.push_back({j, j});
    }
}

}  // namespace linescope::cpu
