#include "tests/support/random_images.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <type_traits>

namespace linescope::test {
namespace {

template <class T>
T maxOf() {
    if constexpr (std::is_floating_point_v<T>) return 1000.0f;
    else return std::numeric_limits<T>::max();
}

// A level for Blocky/FewLevels images: few distinct values spread over the range.
template <class T>
T level(std::mt19937_64& rng, int levels) {
    const int i = static_cast<int>(rng() % static_cast<std::uint64_t>(levels));
    if constexpr (std::is_floating_point_v<T>) return static_cast<float>(i - levels / 2) * 37.5f;
    else return static_cast<T>(static_cast<double>(maxOf<T>()) * i / (levels - 1));
}

template <class T>
T noise(std::mt19937_64& rng) {
    if constexpr (std::is_floating_point_v<T>) {
        // Mixed signs over several orders of magnitude, with exact ties now and then.
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        const int e = static_cast<int>(rng() % 7) - 3;
        return u(rng) * std::pow(10.0f, static_cast<float>(e));
    } else {
        return static_cast<T>(rng() % (static_cast<std::uint64_t>(std::numeric_limits<T>::max()) + 1));
    }
}

template <class T>
T special(std::mt19937_64& rng, bool withInfinities) {
    if constexpr (std::is_floating_point_v<T>) {
        static const float values[] = {0.0f, -0.0f, 1.0f, -1.0f, std::numeric_limits<float>::max(),
                                       -std::numeric_limits<float>::max(), std::numeric_limits<float>::denorm_min(),
                                       -std::numeric_limits<float>::denorm_min(), 1e30f, -1e30f, 1e-30f,
                                       std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()};
        const std::size_t n = withInfinities ? std::size(values) : std::size(values) - 2;
        return values[rng() % n];
    } else {
        static const T values[] = {T(0), T(1), T(maxOf<T>() - 1), maxOf<T>(), T(maxOf<T>() / 2)};
        return values[rng() % std::size(values)];
    }
}

template <class T>
Image<T> makeImage(int width, int height, std::uint64_t seed, ImageKind kind, bool withInfinities) {
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(kind) + 1);
    Image<T> img(width, height);
    switch (kind) {
    case ImageKind::Noise:
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) img.at(x, y) = noise<T>(rng);
        break;
    case ImageKind::FewLevels:
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) img.at(x, y) = level<T>(rng, 3);
        break;
    case ImageKind::Blocky: {
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) img.at(x, y) = level<T>(rng, 4);
        // Rectangles and long thin runs (horizontal, vertical) give plateaus of every length.
        const int shapes = 4 + (width * height) / 200;
        for (int s = 0; s < shapes; ++s) {
            const int x0 = static_cast<int>(rng() % static_cast<std::uint64_t>(width));
            const int y0 = static_cast<int>(rng() % static_cast<std::uint64_t>(height));
            int w = 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(width));
            int h = 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(height));
            if (rng() % 3 == 0) h = 1 + static_cast<int>(rng() % 3);
            else if (rng() % 2 == 0) w = 1 + static_cast<int>(rng() % 3);
            const T v = level<T>(rng, 4);
            for (int y = y0; y < std::min(height, y0 + h); ++y)
                for (int x = x0; x < std::min(width, x0 + w); ++x) img.at(x, y) = v;
        }
        break;
    }
    case ImageKind::Specials:
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x)
                img.at(x, y) = (rng() % 4 == 0) ? noise<T>(rng) : special<T>(rng, withInfinities);
        break;
    }
    return img;
}

}  // namespace

const char* imageKindName(ImageKind k) {
    switch (k) {
    case ImageKind::Noise: return "noise";
    case ImageKind::FewLevels: return "fewlevels";
    case ImageKind::Blocky: return "blocky";
    case ImageKind::Specials: return "specials";
    }
    return "?";
}

std::vector<ImageKind> allImageKinds() {
    return {ImageKind::Noise, ImageKind::FewLevels, ImageKind::Blocky, ImageKind::Specials};
}

template <class T>
Image<T> randomImage(int width, int height, std::uint64_t seed, ImageKind kind) {
    return makeImage<T>(width, height, seed, kind, true);
}

Image<float> finiteFloatImage(int width, int height, std::uint64_t seed, ImageKind kind) {
    return makeImage<float>(width, height, seed, kind, false);
}

std::vector<double> interestingAngles(int randomCount, std::uint64_t seed) {
    std::vector<double> a = coreAngles();
    const double more[] = {1e-9,     -1e-12,  0.0001,   -0.0001, 22.5,  26.56505117707799, 30,     60,
                           63.43494882292201, 89.9999, 90.0001, 112.5, 150,  179.99999, 180,
                           180.0001, 225,     -45,      -90,     -135.0, 359.9999, 405,    720.5, -1e-17,
                           1e6 + 0.3};
    a.insert(a.end(), std::begin(more), std::end(more));
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-360.0, 540.0);
    for (int i = 0; i < randomCount; ++i) a.push_back(u(rng));
    return a;
}

