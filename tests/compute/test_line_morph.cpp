// Every CPU line algorithm against the brute-force reference of design.md §1, bit for bit:
// all operators, pixel types, thread counts, image shapes, angles and segment lengths,
// plus strided views and the errors the engine promises.
#include "compute/cpu/sheared_line_morph.h"
#include "compute/cpu/sheared_strip.h"
#include "compute/line_geometry.h"
#include "compute/line_morph.h"
#include "compute/reference/reference_line_morph.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

// The sheared kernels are built once per instruction set and one is picked at run time, so a
// test machine only runs one of them through lineMorph. These are the per-ISA entry points of
// compute/cpu/sheared_line_morph_dispatch.cpp, called directly so every variant the processor
// can run is checked.
namespace linescope::cpu {
#define LINESCOPE_TEST_DECLARE_ISA(isa)                                                                  \
    namespace isa {                                                                                     \
    template <class T>                                                                                  \
    void shearedLineMorph(MorphOp, ImageView<const T>, ImageView<T>, const LineFamily&, Segment, int,   \
                          WindowKernel);                                                               \
    }
LINESCOPE_TEST_DECLARE_ISA(generic)
LINESCOPE_TEST_DECLARE_ISA(avx2)
LINESCOPE_TEST_DECLARE_ISA(avx512)
#undef LINESCOPE_TEST_DECLARE_ISA
}  // namespace linescope::cpu

using namespace linescope;

namespace {

const MorphOp kOps[] = {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close, MorphOp::TopHat};
const LineAlgorithm kAlgorithms[] = {LineAlgorithm::Auto, LineAlgorithm::Sheared, LineAlgorithm::VanHerk,
                                     LineAlgorithm::Fifo, LineAlgorithm::Stack};

std::string angleString(double a) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", a);
    return buf;
}

template <class T>
std::string caseName(MorphOp op, double angle, int length, const Image<T>& img, const char* kind) {
    return std::string(pixelTypeName(pixelTypeOf<T>())) + " " + morphOpName(op) + " angle " + angleString(angle) +
           " λ " + std::to_string(length) + " size " + std::to_string(img.width()) + "x" +
           std::to_string(img.height()) + " image " + kind;
}

// Collects mismatches so that one run reports many failing cases, not just the first.
class Failures {
public:
    void add(const std::string& m) {
        if (count_ < 25) qWarning("%s", m.c_str());
        if (count_ == 0) first_ = m;
        ++count_;
    }
    int count() const { return count_; }
    std::string summary() const { return std::to_string(count_) + " mismatches; first: " + first_; }

private:
    int count_ = 0;
    std::string first_;
};

// One case: the reference once, then every algorithm and thread count against it.
template <class T>
void checkCase(const Image<T>& img, MorphOp op, double angle, int length, const char* kind, Failures& fails) {
    const std::string name = caseName(op, angle, length, img, kind);
    Image<T> ref;
    try {
        ref = reference::referenceLineMorph<T>(op, img.cview(), angle, length);
    } catch (const std::exception& e) {
        fails.add(name + ": the reference threw: " + e.what());
        return;
    }
    for (LineAlgorithm algo : kAlgorithms) {
        const std::vector<int> threadCounts = algo == LineAlgorithm::Auto ? std::vector<int>{1, 2, 0, 3}
                                                                          : std::vector<int>{1, 2};
        for (int threads : threadCounts) {
            const std::string where = name + " algorithm " + algorithmName(algo) + " threads " + std::to_string(threads);
            try {
                const Image<T> got =
                    lineMorph<T>(op, img.cview(), LineParams{angle, length}, EngineOptions{Backend::Cpu, algo, threads});
                if (auto d = test::firstDifference(ref, got)) fails.add(where + ": " + *d);
            } catch (const std::exception& e) {
                fails.add(where + ": threw: " + e.what());
            }
        }
    }
}

