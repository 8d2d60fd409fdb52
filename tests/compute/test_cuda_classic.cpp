// The CUDA classic operators against the CPU backend, bit for bit (memcmp, so −0 and +0
// differ, and so do NaNs of different bits): every pixel type, shape, method and operator
// on random images (noise, ties, plateaus, the extremes of each type: 0/max, ±0, ±∞,
// denormals) of sizes from 1×1 to 1024×768, with SEs of odd and even sizes and larger than
// the image; strided host images; the methods' shape rules and names. On a machine without
// a usable GPU every test skips and says why.
#include "compute/backend.h"
#include "compute/classic_morph.h"
#include "compute/cuda/cuda_backend.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

using namespace linescope;

namespace {

const MorphOp kOps[] = {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close, MorphOp::TopHat};
// Auto is VanHerk; the exhaustive loops leave it to the random cases and the names test.
const ClassicMethod kLineMethods[] = {ClassicMethod::VanHerk, ClassicMethod::VanHerkTranspose};
const ClassicMethod kRectMethods[] = {ClassicMethod::VanHerk, ClassicMethod::VanHerkTranspose, ClassicMethod::Naive,
                                      ClassicMethod::Global, ClassicMethod::SharedTile};
const ClassicMethod kAllMethods[] = {ClassicMethod::Auto,  ClassicMethod::VanHerk, ClassicMethod::VanHerkTranspose,
                                     ClassicMethod::Naive, ClassicMethod::Global,  ClassicMethod::SharedTile};

EngineOptions cpu() {
    EngineOptions o;
    o.backend = Backend::Cpu;
    return o;
}
EngineOptions gpu() {
    EngineOptions o;
    o.backend = Backend::Cuda;
    return o;
}

std::string describeSE(const ClassicSE& se) {
    char size[48];
    switch (se.shape) {
    case ClassicShape::HLine:
    case ClassicShape::Diag45:
    case ClassicShape::Diag135: std::snprintf(size, sizeof size, "%d", se.width); break;
    case ClassicShape::VLine: std::snprintf(size, sizeof size, "%d", se.height); break;
    case ClassicShape::Rect: std::snprintf(size, sizeof size, "%dx%d", se.width, se.height); break;
    default: std::snprintf(size, sizeof size, "r%d", se.radius); break;
    }
    char text[128];
    std::snprintf(text, sizeof text, "%s %s %s", classicShapeName(se.shape), size, classicMethodName(se.method));
    return text;
}

template <class T>
std::string bitsOf(T v) {
    std::uint32_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%0*x", static_cast<int>(2 * sizeof(T)), b);
    return buf;
}

// Bit-exact: the GPU must return the very bits the CPU returns.
template <class T>
std::optional<std::string> bitDifference(ImageView<const T> want, ImageView<const T> got) {
    long long differ = 0;
    int fx = -1, fy = -1;
    for (int y = 0; y < want.height; ++y)
        for (int x = 0; x < want.width; ++x)
            if (std::memcmp(&want.at(x, y), &got.at(x, y), sizeof(T)) != 0) {
                if (differ++ == 0) { fx = x; fy = y; }
            }
    if (differ == 0) return std::nullopt;
    return "first difference at (" + std::to_string(fx) + ", " + std::to_string(fy) + "): expected " +
           test::pixelString(want.at(fx, fy)) + " (" + bitsOf(want.at(fx, fy)) + "), got " +
           test::pixelString(got.at(fx, fy)) + " (" + bitsOf(got.at(fx, fy)) + "); " + std::to_string(differ) +
           " of " + std::to_string(want.pixelCount()) + " pixels differ";
}

// Collects failures so that one run reports many cases, the first few in full.
class Failures {
public:
    ~Failures() { qInfo("%lld cases compared", checked); }
    void add(const std::string& m) {
        if (count_++ < 12) qWarning("%s", m.c_str());
    }
    int count() const { return count_; }
    long long checked = 0;

private:
    int count_ = 0;
};

template <class T>
void checkOne(const Image<T>& img, MorphOp op, const ClassicSE& se, const char* kind, Failures& fails) {
    ++fails.checked;
    Image<T> want(img.width(), img.height()), got(img.width(), img.height());
    classicMorph<T>(op, img.cview(), want.view(), se, cpu());
    try {
        classicMorph<T>(op, img.cview(), got.view(), se, gpu());
    } catch (const Error& e) {
        fails.add(std::string(pixelTypeName(pixelTypeOf<T>())) + " " + morphOpName(op) + " " + describeSE(se) + " " +
                  std::to_string(img.width()) + "x" + std::to_string(img.height()) + " " + kind + ": threw " +
                  e.what());
        return;
    }
    if (auto d = bitDifference<T>(want.cview(), got.cview()))
        fails.add(std::string(pixelTypeName(pixelTypeOf<T>())) + " " + morphOpName(op) + " " + describeSE(se) + " " +
                  std::to_string(img.width()) + "x" + std::to_string(img.height()) + " " + kind + ": " + *d);
}

// Every shape with the given sizes: lines of each length, rectangles of each pair, octagons
// and discs of each radius, each with every method that applies on the CUDA backend.
std::vector<ClassicSE> sesOf(const std::vector<int>& lengths, const std::vector<int>& rectSides,
                             const std::vector<int>& radii, bool windowMethods) {
    std::vector<ClassicSE> out;
    auto add = [&](ClassicSE se, bool rect) {
        if (rect) {
            for (ClassicMethod m : kRectMethods)
                if (windowMethods || (m != ClassicMethod::Naive && m != ClassicMethod::Global &&
                                      m != ClassicMethod::SharedTile)) {
                    se.method = m;
                    out.push_back(se);
                }
        } else {
            for (ClassicMethod m : kLineMethods) {
                se.method = m;
                out.push_back(se);
            }
        }
    };
    for (int n : lengths) {
        add({ClassicShape::HLine, n, 1, 1}, false);
        add({ClassicShape::VLine, 1, n, 1}, false);
        add({ClassicShape::Diag45, n, 1, 1}, false);
        add({ClassicShape::Diag135, n, 1, 1}, false);
    }
    for (int w : rectSides)
        for (int h : rectSides) add({ClassicShape::Rect, w, h, 1}, true);
    for (int r : radii) {
        add({ClassicShape::Octagon, 1, 1, r}, false);
        add({ClassicShape::Disc, 1, 1, r}, false);
    }
    return out;
}

template <class F>
void byType(int type, F&& body) {
    if (type == 0) body(std::uint8_t{});
    else if (type == 1) body(std::uint16_t{});
    else body(float{});
}

const test::ImageKind kKinds[] = {test::ImageKind::Noise, test::ImageKind::FewLevels, test::ImageKind::Blocky,
                                  test::ImageKind::Specials};
// Two kinds an image size: the extremes always, and the others in turn.
std::vector<test::ImageKind> kindsFor(int i) { return {test::ImageKind::Specials, kKinds[i % 3]}; }

}  // namespace

