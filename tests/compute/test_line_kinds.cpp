// The translation-invariant line kinds (line_kernel.h): their pixel sets as defined, and the
// fast engine (cpu/digital_line_morph.h) bit for bit against the brute-force definition
// (reference_kernel_morph.h) — with the default leaf size and with a tiny one that sends
// every piece through many levels of the recursion.
#include "compute/cpu/digital_line_morph.h"
#include "compute/line_geometry.h"
#include "compute/line_kernel.h"
#include "compute/line_morph.h"
#include "compute/reference/reference_kernel_morph.h"
#include "compute/sweep.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <string>

using namespace linescope;

namespace {

std::string where(LineKind kind, double angle, int length) {
    char a[32];
    std::snprintf(a, sizeof a, "%.10g", angle);
    return std::string(lineKindName(kind)) + " angle " + a + " λ " + std::to_string(length);
}

template <class T>
Image<T> imageFor(int w, int h, std::uint64_t seed, test::ImageKind kind) {
    if constexpr (std::is_floating_point_v<T>) return test::finiteFloatImage(w, h, seed, kind);
    else return test::randomImage<T>(w, h, seed, kind);
}

template <class T>
void compareWithDefinition(LineKind kind, int cases, std::uint64_t seed, QStringList& failures) {
    std::mt19937_64 rng(seed);
    const std::vector<test::ImageKind> kinds = test::allImageKinds();
    const int sizes[][2] = {{1, 1}, {7, 3}, {3, 11}, {37, 29}, {64, 48}, {90, 17}};
    for (int i = 0; i < cases && failures.size() < 20; ++i) {
        const auto& sz = sizes[static_cast<std::size_t>(i) % std::size(sizes)];
        // Axes and diagonals, angles whose slope is a tie (k·S/2^16 a half-integer: the segment
        // is two pieces), and random angles.
        const double ties[] = {std::atan(0.5), std::atan(2.0), std::atan(-0.25), std::atan(0.75), std::atan(-1.5)};
        const double angle = (i % 5 == 0)   ? 45.0 * static_cast<double>(rng() % 8)
                             : (i % 5 == 1) ? ties[rng() % std::size(ties)] * 180 / M_PI
                                            : std::ldexp(static_cast<double>(rng() % (1u << 20)), -20) * 360.0 - 90.0;
        const int length = 1 + static_cast<int>(rng() % (i % 3 == 0 ? 140u : 40u));
        const auto op = static_cast<MorphOp>(rng() % 5);
        const Image<T> f = imageFor<T>(sz[0], sz[1], seed + static_cast<std::uint64_t>(i), kinds[static_cast<std::size_t>(i) % kinds.size()]);
        const LineKernel kernel = lineKernel(kind, angle, length);
        const Image<T> want = reference::referenceKernelMorph<T>(op, f.cview(), kernel.offsets());
        const Image<T> got = lineMorph<T>(op, f.cview(), LineParams{angle, length, kind});
        if (auto d = test::firstDifference(want, got))
            failures << QString::fromStdString(where(kind, angle, length) + " " + morphOpName(op) + " " +
                                               std::to_string(sz[0]) + "x" + std::to_string(sz[1]) + ": " + *d);
    }
}

}  // namespace

