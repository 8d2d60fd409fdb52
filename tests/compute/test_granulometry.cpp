// Granulometries (compute/granulometry.h) against their definition: S(λ) is the sum over the
// region of the opening by λ pixels (lineMorph), for every λ, bit for bit — 64-bit integer
// sums, and for float32 the exactly rounded sum, checked with Shewchuk's summation (an
// algorithm of its own, not the engine's ExactSum). Also the supremum over angles against
// the pointwise max of the openings, the other line kinds, the properties users read off the
// curve (S non-increasing, S(1) = Σf, PS = S(λ) − S(λ+1) ≥ 0), thread-count independence,
// the step callback and the bad inputs.
#include "compute/exact_sum.h"
#include "compute/granulometry.h"
#include "compute/line_morph.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

using namespace linescope;

namespace {

// The exactly rounded sum of doubles (Shewchuk's partials with CPython's fsum rounding).
double exactSumOf(const std::vector<double>& values) {
    std::vector<double> partials;
    for (double x : values) {
        std::size_t i = 0;
        for (double y : partials) {
            if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
            const double hi = x + y;
            const double lo = y - (hi - x);
            if (lo != 0.0) partials[i++] = lo;
            x = hi;
        }
        partials.resize(i);
        partials.push_back(x);
    }
    std::size_t n = partials.size();
    double hi = 0.0;
    if (n > 0) {
        double lo = 0.0;
        hi = partials[--n];
        while (n > 0) {
            const double x = hi;
            const double y = partials[--n];
            hi = x + y;
            lo = y - (hi - x);
            if (lo != 0.0) break;
        }
        if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
            const double y = lo * 2;
            const double x = hi + y;
            if (y == x - hi) hi = x;
        }
    }
    return hi;
}

// Which pixels a request sums.
bool summed(const GranulometryRequest& req, int x, int y) {
    if (req.rect && (x < req.rect->x || y < req.rect->y || x >= req.rect->x + req.rect->width ||
                     y >= req.rect->y + req.rect->height))
        return false;
    return req.mask.empty() || req.mask.at(x, y) != 0;
}

// The definition: Σ over the region of img (and, for a difference, minus Σ of `minus`).
template <class T>
struct RegionSum {
    std::int64_t exact = 0;
    double value = 0;
};
template <class T>
RegionSum<T> regionSum(const Image<T>& img, const GranulometryRequest& req, const Image<T>* minus = nullptr) {
    RegionSum<T> s;
    std::vector<double> terms;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            if (!summed(req, x, y)) continue;
            if constexpr (std::is_floating_point_v<T>) {
                terms.push_back(img.at(x, y));
                if (minus) terms.push_back(-static_cast<double>(minus->at(x, y)));
            } else {
                s.exact += img.at(x, y) - (minus ? minus->at(x, y) : 0);
            }
        }
    s.value = std::is_floating_point_v<T> ? exactSumOf(terms) : static_cast<double>(s.exact);
    return s;
}

// The opening (or its supremum over the request's angles) by `length` pixels.
template <class T>
Image<T> openingOf(const Image<T>& f, const GranulometryRequest& req, int length) {
    if (!req.angles) return lineMorph<T>(MorphOp::Open, f.cview(), LineParams{req.angle, length, req.kind});
    Image<T> sup;
    for (int k = 0; k < req.angles->count; ++k) {
        const Image<T> g = lineMorph<T>(MorphOp::Open, f.cview(), LineParams{req.angles->angle(k), length, req.kind});
        if (k == 0) {
            sup = g;
            continue;
        }
        for (int y = 0; y < f.height(); ++y)
            for (int x = 0; x < f.width(); ++x) sup.at(x, y) = std::max(sup.at(x, y), g.at(x, y));
    }
    return sup;
}

template <class T>
std::string caseName(const GranulometryRequest& req, const Image<T>& f, const char* image) {
    char a[48];
    if (req.angles) std::snprintf(a, sizeof a, "sup over %d angles from %.6g", req.angles->count, req.angles->start);
    else std::snprintf(a, sizeof a, "angle %.10g", req.angle);
    return std::string(lineKindName(req.kind)) + " " + test::describe(f) + " " + image + " " + a + " Λ " +
           std::to_string(req.maxLength) + (req.rect ? " rect" : "") + (req.mask.empty() ? "" : " mask");
}

