// An outside oracle: at 0°, 45°, 90° and 135° with odd λ the line operators equal OpenCV's
// erode/dilate/morphologyEx with the same digital segment as a 2-D kernel.
//
// Why they are equal: at these angles S is 0 or ±65536, so off(t) is 0 or ±t exactly and every
// line path is a straight run of pixels with a constant step — (1,0) at 0°, (0,1) at 90°,
// (1,−1) at 45° (x-major, off(t) = −t: up-right on screen), (1,1) at 135° (off(t) = t). The
// 1-D offsets k ∈ B = {−a..a} (odd λ: a = b) then map to the pixels p + k·step, which is the
// 2-D kernel {k·step} anchored at its centre — the same set at every pixel, i.e. a translation
// of one kernel. A window truncated at the end of a line is a kernel truncated at the image
// border, and OpenCV's default border (+max for erosion, −max for dilation) ignores exactly
// those positions. Because B is symmetric for odd λ, OpenCV's unreflected dilation kernel
// agrees with δ(f)(c) = max f(c−k). Even λ is not compared (B is not symmetric).
//
// Segment and periodic lines (line_kernel.h) are one 2-D kernel everywhere: at every angle and
// λ they equal OpenCV with the kernel and anchor that `linescope-cli se` exports
// (io::kernelMask) — every operator through cv::morphologyEx for odd λ, where the set is
// centrally symmetric; cv::erode for every λ; and for even λ the dilation (hence openings and
// closings) is cv::dilate with the reflected kernel (io::reflectedKernelMask).
// Float images are finite here: OpenCV's default erosion border for 32F is FLT_MAX, not +∞, so
// an all-+∞ window touching the border would come out FLT_MAX in OpenCV.
#include "app/io/kernel_export.h"
#include "compute/line_kernel.h"
#include "compute/line_morph.h"
#include "compute/reference/reference_line_morph.h"
#include "tests/support/opencv_images.h"
#include "tests/support/random_images.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <QtTest>

#include <random>
#include <string>
#include <type_traits>

using namespace linescope;

