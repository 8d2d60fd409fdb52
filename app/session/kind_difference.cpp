#include "app/session/kind_difference.h"

#include <cmath>
#include <type_traits>

namespace linescope::session {

namespace {

template <class T>
void compare(const Image<T>& a, const Image<T>& b, KindDifference& out) {
    const int w = a.width(), h = a.height();
    out.signedDifference = Image<float>(w, h);
    for (int y = 0; y < h; ++y) {
        const T* pa = a.cview().row(y);
        const T* pb = b.cview().row(y);
        float* d = out.signedDifference.view().row(y);
        for (int x = 0; x < w; ++x) {
            const double diff = static_cast<double>(pa[x]) - static_cast<double>(pb[x]);
            // A float difference too small for a float would read as agreement: keep its sign.
            float f = static_cast<float>(diff);
            if (diff != 0 && f == 0) f = std::copysign(1e-30f, static_cast<float>(diff));
            d[x] = f;
            if (diff != 0) {
                ++out.differing;
                if (diff > 0) ++out.aAbove;
                out.maxAbs = std::max(out.maxAbs, std::abs(diff));
            }
        }
    }
}

}  // namespace

KindDifference kindDifference(const AnyImage& a, const AnyImage& b, LineKind kindA, LineKind kindB) {
    if (a.index() != b.index() || widthOf(a) != widthOf(b) || heightOf(a) != heightOf(b))
        throw Error("the two results to compare differ in pixel type or size");
    KindDifference out;
    out.a = kindA;
    out.b = kindB;
    out.pixels = static_cast<long long>(widthOf(a)) * heightOf(a);
    std::visit(
        [&](const auto& ia) {
            using I = std::decay_t<decltype(ia)>;
            compare(ia, std::get<I>(b), out);
        },
        a);
    return out;
}

}  // namespace linescope::session
