// Regression of the engine's page skew (issue 6, label tasks): two committed clean crops of the
// skew data set's pages (tests/data/tasks/pages: a piano score and a two-column text page,
// 300 dpi, full width) rotated and degraded in-process with fixed seeds at eight angles and
// all three profiles; the engine's mean and worst absolute error must not exceed the figures
// measured when this test was written by more than the stated margins. Also checks the sense of
// the rotation the data uses, the determinism of the degradations, and the peers' sign
// conventions (so the evaluation's tables compare like with like).
#include "app/io/image_io.h"
#include "compute/skew.h"
#include "tests/tasks/pages/page_degrade.h"
#include "tests/tasks/pages/skew_dataset.h"
#include "tests/tasks/pages/skew_peers.h"

#include <QtTest>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace linescope;
using namespace linescope::tasks;

namespace {

// Measured by this test itself (it prints "engine skew over 48 pages: mean … worst …"):
// `ctest --test-dir build -R test_skew_accuracy -V` on branch issue20-smallrot (issue 20: the page's
// background taken away, ±16°, walls of the fine valley, two fine spectra averaged, a shorter
// segment where the long one finds no valley or none clearly one, the fine estimates weighted
// by their separation), default SkewParams, CPU backend, 2 cores; before that 0.039° and
// 0.252°, before issue 20 1.147° and 10.582° (main at 1ee77c9). Lower them when the engine
// improves.
constexpr double kCommittedMeanAbsError = 0.018;
constexpr double kCommittedWorstAbsError = 0.146;
// Margins: numerics and thread counts may move a parabola fit by a few thousandths of a degree.
constexpr double kMeanMargin = 0.02;
constexpr double kWorstMargin = 0.10;

const char* const kPages[] = {"score-piano-page1-top.png", "text-twocol-middle.png"};
const double kAngles[] = {0.0, 0.07, -0.3, 1.3, -2.6, 4.2, -6.9, 9.4};

cv::Mat loadPage(const char* name) {
    const std::string path = std::string(LINESCOPE_TASK_PAGES_DIR) + "/" + name;
    cv::Mat m = cv::imread(path, cv::IMREAD_GRAYSCALE);
    if (m.empty()) qFatal("cannot read %s", path.c_str());
    return m;
}

double engineSkew(const cv::Mat& page) {
    EngineOptions opt;
    opt.backend = Backend::Cpu;
    return estimateSkew<std::uint8_t>(io::viewOf<std::uint8_t>(page), SkewParams{}, opt).angle;
}

}  // namespace