// Every S(λ) and PS(λ) of the engine equals the definition's, bit for bit; returns "" or the first difference.
template <class T>
std::string compareWithOpenings(const Image<T>& f, const GranulometryRequest& req, const EngineOptions& opt = {}) {
    const std::optional<Granulometry> g = granulometry<T>(f.cview(), req, opt);
    if (!g) return "no result";
    const auto L = static_cast<std::size_t>(req.maxLength);
    if (g->sums.size() != L + 1 || g->spectrum.size() != L) return "wrong sizes";
    Image<T> previous = openingOf(f, req, 1);
    for (int length = 1; length <= req.maxLength + 1; ++length) {
        const RegionSum<T> s = regionSum(previous, req);
        const auto i = static_cast<std::size_t>(length - 1);
        const bool same = std::is_floating_point_v<T> ? std::bit_cast<std::uint64_t>(s.value) == std::bit_cast<std::uint64_t>(g->sums[i])
                                                      : s.exact == g->sumsExact[i] && s.value == g->sums[i];
        if (!same) {
            char m[160];
            std::snprintf(m, sizeof m, "S(%d): the sum of openings is %.17g, the granulometry %.17g", length, s.value, g->sums[i]);
            return m;
        }
        if (length == req.maxLength + 1) break;
        const Image<T> next = openingOf(f, req, length + 1);
        const RegionSum<T> ps = regionSum(previous, req, &next);
        const bool samePs = std::is_floating_point_v<T> ? std::bit_cast<std::uint64_t>(ps.value) == std::bit_cast<std::uint64_t>(g->spectrum[i])
                                                        : ps.exact == g->spectrumExact[i] && ps.value == g->spectrum[i];
        if (!samePs) {
            char m[160];
            std::snprintf(m, sizeof m, "PS(%d): the openings give %.17g, the granulometry %.17g", length, ps.value, g->spectrum[i]);
            return m;
        }
        previous = next;
    }
    return {};
}

template <class T>
Image<T> testImage(int w, int h, std::uint64_t seed, test::ImageKind kind) {
    if constexpr (std::is_floating_point_v<T>) return test::finiteFloatImage(w, h, seed, kind);
    else return test::randomImage<T>(w, h, seed, kind);
}

Image<std::uint8_t> randomMask(int w, int h, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Image<std::uint8_t> m(w, h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) m.at(x, y) = rng() % 3 ? 1 : 0;
    return m;
}

const std::vector<test::ImageKind> kKinds = {test::ImageKind::Noise, test::ImageKind::FewLevels, test::ImageKind::Blocky};

}  // namespace

class TestGranulometry : public QObject {
    Q_OBJECT

    template <class T>
    void oneAngleEqualsOpenings() {
        std::vector<double> angles = {0, 45, 90, 135, 30.5, 63.7, 112.2, 171.9, -20, 44.99, 135.01};
        std::mt19937_64 rng(18);
        for (int i = 0; i < 3; ++i) angles.push_back(std::uniform_real_distribution<double>(0, 180)(rng));
        const Image<std::uint8_t> mask = randomMask(37, 29, 5);
        std::uint64_t seed = 100;
        for (test::ImageKind kind : kKinds)
            for (double angle : angles)
                for (int region = 0; region < 3; ++region) {
                    const Image<T> f = testImage<T>(37, 29, ++seed, kind);
                    GranulometryRequest req;
                    req.angle = angle;
                    req.maxLength = 64;  // past the longest line: every border case
                    if (region >= 1) req.rect = PixelRect{5, 3, 20, 15};
                    if (region == 2) req.mask = mask.cview();
                    const std::string why = compareWithOpenings(f, req);
                    LINESCOPE_CHECK(why.empty(), caseName(req, f, test::imageKindName(kind)) + ": " + why);
                }
    }

private slots:
    void exactSumIsTheRoundedSum() {
        // Huge, tiny, denormal and cancelling terms with counts of either sign.
        std::mt19937_64 rng(7);
        const float specials[] = {std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
                                  std::numeric_limits<float>::denorm_min(), 1e-40f, -3e-39f, 1.0f, -1.0f, 0.1f, 1e30f,
                                  16777217.0f, 3.0f, -0.0f};
        for (int trial = 0; trial < 200; ++trial) {
            ExactSum sum;
            std::vector<double> terms;
            const int n = 1 + static_cast<int>(rng() % 40);
            for (int i = 0; i < n; ++i) {
                float v;
                if (rng() % 3 == 0) v = specials[rng() % std::size(specials)];
                else v = std::ldexp(std::uniform_real_distribution<float>(-1, 1)(rng), static_cast<int>(rng() % 200) - 140);
                const std::int64_t count = static_cast<std::int64_t>(rng() % 2000000) - 1000000;
                sum.add(v, count);
                // v · count is exact in double only for small counts: split it into exact parts.
                const std::int64_t hi = count / 4096, lo = count % 4096;
                terms.push_back(static_cast<double>(v) * static_cast<double>(hi) * 4096.0);
                terms.push_back(static_cast<double>(v) * static_cast<double>(lo));
            }
            const double expected = exactSumOf(terms);
            QCOMPARE(std::bit_cast<std::uint64_t>(sum.toDouble() + 0.0), std::bit_cast<std::uint64_t>(expected + 0.0));
        }
        ExactSum a;
        a.addInteger(-5);
        a.add(2.5f, 2);
        QCOMPARE(a.toDouble(), 0.0);
        QVERIFY(a.isZero());
    }

