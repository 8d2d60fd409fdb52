// The lesson's geometry and per-pixel operators (issue 21): the line path through a pixel and
// a stage's window are the engine's own pixels (line_geometry.h, line_kernel.h), the value of
// an operator at one pixel equals lineMorph's there, and the response over a sweep's angles at
// a pixel has the sweep's supremum as its maximum and its orientation as its argmax.
#include "compute/line_geometry.h"
#include "compute/line_kernel.h"
#include "compute/line_morph.h"
#include "compute/line_morph_at.h"
#include "compute/line_window.h"
#include "compute/sweep.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <algorithm>
#include <random>
#include <set>
#include <string>

using namespace linescope;

namespace {

template <class T>
Image<T> imageFor(int w, int h, std::uint64_t seed, test::ImageKind kind) {
    if constexpr (std::is_floating_point_v<T>) return test::finiteFloatImage(w, h, seed, kind);
    else return test::randomImage<T>(w, h, seed, kind);
}

constexpr LineKind kKinds[] = {LineKind::Paths, LineKind::Segment, LineKind::Periodic};

QString where(LineKind kind, MorphOp op, double angle, int length, int x, int y) {
    return QString("%1 %2 angle %3 λ %4 at (%5, %6)")
        .arg(lineKindName(kind), morphOpName(op))
        .arg(angle, 0, 'g', 10)
        .arg(length)
        .arg(x)
        .arg(y);
}

// Every pixel operator against lineMorph over whole images: each (x, y) is checked.
template <class T>
void compareEveryPixel(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    const int sizes[][2] = {{1, 1}, {9, 4}, {5, 13}, {23, 17}};
    const std::vector<test::ImageKind> kinds = test::allImageKinds();
    const std::vector<double> angles = test::interestingAngles(6, seed);
    int cases = 0;
    for (const auto& sz : sizes)
        for (double angle : angles) {
            const int length = 1 + static_cast<int>(rng() % (cases % 3 == 0 ? 40u : 9u));
            const auto op = static_cast<MorphOp>(rng() % 5);
            const LineKind kind = kKinds[static_cast<std::size_t>(cases) % 3];
            const Image<T> f = imageFor<T>(sz[0], sz[1], seed + static_cast<std::uint64_t>(cases),
                                           kinds[static_cast<std::size_t>(cases) % kinds.size()]);
            ++cases;
            const LineParams p{angle, length, kind};
            const Image<T> want = lineMorph<T>(op, f.cview(), p);
            for (int y = 0; y < f.height(); ++y)
                for (int x = 0; x < f.width(); ++x) {
                    const T got = lineMorphAt<T>(op, f.cview(), x, y, p);
                    if (!test::samePixel(want.at(x, y), got))
                        QFAIL(qPrintable(where(kind, op, angle, length, x, y) + ": lineMorph " +
                                         QString::fromStdString(test::pixelString(want.at(x, y))) + ", at the pixel " +
                                         QString::fromStdString(test::pixelString(got))));
                }
        }
}

}  // namespace

class TestLineWindow : public QObject {
    Q_OBJECT
private slots:
    // Every line of the family, walked pixel by pixel, is the path linePathThrough gives for
    // each of its pixels, and the paths cover the image once.
    void linePathIsTheFamilysLine() {
        for (const int w : {1, 7, 31})
            for (const int h : {1, 5, 19})
                for (double angle : test::interestingAngles(4, 7)) {
                    const LineFamily fam = lineFamily(angle, w, h);
                    long long covered = 0;
                    for (std::int64_t c = fam.firstLine(); c <= fam.lastLine(); ++c) {
                        std::int64_t t0 = 0, t1 = -1;
                        fam.extent(c, t0, t1);
                        std::vector<PixelAt> line;
                        for (std::int64_t t = t0; t <= t1; ++t) {
                            std::int64_t x = 0, y = 0;
                            fam.pixel(c, t, x, y);
                            line.push_back({static_cast<int>(x), static_cast<int>(y)});
                        }
                        covered += static_cast<long long>(line.size());
                        for (std::size_t i = 0; i < line.size(); ++i) {
                            const LinePathThrough path = linePathThrough(angle, w, h, line[i].x, line[i].y);
                            QVERIFY2(path.pixels == line, qPrintable(QString("angle %1 %2x%3 line %4").arg(angle).arg(w).arg(h).arg(c)));
                            QCOMPARE(path.index, static_cast<int>(i));
                        }
                    }
                    QCOMPARE(covered, static_cast<long long>(w) * h);
                }
        QVERIFY_THROWS_EXCEPTION(Error, linePathThrough(10, 4, 4, 4, 0));
    }

