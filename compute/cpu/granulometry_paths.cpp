#include "compute/cpu/granulometry_paths.h"

#include "compute/granulometry_line.h"
#include "compute/pixel_rules.h"
#include "compute/thread_pool.h"

#include <mutex>
#include <vector>

namespace linescope::cpu {

namespace {

// Adds each cord's term count · (v − v_parent) to its bucket.
template <class T>
struct BucketSink {
    detail::GranulometrySum<T>* bucket;
    void operator()(int b, T level, T parent, std::int32_t count) const {
        if constexpr (std::is_floating_point_v<T>) {
            bucket[b].add(level, count);
            bucket[b].add(parent, -static_cast<std::int64_t>(count));
        } else {
            bucket[b] += static_cast<std::int64_t>(count) * (static_cast<std::int64_t>(level) - static_cast<std::int64_t>(parent));
        }
    }
};

}  // namespace

template <class T>
detail::GranulometryBuckets<T> granulometryPaths(ImageView<const T> src, const LineFamily& fam, int maxLength,
                                                 const detail::SummedPixels& region, int threads) {
    const auto cap = static_cast<std::size_t>(maxLength) + 1;
    detail::GranulometryBuckets<T> total(cap + 1);
    const std::int64_t first = fam.firstLine();
    const std::int64_t last = fam.lastLine();
    if (last < first) return total;
    std::mutex merge;
    parallelFor(static_cast<std::size_t>(last - first + 1), threads, [&](std::size_t begin, std::size_t end) {
        detail::GranulometryBuckets<T> buckets(cap + 1);
        const BucketSink<T> sink{buckets.data()};
        std::vector<T> f;
        std::vector<std::int32_t> prefix;
        std::vector<GranulometryCord<T>> stack;
        for (std::size_t k = begin; k < end; ++k) {
            const std::int64_t c = first + static_cast<std::int64_t>(k);
            std::int64_t t0, t1;
            fam.extent(c, t0, t1);
            if (t0 > t1) continue;
            const auto n = static_cast<std::int32_t>(t1 - t0 + 1);
            f.resize(static_cast<std::size_t>(n));
            if (stack.size() < f.size()) stack.resize(f.size());
            if (!region.whole) prefix.resize(f.size() + 1);
            std::int32_t inRegion = 0;
            std::int64_t x, y;
            for (std::int32_t i = 0; i < n; ++i) {
                fam.pixel(c, t0 + i, x, y);
                const int xi = static_cast<int>(x), yi = static_cast<int>(y);
                f[static_cast<std::size_t>(i)] = canonical(src.at(xi, yi));
                if (!region.whole) {
                    prefix[static_cast<std::size_t>(i)] = inRegion;
                    inRegion += region.contains(xi, yi) ? 1 : 0;
                }
            }
            if (!region.whole) {
                prefix[static_cast<std::size_t>(n)] = inRegion;
                if (inRegion == 0) continue;  // the line's openings are summed nowhere
            }
            const T* values = f.data();
            const std::int32_t* before = prefix.data();
            GranulometryCord<T>* cords = stack.data();
            const auto value = [values](std::int32_t j) { return values[j]; };
            if (region.whole)
                granulometryLine<T>(n, value, [](std::int32_t j) { return j; }, maxLength, cords, sink);
            else
                granulometryLine<T>(n, value, [before](std::int32_t j) { return before[j]; }, maxLength, cords, sink);
        }
        std::lock_guard lock(merge);  // exact sums: the order of the merges does not matter
        for (std::size_t b = 1; b <= cap; ++b) total[b] += buckets[b];
    });
    return total;
}

template detail::GranulometryBuckets<std::uint8_t> granulometryPaths<std::uint8_t>(
    ImageView<const std::uint8_t>, const LineFamily&, int, const detail::SummedPixels&, int);
template detail::GranulometryBuckets<std::uint16_t> granulometryPaths<std::uint16_t>(
    ImageView<const std::uint16_t>, const LineFamily&, int, const detail::SummedPixels&, int);
template detail::GranulometryBuckets<float> granulometryPaths<float>(ImageView<const float>, const LineFamily&, int,
                                                                     const detail::SummedPixels&, int);

}  // namespace linescope::cpu