std::vector<int> lengthsFor(int w, int h) {
    const int diag = static_cast<int>(std::ceil(std::hypot(w, h)));
    std::vector<int> l = {1, 2, 3, 4, 5, 6, 7, 9, 12, 16, 41, w, w + 5, h, diag + 3};
    std::sort(l.begin(), l.end());
    l.erase(std::unique(l.begin(), l.end()), l.end());
    return l;
}

template <class T>
Image<T> imageFor(int w, int h, std::uint64_t seed, test::ImageKind kind) {
    return test::randomImage<T>(w, h, seed, kind);
}

// Many (angle, λ) pairs per shape: all of them on small images, a seeded sample on large ones
// so that the brute-force reference stays within the time budget.
template <class T>
void randomCases(int w, int h, Failures& fails) {
    const std::vector<double> angles = test::interestingAngles(10, static_cast<std::uint64_t>(w * 1000 + h));
    const std::vector<int> lengths = lengthsFor(w, h);
    std::vector<std::pair<double, int>> pairs;
    for (double a : angles)
        for (int l : lengths) pairs.emplace_back(a, l);
    const long pixels = static_cast<long>(w) * h;
    const int budget = test::scaled(static_cast<int>(std::clamp(400000L / std::max(1L, pixels), 10L, 100000L)));
    std::mt19937_64 rng(static_cast<std::uint64_t>(pixels) * 7919u + sizeof(T));
    if (static_cast<int>(pairs.size()) > budget) {
        std::shuffle(pairs.begin(), pairs.end(), rng);
        // Keep the axes and diagonals with a mid-size λ whatever the sample.
        for (double a : {0.0, 45.0, 90.0, 135.0}) pairs.insert(pairs.begin(), {a, std::min(9, w + 1)});
        pairs.resize(static_cast<std::size_t>(budget) + 4);
    }
    const std::vector<test::ImageKind> kinds = test::allImageKinds();
    int i = 0;
    for (const auto& [angle, length] : pairs) {
        const test::ImageKind kind = kinds[static_cast<std::size_t>(i) % kinds.size()];
        const Image<T> img = imageFor<T>(w, h, static_cast<std::uint64_t>(i) + 17u * static_cast<std::uint64_t>(w), kind);
        for (MorphOp op : kOps) checkCase(img, op, angle, length, test::imageKindName(kind), fails);
        ++i;
    }
}

template <class F>
void byType(int type, F&& body) {
    switch (type) {
    case 0: body(std::uint8_t{}); break;
    case 1: body(std::uint16_t{}); break;
    default: body(float{}); break;
    }
}

const char* typeName(int type) { return type == 0 ? "uint8" : type == 1 ? "uint16" : "float32"; }

template <class T>
void checkThrows(const char* what, auto&& call, Failures& fails) {
    try {
        call();
        fails.add(std::string(pixelTypeName(pixelTypeOf<T>())) + " " + what + ": no Error thrown");
    } catch (const Error&) {
    } catch (const std::exception& e) {
        fails.add(std::string(pixelTypeName(pixelTypeOf<T>())) + " " + what + ": threw a non-Error: " + e.what());
    }
}