    void oneAngleU8() { oneAngleEqualsOpenings<std::uint8_t>(); }
    void oneAngleU16() { oneAngleEqualsOpenings<std::uint16_t>(); }
    void oneAngleFloat() { oneAngleEqualsOpenings<float>(); }

    // Long lines (a row of 300 pixels, a column of 300) and lengths up to 200.
    void longLines() {
        for (const auto& [w, h] : std::vector<std::pair<int, int>>{{300, 7}, {7, 300}, {160, 90}}) {
            for (double angle : {0.0, 90.0, 12.5, 101.0}) {
                const Image<std::uint8_t> f = test::randomImage<std::uint8_t>(w, h, 900 + w, test::ImageKind::Blocky);
                GranulometryRequest req;
                req.angle = angle;
                req.maxLength = w == 160 ? 96 : 200;
                const std::string why = compareWithOpenings(f, req);
                LINESCOPE_CHECK(why.empty(), caseName(req, f, "blocky") + ": " + why);
            }
        }
        const Image<float> f = test::finiteFloatImage(250, 9, 4, test::ImageKind::Noise);
        GranulometryRequest req;
        req.angle = 3.0;
        req.maxLength = 180;
        req.rect = PixelRect{-10, 2, 100, 50};  // clipped to the image
        const std::string why = compareWithOpenings(f, req);
        LINESCOPE_CHECK(why.empty(), caseName(req, f, "noise") + ": " + why);
    }

    void supremumOverAngles() {
        std::uint64_t seed = 300;
        for (const AngleSet& angles : {AngleSet{0, 30, 6}, AngleSet{10, 7.5, 4}, AngleSet{44, 1, 3}}) {
            const Image<std::uint8_t> f8 = test::randomImage<std::uint8_t>(23, 19, ++seed, test::ImageKind::Blocky);
            const Image<float> ff = test::finiteFloatImage(23, 19, ++seed, test::ImageKind::Noise);
            GranulometryRequest req;
            req.angles = angles;
            req.maxLength = 14;
            std::string why = compareWithOpenings(f8, req);
            LINESCOPE_CHECK(why.empty(), caseName(req, f8, "blocky") + ": " + why);
            req.rect = PixelRect{2, 4, 11, 9};
            why = compareWithOpenings(ff, req);
            LINESCOPE_CHECK(why.empty(), caseName(req, ff, "noise") + ": " + why);
        }
    }

    // Segment and periodic lines: one opening per length, through the same definition.
    void otherLineKinds() {
        for (LineKind kind : {LineKind::Segment, LineKind::Periodic})
            for (double angle : {0.0, 30.0, 90.0, 153.4}) {
                const Image<std::uint16_t> f = test::randomImage<std::uint16_t>(21, 17, 40, test::ImageKind::FewLevels);
                GranulometryRequest req;
                req.angle = angle;
                req.kind = kind;
                req.maxLength = 12;
                const std::string why = compareWithOpenings(f, req);
                LINESCOPE_CHECK(why.empty(), caseName(req, f, "few levels") + ": " + why);
            }
    }

