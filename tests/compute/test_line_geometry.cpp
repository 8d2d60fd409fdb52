// LineFamily against design.md §1: the fixed-point slope, the x-/y-major split, and the
// partition of the image into contiguous lines, checked by brute-force scans.
#include "compute/image.h"
#include "compute/line_band_extent.h"
#include "compute/line_geometry.h"
#include "compute/pixel_rules.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

using namespace linescope;

namespace {

std::string where(double angle, int w, int h) {
    return "angle " + std::to_string(angle) + " size " + std::to_string(w) + "x" + std::to_string(h);
}

// The slope of design.md §1, computed here from the words of the spec.
std::int64_t expectedSlope(double normalized, bool yMajor) {
    const double r = normalized * std::numbers::pi / 180.0;
    const double s = yMajor ? -std::cos(r) / std::sin(r) : -std::tan(r);
    return std::llround(s * 65536.0);
}

}  // namespace

class TestLineGeometry : public QObject {
    Q_OBJECT

private slots:
    void normalizeAngleValues_data() {
        QTest::addColumn<double>("in");
        QTest::addColumn<double>("out");
        QTest::newRow("0") << 0.0 << 0.0;
        QTest::newRow("-0") << -0.0 << 0.0;
        QTest::newRow("45") << 45.0 << 45.0;
        QTest::newRow("179.5") << 179.5 << 179.5;
        QTest::newRow("180") << 180.0 << 0.0;
        QTest::newRow("360") << 360.0 << 0.0;
        QTest::newRow("225") << 225.0 << 45.0;
        QTest::newRow("-45") << -45.0 << 135.0;
        QTest::newRow("-180") << -180.0 << 0.0;
        QTest::newRow("-190") << -190.0 << 170.0;
        QTest::newRow("540.25") << 540.25 << 0.25;
        QTest::newRow("-1e-17 (rounds to 180)") << -1e-17 << 0.0;
    }
    void normalizeAngleValues() {
        QFETCH(double, in);
        QFETCH(double, out);
        const double got = normalizeAngle(in);
        QCOMPARE(got, out);
        QVERIFY2(!std::signbit(got), "normalizeAngle must not return -0");
    }

    void normalizeAngleRange() {
        // Every finite angle lands in [0, 180) and differs from the input by a multiple of 180.
        for (double a : test::interestingAngles(200, 7)) {
            const double n = normalizeAngle(a);
            LINESCOPE_CHECK(n >= 0.0 && n < 180.0, ("normalizeAngle(" + std::to_string(a) + ") = " + std::to_string(n)));
            const double turns = (a - n) / 180.0;
            LINESCOPE_CHECK(std::abs(turns - std::round(turns)) < 1e-6,
                     ("normalizeAngle(" + std::to_string(a) + ") = " + std::to_string(n)));
        }
        QVERIFY(std::abs(normalizeAngle(-0.0001) - 179.9999) < 1e-9);
    }

    void normalizeAngleRejectsNonFinite() {
        QVERIFY_THROWS_EXCEPTION(Error, normalizeAngle(std::numeric_limits<double>::quiet_NaN()));
        QVERIFY_THROWS_EXCEPTION(Error, normalizeAngle(std::numeric_limits<double>::infinity()));
        QVERIFY_THROWS_EXCEPTION(Error, normalizeAngle(-std::numeric_limits<double>::infinity()));
    }

    void segmentOfValues() {
        const int expect[][3] = {{1, 0, 0}, {2, 0, 1}, {3, 1, 1}, {4, 1, 2}, {5, 2, 2}, {6, 2, 3}, {41, 20, 20}, {250, 124, 125}};
        for (const auto& e : expect) {
            const Segment s = segmentOf(e[0]);
            LINESCOPE_CHECK(s.a == e[1] && s.b == e[2] && s.length() == e[0], ("segmentOf(" + std::to_string(e[0]) + ")"));
        }
        for (int l = 1; l < 300; ++l) {
            const Segment s = segmentOf(l);
            QCOMPARE(s.a, (l - 1) / 2);
            QCOMPARE(s.length(), l);
            QVERIFY(s.b == s.a || s.b == s.a + 1);  // even λ: the extra pixel is on the + side
        }
        QVERIFY_THROWS_EXCEPTION(Error, segmentOf(0));
        QVERIFY_THROWS_EXCEPTION(Error, segmentOf(-3));
    }