template <class T>
void errorCases(Failures& fails) {
    const Image<T> img = test::randomImage<T>(9, 7, 3);
    for (LineAlgorithm algo : {LineAlgorithm::Auto, LineAlgorithm::Sheared, LineAlgorithm::VanHerk,
                               LineAlgorithm::Fifo, LineAlgorithm::Stack, LineAlgorithm::Reference}) {
        const EngineOptions opt{Backend::Cpu, algo, 1};
        const std::string a = std::string(" algorithm ") + algorithmName(algo);
        for (int bad : {0, -1, INT_MIN})
            checkThrows<T>(("λ " + std::to_string(bad) + a).c_str(),
                           [&] { lineMorph<T>(MorphOp::Open, img.cview(), LineParams{30, bad}, opt); }, fails);
        for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity()})
            checkThrows<T>(("angle " + angleString(bad) + a).c_str(),
                           [&] { lineMorph<T>(MorphOp::Erode, img.cview(), LineParams{bad, 3}, opt); }, fails);
        checkThrows<T>(("empty 0x0" + a).c_str(),
                       [&] { lineMorph<T>(MorphOp::Open, ImageView<const T>(), LineParams{30, 3}, opt); }, fails);
        checkThrows<T>(("empty 0x7" + a).c_str(), [&] {
            lineMorph<T>(MorphOp::Open, ImageView<const T>(img.data(), 0, 7, 9), LineParams{30, 3}, opt);
        }, fails);
        checkThrows<T>(("empty 9x0" + a).c_str(), [&] {
            lineMorph<T>(MorphOp::Open, ImageView<const T>(img.data(), 9, 0, 9), LineParams{30, 3}, opt);
        }, fails);
        for (auto [dw, dh] : {std::pair{8, 7}, std::pair{9, 6}, std::pair{10, 7}, std::pair{7, 9}}) {
            Image<T> dst(dw, dh);
            checkThrows<T>(("output size " + std::to_string(dw) + "x" + std::to_string(dh) + a).c_str(),
                           [&] { lineMorph<T>(MorphOp::Open, img.cview(), dst.view(), LineParams{30, 3}, opt); },
                           fails);
        }
        Image<T> same = img;
        checkThrows<T>(("output aliasing the input" + a).c_str(), [&] {
            lineMorph<T>(MorphOp::Open, ImageView<const T>(same.view()), same.view(), LineParams{30, 3}, opt);
        }, fails);
        if constexpr (std::is_floating_point_v<T>) {
            for (auto [x, y] : {std::pair{0, 0}, std::pair{8, 6}, std::pair{4, 3}}) {
                Image<T> nan = img;
                nan.at(x, y) = std::numeric_limits<float>::quiet_NaN();
                checkThrows<T>(("NaN at (" + std::to_string(x) + ", " + std::to_string(y) + ")" + a).c_str(),
                               [&] { lineMorph<T>(MorphOp::Close, nan.cview(), LineParams{10, 3}, opt); }, fails);
            }
        }
    }
}

// Views with stride > width for input and output; the output's padding must stay untouched.
template <class T>
void stridedCases(Failures& fails) {
    const int sizes[][2] = {{1, 1}, {17, 5}, {5, 17}, {97, 61}, {70, 33}};
    const T sentinel = static_cast<T>(77);
    for (const auto& sz : sizes) {
        const Image<T> img = test::randomImage<T>(sz[0], sz[1], 99, test::ImageKind::Noise);
        const test::PaddedImage<T> in = test::PaddedImage<T>::copyOf(img, 3, sentinel);
        for (double angle : {0.0, 45.0, 90.0, 135.0, 30.0, 62.0, 100.0, 160.0, -0.0001})
            for (int length : {1, 4, 11, sz[0] + 5})
                for (MorphOp op : kOps) {
                    const Image<T> ref = reference::referenceLineMorph<T>(op, img.cview(), angle, length);
                    for (LineAlgorithm algo : kAlgorithms)
                        for (int threads : {1, 2}) {
                            test::PaddedImage<T> out(sz[0], sz[1], 5, sentinel);
                            const std::string where = caseName(op, angle, length, img, "noise strided") +
                                                      " algorithm " + algorithmName(algo) + " threads " +
                                                      std::to_string(threads);
                            try {
                                lineMorph<T>(op, in.cview(), out.view(), LineParams{angle, length},
                                             EngineOptions{Backend::Cpu, algo, threads});
                            } catch (const std::exception& e) {
                                fails.add(where + ": threw: " + e.what());
                                continue;
                            }
                            if (auto d = test::firstDifference<T>(ref.cview(), out.cview())) fails.add(where + ": " + *d);
                            if (!out.paddingIntact()) fails.add(where + ": wrote outside the output view");
                        }
                }
    }
}

}  // namespace

