// What the CUDA suites share: engine options for either backend, bit-for-bit comparison of
// the GPU's results with the CPU's (memcmp, so −0 and +0 differ) for images and sweeps with
// their spectra, and a failure list that prints the first few.
#pragma once

#include "compute/backend.h"
#include "compute/image.h"
#include "compute/sweep.h"
#include "tests/support/random_images.h"

#include <QtGlobal>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

namespace linescope::test {

inline EngineOptions cpu() {
    EngineOptions o;
    o.backend = Backend::Cpu;
    return o;
}
inline EngineOptions gpu(LineAlgorithm a = LineAlgorithm::Auto) {
    EngineOptions o;
    o.backend = Backend::Cuda;
    o.algorithm = a;
    return o;
}

// A number for a case's name: "17.3", "26.56505118".
inline std::string num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

// Counts failures and prints the first 12, so that a broken kernel does not flood the log.
class Failures {
public:
    void add(const std::string& m) {
        if (count_++ < 12) qWarning("%s", m.c_str());
    }
    int count() const { return count_; }

private:
    int count_ = 0;
};

// body(T{}) for the pixel type of a data row: 0 uint8, 1 uint16, 2 float32.
template <class F>
void byType(int type, F&& body) {
    if (type == 0) body(std::uint8_t{});
    else if (type == 1) body(std::uint16_t{});
    else body(float{});
}

// Bit-exact: the GPU must return the very bits the CPU returns. The one exception is NaN,
// which only a float top-hat makes (∞ − ∞ where the opening keeps an infinity): its sign
// and payload are the processor's (x86 gives −NaN, CUDA +NaN), so NaN matches any NaN.
template <class T>
bool sameBits(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
        if (std::isnan(a) && std::isnan(b)) return true;
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
std::optional<std::string> bitDifference(const Image<T>& want, const Image<T>& got) {
    if (want.width() != got.width() || want.height() != got.height()) return std::string("size differs");
    for (int y = 0; y < want.height(); ++y)
        for (int x = 0; x < want.width(); ++x)
            if (!sameBits(want.at(x, y), got.at(x, y))) {
                long long differ = 0;
                for (int yy = 0; yy < want.height(); ++yy)
                    for (int xx = 0; xx < want.width(); ++xx) differ += !sameBits(want.at(xx, yy), got.at(xx, yy));
                return "first difference at (" + std::to_string(x) + ", " + std::to_string(y) + "): expected " +
                       pixelString(want.at(x, y)) + ", got " + pixelString(got.at(x, y)) + "; " +
                       std::to_string(differ) + " of " + std::to_string(want.pixels().size()) + " pixels differ";
            }
    return std::nullopt;
}

// The first way two sweeps differ: planes bit for bit, integer spectra exactly, float
// spectra within n·ε·Σ|γ| (double sums in another order).
template <class T>
std::optional<std::string> sweepDifference(const SweepResult<T>& want, const SweepResult<T>& got) {
    if (auto d = bitDifference(want.sup, got.sup)) return "sup " + *d;
    if (auto d = bitDifference(want.inf, got.inf)) return "inf " + *d;
    if (auto d = bitDifference(want.argIndex, got.argIndex)) return "argIndex " + *d;
    if (auto d = bitDifference(want.strength, got.strength)) return "strength " + *d;
    if (want.spectrumExact != got.spectrumExact) return std::string("the exact spectra differ");
    if (want.spectrum.size() != got.spectrum.size()) return std::string("spectrum sizes differ");
    double absSum = 0;
    for (std::size_t i = 0; i < want.sup.pixels().size(); ++i)
        absSum += std::abs(static_cast<double>(want.sup.pixels()[i])) + std::abs(static_cast<double>(want.inf.pixels()[i]));
    for (std::size_t k = 0; k < want.spectrum.size(); ++k) {
        const double a = want.spectrum[k], b = got.spectrum[k];
        const bool same = std::is_floating_point_v<T>
                              ? (a == b || (std::isfinite(a) && std::isfinite(b) &&
                                            std::abs(a - b) <= static_cast<double>(want.sup.pixels().size()) *
                                                                   std::numeric_limits<double>::epsilon() * absSum) ||
                                 (std::isnan(a) && std::isnan(b)))
                              : a == b;
        if (!same) {
            char text[128];
            std::snprintf(text, sizeof text, "spectrum[%zu] = %.10g, expected %.10g", k, b, a);
            return std::string(text);
        }
    }
    return std::nullopt;
}

}  // namespace linescope::test
