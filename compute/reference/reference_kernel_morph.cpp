// Morphology by a list of offsets, straight from the definition.
#include "compute/reference/reference_kernel_morph.h"

#include "compute/pixel_rules.h"

namespace linescope::reference {

namespace {

template <class T>
Image<T> erodeOrDilate(bool erode, const Image<T>& f, const std::vector<Offset>& offsets) {
    const int W = f.width(), H = f.height();
    Image<T> out(W, H);
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            T m = erode ? highestValue<T>() : lowestValue<T>();
            for (const Offset& k : offsets) {
                const long long sx = erode ? x + static_cast<long long>(k.dx) : x - static_cast<long long>(k.dx);
                const long long sy = erode ? y + static_cast<long long>(k.dy) : y - static_cast<long long>(k.dy);
                if (sx < 0 || sy < 0 || sx >= W || sy >= H) continue;
                const T v = f.at(static_cast<int>(sx), static_cast<int>(sy));
                m = erode ? minOf(m, v) : maxOf(m, v);
            }
            out.at(x, y) = m;
        }
    return out;
}

}  // namespace

template <class T>
Image<T> referenceKernelMorph(MorphOp op, ImageView<const T> src, const std::vector<Offset>& offsets) {
    Image<T> f(src.width, src.height);
    for (int y = 0; y < src.height; ++y)
        for (int x = 0; x < src.width; ++x) f.at(x, y) = canonical(src.at(x, y));
    switch (op) {
    case MorphOp::Erode: return erodeOrDilate(true, f, offsets);
    case MorphOp::Dilate: return erodeOrDilate(false, f, offsets);
    case MorphOp::Open: return erodeOrDilate(false, erodeOrDilate(true, f, offsets), offsets);
    case MorphOp::Close: return erodeOrDilate(true, erodeOrDilate(false, f, offsets), offsets);
    case MorphOp::TopHat: {
        Image<T> g = erodeOrDilate(false, erodeOrDilate(true, f, offsets), offsets);
        for (int y = 0; y < f.height(); ++y)
            for (int x = 0; x < f.width(); ++x) g.at(x, y) = static_cast<T>(f.at(x, y) - g.at(x, y));
        return g;
    }
    }
    throw Error("unknown morphological operator");
}

template Image<std::uint8_t> referenceKernelMorph<std::uint8_t>(MorphOp, ImageView<const std::uint8_t>,
                                                                const std::vector<Offset>&);
template Image<std::uint16_t> referenceKernelMorph<std::uint16_t>(MorphOp, ImageView<const std::uint16_t>,
                                                                  const std::vector<Offset>&);
template Image<float> referenceKernelMorph<float>(MorphOp, ImageView<const float>, const std::vector<Offset>&);

}  // namespace linescope::reference