class TestLineMorph : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        qInfo("sheared kernels run with %s; LINESCOPE_TEST_SCALE %g", cpu::shearedKernelIsa(), test::testScale());
    }

    // Hand-worked examples, so that the reference itself is pinned to design.md §1.
    void referenceByHand() {
        using reference::referenceLineMorph;
        const std::uint8_t row[] = {5, 1, 4, 2, 3};
        const ImageView<const std::uint8_t> h(row, 5, 1), v(row, 1, 5);
        auto eq = [](const Image<std::uint8_t>& img, std::vector<int> want) {
            for (std::size_t i = 0; i < want.size(); ++i)
                if (img.pixels()[i] != want[i]) return false;
            return true;
        };
        // λ = 3: B = {-1, 0, 1}.
        QVERIFY(eq(referenceLineMorph(MorphOp::Erode, h, 0, 3), {1, 1, 1, 2, 2}));
        QVERIFY(eq(referenceLineMorph(MorphOp::Dilate, h, 0, 3), {5, 5, 4, 4, 3}));
        QVERIFY(eq(referenceLineMorph(MorphOp::Open, h, 0, 3), {1, 1, 2, 2, 2}));
        QVERIFY(eq(referenceLineMorph(MorphOp::Close, h, 0, 3), {5, 4, 4, 3, 3}));
        QVERIFY(eq(referenceLineMorph(MorphOp::TopHat, h, 0, 3), {4, 0, 2, 0, 1}));
        // λ = 2: B = {0, 1}; erosion looks forward, dilation backward.
        QVERIFY(eq(referenceLineMorph(MorphOp::Erode, h, 0, 2), {1, 1, 2, 2, 3}));
        QVERIFY(eq(referenceLineMorph(MorphOp::Dilate, h, 0, 2), {5, 5, 4, 4, 3}));
        QVERIFY(eq(referenceLineMorph(MorphOp::Open, h, 0, 2), {1, 1, 2, 2, 3}));
        // The same column at 90° (y-major), and a row at 90° is lines of one pixel.
        QVERIFY(eq(referenceLineMorph(MorphOp::Erode, v, 90, 3), {1, 1, 1, 2, 2}));
        QVERIFY(eq(referenceLineMorph(MorphOp::Erode, h, 90, 3), {5, 1, 4, 2, 3}));
        // λ beyond the line: the whole line.
        QVERIFY(eq(referenceLineMorph(MorphOp::Erode, h, 180, 1000), {1, 1, 1, 1, 1}));
        // 45° goes up-right: (0,2), (1,1), (2,0) are one line.
        std::uint8_t grid[9] = {9, 9, 1, 9, 9, 9, 9, 9, 9};
        const auto d45 = referenceLineMorph(MorphOp::Erode, ImageView<const std::uint8_t>(grid, 3, 3), 45, 3);
        QCOMPARE(int(d45.at(1, 1)), 1);
        QCOMPARE(int(d45.at(2, 0)), 1);
        QCOMPARE(int(d45.at(0, 2)), 9);  // at the line's start B reaches only (1,1)
        QCOMPARE(int(d45.at(0, 0)), 9);
        // 135° goes up-left: (2,0) is a line of its own, (1,0) shares one with (2,1).
        const auto d135 = referenceLineMorph(MorphOp::Erode, ImageView<const std::uint8_t>(grid, 3, 3), 135, 3);
        QCOMPARE(int(d135.at(1, 1)), 9);
        QCOMPARE(int(d135.at(2, 0)), 1);
        QCOMPARE(int(d135.at(1, 0)), 9);
    }

    void random_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("w");
        QTest::addColumn<int>("h");
        const int sizes[][2] = {{1, 1},   {1, 7},    {7, 1},   {2, 3},   {3, 2},   {17, 5},  {5, 17},
                                {31, 64}, {65, 70},  {97, 61}, {128, 33}, {33, 129}, {200, 150}, {151, 203}};
        for (int type = 0; type < 3; ++type)
            for (const auto& s : sizes)
                QTest::addRow("%s %dx%d", typeName(type), s[0], s[1]) << type << s[0] << s[1];
    }
    void random() {
        QFETCH(int, type);
        QFETCH(int, w);
        QFETCH(int, h);
        Failures fails;
        byType(type, [&](auto t) { randomCases<decltype(t)>(w, h, fails); });
        LINESCOPE_CHECK(fails.count() == 0, fails.summary());
    }

    // Every quarter degree once, so that every slope class and both major axes are visited.
    void everyAngle() {
        Failures fails;
        const std::vector<int> lengths = {2, 3, 5, 8, 13, 30, 64};
        int i = 0;
        for (double a = -0.25; a < 180.0; a += 0.25, ++i) {
            const int length = lengths[static_cast<std::size_t>(i) % lengths.size()];
            const MorphOp op = kOps[static_cast<std::size_t>(i) % std::size(kOps)];
            switch (i % 3) {
            case 0: checkCase(test::randomImage<std::uint8_t>(37, 29, static_cast<std::uint64_t>(i)), op, a, length, "noise", fails); break;
            case 1: checkCase(test::randomImage<std::uint16_t>(70, 9, static_cast<std::uint64_t>(i), test::ImageKind::Blocky), op, a, length, "blocky", fails); break;
            default: checkCase(test::randomImage<float>(9, 70, static_cast<std::uint64_t>(i), test::ImageKind::Specials), op, a, length, "specials", fails); break;
            }
        }
        LINESCOPE_CHECK(fails.count() == 0, fails.summary());
    }

    // λ far beyond the image, up to INT_MAX: the border is ignored, so every line is reduced whole.
    void hugeLengths() {
        Failures fails;
        for (int length : {1000, 100001, INT_MAX - 1, INT_MAX})
            for (double angle : {0.0, 33.0, 90.0, 120.0}) {
                checkCase(test::randomImage<std::uint8_t>(50, 40, 5), MorphOp::Open, angle, length, "noise", fails);
                checkCase(test::randomImage<float>(40, 50, 6), MorphOp::Close, angle, length, "noise", fails);
                checkCase(test::randomImage<std::uint16_t>(40, 50, 7), MorphOp::Erode, angle, length, "noise", fails);
                checkCase(test::randomImage<std::uint16_t>(40, 50, 7), MorphOp::Dilate, angle, length, "noise", fails);
            }
        LINESCOPE_CHECK(fails.count() == 0, fails.summary());
    }

    void strided() {
        Failures fails;
        stridedCases<std::uint8_t>(fails);
        stridedCases<std::uint16_t>(fails);
        stridedCases<float>(fails);
        LINESCOPE_CHECK(fails.count() == 0, fails.summary());
    }

    // Each sheared kernel variant this processor can run, called directly (see the top of the file).
    void shearedEveryIsa() {
        Failures fails;
        forEachRunnableIsa([&](const char* isa) {
            byTypeAll([&](auto t) { shearedVariantCases<decltype(t)>(isa, fails); });
        });
        LINESCOPE_CHECK(fails.count() == 0, fails.summary());
    }

    // Each window kernel (direct, van Herk, and the length-based choice) of each variant,
    // around the crossover length, every operator and pixel type.
    void windowKernelsEveryIsa() {
        Failures fails;
        forEachRunnableIsa([&](const char* isa) {
            for (auto kernel : {cpu::WindowKernel::Direct, cpu::WindowKernel::VanHerk, cpu::WindowKernel::Auto})
                byTypeAll([&](auto t) { windowKernelCases<decltype(t)>(isa, kernel, fails); });
        });
        LINESCOPE_CHECK(fails.count() == 0, fails.summary());
    }

    // The NaN check holds however it is called (deduced or with an explicit type).
    void nanCheckEveryCall() {
        Image<float> img(3, 2, 1.0f);
        img.at(2, 1) = std::numeric_limits<float>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(Error, requireNoNaN(img.cview()));
        QVERIFY_THROWS_EXCEPTION(Error, requireNoNaN<float>(img.cview()));
        QVERIFY_THROWS_EXCEPTION(Error, requireNoNaN<const float>(img.cview()));
        const Image<std::uint8_t> u8(3, 2, 7);
        requireNoNaN<std::uint8_t>(u8.cview());  // integers have no NaN: no throw
    }

    void errors() {
        Failures fails;
        errorCases<std::uint8_t>(fails);
        errorCases<std::uint16_t>(fails);
        errorCases<float>(fails);
        LINESCOPE_CHECK(fails.count() == 0, fails.summary());
    }

    void referenceErrors() {
        const Image<float> img = test::randomImage<float>(4, 4, 1);
        QVERIFY_THROWS_EXCEPTION(Error, reference::referenceLineMorph<float>(MorphOp::Open, img.cview(), 0, 0));
        QVERIFY_THROWS_EXCEPTION(Error, reference::referenceLineMorph<float>(MorphOp::Open, ImageView<const float>(), 0, 3));
        QVERIFY_THROWS_EXCEPTION(Error, reference::referenceLineMorph<float>(MorphOp::Open, img.cview(),
                                                                             std::numeric_limits<double>::infinity(), 3));
        Image<float> nan = img;
        nan.at(2, 3) = std::numeric_limits<float>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(Error, reference::referenceLineMorph<float>(MorphOp::Open, nan.cview(), 0, 3));
    }

