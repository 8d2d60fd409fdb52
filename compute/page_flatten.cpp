#include "compute/page_flatten.h"

#include "compute/classic_morph.h"

#include <algorithm>

namespace linescope {

template <class T>
Image<T> flattenBackground(ImageView<const T> page, int side, bool darkLines, const EngineOptions& opt) {
    if (page.empty()) throw Error("the image is empty");
    if (side < 1) throw Error("the background square needs a side of at least 1");
    Image<T> out(page.width, page.height);
    if (side == 1) {
        for (int y = 0; y < page.height; ++y) std::copy_n(page.row(y), page.width, out.view().row(y));
        return out;
    }
    const ClassicSE square{ClassicShape::Rect, side, side};
    if (!darkLines) {
        classicMorph<T>(MorphOp::TopHat, page, out.view(), square, opt);
        return out;
    }
    classicMorph<T>(MorphOp::Close, page, out.view(), square, opt);
    T top = page.row(0)[0];
    for (int y = 0; y < page.height; ++y) top = std::max(top, *std::max_element(page.row(y), page.row(y) + page.width));
    // φ(f) ≥ f, so M − (φ(f) − f) stays within [min f, M]: no overflow for integer pixels.
    for (int y = 0; y < page.height; ++y) {
        const T* f = page.row(y);
        T* o = out.view().row(y);
        for (int x = 0; x < page.width; ++x) o[x] = static_cast<T>(top - (o[x] - f[x]));
    }
    return out;
}

template Image<std::uint8_t> flattenBackground<std::uint8_t>(ImageView<const std::uint8_t>, int, bool, const EngineOptions&);
template Image<std::uint16_t> flattenBackground<std::uint16_t>(ImageView<const std::uint16_t>, int, bool, const EngineOptions&);
template Image<float> flattenBackground<float>(ImageView<const float>, int, bool, const EngineOptions&);

}  // namespace linescope