    void majorAxisBoundaries() {
        struct Case { double angle; bool yMajor; std::int32_t slope; };
        // 45 and 135 themselves are x-major with |S| = 65536 (a pixel step per pixel).
        const Case cases[] = {{0, false, 0},          {45, false, -65536},  {135, false, 65536},
                              {90, true, 0},          {180, false, 0},      {-45, false, 65536},
                              {225, false, -65536},   {-90, true, 0},       {26.56505117707799, false, -32768}};
        for (const Case& c : cases) {
            const LineFamily f = lineFamily(c.angle, 10, 10);
            LINESCOPE_CHECK(f.yMajor == c.yMajor && f.slope == c.slope,
                     ("angle " + std::to_string(c.angle) + ": yMajor " + std::to_string(f.yMajor) +
                                " slope " + std::to_string(f.slope)));
        }
        QVERIFY(lineFamily(45.0000001, 5, 5).yMajor);
        QVERIFY(lineFamily(44.9999999, 5, 5).yMajor == false);
        QVERIFY(lineFamily(134.9999999, 5, 5).yMajor);
        QVERIFY(lineFamily(135.0000001, 5, 5).yMajor == false);
        QVERIFY(lineFamily(std::nextafter(45.0, 90.0), 5, 5).yMajor);
        QVERIFY(!lineFamily(std::nextafter(135.0, 180.0), 5, 5).yMajor);
        QVERIFY(lineFamily(std::nextafter(135.0, 0.0), 5, 5).yMajor);
    }

    void slopeMatchesDefinition() {
        for (double a : test::interestingAngles(300, 3)) {
            const LineFamily f = lineFamily(a, 7, 9);
            const double n = normalizeAngle(a);
            QCOMPARE(f.angle, n);
            const bool yMajor = n > 45.0 && n < 135.0;
            LINESCOPE_CHECK(f.yMajor == yMajor, ("angle " + std::to_string(a)));
            LINESCOPE_CHECK(f.slope == expectedSlope(n, yMajor),
                     ("angle " + std::to_string(a) + ": slope " + std::to_string(f.slope) + ", expected " +
                                std::to_string(expectedSlope(n, yMajor))));
            QVERIFY(f.slope >= -65536 && f.slope <= 65536);
            QCOMPARE(f.width, 7);
            QCOMPARE(f.height, 9);
            QCOMPARE(f.majorLength(), yMajor ? 9 : 7);
            QCOMPARE(f.minorLength(), yMajor ? 7 : 9);
        }
    }

    void offIsRoundedFixedPoint() {
        // off(t) = floor((t·S + 2^15) / 2^16), including negative products (arithmetic shift).
        for (double a : {10.0, 30.0, 44.0, 60.0, 100.0, 150.0, 170.0}) {
            const LineFamily f = lineFamily(a, 1000, 1000);
            for (std::int64_t t = 0; t < 1000; t += 7) {
                const double exact = std::floor((static_cast<double>(t) * f.slope + 32768.0) / 65536.0);
                QCOMPARE(static_cast<double>(f.off(t)), exact);
            }
            QCOMPARE(f.off(0), std::int64_t{0});
        }
    }

    void directionFollowsConvention() {
        // d = (cos α, −sin α): walking a line for many pixels must head along ±d on screen.
        for (double a : test::interestingAngles(50, 11)) {
            const LineFamily f = lineFamily(a, 2000, 2000);
            const std::int64_t c = f.yMajor ? 1000 - f.off(1000) : 1000 - f.off(1000);
            std::int64_t x0, y0, x1, y1;
            f.pixel(c, 0, x0, y0);
            f.pixel(c, 1999, x1, y1);
            const double r = f.angle * std::numbers::pi / 180.0;
            const double dx = static_cast<double>(x1 - x0), dy = static_cast<double>(y1 - y0);
            const double cross = dx * -std::sin(r) - dy * std::cos(r);
            // Rounding to whole pixels and to 1/65536 in the slope leaves at most ~1 pixel across.
            LINESCOPE_CHECK(std::abs(cross) <= 1.5, ("angle " + std::to_string(a) + ": line heads off its direction by " +
                                                       std::to_string(cross) + " px"));
        }
    }

    void partitionAndExtent() {
        const int sizes[][2] = {{1, 1},  {1, 7},  {7, 1},   {1, 40}, {40, 1},  {2, 3},
                                {17, 5}, {5, 17}, {31, 64}, {64, 31}, {97, 61}, {3, 120}};
        std::vector<double> angles = test::interestingAngles(40, 5);
        for (double a = 0; a < 180; a += 2.5) angles.push_back(a);
        for (const auto& sz : sizes)
            for (double a : angles) checkFamily(lineFamily(a, sz[0], sz[1]), a);
    }