namespace {

template <class T>
int cvDepth() {
    if constexpr (std::is_same_v<T, std::uint8_t>) return CV_8U;
    else if constexpr (std::is_same_v<T, std::uint16_t>) return CV_16U;
    else return CV_32F;
}

enum class Diagonal { AntiDiagonal, MainDiagonal };

// The λ×λ (or λ×1, 1×λ) kernel of the segment at an axis or diagonal angle.
cv::Mat segmentKernel(int angle, int length, Diagonal diag45 = Diagonal::AntiDiagonal) {
    switch (angle) {
    case 0: return cv::Mat::ones(1, length, CV_8U);   // width λ, height 1
    case 90: return cv::Mat::ones(length, 1, CV_8U);  // width 1, height λ
    default: {
        cv::Mat k = cv::Mat::zeros(length, length, CV_8U);
        const bool anti = (angle == 45) == (diag45 == Diagonal::AntiDiagonal);
        // Pixel (x = i, y = λ−1−i) for the anti-diagonal: as x grows y shrinks, up-right on screen.
        for (int i = 0; i < length; ++i) k.at<std::uint8_t>(anti ? length - 1 - i : i, i) = 1;
        return k;
    }
    }
}

using test::fromMat;

template <class T>
cv::Mat asMat(const Image<T>& img) {
    return test::toMat(img);
}

template <class T>
Image<T> opencvMorph(MorphOp op, const Image<T>& f, const cv::Mat& kernel) {
    const cv::Mat src = asMat(f);
    cv::Mat dst;
    switch (op) {
    case MorphOp::Erode: cv::erode(src, dst, kernel); break;
    case MorphOp::Dilate: cv::dilate(src, dst, kernel); break;
    case MorphOp::Open: cv::morphologyEx(src, dst, cv::MORPH_OPEN, kernel); break;
    case MorphOp::Close: cv::morphologyEx(src, dst, cv::MORPH_CLOSE, kernel); break;
    case MorphOp::TopHat: cv::morphologyEx(src, dst, cv::MORPH_TOPHAT, kernel); break;
    }
    return fromMat<T>(dst);
}

template <class T>
Image<T> makeImage(int w, int h, std::uint64_t seed, test::ImageKind kind) {
    if constexpr (std::is_floating_point_v<T>) return test::finiteFloatImage(w, h, seed, kind);
    else return test::randomImage<T>(w, h, seed, kind);
}

template <class T>
void compareWithOpenCv(QStringList& failures) {
    const int sizes[][2] = {{1, 1}, {1, 8}, {8, 1}, {13, 9}, {9, 13}, {64, 47}, {120, 90}};
    const MorphOp ops[] = {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close};
    const std::vector<test::ImageKind> kinds = test::allImageKinds();
    int seed = 0;
    for (const auto& sz : sizes) {
        const int w = sz[0], h = sz[1];
        std::vector<int> lengths;
        for (int l = 1; l <= std::max(w, h) + 4; l += (l < 15 ? 2 : 8)) lengths.push_back(l);
        lengths.push_back(2 * std::max(w, h) + 1);
        for (int angle : {0, 45, 90, 135})
            for (int length : lengths) {
                const test::ImageKind kind = kinds[static_cast<std::size_t>(seed) % kinds.size()];
                const Image<T> f = makeImage<T>(w, h, static_cast<std::uint64_t>(seed++), kind);
                const cv::Mat kernel = segmentKernel(angle, length);
                for (MorphOp op : ops) {
                    const Image<T> want = opencvMorph(op, f, kernel);
                    const Image<T> got = lineMorph<T>(op, f.cview(), LineParams{static_cast<double>(angle), length});
                    if (auto d = test::firstDifference(want, got))
                        failures << QString::fromStdString(std::string(pixelTypeName(pixelTypeOf<T>())) + " " +
                                                           morphOpName(op) + " angle " + std::to_string(angle) + " λ " +
                                                           std::to_string(length) + " size " + std::to_string(w) + "x" +
                                                           std::to_string(h) + " image " + test::imageKindName(kind) +
                                                           ": " + *d);
                }
            }
    }
}

// op by OpenCV with the exported kernel: morphologyEx with one kernel and anchor when the set
// is symmetric, else erosion by the kernel and dilation by its reflection.
template <class T>
Image<T> opencvKernelMorph(MorphOp op, const Image<T>& f, const std::vector<Offset>& offsets) {
    const io::KernelMask k = io::kernelMask(offsets);
    const cv::Mat src = asMat(f);
    cv::Mat dst;
    if (io::centrallySymmetric(offsets)) {
        switch (op) {
        case MorphOp::Erode: cv::morphologyEx(src, dst, cv::MORPH_ERODE, k.mask, k.anchor); break;
        case MorphOp::Dilate: cv::morphologyEx(src, dst, cv::MORPH_DILATE, k.mask, k.anchor); break;
        case MorphOp::Open: cv::morphologyEx(src, dst, cv::MORPH_OPEN, k.mask, k.anchor); break;
        case MorphOp::Close: cv::morphologyEx(src, dst, cv::MORPH_CLOSE, k.mask, k.anchor); break;
        case MorphOp::TopHat: cv::morphologyEx(src, dst, cv::MORPH_TOPHAT, k.mask, k.anchor); break;
        }
        return fromMat<T>(dst);
    }
    const io::KernelMask r = io::reflectedKernelMask(offsets);
    cv::Mat mid;
    switch (op) {
    case MorphOp::Erode: cv::erode(src, dst, k.mask, k.anchor); break;
    case MorphOp::Dilate: cv::dilate(src, dst, r.mask, r.anchor); break;
    case MorphOp::Open:
    case MorphOp::TopHat:
        cv::erode(src, mid, k.mask, k.anchor);
        cv::dilate(mid, dst, r.mask, r.anchor);
        if (op == MorphOp::TopHat) dst = src - dst;
        break;
    case MorphOp::Close:
        cv::dilate(src, mid, r.mask, r.anchor);
        cv::erode(mid, dst, k.mask, k.anchor);
        break;
    }
    return fromMat<T>(dst);
}

// The λ of the kernel comparison: every λ up to 24, then a sample up to 501 (odd and even,
// powers of two and their neighbours), so that the suite stays a few seconds.
std::vector<int> kernelLengths() {
    std::vector<int> lengths;
    for (int l = 1; l <= 24; ++l) lengths.push_back(l);
    for (int l : {31, 40, 41, 63, 64, 65, 100, 101, 127, 128, 200, 251, 255, 256, 257, 300, 399, 400, 500, 501})
        lengths.push_back(l);
    return lengths;
}

// For each λ, angles drawn from the grid of 0.05° over [0, 180) (the axes and diagonals
// always among them), fewer for long λ; every operator on a random image of a few sizes.
template <class T>
void compareKernelsWithOpenCv(LineKind kind, QStringList& failures, int& cases) {
    const int sizes[][2] = {{1, 1}, {9, 13}, {13, 9}, {47, 31}, {64, 48}};
    const std::vector<test::ImageKind> imageKinds = test::allImageKinds();
    std::mt19937_64 rng(kind == LineKind::Segment ? 18 : 19);
    std::uniform_int_distribution<int> gridStep(0, 3599);  // angle = step · 0.05°
    int seed = 100;
    for (int length : kernelLengths()) {
        std::vector<double> angles{0, 45, 90, 135};
        const int drawn = kind == LineKind::Segment ? (length <= 24 ? 10 : 4) : 3;
        for (int i = 0; i < drawn; ++i) angles.push_back(gridStep(rng) * 0.05);
        for (double angle : angles) {
            const auto& sz = sizes[static_cast<std::size_t>(seed) % std::size(sizes)];
            const test::ImageKind imageKind = imageKinds[static_cast<std::size_t>(seed) % imageKinds.size()];
            const Image<T> f = makeImage<T>(sz[0], sz[1], static_cast<std::uint64_t>(seed++), imageKind);
            const std::vector<Offset> offsets = lineKernel(kind, angle, length).offsets();
            const bool odd = length % 2 == 1;
            if (odd != io::centrallySymmetric(offsets))
                failures << QString::fromStdString(std::string(lineKindName(kind)) + " angle " + std::to_string(angle) +
                                                   " λ " + std::to_string(length) + ": symmetric exactly for odd λ");
            for (MorphOp op : {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close, MorphOp::TopHat}) {
                ++cases;
                const Image<T> want = opencvKernelMorph(op, f, offsets);
                const Image<T> got = lineMorph<T>(op, f.cview(), LineParams{angle, length, kind});
                if (auto d = test::firstDifference(want, got))
                    failures << QString::fromStdString(std::string(lineKindName(kind)) + " " +
                                                       pixelTypeName(pixelTypeOf<T>()) + " " + morphOpName(op) +
                                                       " angle " + std::to_string(angle) + " λ " + std::to_string(length) +
                                                       " size " + std::to_string(sz[0]) + "x" + std::to_string(sz[1]) +
                                                       ": " + *d);
            }
        }
    }
}

}  // namespace