std::vector<double> coreAngles() {
    return {0, 45, 90, 135, 44.9999, 45.0001, 134.99999, 135.00001, 179.9999, -0.0001, 17.3, 71.9, 101.1, 163.7};
}

double testScale() {
    static const double scale = [] {
        const char* s = std::getenv("LINESCOPE_TEST_SCALE");
        if (!s || !*s) return 1.0;
        const double v = std::atof(s);
        return v > 0 ? v : 1.0;
    }();
    return scale;
}

int scaled(int count) {
    return std::max(1, static_cast<int>(std::lround(count * testScale())));
}

std::vector<int> caseSet(std::vector<int> cases) {
    if (testScale() >= 1 || cases.size() <= 3) return cases;
    return {cases.front(), cases[cases.size() / 2], cases.back()};
}

template <class T>
bool samePixel(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) return a == b || (std::isnan(a) && std::isnan(b));
    else return a == b;
}

template <class T>
std::string pixelString(T v) {
    std::ostringstream os;
    if constexpr (std::is_floating_point_v<T>) {
        os.precision(9);
        os << (std::signbit(v) && v == 0 ? "-" : "") << (v == 0 ? 0.0f : v);
    } else {
        os << static_cast<unsigned>(v);
    }
    return os.str();
}

template <class T>
std::optional<std::string> firstDifference(ImageView<const T> expected, ImageView<const T> actual) {
    if (expected.width != actual.width || expected.height != actual.height)
        return "size differs: expected " + std::to_string(expected.width) + "x" + std::to_string(expected.height) +
               ", got " + std::to_string(actual.width) + "x" + std::to_string(actual.height);
    std::size_t count = 0;
    std::string first;
    for (int y = 0; y < expected.height; ++y)
        for (int x = 0; x < expected.width; ++x)
            if (!samePixel(expected.at(x, y), actual.at(x, y))) {
                if (count++ == 0)
                    first = "first difference at (" + std::to_string(x) + ", " + std::to_string(y) + "): expected " +
                            pixelString(expected.at(x, y)) + ", got " + pixelString(actual.at(x, y));
            }
    if (count == 0) return std::nullopt;
    return first + "; " + std::to_string(count) + " of " + std::to_string(expected.pixelCount()) + " pixels differ";
}

template <class T>
PaddedImage<T>::PaddedImage(int width, int height, int pad, T sentinel)
    : width_(width), height_(height), pad_(pad), sentinel_(sentinel),
      storage_(static_cast<std::size_t>(width + 2 * pad) * static_cast<std::size_t>(height) + 2 * static_cast<std::size_t>(pad),
               sentinel) {}

template <class T>
PaddedImage<T> PaddedImage<T>::copyOf(const Image<T>& img, int pad, T sentinel) {
    PaddedImage p(img.width(), img.height(), pad, sentinel);
    ImageView<T> v = p.view();
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) v.at(x, y) = img.at(x, y);
    return p;
}

template <class T>
bool PaddedImage<T>::paddingIntact() const {
    const std::ptrdiff_t stride = width_ + 2 * pad_;
    for (std::size_t i = 0; i < storage_.size(); ++i) {
        const std::ptrdiff_t j = static_cast<std::ptrdiff_t>(i) - pad_;
        const bool inside = j >= 0 && j / stride < height_ && j % stride < width_;
        if (!inside && !samePixel(storage_[i], sentinel_)) return false;
        if (!inside && std::is_floating_point_v<T> && std::signbit(static_cast<double>(storage_[i])) !=
                                                          std::signbit(static_cast<double>(sentinel_)))
            return false;
    }
    return true;
}

template <class T>
std::string describe(const Image<T>& img) {
    return std::string(pixelTypeName(pixelTypeOf<T>())) + " " + std::to_string(img.width()) + "x" +
           std::to_string(img.height());
}

#define LINESCOPE_TEST_INSTANTIATE(T)                                                                     \
    template Image<T> randomImage<T>(int, int, std::uint64_t, ImageKind);                                \
    template bool samePixel<T>(T, T);                                                                     \
    template std::string pixelString<T>(T);                                                               \
    template std::optional<std::string> firstDifference<T>(ImageView<const T>, ImageView<const T>);       \
    template class PaddedImage<T>;                                                                        \
    template std::string describe<T>(const Image<T>&);
LINESCOPE_TEST_INSTANTIATE(std::uint8_t)
LINESCOPE_TEST_INSTANTIATE(std::uint16_t)
LINESCOPE_TEST_INSTANTIATE(float)
#undef LINESCOPE_TEST_INSTANTIATE

}  // namespace linescope::test
