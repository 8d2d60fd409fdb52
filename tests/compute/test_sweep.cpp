// sweep() against the reference sweep built from one brute-force image per angle — sup, inf,
// orientation index, strength and both spectra, all exactly — plus AngleSet::parse and the
// orientation colours of design.md §1.
#include "compute/line_geometry.h"
#include "compute/reference/reference_line_morph.h"
#include "compute/sweep.h"
#include "compute/sweep_in_progress.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

using namespace linescope;

namespace {

std::string num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::string angleSetString(const AngleSet& a) {
    return num(a.start) + "+k*" + num(a.step) + " (" + std::to_string(a.count) + " angles)";
}

bool sameDouble(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// Integer spectra are exact. A float spectrum is a sum of float32 values in double whose
// order the engine does not fix (strips, threads, later the GPU), so it may differ from the
// reference's row-major sum by rounding: at most n·ε·Σ|γ| for n terms.
template <class T>
bool sameSpectrumTerm(double want, double got, double absSum, std::size_t terms) {
    if constexpr (!std::is_floating_point_v<T>) return sameDouble(want, got);
    if (sameDouble(want, got)) return true;
    const double bound = static_cast<double>(terms) * std::numeric_limits<double>::epsilon() * absSum;
    return std::isfinite(want) && std::isfinite(got) && std::abs(want - got) <= bound;
}

// Σ|γ_k| is not kept by the sweep; |sup| + |inf| bounds |γ_k| at every pixel.
template <class T>
double absSum(const SweepResult<T>& r, std::size_t) {
    double s = 0;
    for (std::size_t i = 0; i < r.sup.pixels().size(); ++i)
        s += std::abs(static_cast<double>(r.sup.pixels()[i])) + std::abs(static_cast<double>(r.inf.pixels()[i]));
    return s;
}

template <class T>
void compareSweep(const SweepResult<T>& want, const SweepResult<T>& got, const std::string& where, QStringList& failures) {
    auto fail = [&](const std::string& m) { failures << QString::fromStdString(where + ": " + m); };
    if (auto d = test::firstDifference(want.sup, got.sup)) fail("sup " + *d);
    if (auto d = test::firstDifference(want.inf, got.inf)) fail("inf " + *d);
    if (auto d = test::firstDifference(want.argIndex, got.argIndex)) fail("argIndex " + *d);
    if (auto d = test::firstDifference(want.strength, got.strength)) fail("strength " + *d);
    if (want.spectrumExact != got.spectrumExact) {
        std::string m = "spectrumExact has " + std::to_string(got.spectrumExact.size()) + " terms, expected " +
                        std::to_string(want.spectrumExact.size());
        for (std::size_t k = 0; k < std::min(want.spectrumExact.size(), got.spectrumExact.size()); ++k)
            if (want.spectrumExact[k] != got.spectrumExact[k]) {
                m = "spectrumExact[" + std::to_string(k) + "] = " + std::to_string(got.spectrumExact[k]) + ", expected " +
                    std::to_string(want.spectrumExact[k]);
                break;
            }
        fail(m);
    }
    if (want.spectrum.size() != got.spectrum.size()) {
        fail("spectrum has " + std::to_string(got.spectrum.size()) + " terms, expected " + std::to_string(want.spectrum.size()));
    } else {
        for (std::size_t k = 0; k < want.spectrum.size(); ++k)
            if (!sameSpectrumTerm<T>(want.spectrum[k], got.spectrum[k], absSum(want, k), want.sup.pixels().size())) {
                fail("spectrum[" + std::to_string(k) + "] = " + num(got.spectrum[k]) + ", expected " + num(want.spectrum[k]));
                break;
            }
    }
    if (got.angles.start != want.angles.start || got.angles.step != want.angles.step || got.angles.count != want.angles.count)
        fail("angles " + angleSetString(got.angles));
    if (got.op != want.op) fail("op differs");
}

template <class T>
void sweepCases(MorphOp op, const AngleSet& angles, int w, int h, const std::vector<int>& lengths, QStringList& failures) {
    const std::vector<test::ImageKind> kinds = test::allImageKinds();
    int seed = 0;
    for (int length : lengths)
        for (test::ImageKind kind : kinds) {
            const Image<T> img = test::randomImage<T>(w, h, static_cast<std::uint64_t>(seed++ * 31 + length), kind);
            SweepRequest req;
            req.op = op;
            req.length = length;
            req.angles = angles;
            const SweepResult<T> want = reference::referenceSweep<T>(img.cview(), req);
            for (LineAlgorithm algo : {LineAlgorithm::Auto, LineAlgorithm::Sheared, LineAlgorithm::VanHerk,
                                       LineAlgorithm::Fifo, LineAlgorithm::Stack})
                for (int threads : {1, 2}) {
                    const std::string where = std::string(pixelTypeName(pixelTypeOf<T>())) + " " + morphOpName(op) +
                                              " angles " + angleSetString(angles) + " λ " + std::to_string(length) +
                                              " size " + std::to_string(w) + "x" + std::to_string(h) + " image " +
                                              test::imageKindName(kind) + " algorithm " + algorithmName(algo) +
                                              " threads " + std::to_string(threads);
                    try {
                        compareSweep(want, sweep<T>(img.cview(), req, EngineOptions{Backend::Cpu, algo, threads}), where,
                                     failures);
                    } catch (const std::exception& e) {
                        failures << QString::fromStdString(where + ": threw: " + e.what());
                    }
                }
            if (failures.size() > 40) return;
        }
}

// Every angle of `angles` in passes: every 4th, then the 2nd of each 4, then the odd ones
// (the session's order), or in reverse (a pass per angle), or in order (one pass).
std::vector<int> foldOrder(int count, int order) {
    std::vector<int> ks;
    if (order == 0) {
        for (int first : {0, 2}) for (int k = first; k < count; k += 4) ks.push_back(k);
        for (int k = 1; k < count; k += 2) ks.push_back(k);
    } else {
        for (int k = 0; k < count; ++k) ks.push_back(order == 1 ? count - 1 - k : k);
    }
    return ks;
}

template <class T>
void sweepInProgressCases(QStringList& failures) {
    int seed = 70;
    for (MorphOp op : {MorphOp::Open, MorphOp::Close, MorphOp::Erode})
        for (const AngleSet& angles : {AngleSet{0, 1, 180}, AngleSet{-10, 0.1, 37}, AngleSet{5, 45, 4}})
            for (int threads : {1, 2}) {
                const Image<T> img = test::randomImage<T>(67, 43, static_cast<std::uint64_t>(seed++), test::ImageKind::Blocky);
                const SweepRequest req{op, 9, angles};
                const EngineOptions opt{Backend::Cpu, LineAlgorithm::Auto, threads};
                const SweepResult<T> want = sweep<T>(img.cview(), req, opt);
                for (int order : {0, 1, 2}) {
                    const std::string where = std::string(pixelTypeName(pixelTypeOf<T>())) + " " + morphOpName(op) +
                                              " angles " + angleSetString(angles) + " order " + std::to_string(order) +
                                              " threads " + std::to_string(threads);
                    SweepInProgress<T> run(img.cview(), req, opt);
                    for (int k : foldOrder(angles.count, order)) run.add(k);
                    QStringList here;
                    const SweepResult<T> got = run.takeResult();
                    compareSweep(want, got, where, here);
                    if (got.spectrum != want.spectrum) here << QString::fromStdString(where + ": spectrum not bit for bit");
                    failures << here;
                }
                // After the first pass: the sweep of every 4th angle, its indices those of the whole set.
                if (angles.count >= 8) {
                    SweepInProgress<T> run(img.cview(), req, opt);
                    for (int k = 0; k < angles.count; k += 4) run.add(k);
                    const SweepResult<T> part = run.result();
                    const SweepResult<T> every4th =
                        sweep<T>(img.cview(), SweepRequest{op, 9, AngleSet{angles.start, 4 * angles.step, (angles.count + 3) / 4}}, opt);
                    if (test::firstDifference(every4th.sup, part.sup) || test::firstDifference(every4th.inf, part.inf))
                        failures << QString::fromStdString(std::string(morphOpName(op)) + ": first pass's extremes differ");
                    for (std::size_t i = 0; i < part.argIndex.pixels().size(); ++i)
                        if (part.argIndex.pixels()[i] != 4 * every4th.argIndex.pixels()[i]) {
                            failures << QString::fromStdString(std::string(morphOpName(op)) + ": first pass's index differs");
                            break;
                        }
                }
            }
}

// HSV with saturation 1 straight from the textbook, for the expected colours.
void expectedColour(double alphaDeg, double value, double rgb[3]) {
    double a = std::fmod(alphaDeg, 180.0);
    if (a < 0) a += 180.0;
    const double hue = 360.0 * a / 180.0;
    const double hp = hue / 60.0;
    const double x = value * (1 - std::abs(std::fmod(hp, 2.0) - 1));
    double r = 0, g = 0, b = 0;
    if (hp < 1) { r = value; g = x; }
    else if (hp < 2) { r = x; g = value; }
    else if (hp < 3) { g = value; b = x; }
    else if (hp < 4) { g = x; b = value; }
    else if (hp < 5) { r = x; b = value; }
    else { r = value; b = x; }
    rgb[0] = 255 * r; rgb[1] = 255 * g; rgb[2] = 255 * b;
}

template <class T>
void checkColours(const SweepResult<T>& r, const RgbImage& c, const std::string& where) {
    QCOMPARE(c.width, r.sup.width());
    QCOMPARE(c.height, r.sup.height());
    QCOMPARE(c.rgb.size(), static_cast<std::size_t>(c.width) * static_cast<std::size_t>(c.height) * 3);
    double maxStrength = 0;
    for (T v : r.strength.pixels()) maxStrength = std::max(maxStrength, static_cast<double>(v));
    for (int y = 0; y < c.height; ++y)
        for (int x = 0; x < c.width; ++x) {
            const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(c.width) + static_cast<std::size_t>(x)) * 3;
            const double s = static_cast<double>(r.strength.at(x, y));
            double want[3] = {0, 0, 0};
            if (s > 0) expectedColour(r.orientation(x, y), s / maxStrength, want);
            for (int ch = 0; ch < 3; ++ch)
                LINESCOPE_CHECK(std::abs(c.rgb[i + static_cast<std::size_t>(ch)] - want[ch]) <= 1.0,
                                where + ": pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") angle " +
                                    num(r.orientation(x, y)) + " strength " + num(s) + " channel " + std::to_string(ch) +
                                    " = " + std::to_string(c.rgb[i + static_cast<std::size_t>(ch)]) + ", expected " +
                                    num(want[ch]));
        }
}

