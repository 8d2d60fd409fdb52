// The algebra design.md §1 promises, through the default engine, for every line kind (line
// paths, the segment, periodic lines): openings are anti-extensive, increasing and
// idempotent; closings extensive, increasing and idempotent; ε ≤ f ≤ δ; closing and opening
// are dual under negation; top-hat ≥ 0.
#include "compute/line_morph.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <algorithm>
#include <limits>
#include <random>
#include <string>
#include <type_traits>

using namespace linescope;

namespace {

template <class T>
std::string caseName(const char* law, LineKind line, double angle, int length, const Image<T>& f, const char* kind) {
    char a[32];
    std::snprintf(a, sizeof a, "%.10g", angle);
    return std::string(law) + ": " + lineKindName(line) + " " + pixelTypeName(pixelTypeOf<T>()) + " angle " + a + " λ " + std::to_string(length) +
           " size " + std::to_string(f.width()) + "x" + std::to_string(f.height()) + " image " + kind;
}

template <class T>
Image<T> op(MorphOp o, const Image<T>& f, double angle, int length, LineKind line) {
    return lineMorph<T>(o, f.cview(), LineParams{angle, length, line});
}

// "first pixel where a ≤ b fails", or empty.
template <class T>
std::string firstNotLessEqual(const Image<T>& a, const Image<T>& b) {
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            if (!(a.at(x, y) <= b.at(x, y)))
                return "at (" + std::to_string(x) + ", " + std::to_string(y) + "): " + test::pixelString(a.at(x, y)) +
                       " > " + test::pixelString(b.at(x, y));
    return {};
}

// The order-reversing involution of each type: 255 − v, 65535 − v, −v.
template <class T>
Image<T> negate(const Image<T>& f) {
    Image<T> g(f.width(), f.height());
    for (int y = 0; y < f.height(); ++y)
        for (int x = 0; x < f.width(); ++x) {
            if constexpr (std::is_floating_point_v<T>) g.at(x, y) = -f.at(x, y);
            else g.at(x, y) = static_cast<T>(std::numeric_limits<T>::max() - f.at(x, y));
        }
    return g;
}

template <class T>
Image<T> pointwiseMax(const Image<T>& a, const Image<T>& b) {
    Image<T> g(a.width(), a.height());
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) g.at(x, y) = std::max(a.at(x, y), b.at(x, y));
    return g;
}

template <class T>
Image<T> makeImage(int w, int h, std::uint64_t seed, test::ImageKind kind) {
    // Top-hat subtracts: ∞ − ∞ would be NaN, so the laws run on finite floats.
    if constexpr (std::is_floating_point_v<T>) return test::finiteFloatImage(w, h, seed, kind);
    else return test::randomImage<T>(w, h, seed, kind);
}

