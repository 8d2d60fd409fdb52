// classicMorph against two oracles: a brute-force 2-D erosion/dilation over the explicit
// offset set (classicSEOffsets), and OpenCV's erode/dilate/morphologyEx with a kernel built
// from the same offsets. Also the shapes themselves (octagon closed form, disc properties)
// and bad input.
#include "compute/classic_morph.h"
#include "compute/classic_se_offsets.h"
#include "compute/reference/reference_kernel_morph.h"
#include "compute/line_geometry.h"
#include "tests/support/opencv_images.h"
#include "tests/support/random_images.h"

#include <QtTest/QtTest>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace linescope;
using namespace linescope::test;

namespace {

std::string describeSE(const ClassicSE& se) {
    return std::string(classicShapeName(se.shape)) + " w=" + std::to_string(se.width) + " h=" + std::to_string(se.height) +
           " r=" + std::to_string(se.radius);
}

const std::vector<MorphOp> kOps = {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close, MorphOp::TopHat};

// Odd and even, non-square, degenerate: 1×1, 1×N, N×1.
const std::vector<std::pair<int, int>> kSizes = {{1, 1}, {1, 7}, {8, 1}, {2, 3}, {5, 3}, {6, 9}, {13, 8}, {16, 11}};

// Every SE worth testing on a W×H image: sizes from 1 (radius 0) to beyond the image.
std::vector<ClassicSE> sesFor(int w, int h) {
    std::vector<ClassicSE> out;
    const int big = std::max(w, h) + 3;
    for (int n = 1; n <= big; ++n) {
        out.push_back({ClassicShape::HLine, n, 1, 1});
        out.push_back({ClassicShape::VLine, 1, n, 1});
        out.push_back({ClassicShape::Diag45, n, 1, 1});
        out.push_back({ClassicShape::Diag135, n, 1, 1});
    }
    for (int rw : {1, 2, 3, 4, 5, w, w + 2})
        for (int rh : {1, 2, 3, 4, 7, h, h + 1}) out.push_back({ClassicShape::Rect, rw, rh, 1});
    for (int r = 0; r <= big; ++r) {
        out.push_back({ClassicShape::Octagon, 1, 1, r});
        out.push_back({ClassicShape::Disc, 1, 1, r});
    }
    return out;
}

// ---- brute force, straight from the definitions -------------------------------------

template <class T>
Image<T> bruteMorph(MorphOp op, const Image<T>& f, const std::vector<Offset>& se) {
    return reference::referenceKernelMorph<T>(op, f.cview(), se);
}

template <class T>
Image<T> classic(MorphOp op, const Image<T>& f, const ClassicSE& se, const EngineOptions& opt = {}) {
    Image<T> out(f.width(), f.height());
    classicMorph<T>(op, f.cview(), out.view(), se, opt);
    return out;
}

// ---- OpenCV -------------------------------------------------------------------------

using test::fromMat;

template <class T>
cv::Mat asMat(const Image<T>& img) {
    return test::toMat(img);
}

// OpenCV's filters take dst(p) = op src(p + (i, j) − anchor) over the kernel's non-zeros:
// the kernel of the offsets' bounding box with the anchor at −(min dx, min dy).
struct CvKernel {
    cv::Mat kernel;
    cv::Point anchor;
};
CvKernel cvKernelOf(const std::vector<Offset>& se, bool reflect) {
    int x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    for (const Offset& o : se) {
        const int dx = reflect ? -o.dx : o.dx, dy = reflect ? -o.dy : o.dy;
        x0 = std::min(x0, dx); x1 = std::max(x1, dx); y0 = std::min(y0, dy); y1 = std::max(y1, dy);
    }
    CvKernel k{cv::Mat::zeros(y1 - y0 + 1, x1 - x0 + 1, CV_8U), cv::Point(-x0, -y0)};
    for (const Offset& o : se) {
        const int dx = reflect ? -o.dx : o.dx, dy = reflect ? -o.dy : o.dy;
        k.kernel.at<std::uint8_t>(dy - y0, dx - x0) = 1;
    }
    return k;
}

bool isSymmetric(const std::vector<Offset>& se) {
    std::set<std::pair<int, int>> s;
    for (const Offset& o : se) s.insert({o.dx, o.dy});
    return std::all_of(se.begin(), se.end(), [&](const Offset& o) { return s.count({-o.dx, -o.dy}) == 1; });
}

// Our operators through OpenCV: erode with the kernel, dilate with the reflected kernel
// (cv::dilate does not reflect: dst = max src(p + k)).
template <class T>
Image<T> cvMorph(MorphOp op, const Image<T>& f, const std::vector<Offset>& se) {
    const CvKernel ke = cvKernelOf(se, false), kd = cvKernelOf(se, true);
    const cv::Mat src = asMat(f);
    cv::Mat a, b;
    switch (op) {
    case MorphOp::Erode: cv::erode(src, a, ke.kernel, ke.anchor); break;
    case MorphOp::Dilate: cv::dilate(src, a, kd.kernel, kd.anchor); break;
    case MorphOp::Open:
    case MorphOp::TopHat:
        cv::erode(src, b, ke.kernel, ke.anchor);
        cv::dilate(b, a, kd.kernel, kd.anchor);
        if (op == MorphOp::TopHat) a = src - a;
        break;
    case MorphOp::Close:
        cv::dilate(src, b, kd.kernel, kd.anchor);
        cv::erode(b, a, ke.kernel, ke.anchor);
        break;
    }
    return fromMat<T>(a);
}

// cv::morphologyEx itself, meaningful for symmetric offset sets only.
template <class T>
Image<T> cvMorphologyEx(MorphOp op, const Image<T>& f, const std::vector<Offset>& se) {
    const CvKernel k = cvKernelOf(se, false);
    int cvOp = cv::MORPH_ERODE;
    switch (op) {
    case MorphOp::Erode: cvOp = cv::MORPH_ERODE; break;
    case MorphOp::Dilate: cvOp = cv::MORPH_DILATE; break;
    case MorphOp::Open: cvOp = cv::MORPH_OPEN; break;
    case MorphOp::Close: cvOp = cv::MORPH_CLOSE; break;
    case MorphOp::TopHat: cvOp = cv::MORPH_TOPHAT; break;
    }
    cv::Mat out;
    cv::morphologyEx(asMat(f), out, cvOp, k.kernel, k.anchor);
    return fromMat<T>(out);
}

std::set<std::pair<int, int>> asSet(const std::vector<Offset>& v) {
    std::set<std::pair<int, int>> s;
    for (const Offset& o : v) s.insert({o.dx, o.dy});
    return s;
}

template <class Fn>
void expectThrows(Fn fn, const char* what) {
    bool thrown = false;
    try { fn(); } catch (const Error&) { thrown = true; }
    QVERIFY2(thrown, what);
}

}  // namespace

