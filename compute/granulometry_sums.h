// What the granulometry's backends share: the exact sum of each pixel type and the set of
// pixels summed (the request's rectangle and mask, resolved against the image).
#pragma once

#include "compute/exact_sum.h"
#include "compute/image.h"

#include <cstdint>
#include <type_traits>
#include <vector>

namespace linescope::detail {

// Integer images sum exactly in 64 bits (|R| · 65535 < 2^63); float32 in an ExactSum.
template <class T>
using GranulometrySum = std::conditional_t<std::is_floating_point_v<T>, ExactSum, std::int64_t>;

// sum += count · value.
template <class T>
inline void addTimes(GranulometrySum<T>& sum, T value, std::int64_t count) {
    if constexpr (std::is_floating_point_v<T>) sum.add(value, count);
    else sum += count * static_cast<std::int64_t>(value);
}

// The pixels summed: [x0, x1) × [y0, y1) and, when mask is not empty, where it is non-zero.
struct SummedPixels {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    ImageView<const std::uint8_t> mask{};
    bool whole = true;  // every pixel of the image: no test needed
    bool contains(int x, int y) const {
        return x >= x0 && x < x1 && y >= y0 && y < y1 && (mask.empty() || mask.at(x, y) != 0);
    }
};

// Per-length buckets of one pass: bucket[μ] for μ = 1 … cap (index 0 unused), S(λ) = Σ_{μ ≥ λ}.
template <class T>
using GranulometryBuckets = std::vector<GranulometrySum<T>>;

}  // namespace linescope::detail