    // The closed-form band extent (the GPU band kernel's) against a scan of every position,
    // for every slope sign, bands on and off the image, and lengths from 1 to 300.
    void bandExtentMatchesScan() {
        std::mt19937_64 rng(42);
        int checked = 0;
        for (int i = 0; i < test::scaled(20000); ++i) {
            const int n = 1 + static_cast<int>(rng() % 300), m = 1 + static_cast<int>(rng() % 300);
            const std::int32_t slope = rng() % 8 == 0 ? static_cast<std::int32_t>(rng() % 3) - 1 + (rng() % 2 ? 65536 : -65536) * static_cast<std::int32_t>(rng() % 2)
                                                      : static_cast<std::int32_t>(rng() % 131073) - 65536;
            const int lanes = 1 << (rng() % 6);
            const std::int64_t c0 = static_cast<std::int64_t>(rng() % (2 * (n + m) + 1)) - (n + m);
            // Half the cases with the phase of a zone (any value in [0, 2^16)).
            const std::int64_t phase = rng() % 2 ? 32768 : static_cast<std::int64_t>(rng() % 65536);
            int lo = 0, hi = 0;
            bandExtent(slope, c0, lanes, n, m, lo, hi, phase);
            int wantLo = n, wantHi = -1;
            for (int t = 0; t < n; ++t) {
                const std::int64_t off = (static_cast<std::int64_t>(t) * slope + phase) >> 16;
                if (off >= -(c0 + lanes - 1) && off <= m - 1 - c0) {
                    wantLo = std::min(wantLo, t);
                    wantHi = std::max(wantHi, t);
                }
            }
            const bool empty = wantHi < wantLo;
            const std::string ctx = "slope " + std::to_string(slope) + " phase " + std::to_string(phase) + " c0 " +
                                    std::to_string(c0) + " lanes " +
                                    std::to_string(lanes) + " n " + std::to_string(n) + " m " + std::to_string(m) +
                                    ": got [" + std::to_string(lo) + ", " + std::to_string(hi) + "], expected [" +
                                    std::to_string(wantLo) + ", " + std::to_string(wantHi) + "]";
            QVERIFY2(empty ? lo > hi : (lo == wantLo && hi == wantHi), ctx.c_str());
            ++checked;
        }
        QVERIFY(checked > 0);
    }

    // Zones (compute/zone_plan.h): a sub-image starting at major position T0 draws the whole
    // image's lines with the phase φ of T0: off(t + T0) = off_φ(t) + q, for any slope, t and
    // T0 (negative ones too), and phases compose (a zone of a zone).
    void phaseShiftsLineIndices() {
        std::mt19937_64 rng(17);
        auto anyInt = [&](std::int64_t bound) {
            return static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(2 * bound + 1)) - bound;
        };
        const std::int64_t slopes[] = {0, 1, -1, 32768, -32768, 65535, -65535, 65536, -65536, INT32_MAX, INT32_MIN};
        for (int i = 0; i < test::scaled(200000); ++i) {
            const std::int64_t S = i < 11 * 50 ? slopes[i % 11] : (rng() % 4 ? anyInt(65536) : anyInt(INT32_MAX));
            const std::int64_t bound = rng() % 2 ? 1000 : 40'000'000;
            const std::int64_t t = anyInt(bound), T0 = anyInt(bound), T1 = anyInt(bound);
            const std::int64_t phase = linePhaseAt(T0, S), shift = lineShiftAt(T0, S);
            const std::string ctx = "S " + std::to_string(S) + " t " + std::to_string(t) + " T0 " + std::to_string(T0);
            QVERIFY2(phase >= 0 && phase < 65536, ctx.c_str());
            QVERIFY2(lineOffset(t + T0, S) == lineOffset(t, S, phase) + shift, ctx.c_str());
            QVERIFY2(shift == lineOffset(T0, S), ctx.c_str());  // the constant is off(T0) itself
            // A zone at T1 within the zone at T0 is the zone at T0 + T1.
            QVERIFY2(linePhaseAt(T1, S, phase) == linePhaseAt(T0 + T1, S), ctx.c_str());
            QVERIFY2(lineShiftAt(T1, S, phase) + shift == lineShiftAt(T0 + T1, S), ctx.c_str());
        }
    }

    // stripFamily: the lines of a strip of rows are the whole image's lines cut to the strip,
    // each one whole piece, relabelled by a constant (y-major) or by the strip's first row
    // (x-major); the strip's family is itself a partition with exact extents.
    void stripFamiliesDrawTheWholeImagesLines() {
        std::mt19937_64 rng(23);
        const auto angles = test::interestingAngles(24, 23);
        for (int i = 0; i < test::scaled(300); ++i) {
            const int w = 1 + static_cast<int>(rng() % 90), h = 1 + static_cast<int>(rng() % 90);
            const double angle = rng() % 2 ? angles[rng() % angles.size()]
                                           : std::uniform_real_distribution<double>(0, 180)(rng);
            const LineFamily whole = lineFamily(angle, w, h);
            const int y0 = static_cast<int>(rng() % h), rows = 1 + static_cast<int>(rng() % (h - y0));
            const LineFamily strip = stripFamily(whole, y0, rows);
            const std::string ctx = where(angle, w, h) + " rows " + std::to_string(y0) + "+" + std::to_string(rows);
            checkFamily(strip, angle);
            QVERIFY2(strip.slope == whole.slope && strip.width == w && strip.height == rows, ctx.c_str());
            // The whole image's line of every pixel: c = minor − off(major).
            auto wholeLine = [&](std::int64_t x, std::int64_t y) { return whole.yMajor ? x - whole.off(y) : y - whole.off(x); };
            const std::int64_t relabel = whole.yMajor ? lineShiftAt(y0, whole.slope) : -y0;
            for (std::int64_t c = strip.firstLine(); c <= strip.lastLine(); ++c) {
                std::int64_t t0, t1;
                strip.extent(c, t0, t1);
                for (std::int64_t t = t0; t <= t1; ++t) {
                    std::int64_t x, y;
                    strip.pixel(c, t, x, y);
                    const std::int64_t cw = wholeLine(x, y + y0);
                    QVERIFY2(cw == c - relabel, (ctx + ": strip line " + std::to_string(c) + " is whole line " +
                                                 std::to_string(cw) + " at t " + std::to_string(t)).c_str());
                }
            }
        }
    }

    void rejectsNonFinite() {
        QVERIFY_THROWS_EXCEPTION(Error, lineFamily(std::numeric_limits<double>::quiet_NaN(), 4, 4));
        QVERIFY_THROWS_EXCEPTION(Error, lineFamily(std::numeric_limits<double>::infinity(), 4, 4));
        QVERIFY_THROWS_EXCEPTION(Error, lineFamily(-std::numeric_limits<double>::infinity(), 4, 4));
    }