    // What a user reads off the curve: S(1) = Σf, S non-increasing (PS ≥ 0), the residual
    // closes the budget, and the numbers do not depend on the thread count.
    void propertiesOfTheCurve() {
        for (double angle : {0.0, 27.0, 90.0, 140.0}) {
            const Image<std::uint16_t> f = test::randomImage<std::uint16_t>(120, 80, 77, test::ImageKind::Noise);
            GranulometryRequest req;
            req.angle = angle;
            req.maxLength = 150;
            const Granulometry g = *granulometry<std::uint16_t>(f.cview(), req, EngineOptions{Backend::Cpu, LineAlgorithm::Auto, 1});
            std::int64_t total = 0;
            for (std::uint16_t v : f.pixels()) total += v;
            QCOMPARE(g.sumsExact[0], total);
            QCOMPARE(g.pixels, 120LL * 80);
            std::int64_t spectrumTotal = 0;
            for (int l = 1; l <= req.maxLength; ++l) {
                const auto i = static_cast<std::size_t>(l - 1);
                QVERIFY2(g.sumsExact[i] >= g.sumsExact[i + 1], ("S increases at λ " + std::to_string(l)).c_str());
                QCOMPARE(g.spectrumExact[i], g.sumsExact[i] - g.sumsExact[i + 1]);
                spectrumTotal += g.spectrumExact[i];
            }
            QCOMPARE(spectrumTotal + g.sumsExact.back(), total);
            for (int threads : {2, 3, 7}) {
                const Granulometry h =
                    *granulometry<std::uint16_t>(f.cview(), req, EngineOptions{Backend::Cpu, LineAlgorithm::Auto, threads});
                QCOMPARE(h.sumsExact, g.sumsExact);
            }
        }
        const Image<float> ff = test::finiteFloatImage(64, 48, 3, test::ImageKind::Noise);
        GranulometryRequest req;
        req.angle = 60;
        req.maxLength = 40;
        const Granulometry a = *granulometry<float>(ff.cview(), req, EngineOptions{Backend::Cpu, LineAlgorithm::Auto, 1});
        const Granulometry b = *granulometry<float>(ff.cview(), req, EngineOptions{Backend::Cpu, LineAlgorithm::Auto, 5});
        QCOMPARE(a.sums, b.sums);
        for (std::size_t i = 0; i + 1 < a.sums.size(); ++i) QVERIFY(a.sums[i] >= a.sums[i + 1]);
        // The engine's own brute force (--algorithm reference) gives the same numbers.
        const Granulometry r = *granulometry<float>(ff.cview(), req, EngineOptions{Backend::Cpu, LineAlgorithm::Reference, 1});
        QCOMPARE(r.sums, a.sums);
        QCOMPARE(r.spectrum, a.spectrum);
    }

    void stepCallbackReportsAndStops() {
        const Image<std::uint8_t> f = test::randomImage<std::uint8_t>(30, 20, 1);
        GranulometryRequest req;
        req.maxLength = 5;
        std::vector<int> seen;
        const auto record = [&](int done, int total) {
            seen.push_back(done * 100 + total);
            return true;
        };
        QVERIFY(granulometry<std::uint8_t>(f.cview(), req, {}, record));
        QCOMPARE(seen, (std::vector<int>{1, 101}));
        seen.clear();
        req.angles = AngleSet{0, 45, 4};
        QVERIFY(granulometry<std::uint8_t>(f.cview(), req, {}, record));
        QCOMPARE(seen, (std::vector<int>{6, 106, 206, 306, 406, 506, 606}));
        int calls = 0;
        const auto stopAtTwo = [&](int done, int) { ++calls; return done < 2; };
        QVERIFY(!granulometry<std::uint8_t>(f.cview(), req, {}, stopAtTwo));
        QCOMPARE(calls, 3);
    }

    void badInputs() {
        const Image<float> f = test::finiteFloatImage(10, 8, 1, test::ImageKind::Noise);
        const auto refuses = [&](const Image<float>& img, const GranulometryRequest& req, const char* words) {
            try {
                granulometry<float>(img.cview(), req);
            } catch (const Error& e) {
                return std::string(e.what()).find(words) != std::string::npos;
            }
            return false;
        };
        GranulometryRequest req;
        req.maxLength = 0;
        QVERIFY(refuses(f, req, "longest length must be 1"));
        req.maxLength = 4;
        req.angle = std::numeric_limits<double>::infinity();
        QVERIFY(refuses(f, req, "finite"));
        req.angle = 10;
        req.rect = PixelRect{20, 0, 5, 5};
        QVERIFY(refuses(f, req, "lies outside the 10x8 image"));
        req.rect = PixelRect{0, 0, 0, 5};
        QVERIFY(refuses(f, req, "is empty"));
        req.rect.reset();
        const Image<std::uint8_t> wrong(9, 8, 1), zeros(10, 8, 0);
        req.mask = wrong.cview();
        QVERIFY(refuses(f, req, "mask is 9x8"));
        req.mask = zeros.cview();
        QVERIFY(refuses(f, req, "holds no pixel"));
        req.mask = {};
        Image<float> g = f;
        g.at(3, 4) = std::numeric_limits<float>::infinity();
        QVERIFY(refuses(g, req, "infinity at (3, 4)"));
        g.at(3, 4) = std::numeric_limits<float>::quiet_NaN();
        QVERIFY(refuses(g, req, "NaN"));
        QVERIFY(refuses(Image<float>(), req, "empty"));
    }
};

QTEST_MAIN(TestGranulometry)
#include "test_granulometry.moc"
