// Test helpers: seeded random images of every pixel type, exact image comparison with a
// readable first difference, padded (strided) copies, and the angles worth testing.
#pragma once

#include "compute/image.h"

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace linescope::test {

// The flavours of random images; each stresses a different part of the line operators.
enum class ImageKind {
    Noise,      // uniform over the type's range (float: mixed signs and magnitudes)
    FewLevels,  // noise over 3 levels: many ties between neighbours
    Blocky,     // rectangles and runs of few levels: plateaus longer than λ, ties and flat lines
    Specials,   // extremes of the type (0, max; float: ±0, ±inf, ±FLT_MAX, denormals, huge)
};
const char* imageKindName(ImageKind k);
std::vector<ImageKind> allImageKinds();

template <class T>
Image<T> randomImage(int width, int height, std::uint64_t seed, ImageKind kind = ImageKind::Noise);

// Float images without infinities (for properties that subtract, like top-hat ≥ 0).
Image<float> finiteFloatImage(int width, int height, std::uint64_t seed, ImageKind kind);

// The angles worth testing: the axes and diagonals, values a hair around them, angles out
// of [0, 180), plus `randomCount` seeded random angles in [-360, 540).
std::vector<double> interestingAngles(int randomCount = 8, std::uint64_t seed = 1);
// A short list for slow loops: the axes, diagonals, their near neighbours and a few others.
std::vector<double> coreAngles();

// LINESCOPE_TEST_SCALE (default 1): multiplies iteration counts; 0.25 for a quick run.
double testScale();
int scaled(int count);  // max(1, round(count · testScale()))

// The case set of a loop over sizes or lengths: all of `cases` at full scale; at a reduced
// scale (the compute-sanitizer runs, tests/gpu/run-gpu-suites.sh) the first, the middle
// and the last, which keep the edge cases (the smallest, one past the image) of each loop.
std::vector<int> caseSet(std::vector<int> cases);

// Pixel equality: exact for integers; floats by value with NaN equal to NaN (f − γ of an
// infinity is NaN) and +0 equal to −0 (the definitions take min/max of values, and
// −0 and +0 are the same value, so either is a correct result).
template <class T>
bool samePixel(T a, T b);
template <class T>
std::string pixelString(T v);

// std::nullopt when equal; else "first difference at (x, y): expected E, got A; N of M pixels differ"
// (or a size mismatch message).
template <class T>
std::optional<std::string> firstDifference(ImageView<const T> expected, ImageView<const T> actual);
template <class T>
std::optional<std::string> firstDifference(const Image<T>& expected, const Image<T>& actual) {
    return firstDifference<T>(expected.cview(), actual.cview());
}

// An image held with stride > width, its padding filled with a sentinel so that writes
// outside the view can be detected.
template <class T>
class PaddedImage {
public:
    PaddedImage(int width, int height, int pad, T sentinel);
    static PaddedImage copyOf(const Image<T>& img, int pad, T sentinel);
    ImageView<T> view() { return {storage_.data() + pad_, width_, height_, width_ + 2 * pad_}; }
    ImageView<const T> cview() const { return {storage_.data() + pad_, width_, height_, width_ + 2 * pad_}; }
    // Whether every padding element still holds the sentinel.
    bool paddingIntact() const;

private:
    int width_, height_, pad_;
    T sentinel_;
    std::vector<T> storage_;
};

// A short description "uint8 17x5" for messages.
template <class T>
std::string describe(const Image<T>& img);

}  // namespace linescope::test

// QVERIFY2 with a message built only on failure (the messages are std::strings with context).
#define LINESCOPE_CHECK(cond, message)                                   \
    do {                                                                 \
        if (!(cond)) {                                                   \
            const std::string linescopeCheckMessage_ = (message);        \
            QTest::qFail(linescopeCheckMessage_.c_str(), __FILE__, __LINE__); \
            return;                                                      \
        }                                                                \
    } while (false)