class TestSkewAccuracy : public QObject {
    Q_OBJECT
private slots:
    // A horizontal bar rotated by +3° must rise to the right (design.md §1), measured by a
    // least-squares fit of the bar's dark centroid in each column.
    void rotationRisesToTheRightForPositiveAngles() {
        cv::Mat page(600, 1000, CV_8UC1, cv::Scalar(255));
        page.rowRange(295, 305).setTo(0);
        const cv::Mat r = rotatePage(page, 3.0);
        double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;
        for (int x = 100; x < 900; ++x) {
            double w = 0, wy = 0;
            for (int y = 0; y < r.rows; ++y) {
                const double ink = 255.0 - r.at<uchar>(y, x);
                w += ink;
                wy += ink * y;
            }
            const double cy = wy / w;
            sx += x, sy += cy, sxx += double(x) * x, sxy += x * cy, n += 1;
        }
        const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);  // dy/dx, y down
        QVERIFY(std::abs(-std::atan(slope) * 180.0 / M_PI - 3.0) < 0.01);
    }

    void degradationsAreDeterministic() {
        const cv::Mat page = loadPage(kPages[1]);
        for (DegradeProfile p : kAllProfiles) {
            const cv::Mat a = makeSkewedPage(page, 1.5, p, 42), b = makeSkewedPage(page, 1.5, p, 42);
            QCOMPARE(a.size(), b.size());
            QCOMPARE(cv::norm(a, b, cv::NORM_INF), 0.0);
        }
        const cv::Mat a = makeSkewedPage(page, 1.5, DegradeProfile::Scan, 1);
        const cv::Mat b = makeSkewedPage(page, 1.5, DegradeProfile::Scan, 2);
        QVERIFY(cv::norm(a, b, cv::NORM_L1) > 0);
        // Hard crops into the content: smaller than the page.
        QVERIFY(makeSkewedPage(page, 1.5, DegradeProfile::Hard, 1).cols < page.cols);
    }

    // The peers report in our convention: a clean page rotated by +2° gives ≈ +2.
    void peersUseOurSignConvention() {
        const cv::Mat page = rotatePage(loadPage(kPages[0]), 2.0);
        const cv::Mat ink = otsuInk(page);
        const auto hough = houghSkew(ink);
        QVERIFY(hough.has_value());
        QVERIFY2(std::abs(*hough - 2.0) < 0.2, qPrintable(QString::number(*hough)));
        RadialProjectionParams rp;
        rp.height = 1300;  // the crop's own height
        const double radial = radialProjectionSkew(page, rp);
        QVERIFY2(std::abs(radial - 2.0) < 0.2, qPrintable(QString::number(radial)));
        if (!leptonicaAvailable()) QSKIP("Leptonica not built");
        const LeptonicaImage bin = leptonicaBinary(ink);
        for (double range : {7.0, kSkewSetRange}) {
            const auto lept = leptonicaSkew(bin, range);
            QVERIFY(lept.has_value());
            QVERIFY2(std::abs(*lept - 2.0) < 0.1, qPrintable(QString::number(*lept)));
        }
    }

    void engineAccuracyDoesNotRegress() {
        std::vector<double> errors;
        for (const char* name : kPages) {
            const cv::Mat page = loadPage(name);
            for (int k = 0; k < int(std::size(kAngles)); ++k)
                for (DegradeProfile p : kAllProfiles) {
                    const cv::Mat img = makeSkewedPage(page, kAngles[k], p, itemSeed(name, k, p));
                    const double e = std::abs(engineSkew(img) - kAngles[k]);
                    errors.push_back(e);
                    if (e > 0.1) qInfo("  %s at %.2f° (%s): error %.3f°", name, kAngles[k], profileName(p), e);
                }
        }
        double mean = 0;
        for (double e : errors) mean += e;
        mean /= double(errors.size());
        const double worst = *std::max_element(errors.begin(), errors.end());
        qInfo("engine skew over %zu pages: mean abs error %.4f°, worst %.4f° (committed %.4f°, %.4f°)", errors.size(), mean,
              worst, kCommittedMeanAbsError, kCommittedWorstAbsError);
        QVERIFY2(mean <= kCommittedMeanAbsError + kMeanMargin, "mean absolute skew error got worse");
        QVERIFY2(worst <= kCommittedWorstAbsError + kWorstMargin, "worst absolute skew error got worse");
    }

    // Issue 20: rotations below 0.1° are not read as 0. Both crops at ±0.05° and ±0.07° in all
    // three profiles: every answer must lie within half the rotation of it (the evaluation's
    // "below 0.1° read"). The two-column crop's lines are shorter than the fine segment.
    void smallRotationsAreRead() {
        int read = 0, all = 0;
        QStringList missed;
        for (const char* name : kPages) {
            const cv::Mat page = loadPage(name);
            const double small[] = {0.05, -0.05, 0.07, -0.07};
            for (int k = 0; k < int(std::size(small)); ++k)
                for (DegradeProfile p : kAllProfiles) {
                    const double angle = small[k];
                    const double a = engineSkew(makeSkewedPage(page, angle, p, itemSeed(name, 100 + k, p)));
                    ++all;
                    if (std::abs(a - angle) < 0.5 * std::abs(angle)) ++read;
                    else missed << QString("%1 at %2° (%3): %4°").arg(name).arg(angle).arg(profileName(p)).arg(a, 0, 'f', 4);
                }
        }
        qInfo("small rotations read: %d of %d", read, all);
        QVERIFY2(missed.isEmpty(), qPrintable(missed.join("; ")));
    }
};

QTEST_APPLESS_MAIN(TestSkewAccuracy)
#include "test_skew_accuracy.moc"
