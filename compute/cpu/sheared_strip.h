// Block primitives of the sheared kernel: van Herk/Gil-Werman down the S lanes of a strip.
// Each row step is one operation across all lanes, which the compiler turns into SIMD.
#pragma once

#include "compute/line_geometry.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

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

// Forward pass: load(i, A_i) fills row i, then G_i = inner of A over the part of row i's
// block up to i. Blocks have length L = p + q + 1 and start at rows ≡ -p (mod L), so the
// window [t-p, t+q] of every output row spans at most two blocks.
template <class T, class O, int S, class Load>
inline void stripForward(T* __restrict A, T* __restrict G, int rows, int p, int q, Load&& load) {
    const int L = p + q + 1;
    int phase = p % L;  // (i + p) mod L
    for (int i = 0; i < rows; ++i) {
        T* __restrict a = A + static_cast<std::ptrdiff_t>(i) * S;
        T* __restrict g = G + static_cast<std::ptrdiff_t>(i) * S;
        load(i, a);
        if (i == 0 || phase == 0) {
            for (int j = 0; j < S; ++j) g[j] = a[j];
        } else {
            const T* __restrict gp = g - S;
            for (int j = 0; j < S; ++j) g[j] = O::inner(gp[j], a[j]);
        }
        if (++phase == L) phase = 0;
    }
}

// Backward pass: a running suffix h over each block, from the bottom up; output row t
// (window [t-p, t+q] clipped to the rows) = inner(suffix from t-p, prefix up to t+q),
// emitted as emit(t, row) once h reaches row t-p. Rows are emitted bottom-up; emitting
// into A itself is safe because row t ≥ t-p has already been read.
template <class T, class O, int S, class Emit>
inline void stripBackward(const T* __restrict A, const T* __restrict G, int rows, int p, int q, Emit&& emit) {
    const int L = p + q + 1;
    alignas(64) T h[S];
    alignas(64) T out[S];
    auto emitRow = [&](int t) {
        const int r2 = t + q;
        const T* g = nullptr;
        if (r2 <= rows - 1) {
            g = G + static_cast<std::ptrdiff_t>(r2) * S;
        } else {
            // Rows past the end are neutral: the prefix stops at the last row, unless the
            // window's second block starts beyond it (then the suffix alone covers it).
            const int blockStart = r2 - (r2 + p) % L;
            if (blockStart <= rows - 1) g = G + static_cast<std::ptrdiff_t>(rows - 1) * S;
        }
        if (g) {
            for (int j = 0; j < S; ++j) out[j] = O::inner(h[j], g[j]);
        } else {
            for (int j = 0; j < S; ++j) out[j] = h[j];
        }
        emit(t, static_cast<const T*>(out));
    };
    int phase = (rows + p + 1) % L;  // (r + p + 1) mod L once decremented: counting, not dividing, per row
    for (int r = rows - 1; r >= 0; --r) {
        phase = phase == 0 ? L - 1 : phase - 1;
        const T* __restrict a = A + static_cast<std::ptrdiff_t>(r) * S;
        if (r == rows - 1 || phase == 0) {
            for (int j = 0; j < S; ++j) h[j] = a[j];
        } else {
            for (int j = 0; j < S; ++j) h[j] = O::inner(h[j], a[j]);
        }
        if (r > 0) {
            if (r + p <= rows - 1) emitRow(r + p);
        } else {
            for (int t = std::min(p, rows - 1); t >= 0; --t) emitRow(t);
        }
    }
}

}  // namespace LINESCOPE_ISA
}  // namespace linescope::cpu
