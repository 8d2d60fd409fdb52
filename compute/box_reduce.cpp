#include "compute/box_reduce.h"

#include "compute/thread_pool.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace linescope {

namespace {

// Integer pixels: exact sums, rounded to nearest with ties up ((2s + n) / 2n), in integers, so
// that the inner loops vectorize and no pixel goes through a libm call.
template <class T>
void reduceIntegerRows(ImageView<const T> src, ImageView<T> out, int fx, int fy, std::size_t y0, std::size_t y1) {
    const int w = out.width;
    const std::uint64_t n = static_cast<std::uint64_t>(fx) * static_cast<std::uint64_t>(fy);
    std::vector<std::uint64_t> sums(static_cast<std::size_t>(w));
    for (std::size_t oy = y0; oy < y1; ++oy) {
        std::fill(sums.begin(), sums.end(), 0);
        for (int dy = 0; dy < fy; ++dy) {
            const T* row = src.row(static_cast<int>(oy) * fy + dy);
            if (fx == 2) {
                for (int ox = 0; ox < w; ++ox)
                    sums[static_cast<std::size_t>(ox)] += static_cast<std::uint32_t>(row[2 * ox]) + row[2 * ox + 1];
                continue;
            }
            for (int ox = 0; ox < w; ++ox) {
                std::uint64_t s = 0;
                for (int dx = 0; dx < fx; ++dx) s += row[ox * fx + dx];
                sums[static_cast<std::size_t>(ox)] += s;
            }
        }
        T* o = out.row(static_cast<int>(oy));
        for (int ox = 0; ox < w; ++ox) o[ox] = static_cast<T>((2 * sums[static_cast<std::size_t>(ox)] + n) / (2 * n));
    }
}

void reduceFloatRows(ImageView<const float> src, ImageView<float> out, int fx, int fy, std::size_t y0, std::size_t y1) {
    const int w = out.width;
    const double norm = 1.0 / (static_cast<double>(fx) * fy);
    std::vector<double> sums(static_cast<std::size_t>(w));
    for (std::size_t oy = y0; oy < y1; ++oy) {
        std::fill(sums.begin(), sums.end(), 0.0);
        for (int dy = 0; dy < fy; ++dy) {
            const float* row = src.row(static_cast<int>(oy) * fy + dy);
            for (int ox = 0; ox < w; ++ox) {
                double s = 0;
                for (int dx = 0; dx < fx; ++dx) s += static_cast<double>(row[ox * fx + dx]);
                sums[static_cast<std::size_t>(ox)] += s;
            }
        }
        float* o = out.row(static_cast<int>(oy));
        for (int ox = 0; ox < w; ++ox) o[ox] = static_cast<float>(sums[static_cast<std::size_t>(ox)] * norm);
    }
}

}  // namespace

template <class T>
Image<T> boxReduce(ImageView<const T> src, int factor, const EngineOptions& opt) {
    if (src.empty()) throw Error("the image is empty");
    if (factor < 1) throw Error("the reduction factor must be at least 1");
    const int w = std::max(1, src.width / factor), h = std::max(1, src.height / factor);
    const int fx = std::min(factor, src.width), fy = std::min(factor, src.height);
    Image<T> out(w, h);
    parallelFor(static_cast<std::size_t>(h), opt.threads, [&](std::size_t y0, std::size_t y1) {
        if constexpr (std::is_floating_point_v<T>) reduceFloatRows(src, out.view(), fx, fy, y0, y1);
        else reduceIntegerRows<T>(src, out.view(), fx, fy, y0, y1);
    });
    return out;
}

template Image<std::uint8_t> boxReduce<std::uint8_t>(ImageView<const std::uint8_t>, int, const EngineOptions&);
template Image<std::uint16_t> boxReduce<std::uint16_t>(ImageView<const std::uint16_t>, int, const EngineOptions&);
template Image<float> boxReduce<float>(ImageView<const float>, int, const EngineOptions&);

}  // namespace linescope
