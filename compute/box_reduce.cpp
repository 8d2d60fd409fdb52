#include "compute/box_reduce.h"

#include "compute/thread_pool.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

namespace linescope {

template <class T>
Image<T> boxReduce(ImageView<const T> src, int factor, const EngineOptions& opt) {
    if (src.empty()) throw Error("the image is empty");
    if (factor < 1) throw Error("the reduction factor must be at least 1");
    const int w = std::max(1, src.width / factor), h = std::max(1, src.height / factor);
    const int fx = std::min(factor, src.width), fy = std::min(factor, src.height);
    Image<T> out(w, h);
    const double norm = 1.0 / (static_cast<double>(fx) * fy);
    parallelFor(static_cast<std::size_t>(h), opt.threads, [&](std::size_t y0, std::size_t y1) {
        std::vector<double> sums(static_cast<std::size_t>(w));
        for (std::size_t oy = y0; oy < y1; ++oy) {
            std::fill(sums.begin(), sums.end(), 0.0);
            for (int dy = 0; dy < fy; ++dy) {
                const T* row = src.row(static_cast<int>(oy) * fy + dy);
                for (int ox = 0; ox < w; ++ox) {
                    double s = 0;
                    for (int dx = 0; dx < fx; ++dx) s += static_cast<double>(row[ox * fx + dx]);
                    sums[static_cast<std::size_t>(ox)] += s;
                }
            }
            T* o = out.view().row(static_cast<int>(oy));
            for (int ox = 0; ox < w; ++ox) {
                const double m = sums[static_cast<std::size_t>(ox)] * norm;
                if constexpr (std::is_floating_point_v<T>) o[ox] = static_cast<T>(m);
                else o[ox] = static_cast<T>(std::lround(m));
            }
        }
    });
    return out;
}

template Image<std::uint8_t> boxReduce<std::uint8_t>(ImageView<const std::uint8_t>, int, const EngineOptions&);
template Image<std::uint16_t> boxReduce<std::uint16_t>(ImageView<const std::uint16_t>, int, const EngineOptions&);
template Image<float> boxReduce<float>(ImageView<const float>, int, const EngineOptions&);

}  // namespace linescope