class TestClassicMorph : public QObject {
    Q_OBJECT

    template <class T>
    void againstBruteForce(const std::vector<ImageKind>& kinds) {
        std::uint64_t seed = 1;
        int cases = 0;
        for (const auto& [w, h] : kSizes)
            for (const ClassicSE& se : sesFor(w, h)) {
                const std::vector<Offset> offs = classicSEOffsets(se);
                for (ImageKind kind : kinds) {
                    const Image<T> f = randomImage<T>(w, h, seed++, kind);
                    for (MorphOp op : kOps) {
                        const auto d = firstDifference(bruteMorph(op, f, offs), classic(op, f, se));
                        if (d) QFAIL(qPrintable(QString::fromStdString(std::string(morphOpName(op)) + " " + describeSE(se) +
                                                                       " on " + describe(f) + " (" + imageKindName(kind) + "): " + *d)));
                        ++cases;
                    }
                }
            }
        qInfo("%d cases", cases);
    }

    template <class T>
    void againstOpenCv() {
        std::uint64_t seed = 1000;
        int cases = 0, exCases = 0;
        for (const auto& [w, h] : kSizes)
            for (const ClassicSE& se : sesFor(w, h)) {
                const std::vector<Offset> offs = classicSEOffsets(se);
                const bool sym = isSymmetric(offs);
                // Infinities are left out: OpenCV's border is ±FLT_MAX, not ±∞.
                for (ImageKind kind : {ImageKind::Noise, ImageKind::FewLevels}) {
                    const Image<T> f = randomImage<T>(w, h, seed++, kind);
                    for (MorphOp op : kOps) {
                        const std::string where = std::string(morphOpName(op)) + " " + describeSE(se) + " on " + describe(f);
                        const Image<T> ours = classic(op, f, se);
                        if (auto d = firstDifference(cvMorph(op, f, offs), ours))
                            QFAIL(qPrintable(QString::fromStdString("OpenCV erode/dilate vs ours, " + where + ": " + *d)));
                        ++cases;
                        if (sym) {
                            if (auto d = firstDifference(cvMorphologyEx(op, f, offs), ours))
                                QFAIL(qPrintable(QString::fromStdString("cv::morphologyEx vs ours, " + where + ": " + *d)));
                            ++exCases;
                        }
                    }
                }
            }
        qInfo("%d cases against erode/dilate, %d against morphologyEx", cases, exCases);
    }

private slots:
    void lineAndRectOffsets() {
        // Even lengths: a = ⌊(λ−1)/2⌋ before the origin, b = λ−1−a after, along the steps
        // (1,0), (0,1), (1,−1) (45°, up-right) and (1,1) (135° line, listed down-right).
        using S = std::set<std::pair<int, int>>;
        QCOMPARE(asSet(classicSEOffsets({ClassicShape::HLine, 4, 1, 1})), (S{{-1, 0}, {0, 0}, {1, 0}, {2, 0}}));
        QCOMPARE(asSet(classicSEOffsets({ClassicShape::VLine, 1, 4, 1})), (S{{0, -1}, {0, 0}, {0, 1}, {0, 2}}));
        QCOMPARE(asSet(classicSEOffsets({ClassicShape::Diag45, 4, 1, 1})), (S{{-1, 1}, {0, 0}, {1, -1}, {2, -2}}));
        QCOMPARE(asSet(classicSEOffsets({ClassicShape::Diag135, 4, 1, 1})), (S{{-1, -1}, {0, 0}, {1, 1}, {2, 2}}));
        QCOMPARE(asSet(classicSEOffsets({ClassicShape::Diag45, 3, 1, 1})), (S{{-1, 1}, {0, 0}, {1, -1}}));
        S rect;
        for (int y = 0; y <= 1; ++y)
            for (int x = -1; x <= 2; ++x) rect.insert({x, y});
        QCOMPARE(asSet(classicSEOffsets({ClassicShape::Rect, 4, 2, 1})), rect);
        QCOMPARE(classicSEOffsets({ClassicShape::Rect, 1, 1, 1}).size(), std::size_t{1});
        QCOMPARE(classicSEOffsets({ClassicShape::Octagon, 1, 1, 0}).size(), std::size_t{1});
        QCOMPARE(classicSEOffsets({ClassicShape::Disc, 1, 1, 0}).size(), std::size_t{1});
        // The anchor convention against OpenCV's own rectangle: for even sizes the anchor
        // must be passed as (a_w, a_h); OpenCV's default (w/2, h/2) is one pixel further.
        const Image<std::uint8_t> f = randomImage<std::uint8_t>(9, 7, 5);
        for (auto [w, h] : {std::pair{4, 2}, std::pair{3, 6}, std::pair{5, 5}}) {
            cv::Mat out;
            cv::erode(asMat(f), out, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(w, h)),
                      cv::Point(segmentOf(w).a, segmentOf(h).a));
            QVERIFY(!firstDifference(fromMat<std::uint8_t>(out), classic(MorphOp::Erode, f, {ClassicShape::Rect, w, h, 1})));
        }
    }

    void octagonClosedForm() {
        for (int r = 0; r <= 60; ++r) {
            const std::vector<LineStage> st = classicSEStages({ClassicShape::Octagon, 1, 1, r});
            int m = 0, n = 0;
            for (const LineStage& s : st) {
                if (s.dx == 1 && s.dy == 0) m = s.a;
                if (s.dx == 1 && s.dy == 1) n = s.a;
            }
            QCOMPARE(m + 2 * n, r);
            if (r >= 1) QVERIFY(m >= 1);
            std::set<std::pair<int, int>> expect;
            for (int y = -r; y <= r; ++y)
                for (int x = -r; x <= r; ++x)
                    if (std::abs(x) + std::abs(y) <= r + m) expect.insert({x, y});
            QVERIFY2(asSet(classicSEOffsets({ClassicShape::Octagon, 1, 1, r})) == expect,
                     qPrintable(QString("octagon r=%1 m=%2 n=%3").arg(r).arg(m).arg(n)));
        }
    }

    void discShape() {
        for (int r = 0; r <= 60; ++r) {
            const std::vector<Offset> offs = classicSEOffsets({ClassicShape::Disc, 1, 1, r});
            const auto s = asSet(offs);
            int maxX = 0;
            std::size_t inDisc = 0, outside = 0, missing = 0;
            for (auto [x, y] : s) {
                // The symmetries of the square grid.
                QVERIFY(s.count({-x, y}) && s.count({x, -y}) && s.count({y, x}));
                maxX = std::max(maxX, x);
                const double d2 = double(x) * x + double(y) * y;
                if (d2 <= double(r) * r) ++inDisc; else ++outside;
                QVERIFY2(std::sqrt(d2) < r + 1.5, qPrintable(QString("disc r=%1 reaches (%2,%3)").arg(r).arg(x).arg(y)));
            }
            for (int y = -r; y <= r; ++y)
                for (int x = -r; x <= r; ++x) {
                    if (double(x) * x + double(y) * y <= double(r) * r && !s.count({x, y})) ++missing;
                    if (std::sqrt(double(x) * x + double(y) * y) <= r - 1.5) QVERIFY(s.count({x, y}));
                }
            QCOMPARE(maxX, r);
            // Rows are intervals (no holes), so it is a filled shape.
            for (int y = -r; y <= r; ++y) {
                int lo = r + 1, hi = -r - 1, count = 0;
                for (auto [x, yy] : s)
                    if (yy == y) { lo = std::min(lo, x); hi = std::max(hi, x); ++count; }
                if (count) QCOMPARE(count, hi - lo + 1);
            }
            const double diff = double(outside + missing) / double(inDisc + missing);
            if (r >= 9) QVERIFY2(diff < 0.12, qPrintable(QString("disc r=%1 differs by %2").arg(r).arg(diff)));
            if (r == 5 || r == 13 || r == 30)
                qInfo("disc r=%d: %zu offsets, %zu outside the Euclidean disc, %zu of it missing", r, offs.size(),
                      outside, missing);
        }
    }

    void bruteForceU8() { againstBruteForce<std::uint8_t>({ImageKind::Noise, ImageKind::FewLevels, ImageKind::Specials}); }
    void bruteForceU16() { againstBruteForce<std::uint16_t>({ImageKind::Noise, ImageKind::Blocky}); }
    void bruteForceF32() { againstBruteForce<float>({ImageKind::Noise, ImageKind::Specials}); }

    void openCvU8() { againstOpenCv<std::uint8_t>(); }
    void openCvU16() { againstOpenCv<std::uint16_t>(); }
    void openCvF32() { againstOpenCv<float>(); }

    // Every line algorithm of the engine must give the same classic results.
    void lineAlgorithms() {
        const Image<std::uint8_t> f = randomImage<std::uint8_t>(23, 17, 77, ImageKind::FewLevels);
        for (LineAlgorithm alg : {LineAlgorithm::Sheared, LineAlgorithm::VanHerk, LineAlgorithm::Reference}) {
            EngineOptions opt;
            opt.backend = Backend::Cpu;
            opt.algorithm = alg;
            for (ClassicSE se : {ClassicSE{ClassicShape::Diag45, 6, 1, 1}, ClassicSE{ClassicShape::Diag135, 7, 1, 1},
                                 ClassicSE{ClassicShape::Rect, 4, 5, 1}, ClassicSE{ClassicShape::Octagon, 1, 1, 7},
                                 ClassicSE{ClassicShape::Disc, 1, 1, 12}})
                for (MorphOp op : kOps) {
                    const auto d = firstDifference(bruteMorph(op, f, classicSEOffsets(se)), classic(op, f, se, opt));
                    if (d) QFAIL(qPrintable(QString::fromStdString(std::string(algorithmName(alg)) + " " + morphOpName(op) +
                                                                   " " + describeSE(se) + ": " + *d)));
                }
        }
    }

    // Views with stride > width, in and out; nothing written outside the output view.
    void stridedViews() {
        const Image<std::uint16_t> f = randomImage<std::uint16_t>(12, 9, 3);
        const auto src = PaddedImage<std::uint16_t>::copyOf(f, 3, 4242);
        for (ClassicSE se : {ClassicSE{ClassicShape::Rect, 3, 4, 1}, ClassicSE{ClassicShape::Octagon, 1, 1, 4},
                             ClassicSE{ClassicShape::Disc, 1, 1, 11}, ClassicSE{ClassicShape::Diag45, 5, 1, 1}})
            for (MorphOp op : kOps) {
                PaddedImage<std::uint16_t> dst(12, 9, 2, 777);
                classicMorph<std::uint16_t>(op, src.cview(), dst.view(), se);
                QVERIFY(dst.paddingIntact());
                QVERIFY(!firstDifference(bruteMorph(op, f, classicSEOffsets(se)), Image<std::uint16_t>::copyOf(dst.cview())));
            }
    }

    // A larger image against OpenCV, where the padding of the diagonal factors matters.
    void largerImage() {
        const Image<float> f = randomImage<float>(157, 93, 9);
        for (ClassicSE se : {ClassicSE{ClassicShape::Octagon, 1, 1, 17}, ClassicSE{ClassicShape::Disc, 1, 1, 23},
                             ClassicSE{ClassicShape::Rect, 30, 8, 1}, ClassicSE{ClassicShape::Diag135, 40, 1, 1}})
            for (MorphOp op : kOps) {
                const std::vector<Offset> offs = classicSEOffsets(se);
                const auto d = firstDifference(cvMorph(op, f, offs), classic(op, f, se));
                if (d) QFAIL(qPrintable(QString::fromStdString(std::string(morphOpName(op)) + " " + describeSE(se) + ": " + *d)));
            }
    }

    void badInput() {
        Image<std::uint8_t> f(5, 4), out(5, 4), small(4, 4), empty;
        auto run = [&](ClassicSE se) { classicMorph<std::uint8_t>(MorphOp::Erode, f.cview(), out.view(), se); };
        expectThrows([&] { run({ClassicShape::HLine, 0, 1, 1}); }, "HLine width 0");
        expectThrows([&] { run({ClassicShape::Diag45, -3, 1, 1}); }, "Diag45 width -3");
        expectThrows([&] { run({ClassicShape::Diag135, 0, 1, 1}); }, "Diag135 width 0");
        expectThrows([&] { run({ClassicShape::VLine, 1, 0, 1}); }, "VLine height 0");
        expectThrows([&] { run({ClassicShape::Rect, 0, 3, 1}); }, "Rect width 0");
        expectThrows([&] { run({ClassicShape::Rect, 3, 0, 1}); }, "Rect height 0");
        expectThrows([&] { run({ClassicShape::Octagon, 1, 1, -1}); }, "Octagon radius -1");
        expectThrows([&] { run({ClassicShape::Disc, 1, 1, -1}); }, "Disc radius -1");
        expectThrows([&] { run({static_cast<ClassicShape>(99), 1, 1, 1}); }, "unknown shape");
        expectThrows([&] { classicSEOffsets({ClassicShape::Rect, 0, 1, 1}); }, "offsets of a bad SE");
        expectThrows([&] { classicMorph<std::uint8_t>(MorphOp::Open, f.cview(), small.view(), {}); }, "size mismatch");
        expectThrows([&] { classicMorph<std::uint8_t>(MorphOp::Open, empty.cview(), empty.view(), {}); }, "empty image");
        expectThrows([&] { classicMorph<std::uint8_t>(MorphOp::Erode, f.cview(), f.view(), {}); }, "dst aliases src");
        Image<float> nanImg(3, 3, 1.0f), nanOut(3, 3);
        nanImg.at(1, 1) = std::numeric_limits<float>::quiet_NaN();
        expectThrows([&] { classicMorph<float>(MorphOp::Erode, nanImg.cview(), nanOut.view(), {ClassicShape::Disc, 1, 1, 0}); },
                     "NaN pixel");
        expectThrows([&] { classicMorph<std::uint8_t>(MorphOp::Erode, f.cview(), out.view(), {ClassicShape::Octagon, 1, 1, 1 << 20}); },
                     "an octagon too large to pad");
    }
};

QTEST_APPLESS_MAIN(TestClassicMorph)
#include "test_classic_morph.moc"