class TestOpenCvOracle : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        // One OpenCV thread keeps its results independent of scheduling and the run quiet.
        cv::setNumThreads(1);
    }

    // The 45° kernel's orientation is checked, not assumed: the reference matches the
    // anti-diagonal kernel and not the main diagonal one (and the reverse at 135°).
    void diagonalOrientation() {
        const Image<std::uint8_t> f = test::randomImage<std::uint8_t>(31, 23, 5);
        for (int angle : {45, 135}) {
            const Image<std::uint8_t> ref =
                reference::referenceLineMorph<std::uint8_t>(MorphOp::Erode, f.cview(), angle, 5);
            const Image<std::uint8_t> anti =
                opencvMorph(MorphOp::Erode, f, segmentKernel(angle, 5, Diagonal::AntiDiagonal));
            const Image<std::uint8_t> wrong =
                opencvMorph(MorphOp::Erode, f, segmentKernel(angle, 5, Diagonal::MainDiagonal));
            const auto d = test::firstDifference(ref, anti);
            QVERIFY2(!d, qPrintable("angle " + QString::number(angle) + ": " + QString::fromStdString(d.value_or(""))));
            QVERIFY2(test::firstDifference(ref, wrong).has_value(),
                     qPrintable("angle " + QString::number(angle) + ": the other diagonal matched too"));
        }
        // And by hand: at 45° the pixel right of and above (x, y) is (x+1, y−1).
        cv::Mat k = segmentKernel(45, 3);
        QCOMPARE(int(k.at<std::uint8_t>(2, 0)), 1);  // row 2, column 0: down-left
        QCOMPARE(int(k.at<std::uint8_t>(0, 2)), 1);  // row 0, column 2: up-right
        QCOMPARE(int(k.at<std::uint8_t>(0, 0)), 0);
    }

    void matchesOpenCv_data() {
        QTest::addColumn<int>("type");
        QTest::newRow("uint8") << 0;
        QTest::newRow("uint16") << 1;
        QTest::newRow("float32") << 2;
    }
    void matchesOpenCv() {
        QFETCH(int, type);
        QStringList failures;
        if (type == 0) compareWithOpenCv<std::uint8_t>(failures);
        else if (type == 1) compareWithOpenCv<std::uint16_t>(failures);
        else compareWithOpenCv<float>(failures);
        for (const QString& f : failures.mid(0, 20)) qWarning("%s", qPrintable(f));
        QVERIFY2(failures.isEmpty(), qPrintable(QString::number(failures.size()) + " mismatches; first: " +
                                                (failures.isEmpty() ? QString() : failures.first())));
    }

    // segment (and periodic) = OpenCV with `se`'s kernel and anchor, bit for bit.
    void lineKernelsMatchOpenCv_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("kind");
        for (int kind : {int(LineKind::Segment), int(LineKind::Periodic)}) {
            const char* k = kind == int(LineKind::Segment) ? "segment" : "periodic";
            QTest::addRow("%s uint8", k) << 0 << kind;
            QTest::addRow("%s uint16", k) << 1 << kind;
            QTest::addRow("%s float32", k) << 2 << kind;
        }
    }
    void lineKernelsMatchOpenCv() {
        QFETCH(int, type);
        QFETCH(int, kind);
        QStringList failures;
        int cases = 0;
        const auto lk = static_cast<LineKind>(kind);
        if (type == 0) compareKernelsWithOpenCv<std::uint8_t>(lk, failures, cases);
        else if (type == 1) compareKernelsWithOpenCv<std::uint16_t>(lk, failures, cases);
        else compareKernelsWithOpenCv<float>(lk, failures, cases);
        for (const QString& f : failures.mid(0, 20)) qWarning("%s", qPrintable(f));
        QVERIFY2(failures.isEmpty(), qPrintable(QString::number(failures.size()) + " mismatches of " +
                                                QString::number(cases) + "; first: " +
                                                (failures.isEmpty() ? QString() : failures.first())));
        QVERIFY(cases > 1000);
    }

    // The reference itself against OpenCV, so that a fault shared by engine and reference
    // would still show.
    void referenceMatchesOpenCv() {
        QStringList failures;
        for (int angle : {0, 45, 90, 135})
            for (int length : {1, 3, 7, 21, 61}) {
                const Image<std::uint8_t> f = test::randomImage<std::uint8_t>(40, 30, static_cast<std::uint64_t>(length + angle),
                                                                              test::ImageKind::Blocky);
                for (MorphOp op : {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close}) {
                    const auto ref = reference::referenceLineMorph<std::uint8_t>(op, f.cview(), angle, length);
                    if (auto d = test::firstDifference(opencvMorph(op, f, segmentKernel(angle, length)), ref))
                        failures << QString::fromStdString(std::string("reference ") + morphOpName(op) + " angle " +
                                                           std::to_string(angle) + " λ " + std::to_string(length) +
                                                           ": " + *d);
                }
            }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join("\n")));
    }
};

QTEST_APPLESS_MAIN(TestOpenCvOracle)
#include "test_opencv_oracle.moc"