class TestLineKinds : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { cpu::setDigitalLineLeafSize(0); }

    // λ offsets, the origin among them, no duplicates; odd λ centrally symmetric; the
    // segment 8-connected with one pixel per major position, its k ≥ 0 half the line path
    // through the origin; periodic lines k·v with v primitive.
    void pixelSets() {
        QStringList failures;
        for (double angle = -30; angle < 200 && failures.size() < 20; angle += 0.37)
            for (int length : {1, 2, 3, 4, 7, 10, 41, 64, 251}) {
                for (LineKind kind : {LineKind::Segment, LineKind::Periodic}) {
                    const std::vector<Offset> off = lineKernel(kind, angle, length).offsets();
                    const std::string at = where(kind, angle, length);
                    std::set<std::pair<int, int>> set;
                    for (const Offset& o : off) set.insert({o.dx, o.dy});
                    if (off.size() != static_cast<std::size_t>(length) || set.size() != off.size())
                        failures << QString::fromStdString(at + ": not λ distinct offsets");
                    if (!set.count({0, 0})) failures << QString::fromStdString(at + ": the origin is missing");
                    if (length % 2 == 1)
                        for (const Offset& o : off)
                            if (!set.count({-o.dx, -o.dy})) {
                                failures << QString::fromStdString(at + ": not symmetric");
                                break;
                            }
                    if (kind == LineKind::Segment) {
                        const LineFamily fam = lineFamily(angle, 1, 1);
                        const Segment seg = segmentOf(length);
                        for (int k = 0; k <= seg.b; ++k) {
                            const Offset o = off[static_cast<std::size_t>(seg.a + k)];
                            const Offset want = fam.yMajor ? Offset{static_cast<int>(fam.off(k)), k}
                                                           : Offset{k, static_cast<int>(fam.off(k))};
                            if (!(o == want)) {
                                failures << QString::fromStdString(at + ": k ≥ 0 is not the line path");
                                break;
                            }
                        }
                        for (std::size_t i = 1; i < off.size(); ++i)
                            if (std::abs(off[i].dx - off[i - 1].dx) > 1 || std::abs(off[i].dy - off[i - 1].dy) > 1) {
                                failures << QString::fromStdString(at + ": not 8-connected");
                                break;
                            }
                    }
                }
            }
        const Offset v = periodicStep(30);
        QCOMPARE(v.dx, 7);  // tan 30° ≈ 4/7 among steps up to 10 (y down: (7, −4))
        QCOMPARE(v.dy, -4);
        QCOMPARE(periodicStep(90).dx, 0);
        QCOMPARE(periodicStep(135).dx, 1);
        QCOMPARE(periodicStep(135).dy, 1);
        for (const QString& f : failures.mid(0, 10)) qWarning("%s", qPrintable(f));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.value(0)));
    }

    // A tie (k·S/2^16 a half-integer) rounds up for k ≥ 0, as the line path does, and is
    // mirrored for k < 0, where the path would round up too: the segment stays symmetric.
    void tiesKeepTheSegmentSymmetric() {
        const double angle = std::atan(0.5) * 180 / M_PI;  // S = −32768
        const LineKernel k = lineKernel(LineKind::Segment, angle, 5);
        QCOMPARE(static_cast<int>(k.pieces.size()), 2);
        const std::vector<Offset> off = k.offsets();
        const std::vector<Offset> want{{-2, 1}, {-1, 0}, {0, 0}, {1, 0}, {2, -1}};
        QVERIFY(off == want);  // the path through the origin has (−1, 1) at k = −1
        const std::vector<Offset> path = lineKernel(LineKind::Paths, angle, 5).offsets();
        QCOMPARE(path[1].dy, 1);
    }

    void matchesDefinition_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("leaf");
        for (LineKind kind : {LineKind::Segment, LineKind::Periodic})
            for (int leaf : {0, 2})
                for (int type = 0; type < 3; ++type) {
                    const std::string name = std::string(lineKindName(kind)) + " " +
                                             pixelTypeName(static_cast<PixelType>(type)) + " leaf " + std::to_string(leaf);
                    QTest::newRow(name.c_str()) << type << static_cast<int>(kind) << leaf;
                }
    }
    void matchesDefinition() {
        QFETCH(int, type);
        QFETCH(int, kind);
        QFETCH(int, leaf);
        cpu::setDigitalLineLeafSize(leaf);
        QStringList failures;
        const auto k = static_cast<LineKind>(kind);
        const int cases = test::scaled(300);
        const auto seed = static_cast<std::uint64_t>(1000 * type + 10 * kind + leaf);
        if (type == 0) compareWithDefinition<std::uint8_t>(k, cases, seed, failures);
        else if (type == 1) compareWithDefinition<std::uint16_t>(k, cases, seed, failures);
        else compareWithDefinition<float>(k, cases, seed, failures);
        for (const QString& f : failures.mid(0, 10)) qWarning("%s", qPrintable(f));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.value(0)));
    }

    // A sweep of any kind folds that kind's operator images: sup, inf, the smallest k reaching
    // sup (openings) or inf (closings), and the exact spectrum.
    void sweepsFoldEveryKind() {
        const Image<std::uint8_t> f = test::randomImage<std::uint8_t>(41, 35, 9, test::ImageKind::FewLevels);
        for (LineKind kind : {LineKind::Segment, LineKind::Periodic})
            for (MorphOp op : {MorphOp::Open, MorphOp::Close}) {
                SweepRequest req;
                req.op = op;
                req.length = 9;
                req.angles = AngleSet::overHalfTurn(12);
                req.kind = kind;
                const SweepResult<std::uint8_t> r = sweep<std::uint8_t>(f.cview(), req);
                for (int k = 0; k < req.angles.count; ++k) {
                    const Image<std::uint8_t> g =
                        lineMorph<std::uint8_t>(op, f.cview(), LineParams{req.angles.angle(k), req.length, kind});
                    std::int64_t sum = 0;
                    for (int y = 0; y < f.height(); ++y)
                        for (int x = 0; x < f.width(); ++x) {
                            const std::uint8_t v = g.at(x, y);
                            sum += v;
                            QVERIFY(r.inf.at(x, y) <= v && v <= r.sup.at(x, y));
                            const int arg = r.argIndex.at(x, y);
                            const std::uint8_t extreme = op == MorphOp::Open ? r.sup.at(x, y) : r.inf.at(x, y);
                            if (k < arg) QVERIFY(v != extreme);
                            if (k == arg) QCOMPARE(v, extreme);
                        }
                    QCOMPARE(r.spectrumExact[static_cast<std::size_t>(k)], sum);
                }
            }
    }

    // Along the axes and diagonals (segments at 0°, 45°, 90°, 135°; periodic steps (1, 0),
    // (0, 1), (1, ±1), whose angles reach ±2.8° around those) the kernel is every pixel's line
    // path and the paths engine runs it (cpu::straightAsPaths): against the definition for
    // every operator, odd and even λ, each pixel type.
    void straightKernelsMatchDefinition() {
        QStringList failures;
        double pathsAngle = 0;
        QVERIFY(cpu::straightAsPaths(lineKernel(LineKind::Segment, 45, 8), &pathsAngle));
        QCOMPARE(pathsAngle, 45.0);
        QVERIFY(cpu::straightAsPaths(lineKernel(LineKind::Periodic, 92.5, 7), &pathsAngle));
        QCOMPARE(pathsAngle, 90.0);
        QVERIFY(!cpu::straightAsPaths(lineKernel(LineKind::Segment, 2, 41), &pathsAngle));
        QVERIFY(!cpu::straightAsPaths(lineKernel(LineKind::Periodic, 30, 41), &pathsAngle));
        const Image<std::uint8_t> f8 = test::randomImage<std::uint8_t>(37, 29, 21);
        const Image<std::uint16_t> f16 = test::randomImage<std::uint16_t>(29, 37, 22);
        const Image<float> ff = test::finiteFloatImage(31, 23, 23, test::ImageKind::Noise);
        for (LineKind kind : {LineKind::Segment, LineKind::Periodic})
            for (double angle : {0.0, 45.0, 90.0, 135.0, 180.0, -45.0, 2.0, 43.5, 88.0, 137.5, 178.0})
                for (int length : {1, 2, 3, 4, 9, 10, 31, 40, 64}) {
                    const LineKernel kernel = lineKernel(kind, angle, length);
                    if (!cpu::straightAsPaths(kernel, &pathsAngle)) continue;
                    for (auto op : {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close, MorphOp::TopHat}) {
                        const LineParams p{angle, length, kind};
                        const std::string at = where(kind, angle, length) + " " + morphOpName(op);
                        const auto check = [&]<class T>(const Image<T>& f) {
                            const auto want = reference::referenceKernelMorph<T>(op, f.cview(), kernel.offsets());
                            if (auto d = test::firstDifference(want, lineMorph<T>(op, f.cview(), p)))
                                failures << QString::fromStdString(at + ": " + *d);
                        };
                        check(f8);
                        check(f16);
                        check(ff);
                    }
                }
        for (const QString& f : failures.mid(0, 10)) qWarning("%s", qPrintable(f));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.value(0)));
    }

    // The passes split into row bands over the thread pool (and the prefix and suffix passes
    // into bands of whole blocks): any thread count gives the one-thread image, on an image
    // tall enough for several bands and blocks, through the recursion (segments, a tiny leaf
    // too) and the direct window (periodic lines).
    void threadsGiveTheOneThreadImage() {
        const Image<std::uint8_t> f = test::randomImage<std::uint8_t>(211, 389, 31);
        const Image<float> ff = test::finiteFloatImage(157, 263, 32, test::ImageKind::Noise);
        QStringList failures;
        for (int leaf : {0, 2}) {
            cpu::setDigitalLineLeafSize(leaf);
            for (LineKind kind : {LineKind::Segment, LineKind::Periodic})
                for (double angle : {12.0, 30.0, 63.4, 100.0, 151.0})
                    for (int length : {5, 41, 120}) {
                        const LineParams p{angle, length, kind};
                        EngineOptions one;
                        one.threads = 1;
                        const auto want = lineMorph<std::uint8_t>(MorphOp::Open, f.cview(), p, one);
                        const auto wantF = lineMorph<float>(MorphOp::Close, ff.cview(), p, one);
                        for (int threads : {2, 3, 7}) {
                            EngineOptions opt;
                            opt.threads = threads;
                            const std::string at = where(kind, angle, length) + " leaf " + std::to_string(leaf) +
                                                   ", " + std::to_string(threads) + " threads";
                            if (auto d = test::firstDifference(want, lineMorph<std::uint8_t>(MorphOp::Open, f.cview(), p, opt)))
                                failures << QString::fromStdString(at + ": " + *d);
                            if (auto d = test::firstDifference(wantF, lineMorph<float>(MorphOp::Close, ff.cview(), p, opt)))
                                failures << QString::fromStdString(at + " (float): " + *d);
                        }
                        if (leaf == 0 && length == 41) {  // and one thread against the definition
                            const auto ref = reference::referenceKernelMorph<std::uint8_t>(
                                MorphOp::Open, f.cview(), lineKernel(kind, angle, length).offsets());
                            if (auto d = test::firstDifference(ref, want))
                                failures << QString::fromStdString(where(kind, angle, length) + " definition: " + *d);
                        }
                    }
        }
        for (const QString& msg : failures.mid(0, 10)) qWarning("%s", qPrintable(msg));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.value(0)));
    }

    // Longer than the image, and far longer: the kernel is clipped to what can reach it.
    void longerThanTheImage() {
        const Image<std::uint8_t> f = test::randomImage<std::uint8_t>(23, 17, 5);
        for (LineKind kind : {LineKind::Segment, LineKind::Periodic})
            for (double angle : {0.0, 12.5, 45.0, 77.0, 133.0})
                for (int length : {40, 1001, 1000000}) {
                    const std::vector<Offset> off = lineKernel(kind, angle, std::min(length, 1001)).offsets();
                    const Image<std::uint8_t> got = lineMorph<std::uint8_t>(MorphOp::Open, f.cview(), {angle, length, kind});
                    if (length > 1001) {
                        const Image<std::uint8_t> shorter = lineMorph<std::uint8_t>(MorphOp::Open, f.cview(), {angle, 1001, kind});
                        QVERIFY2(got == shorter, where(kind, angle, length).c_str());
                    } else {
                        QVERIFY2(got == reference::referenceKernelMorph<std::uint8_t>(MorphOp::Open, f.cview(), off),
                                 where(kind, angle, length).c_str());
                    }
                }
    }
};

QTEST_APPLESS_MAIN(TestLineKinds)
#include "test_line_kinds.moc"