    // A stage's window: the line path's positions t + k (erosion) and t − k (dilation), or the
    // kernel's offsets, inside the image; k = 0 is the pixel itself; its minimum (maximum) is
    // the engine's erosion (dilation) there, for odd and even λ.
    void stageWindowIsWhatTheEngineReads() {
        std::mt19937_64 rng(21);
        for (const LineKind kind : kKinds)
            for (double angle : test::interestingAngles(5, 3))
                for (const int length : {1, 2, 5, 8, 30}) {
                    const Image<std::uint8_t> f = test::randomImage<std::uint8_t>(17, 13, rng(), test::ImageKind::Noise);
                    const LineParams p{angle, length, kind};
                    const Image<std::uint8_t> eroded = lineMorph<std::uint8_t>(MorphOp::Erode, f.cview(), p);
                    const Image<std::uint8_t> dilated = lineMorph<std::uint8_t>(MorphOp::Dilate, f.cview(), p);
                    const std::vector<Offset> offsets = lineKernel(kind, angle, length).offsets();
                    const Segment seg = segmentOf(length);
                    for (int y = 0; y < f.height(); ++y)
                        for (int x = 0; x < f.width(); ++x) {
                            const auto erosion = stageWindow(true, kind, angle, length, f.width(), f.height(), x, y);
                            const auto dilation = stageWindow(false, kind, angle, length, f.width(), f.height(), x, y);
                            std::uint8_t lo = 255, hi = 0;
                            bool sawOrigin = false;
                            for (const WindowPixel& w : erosion) {
                                lo = std::min(lo, f.at(w.x, w.y));
                                QVERIFY(w.k >= -seg.a && w.k <= seg.b);
                                if (w.k == 0) sawOrigin = w.x == x && w.y == y;
                                if (kind != LineKind::Paths) {  // p + the k-th offset
                                    const Offset o = offsets[static_cast<std::size_t>(w.k + seg.a)];
                                    QCOMPARE(w.x - x, o.dx);
                                    QCOMPARE(w.y - y, o.dy);
                                }
                            }
                            for (const WindowPixel& w : dilation) hi = std::max(hi, f.at(w.x, w.y));
                            const QString at = where(kind, MorphOp::Erode, angle, length, x, y);
                            QVERIFY2(sawOrigin, qPrintable(at + ": k = 0 is not the pixel"));
                            QVERIFY2(lo == eroded.at(x, y), qPrintable(at));
                            QVERIFY2(hi == dilated.at(x, y), qPrintable(at + " (dilation)"));
                            if (kind == LineKind::Paths) {
                                // The path's positions t + k, all of them inside the line.
                                const LinePathThrough path = linePathThrough(angle, f.width(), f.height(), x, y);
                                const int n = static_cast<int>(path.pixels.size());
                                int want = 0;
                                for (int k = -seg.a; k <= seg.b; ++k) want += path.index + k >= 0 && path.index + k < n;
                                QCOMPARE(static_cast<int>(erosion.size()), want);
                                for (const WindowPixel& w : erosion)
                                    QVERIFY(path.pixels[static_cast<std::size_t>(path.index + w.k)] == (PixelAt{w.x, w.y}));
                            }
                        }
                }
    }

    void operatorAtAPixelEqualsLineMorph_u8() { compareEveryPixel<std::uint8_t>(1); }
    void operatorAtAPixelEqualsLineMorph_u16() { compareEveryPixel<std::uint16_t>(2); }
    void operatorAtAPixelEqualsLineMorph_f32() { compareEveryPixel<float>(3); }

    // The response over the sweep's angles at a pixel: each value is lineMorph's at that angle,
    // its maximum (closings: minimum) is the sweep's supremum (infimum) there and its argmax
    // the sweep's orientation index, for every kind.
    void responseIsTheSweepAtThePixel() {
        std::mt19937_64 rng(5);
        const AngleSet angles = AngleSet::overHalfTurn(36);
        for (const LineKind kind : kKinds)
            for (const MorphOp op : {MorphOp::Open, MorphOp::Close})
                for (const int length : {4, 11}) {
                    const Image<std::uint8_t> f =
                        test::randomImage<std::uint8_t>(29, 23, rng(), test::ImageKind::Blocky);
                    const SweepResult<std::uint8_t> s =
                        sweep<std::uint8_t>(f.cview(), SweepRequest{op, length, angles, kind});
                    for (int i = 0; i < 12; ++i) {
                        const int x = static_cast<int>(rng() % 29), y = static_cast<int>(rng() % 23);
                        const auto r = angleResponse<std::uint8_t>(op, f.cview(), x, y, angles, length, kind);
                        QCOMPARE(static_cast<int>(r.size()), angles.count);
                        for (int k = 0; k < angles.count; k += 7) {
                            const auto whole = lineMorph<std::uint8_t>(op, f.cview(), LineParams{angles.angle(k), length, kind});
                            QCOMPARE(r[static_cast<std::size_t>(k)], whole.at(x, y));
                        }
                        const int best = bestAngleIndex(r, op);
                        const auto [lo, hi] = std::minmax_element(r.begin(), r.end());
                        QCOMPARE(*hi, s.sup.at(x, y));
                        QCOMPARE(*lo, s.inf.at(x, y));
                        QCOMPARE(best, static_cast<int>(s.argIndex.at(x, y)));
                    }
                }
        QCOMPARE(bestAngleIndex(std::vector<std::uint8_t>{}, MorphOp::Open), -1);
    }
};

QTEST_GUILESS_MAIN(TestLineWindow)
#include "test_line_window.moc"