// Logs the first failures and returns the line QVERIFY2 reports.
QString summarize(const QStringList& failures) {
    for (const QString& f : failures.mid(0, 10)) qWarning("%s", qPrintable(f));
    return QString::number(failures.size()) + " mismatches; first: " + (failures.isEmpty() ? QString() : failures.first());
}

}  // namespace

class TestSweep : public QObject {
    Q_OBJECT

private slots:
    void matchesReference_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("op");
        QTest::addColumn<int>("set");
        const char* sets[] = {"0:180:7.5 on 41x29", "-10:10:0.25 on 19x13", "count 1 on 64x48", "wrapping 170:230:3 on 23x31",
                              "boundaries -90:270:45 on 30x30", "0:180:1 on 9x7"};
        const char* types[] = {"uint8", "uint16", "float32"};
        for (int t = 0; t < 3; ++t)
            for (MorphOp op : {MorphOp::Open, MorphOp::Close, MorphOp::Erode, MorphOp::Dilate})
                for (int s = 0; s < 6; ++s)
                    QTest::addRow("%s %s %s", types[t], morphOpName(op), sets[s]) << t << static_cast<int>(op) << s;
    }
    void matchesReference() {
        QFETCH(int, type);
        QFETCH(int, op);
        QFETCH(int, set);
        struct Set { AngleSet angles; int w, h; std::vector<int> lengths; };
        const Set sets[] = {
            {{0, 7.5, 24}, 41, 29, {1, 4, 9, 60}},
            {{-10, 0.25, 80}, 19, 13, {5, 30}},
            {{37.3, 1, 1}, 64, 48, {2, 11}},
            {{170, 3, 20}, 23, 31, {3, 8}},
            {{-90, 45, 8}, 30, 30, {1, 7, 40}},
            {{0, 1, 180}, 9, 7, {3, 6}},
        };
        const Set& s = sets[set];
        QStringList failures;
        const auto mop = static_cast<MorphOp>(op);
        if (type == 0) sweepCases<std::uint8_t>(mop, s.angles, s.w, s.h, s.lengths, failures);
        else if (type == 1) sweepCases<std::uint16_t>(mop, s.angles, s.w, s.h, s.lengths, failures);
        else sweepCases<float>(mop, s.angles, s.w, s.h, s.lengths, failures);
        QVERIFY2(failures.isEmpty(), qPrintable(summarize(failures)));
    }

    // Images wider than a strip (whole registers and a tail in every row that a line leaves
    // partly inside), and the angles shared among 1 to 5 workers: each worker's share is
    // flat angles, upright ones or both (angle sets with the layouts' boundary anywhere).
    void sharesAndWideRows_data() {
        QTest::addColumn<int>("type");
        QTest::addRow("uint8") << 0;
        QTest::addRow("uint16") << 1;
        QTest::addRow("float32") << 2;
    }
    void sharesAndWideRows() {
        QFETCH(int, type);
        QStringList failures;
        visitPixelType(static_cast<PixelType>(type), [&](auto zero) {
            using T = decltype(zero);
            const int S = static_cast<int>(256 / sizeof(T));  // a strip's lanes
            int seed = 900;
            for (const auto& [w, h] : {std::pair{S + 45, 37}, std::pair{29, S + 70}})
                for (const AngleSet& angles : {AngleSet{0, 6, 30}, AngleSet{40, 0.5, 20}, AngleSet{-5, 1, 10}})
                    for (MorphOp op : {MorphOp::Open, MorphOp::Close}) {
                        const Image<T> img = test::randomImage<T>(w, h, static_cast<std::uint64_t>(seed++));
                        const SweepRequest req{op, 13, angles};
                        const SweepResult<T> want = reference::referenceSweep<T>(img.cview(), req);
                        for (int threads : {1, 2, 3, 5}) {
                            const std::string where = std::string(pixelTypeName(pixelTypeOf<T>())) + " " +
                                                      morphOpName(op) + " angles " + angleSetString(angles) + " size " +
                                                      std::to_string(w) + "x" + std::to_string(h) + " threads " +
                                                      std::to_string(threads);
                            compareSweep(want, sweep<T>(img.cview(), req, EngineOptions{Backend::Cpu, LineAlgorithm::Auto, threads}),
                                         where, failures);
                        }
                    }
        });
        QVERIFY2(failures.isEmpty(), qPrintable(summarize(failures)));
    }

    // The most angles a sweep takes: the orientation index reaches 719.
    void maxAngles() {
        QStringList failures;
        sweepCases<std::uint8_t>(MorphOp::Open, AngleSet{0, 0.25, kMaxSweepAngles}, 6, 5, {4}, failures);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join("\n")));
    }

    void strided() {
        const Image<std::uint16_t> img = test::randomImage<std::uint16_t>(37, 21, 4);
        const test::PaddedImage<std::uint16_t> in = test::PaddedImage<std::uint16_t>::copyOf(img, 5, 999);
        SweepRequest req;
        req.op = MorphOp::Close;
        req.length = 9;
        req.angles = {0, 10, 18};
        QStringList failures;
        compareSweep(reference::referenceSweep<std::uint16_t>(img.cview(), req), sweep<std::uint16_t>(in.cview(), req),
                     "uint16 close strided 37x21", failures);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join("\n")));
    }

    // Angles folded a few at a time, in the session's passes or any order, give sweep()'s
    // result bit for bit; a pass alone is the sweep of its angles.
    void sweepInProgressEqualsSweep() {
        QStringList failures;
        sweepInProgressCases<std::uint8_t>(failures);
        sweepInProgressCases<std::uint16_t>(failures);
        sweepInProgressCases<float>(failures);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join("\n")));
    }

    // It folds line paths only: the other kinds are not offered to it, and refused by it
    // (the session's sweeps of segments once came out as line paths through it).
    void sweepInProgressRefusesOtherKinds() {
        const Image<std::uint8_t> img = test::randomImage<std::uint8_t>(9, 7, 2);
        const EngineOptions cpu{Backend::Cpu};
        for (LineKind kind : {LineKind::Segment, LineKind::Periodic}) {
            const SweepRequest req{MorphOp::Open, 5, AngleSet{0, 45, 4}, kind};
            QVERIFY(!SweepInProgress<std::uint8_t>::supports(req, cpu));
            QVERIFY_THROWS_EXCEPTION(Error, SweepInProgress<std::uint8_t>(img.cview(), req, cpu));
        }
        QVERIFY(SweepInProgress<std::uint8_t>::supports(SweepRequest{MorphOp::Open, 5, AngleSet{0, 45, 4}}, cpu));
    }

    void rejectsBadRequests() {
        const Image<float> img = test::randomImage<float>(8, 6, 1);
        auto run = [&](MorphOp op, int length, AngleSet a, const Image<float>& f) {
            SweepRequest req;
            req.op = op;
            req.length = length;
            req.angles = a;
            return sweep<float>(f.cview(), req);
        };
        QVERIFY_THROWS_EXCEPTION(Error, run(MorphOp::TopHat, 3, {0, 1, 4}, img));
        QVERIFY_THROWS_EXCEPTION(Error, run(MorphOp::Open, 0, {0, 1, 4}, img));
        QVERIFY_THROWS_EXCEPTION(Error, run(MorphOp::Open, 3, {0, 1, 0}, img));
        QVERIFY_THROWS_EXCEPTION(Error, run(MorphOp::Open, 3, {0, 1, -3}, img));
        QVERIFY_THROWS_EXCEPTION(Error, run(MorphOp::Open, 3, {0, 0.1, kMaxSweepAngles + 1}, img));
        QVERIFY_THROWS_EXCEPTION(Error, run(MorphOp::Open, 3, {std::numeric_limits<double>::quiet_NaN(), 1, 4}, img));
        QVERIFY_THROWS_EXCEPTION(Error, run(MorphOp::Open, 3, {0, std::numeric_limits<double>::infinity(), 4}, img));
        QVERIFY_THROWS_EXCEPTION(Error, run(MorphOp::Open, 3, {0, 1, 4}, Image<float>()));
        Image<float> nan = img;
        nan.at(7, 5) = std::numeric_limits<float>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(Error, run(MorphOp::Open, 3, {0, 1, 4}, nan));
    }

    void parseAngleSets_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("start");
        QTest::addColumn<double>("step");
        QTest::addColumn<int>("count");
        QTest::newRow("0:180:1") << "0:180:1" << 0.0 << 1.0 << 180;
        QTest::newRow("-10:10.25:0.25") << "-10:10.25:0.25" << -10.0 << 0.25 << 81;
        QTest::newRow("-10:10:0.25") << "-10:10:0.25" << -10.0 << 0.25 << 80;
        QTest::newRow("0:180:7.5") << "0:180:7.5" << 0.0 << 7.5 << 24;
        QTest::newRow("0:180:0.25 (720)") << "0:180:0.25" << 0.0 << 0.25 << 720;
        QTest::newRow("stop not on the grid") << "0:10:3" << 0.0 << 3.0 << 4;
        QTest::newRow("one angle") << "37.5:38:1" << 37.5 << 1.0 << 1;
        QTest::newRow("0:1.1:0.1 (rounding)") << "0:1.1:0.1" << 0.0 << 0.1 << 11;
        QTest::newRow("0:0.3:0.1 (rounding)") << "0:0.3:0.1" << 0.0 << 0.1 << 3;
        // A bare whole number N is overHalfTurn(N), the spelling the GUI's --angles shares.
        QTest::newRow("90 angles") << "90" << 0.0 << 2.0 << 90;
        QTest::newRow("1 angle") << "1" << 0.0 << 180.0 << 1;
        QTest::newRow("720 angles") << "720" << 0.0 << 0.25 << 720;
        QTest::newRow("7 angles") << "7" << 0.0 << 180.0 / 7 << 7;
    }
    void parseAngleSets() {
        QFETCH(QString, text);
        QFETCH(double, start);
        QFETCH(double, step);
        QFETCH(int, count);
        const AngleSet a = AngleSet::parse(text.toStdString());
        QCOMPARE(a.start, start);
        QCOMPARE(a.step, step);
        QCOMPARE(a.count, count);
    }

    void parseRejects_data() {
        QTest::addColumn<QString>("text");
        for (const char* t : {"0:180:0", "0:180:-1", "10:0:1", "5:5:1", "0:181:0.25", "0:721:1", "0:180:0.1", "", "abc",
                              "0:180", "0:180:1:2", "0:x:1", "0:180:1x", "nan:180:1", "0:inf:1", ":180:1", "0::1",
                              "0", "721", "2.5", "-3", "+3", "90x", " 90", "90 ", "1e2", "99999999999"})
            QTest::newRow(*t ? t : "(empty)") << QString(t);
    }
    void parseRejects() {
        QFETCH(QString, text);
        QVERIFY_THROWS_EXCEPTION(Error, AngleSet::parse(text.toStdString()));
    }

    void coloursByHand() {
        // Six pixels at orientations 0, 30, …, 150 with full strength: red, yellow, green, cyan,
        // blue, magenta; a seventh with no strength is black; an eighth at half strength.
        SweepResult<std::uint8_t> r;
        r.angles = {0, 30, 6};
        r.sup = Image<std::uint8_t>(8, 1, 200);
        r.inf = Image<std::uint8_t>(8, 1, 0);
        r.argIndex = Image<std::uint16_t>(8, 1);
        r.strength = Image<std::uint8_t>(8, 1, 200);
        for (int k = 0; k < 6; ++k) r.argIndex.at(k, 0) = static_cast<std::uint16_t>(k);
        r.strength.at(6, 0) = 0;
        r.argIndex.at(6, 0) = 2;
        r.strength.at(7, 0) = 100;
        r.argIndex.at(7, 0) = 0;
        const RgbImage c = orientationColours(r);
        const int want[8][3] = {{255, 0, 0}, {255, 255, 0}, {0, 255, 0}, {0, 255, 255},
                                {0, 0, 255}, {255, 0, 255}, {0, 0, 0},   {128, 0, 0}};
        QCOMPARE(c.width, 8);
        QCOMPARE(c.height, 1);
        QCOMPARE(c.rgb.size(), std::size_t{24});
        for (int i = 0; i < 8; ++i)
            for (int ch = 0; ch < 3; ++ch)
                LINESCOPE_CHECK(std::abs(int(c.rgb[static_cast<std::size_t>(i * 3 + ch)]) - want[i][ch]) <= 1,
                                "pixel " + std::to_string(i) + " channel " + std::to_string(ch) + " = " +
                                    std::to_string(c.rgb[static_cast<std::size_t>(i * 3 + ch)]) + ", expected " +
                                    std::to_string(want[i][ch]));
        checkColours(r, c, "by hand");
    }

    void coloursOfSweeps() {
        // Angles outside [0, 180) and float strengths as well.
        const Image<float> f = test::finiteFloatImage(33, 25, 8, test::ImageKind::Blocky);
        SweepRequest req;
        req.op = MorphOp::Open;
        req.length = 7;
        req.angles = {-90, 7.5, 48};
        const SweepResult<float> rf = sweep<float>(f.cview(), req);
        checkColours(rf, orientationColours(rf), "float open -90:270:7.5");
        const Image<std::uint16_t> g = test::randomImage<std::uint16_t>(40, 30, 9);
        req.op = MorphOp::Close;
        req.angles = {0, 15, 12};
        const SweepResult<std::uint16_t> rg = sweep<std::uint16_t>(g.cview(), req);
        checkColours(rg, orientationColours(rg), "uint16 close 0:180:15");
        // No strength anywhere: all black.
        const Image<std::uint8_t> flat(20, 10, 42);
        const SweepResult<std::uint8_t> r0 = sweep<std::uint8_t>(flat.cview(), req);
        const RgbImage c0 = orientationColours(r0);
        QVERIFY(std::all_of(c0.rgb.begin(), c0.rgb.end(), [](std::uint8_t v) { return v == 0; }));
    }
};

QTEST_APPLESS_MAIN(TestSweep)
#include "test_sweep.moc"
