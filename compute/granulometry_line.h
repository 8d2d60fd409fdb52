// One line's share of the granulometry of line paths, for every λ at once (Morard et al.,
// "One-dimensional openings, granulometries and component trees in O(1) per pixel", 2012):
// host and device code, so that the CPU pass (cpu/granulometry_paths.cpp) and the CUDA kernel
// run the same walk, and a CPU test can run the kernel's per-line code.
//
// Why one pass suffices. The opening of design.md §1 on a line f[0..n−1] is the opening of
// the padded signal P = +∞×a, f, +∞×b (line_algorithms_1d.h) by windows of λ samples, so
//   γ_λ(f)(p) = the highest level v whose cord — the maximal run of {f ≥ v} holding p — is
//               long enough, that is, holds a window of λ samples of P.
// A cord of L pixels at level v is long enough for λ ≤ Λ_c where
//   Λ_c = L       for a cord inside the line,
//   Λ_c = 2L − 1  for one touching the line's start (P adds a = ⌊(λ−1)/2⌋ samples there),
//   Λ_c = 2L      for one touching its end (P adds b = λ−1−a),
//   Λ_c = ∞       for the whole line.
// Cords are nested (the max-tree of the line) and Λ_c never grows from a cord to one inside
// it, so along the chain of cords that hold p, γ_λ(p) = v_root + Σ (v_c − v_parent(c)) over
// the cords c with Λ_c ≥ λ; summed over the pixels,
//   S(λ) = Σ_c count(c) · (v_c − v_parent(c)) · [Λ_c ≥ λ],   (the root's parent level 0)
// where count(c) is the number of region pixels in c. Each cord is one term for every λ ≤ Λ_c:
// the walk hands it to a sink under bucket min(Λ_c, Λ+1), and S(λ) is the sum of buckets
// λ … Λ+1. The cords come from one stack walk of the line: O(1) amortised a pixel, whatever Λ.
#pragma once

#include "compute/host_device.h"

#include <cstdint>

namespace linescope {

// A cord on the walk's stack: its level and first position.
template <class T>
struct GranulometryCord {
    T level;
    std::int32_t start;
};

// Bucket of a cord [start, end] (end inclusive) of a line of n pixels: min(Λ_c, cap).
LINESCOPE_HD inline int granulometryBucket(std::int32_t start, std::int32_t end, std::int32_t n, int cap) {
    const std::int64_t L = end - start + 1;
    const bool first = start == 0, last = end == n - 1;
    std::int64_t reach;
    if (first && last) return cap;
    if (first) reach = 2 * L - 1;
    else if (last) reach = 2 * L;
    else reach = L;
    return reach < cap ? static_cast<int>(reach) : cap;
}

// Walks a line of n ≥ 1 pixels and calls sink(bucket, level, parentLevel, count) once for
// every cord holding at least one region pixel, bucket in [1, maxLength + 1].
//   f(j)           the canonical value at position j (a pointer or any callable);
//   regionBefore(j) the region pixels among positions 0 … j−1 (j for the whole line);
//   stack          room for n cords, indexed stack[d] (a pointer, or a strided view on the GPU).
template <class T, class Values, class RegionBefore, class Stack, class Sink>
LINESCOPE_HD void granulometryLine(std::int32_t n, const Values& f, const RegionBefore& regionBefore, int maxLength,
                                   Stack& stack, Sink& sink) {
    const int cap = maxLength + 1;
    int depth = 0;
    for (std::int32_t j = 0; j <= n; ++j) {
        const bool end = j == n;
        const T x = end ? T{} : f(j);
        std::int32_t start = j;
        // Pop every cord that x ends: each is [start, j − 1] and its parent's level is the
        // higher of the cord below it and x (the cord x continues or opens).
        while (depth > 0 && (end || x < stack[depth - 1].level)) {
            const GranulometryCord<T> c = stack[--depth];
            T parent;
            if (end) parent = depth > 0 ? stack[depth - 1].level : T{};  // the root's parent level is 0
            else parent = depth > 0 && x < stack[depth - 1].level ? stack[depth - 1].level : x;
            const std::int32_t count = regionBefore(j) - regionBefore(c.start);
            if (count > 0) {
                sink(granulometryBucket(c.start, j - 1, n, cap), c.level, parent, count);
            }
            start = c.start;
        }
        if (end) break;
        // Equal to the cord below: that cord goes on; above it: a new cord from `start`.
        if (depth == 0 || stack[depth - 1].level < x) stack[depth++] = GranulometryCord<T>{x, start};
    }
}

}  // namespace linescope