class TestCudaClassic : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        std::string why;
        if (!cuda::deviceUsable(&why)) QSKIP(("no CUDA device: " + why).c_str());
        qInfo("%s", cuda::deviceDescription().c_str());
    }

    void smallImagesEveryShape_data() {
        QTest::addColumn<int>("type");
        QTest::newRow("uint8") << 0;
        QTest::newRow("uint16") << 1;
        QTest::newRow("float32") << 2;
    }
    // Small images, every SE size from 1 to past the image, every method and operator, on
    // the extremes and one other kind of image: the borders, the padded decompositions and
    // the −0 / ∞ cases.
    void smallImagesEveryShape() {
        QFETCH(int, type);
        Failures fails;
        byType(type, [&](auto tag) {
            using T = decltype(tag);
            const int sizes[][2] = {{1, 1}, {1, 6}, {7, 1}, {2, 3}, {7, 5}, {6, 9}, {13, 8}, {16, 11}, {31, 17}};
            std::uint64_t seed = 11;
            int round = 0;
            for (int s : test::caseSet({0, 1, 2, 3, 4, 5, 6, 7, 8})) {
                const int w = sizes[s][0], h = sizes[s][1], big = std::max(w, h) + 3;
                std::vector<int> lengths, sides = {1, 2, 3, 4, 5, 8, w, h + 1, big}, radii;
                for (int n = 1; n <= big; ++n) lengths.push_back(n);
                for (int r = 0; r <= big; ++r) radii.push_back(r);
                lengths = test::caseSet(lengths);
                radii = test::caseSet(radii);
                sides = test::caseSet(sides);
                const auto ses = sesOf(lengths, sides, radii, true);
                for (const auto kind : kindsFor(round++)) {
                    const Image<T> img = test::randomImage<T>(w, h, seed++, kind);
                    for (const ClassicSE& se : ses)
                        for (MorphOp op : kOps) checkOne(img, op, se, test::imageKindName(kind), fails);
                }
            }
        });
        QVERIFY2(fails.count() == 0, (std::to_string(fails.count()) + " cases differ (first ones above)").c_str());
    }

    void largerImages_data() { smallImagesEveryShape_data(); }
    // 257×131 with every method, SEs up to past the image; 1024×768 with the van Herk
    // methods up to long SEs and the O(w·h) methods up to 31×31.
    void largerImages() {
        QFETCH(int, type);
        Failures fails;
        byType(type, [&](auto tag) {
            using T = decltype(tag);
            {
                const std::vector<int> lengths = {2, 3, 10, 41, 130, 131, 256, 257, 300};
                const std::vector<int> sides = {1, 2, 7, 16, 33, 140, 300};
                const std::vector<int> radii = {1, 2, 3, 7, 12, 40, 70, 140};
                const auto ses = sesOf(lengths, sides, radii, true);
                std::uint64_t seed = 101;
                for (const auto kind : {test::ImageKind::Specials, test::ImageKind::Blocky}) {
                    const Image<T> img = test::randomImage<T>(257, 131, seed++, kind);
                    for (const ClassicSE& se : ses)
                        for (MorphOp op : kOps) checkOne(img, op, se, test::imageKindName(kind), fails);
                }
            }
            {
                const std::vector<int> lengths = {2, 15, 64, 251, 800, 1100};
                const std::vector<int> radii = {1, 5, 24, 60};
                auto ses = sesOf(lengths, {1, 6, 31, 200, 1100}, radii, false);
                for (const ClassicSE& se : sesOf({}, {2, 5, 31}, {}, true)) ses.push_back(se);
                const auto kind = std::is_floating_point_v<T> ? test::ImageKind::Specials : test::ImageKind::Noise;
                const Image<T> img = test::randomImage<T>(1024, 768, 202, kind);
                for (const ClassicSE& se : ses)
                    for (MorphOp op : kOps) checkOne(img, op, se, test::imageKindName(kind), fails);
            }
        });
        QVERIFY2(fails.count() == 0, (std::to_string(fails.count()) + " cases differ (first ones above)").c_str());
    }

    // Flat images of one extreme value: −0 everywhere (the single-pixel SE copies it, every
    // other SE reads it as +0, the top-hat subtracts from the raw −0), ±∞ everywhere (the
    // top-hat is ∞ − ∞, a NaN whose bits are the processor's), and integer 0 / max.
    void flatExtremes() {
        Failures fails;
        const float f32[] = {-0.0f, 0.0f, std::numeric_limits<float>::infinity(),
                             -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::max(),
                             std::numeric_limits<float>::denorm_min()};
        const auto ses = sesOf({1, 2, 5}, {1, 2, 5}, {0, 1, 4}, true);
        for (float v : f32)
            for (const ClassicSE& se : ses)
                for (MorphOp op : kOps) checkOne(Image<float>(9, 7, v), op, se, "flat float", fails);
        for (std::uint16_t v : {std::uint16_t{0}, std::uint16_t{65535}})
            for (const ClassicSE& se : ses)
                for (MorphOp op : kOps) checkOne(Image<std::uint16_t>(9, 7, v), op, se, "flat uint16", fails);
        for (std::uint8_t v : {std::uint8_t{0}, std::uint8_t{255}})
            for (const ClassicSE& se : ses)
                for (MorphOp op : kOps) checkOne(Image<std::uint8_t>(9, 7, v), op, se, "flat uint8", fails);
        QVERIFY2(fails.count() == 0, (std::to_string(fails.count()) + " cases differ (first ones above)").c_str());
    }

    // Host images with stride > width, in and out: the upload and download honour the
    // stride and nothing is written outside the output view.
    void stridedImages() {
        const Image<float> img = test::randomImage<float>(45, 23, 7, test::ImageKind::Specials);
        const auto in = test::PaddedImage<float>::copyOf(img, 5, 12345.0f);
        for (const ClassicSE& se : sesOf({4}, {3, 6}, {3}, true))
            for (MorphOp op : kOps) {
                Image<float> want(45, 23);
                classicMorph<float>(op, img.cview(), want.view(), se, cpu());
                test::PaddedImage<float> out(45, 23, 3, -777.0f);
                classicMorph<float>(op, in.cview(), out.view(), se, gpu());
                const auto d = bitDifference<float>(want.cview(), out.cview());
                QVERIFY2(!d, (describeSE(se) + " " + morphOpName(op) + ": " + d.value_or("")).c_str());
                QVERIFY2(out.paddingIntact(), (describeSE(se) + ": wrote outside the output view").c_str());
            }
    }

    // Random images, sizes, SEs and methods; seeded, so a failure repeats.
    void randomCases() {
        Failures fails;
        std::mt19937_64 rng(2024);
        const int cases = test::scaled(600);
        for (int i = 0; i < cases; ++i) {
            const int w = 1 + static_cast<int>(rng() % 300), h = 1 + static_cast<int>(rng() % 200);
            const auto kind = kKinds[rng() % std::size(kKinds)];
            const MorphOp op = kOps[rng() % std::size(kOps)];
            ClassicSE se;
            se.shape = static_cast<ClassicShape>(rng() % 7);
            se.width = 1 + static_cast<int>(rng() % 60);
            se.height = 1 + static_cast<int>(rng() % 60);
            se.radius = static_cast<int>(rng() % 50);
            se.method = kAllMethods[rng() % (se.shape == ClassicShape::Rect ? 6 : 3)];
            const std::uint64_t seed = rng();
            byType(static_cast<int>(rng() % 3), [&](auto tag) {
                using T = decltype(tag);
                checkOne(test::randomImage<T>(w, h, seed, kind), op, se, test::imageKindName(kind), fails);
            });
        }
        QVERIFY2(fails.count() == 0, (std::to_string(fails.count()) + " cases differ (first ones above)").c_str());
    }

    // Naive, Global and SharedTile are rectangle kernels: other shapes are refused on the
    // GPU with a clear error, and computed as usual on the CPU.
    void windowMethodsTakeRectanglesOnly() {
        const Image<std::uint8_t> img = test::randomImage<std::uint8_t>(20, 10, 3);
        Image<std::uint8_t> out(20, 10);
        for (ClassicMethod m : {ClassicMethod::Naive, ClassicMethod::Global, ClassicMethod::SharedTile})
            for (ClassicShape s : {ClassicShape::HLine, ClassicShape::VLine, ClassicShape::Diag45, ClassicShape::Diag135,
                                   ClassicShape::Octagon, ClassicShape::Disc}) {
                const ClassicSE se{s, 3, 3, 2, m};
                QVERIFY_THROWS_EXCEPTION(Error, classicMorph<std::uint8_t>(MorphOp::Erode, img.cview(), out.view(), se, gpu()));
                classicMorph<std::uint8_t>(MorphOp::Erode, img.cview(), out.view(), se, cpu());
            }
    }

    // The engine's direct CUDA entry point (the dispatcher's target) gives the same bits.
    void directEntryPoint() {
        const Image<std::uint16_t> img = test::randomImage<std::uint16_t>(70, 33, 5, test::ImageKind::Blocky);
        const ClassicSE se{ClassicShape::Octagon, 1, 1, 6, ClassicMethod::VanHerkTranspose};
        Image<std::uint16_t> want(70, 33), got(70, 33);
        classicMorph<std::uint16_t>(MorphOp::Close, img.cview(), want.view(), se, cpu());
        cuda::classicMorph<std::uint16_t>(MorphOp::Close, img.cview(), got.view(), se);
        const auto d = bitDifference<std::uint16_t>(want.cview(), got.cview());
        QVERIFY2(!d, d.value_or("").c_str());
    }

    void methodNames() {
        for (ClassicMethod m : kAllMethods) QCOMPARE(parseClassicMethod(classicMethodName(m)), m);
        QCOMPARE(std::string(classicMethodName(ClassicMethod::VanHerkTranspose)), std::string("vhgw-transpose"));
        QCOMPARE(std::string(classicMethodName(ClassicMethod::SharedTile)), std::string("tile"));
        QVERIFY_THROWS_EXCEPTION(Error, parseClassicMethod("shared"));
    }
};

QTEST_GUILESS_MAIN(TestCudaClassic)
#include "test_cuda_classic.moc"