template <class T>
void checkLaws(int cases, LineKind line, QStringList& failures) {
    std::mt19937_64 rng(1234 + sizeof(T));
    const std::vector<double> angles = test::interestingAngles(30, 77);
    const int sizes[][2] = {{1, 1}, {1, 9}, {9, 1}, {13, 7}, {40, 33}, {64, 64}, {101, 57}};
    const std::vector<test::ImageKind> kinds = test::allImageKinds();
    for (int i = 0; i < cases; ++i) {
        const auto& sz = sizes[static_cast<std::size_t>(i) % std::size(sizes)];
        const int w = sz[0], h = sz[1];
        const double angle = angles[rng() % angles.size()];
        const int length = 1 + static_cast<int>(rng() % (i % 4 == 0 ? 200u : 24u));
        const test::ImageKind kind = kinds[static_cast<std::size_t>(i / 7) % kinds.size()];
        const char* kn = test::imageKindName(kind);
        const Image<T> f = makeImage<T>(w, h, static_cast<std::uint64_t>(i), kind);
        // g ≥ f everywhere: the pointwise max with another random image.
        const Image<T> g = pointwiseMax(f, makeImage<T>(w, h, static_cast<std::uint64_t>(i) + 50000u, kinds[rng() % kinds.size()]));
        auto fail = [&](const char* law, const std::string& detail) {
            failures << QString::fromStdString(caseName(law, line, angle, length, f, kn) + ": " + detail);
        };
        auto le = [&](const char* law, const Image<T>& a, const Image<T>& b) {
            const std::string d = firstNotLessEqual(a, b);
            if (!d.empty()) fail(law, d);
        };
        auto same = [&](const char* law, const Image<T>& a, const Image<T>& b) {
            if (auto d = test::firstDifference(a, b)) fail(law, *d);
        };

        const Image<T> ero = op(MorphOp::Erode, f, angle, length, line);
        const Image<T> dil = op(MorphOp::Dilate, f, angle, length, line);
        const Image<T> open = op(MorphOp::Open, f, angle, length, line);
        const Image<T> close = op(MorphOp::Close, f, angle, length, line);
        le("erosion ≤ f", ero, f);
        le("f ≤ dilation", f, dil);
        le("erosion ≤ opening", ero, open);
        le("closing ≤ dilation", close, dil);
        le("opening anti-extensive", open, f);
        le("closing extensive", f, close);
        same("opening idempotent", op(MorphOp::Open, open, angle, length, line), open);
        same("closing idempotent", op(MorphOp::Close, close, angle, length, line), close);
        same("opening = δ(ε f)", op(MorphOp::Dilate, ero, angle, length, line), open);
        same("closing = ε(δ f)", op(MorphOp::Erode, dil, angle, length, line), close);
        le("opening increasing", open, op(MorphOp::Open, g, angle, length, line));
        le("closing increasing", close, op(MorphOp::Close, g, angle, length, line));
        le("erosion increasing", ero, op(MorphOp::Erode, g, angle, length, line));
        le("dilation increasing", dil, op(MorphOp::Dilate, g, angle, length, line));

        const Image<T> tophat = op(MorphOp::TopHat, f, angle, length, line);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                if (!(tophat.at(x, y) >= T(0))) {
                    fail("top-hat ≥ 0", "at (" + std::to_string(x) + ", " + std::to_string(y) + "): " +
                                            test::pixelString(tophat.at(x, y)));
                    y = h;
                    break;
                }
                const T expect = static_cast<T>(f.at(x, y) - open.at(x, y));
                if (!test::samePixel(tophat.at(x, y), expect)) {
                    fail("top-hat = f − opening", "at (" + std::to_string(x) + ", " + std::to_string(y) + "): " +
                                                       test::pixelString(tophat.at(x, y)) + " vs " +
                                                       test::pixelString(expect));
                    y = h;
                    break;
                }
            }

        // Duality: closing_B(f) = N(opening_B̌(N f)) with N the negation. B̌ = B only for odd λ
        // (even λ puts the extra pixel on the + side, its reflection on the − side, which no
        // angle of the same family reaches), so only odd λ are checked. The segment and the
        // periodic line are centrally symmetric for odd λ (line_kernel.h).
        if (length % 2 == 1) {
            const Image<T> nf = negate(f);
            same("closing = N opening N", close, negate(op(MorphOp::Open, nf, angle, length, line)));
            same("opening = N closing N", open, negate(op(MorphOp::Close, nf, angle, length, line)));
            same("erosion = N dilation N", ero, negate(op(MorphOp::Dilate, nf, angle, length, line)));
        }
        if (failures.size() > 30) return;
    }
}

}  // namespace

class TestOpeningLaws : public QObject {
    Q_OBJECT

private slots:
    void laws_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("line");
        for (LineKind line : {LineKind::Paths, LineKind::Segment, LineKind::Periodic}) {
            const std::string k = lineKindName(line);
            QTest::newRow((k + " uint8").c_str()) << 0 << static_cast<int>(line);
            QTest::newRow((k + " uint16").c_str()) << 1 << static_cast<int>(line);
            QTest::newRow((k + " float32").c_str()) << 2 << static_cast<int>(line);
        }
    }
    void laws() {
        QFETCH(int, type);
        QFETCH(int, line);
        QStringList failures;
        const int cases = test::scaled(1000);
        const auto kind = static_cast<LineKind>(line);
        if (type == 0) checkLaws<std::uint8_t>(cases, kind, failures);
        else if (type == 1) checkLaws<std::uint16_t>(cases, kind, failures);
        else checkLaws<float>(cases, kind, failures);
        for (const QString& f : failures.mid(0, 20)) qWarning("%s", qPrintable(f));
        QVERIFY2(failures.isEmpty(), qPrintable(QString::number(failures.size()) + " law violations; first: " +
                                                (failures.isEmpty() ? QString() : failures.first())));
    }
};

QTEST_APPLESS_MAIN(TestOpeningLaws)
#include "test_opening_laws.moc"