private:
    // body(name) for each kernel variant this processor can run; the others are named as skipped.
    template <class F>
    static void forEachRunnableIsa(F&& body) {
        __builtin_cpu_init();
        struct Variant { const char* name; bool runs; };
        const Variant variants[] = {{"generic", true},
                                    {"avx2", __builtin_cpu_supports("avx2") != 0},
                                    {"avx512", __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                                                   __builtin_cpu_supports("avx512vl")}};
        for (const Variant& v : variants) {
            if (v.runs) body(v.name);
            else qInfo("skipping the %s sheared kernels: this processor lacks the instructions", v.name);
        }
    }

    template <class T>
    static void runShearedIsa(const std::string& isa, cpu::WindowKernel kernel, MorphOp op, ImageView<const T> src,
                              ImageView<T> dst, const LineFamily& fam, Segment seg, int threads) {
        if (isa == "generic") cpu::generic::shearedLineMorph<T>(op, src, dst, fam, seg, threads, kernel);
        else if (isa == "avx2") cpu::avx2::shearedLineMorph<T>(op, src, dst, fam, seg, threads, kernel);
        else cpu::avx512::shearedLineMorph<T>(op, src, dst, fam, seg, threads, kernel);
    }

    // Both window kernels, forced, at lengths on both sides of the crossover: 1 and 2, odd and
    // even, the crossover and its neighbours, windows longer than a batch of rows and than the
    // ring (so that it wraps), and longer than the lines. Sizes put strip heights just below,
    // at and above multiples of the stages' batch of rows.
    template <class T>
    static void windowKernelCases(const char* isa, cpu::WindowKernel kernel, Failures& fails) {
        const int x = cpu::kDirectMaxWindow;
        const int b = cpu::kBatchRows;
        const std::vector<int> lengths = {1, 2, 3, 4, 5, 6, 7, 8, 9, x - 1, x, x + 1, x + 2, b - 1, b, b + 1,
                                          2 * b + 3, 41, 66};
        const int sizes[][2] = {{1, 1}, {2, 3}, {9, 1}, {1, 9}, {b - 1, 2 * b + 1}, {2 * b, b},
                                {3 * b + 1, 2 * b - 1}, {70, 131}, {131, 70}};
        const std::vector<double> angles = {0.0, 45.0, 90.0, 135.0, 17.0, 63.5, 101.0, 158.0};
        const std::vector<test::ImageKind> kinds = test::allImageKinds();
        std::mt19937_64 rng(7);
        int i = 0;
        for (const auto& sz : sizes)
            for (int length : lengths) {
                if (length > 2 * (sz[0] + sz[1]) + 2 && length != lengths.back()) continue;
                const double angle = angles[static_cast<std::size_t>(i) % angles.size()];
                const MorphOp op = kOps[static_cast<std::size_t>(i) % std::size(kOps)];
                const test::ImageKind kind = kinds[static_cast<std::size_t>(i) % kinds.size()];
                const Image<T> img = test::randomImage<T>(sz[0], sz[1], rng(), kind);
                const Image<T> ref = reference::referenceLineMorph<T>(op, img.cview(), angle, length);
                const int threads = 1 + i % 2;
                Image<T> got(sz[0], sz[1]);
                runShearedIsa<T>(isa, kernel, op, img.cview(), got.view(), lineFamily(angle, sz[0], sz[1]),
                                 segmentOf(length), threads);
                if (auto d = test::firstDifference(ref, got))
                    fails.add(caseName(op, angle, length, img, test::imageKindName(kind)) + " sheared " + isa +
                              " kernel " + kernelName(kernel) + " threads " + std::to_string(threads) + ": " + *d);
                ++i;
            }
    }
    static const char* kernelName(cpu::WindowKernel k) {
        return k == cpu::WindowKernel::Direct ? "direct" : k == cpu::WindowKernel::VanHerk ? "vanherk" : "auto";
    }

    template <class F>
    static void byTypeAll(F&& body) {
        body(std::uint8_t{});
        body(std::uint16_t{});
        body(float{});
    }

    template <class T>
    static void shearedVariantCases(const char* isa, Failures& fails) {
        const int sizes[][2] = {{1, 1}, {3, 2}, {17, 5}, {63, 65}, {130, 47}, {47, 130}};
        std::mt19937_64 rng(42);
        const std::vector<double> angles = test::interestingAngles(6, 9);
        const std::vector<test::ImageKind> kinds = test::allImageKinds();
        int i = 0;
        for (const auto& sz : sizes) {
            const std::vector<int> lengths = lengthsFor(sz[0], sz[1]);
            const int cases = sz[0] * sz[1] > 1000 ? test::scaled(12) : test::scaled(40);
            for (int c = 0; c < cases; ++c, ++i) {
                const double angle = angles[rng() % angles.size()];
                const int length = lengths[rng() % lengths.size()];
                const MorphOp op = kOps[rng() % std::size(kOps)];
                const test::ImageKind kind = kinds[static_cast<std::size_t>(i) % kinds.size()];
                const Image<T> img = test::randomImage<T>(sz[0], sz[1], static_cast<std::uint64_t>(i) + 1000u, kind);
                const Image<T> ref = reference::referenceLineMorph<T>(op, img.cview(), angle, length);
                for (int threads : {1, 2}) {
                    Image<T> got(sz[0], sz[1]);
                    const LineFamily fam = lineFamily(angle, sz[0], sz[1]);
                    const Segment seg = segmentOf(length);
                    const std::string isaName = isa;
                    runShearedIsa<T>(isaName, cpu::WindowKernel::Auto, op, img.cview(), got.view(), fam, seg, threads);
                    if (auto d = test::firstDifference(ref, got))
                        fails.add(caseName(op, angle, length, img, test::imageKindName(kind)) + " sheared " + isa +
                                  " threads " + std::to_string(threads) + ": " + *d);
                }
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestLineMorph)
#include "test_line_morph.moc"