private:
    // Every pixel on exactly one line; each line's in-image t-range is contiguous and equals
    // extent(); lines outside [firstLine, lastLine] miss the image and the two ends touch it.
    void checkFamily(const LineFamily& f, double angle) {
        const int w = f.width, h = f.height;
        const std::string ctx = where(angle, w, h);
        const std::int64_t n = f.majorLength(), m = f.minorLength();
        std::vector<int> visits(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
        const std::int64_t first = f.firstLine(), last = f.lastLine();
        LINESCOPE_CHECK(first <= last, (ctx + ": no lines"));
        auto scan = [&](std::int64_t c, std::int64_t& lo, std::int64_t& hi, bool& contiguous) {
            lo = -1; hi = -2; contiguous = true;
            for (std::int64_t t = 0; t < n; ++t) {
                const std::int64_t u = c + f.off(t);
                if (u < 0 || u >= m) continue;
                if (lo < 0) lo = t;
                else if (t != hi + 1) contiguous = false;
                hi = t;
            }
        };
        for (std::int64_t c = first - 3; c <= last + 3; ++c) {
            std::int64_t lo, hi, t0, t1;
            bool contiguous;
            scan(c, lo, hi, contiguous);
            f.extent(c, t0, t1);
            const std::string lc = ctx + " line " + std::to_string(c);
            LINESCOPE_CHECK(contiguous, (lc + ": in-image part is not contiguous"));
            if (lo < 0) {
                LINESCOPE_CHECK(t0 > t1, (lc + ": extent not empty for a line that misses the image"));
                LINESCOPE_CHECK(c < first || c > last || (c != first && c != last),
                         (lc + ": first/last line misses the image"));
                continue;
            }
            LINESCOPE_CHECK(c >= first && c <= last, (lc + ": touches the image outside [firstLine, lastLine]"));
            LINESCOPE_CHECK(t0 == lo && t1 == hi, (lc + ": extent [" + std::to_string(t0) + ", " + std::to_string(t1) +
                                                      "], brute force [" + std::to_string(lo) + ", " +
                                                      std::to_string(hi) + "]"));
            for (std::int64_t t = t0; t <= t1; ++t) {
                std::int64_t x, y;
                f.pixel(c, t, x, y);
                const std::int64_t ex = f.yMajor ? c + f.off(t) : t, ey = f.yMajor ? t : c + f.off(t);
                LINESCOPE_CHECK(x == ex && y == ey, (lc + ": pixel() disagrees with the definition"));
                LINESCOPE_CHECK(x >= 0 && x < w && y >= 0 && y < h, (lc + ": pixel outside the image"));
                ++visits[static_cast<std::size_t>(y * w + x)];
            }
        }
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const int v = visits[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)];
                LINESCOPE_CHECK(v == 1, (ctx + ": pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") lies on " +
                                            std::to_string(v) + " lines"));
            }
        // The pixel's own line: c = minor − off(major).
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const std::int64_t t = f.yMajor ? y : x, u = f.yMajor ? x : y;
                const std::int64_t c = u - f.off(t);
                LINESCOPE_CHECK(c >= first && c <= last, (ctx + ": pixel's line outside [firstLine, lastLine]"));
            }
    }
};

QTEST_APPLESS_MAIN(TestLineGeometry)
#include "test_line_geometry.moc"
