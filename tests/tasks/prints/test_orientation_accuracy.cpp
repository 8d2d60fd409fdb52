// Fingerprint orientation fields on a fixed set of synthetic prints of both generators (label
// tasks): the engine's RMSD against the known field must not get worse than the committed
// figures by more than the margin, and must beat the structure tensor at its tuned window
// (issue 21). Each generator is checked first against that independent estimator (itself
// checked on analytic stripes), so that a broken generator cannot let the engine's test pass,
// and the metric against closed forms.
#include "tests/tasks/prints/orientation_metrics.h"
#include "tests/tasks/prints/phase_print_synth.h"
#include "tests/tasks/prints/print_scoring.h"

#include <QtTest>

#include <cmath>
#include <numbers>
#include <vector>

using namespace linescope::tasks;

namespace {

// Measured by this test (its qInfo lines "mean RMSD …") on the committed generators and the
// engine's default OrientationFieldParams (issue 21), 2-core AMD EPYC, Release:
//   build/tests/tasks/prints/test_orientation_accuracy
// The same figures for larger sets: linescope-task-eval orientation --generator gabor|phase
// (tests/bench/task-results.md §2).
constexpr int kBlock = 16;
constexpr std::uint64_t kSeeds[] = {11, 12, 13};  // × good and degraded = 6 prints a generator
constexpr double kMarginDeg = 1.0;                // allowed worsening of the engine's figures

struct SetFigures {
    PrintGenerator generator;
    PrintQuality quality;
    double engineRmsd;      // the engine's mean RMSD (°) over the three prints
    double tensorWindow;    // the structure tensor's window σ, tuned in its favour on seeds 1–20
                            // (linescope-task-eval orientation --tensor-window tuned)
    double peerAgreement;   // the tensor's mean RMSD must stay below: the generator's truth is
                            // what an independent estimator sees (a field off by a few degrees,
                            // or with the wrong sign, ≈ 40°, fails here)
    double tieAllowance;    // the engine must be within this of the tensor (0: strictly better)
};
// Every set strictly: on the phase set's good prints the engine tied the tensor at σ 6 until
// the across-ridge window and the refinement at singular points (2.21° against 2.14° here, and
// an allowance of 0.25°); now 1.94°.
constexpr SetFigures kSets[] = {
    {PrintGenerator::Gabor, PrintQuality::Good, 2.38, 14, 5.0, 0.0},
    {PrintGenerator::Gabor, PrintQuality::Degraded, 3.56, 16, 8.0, 0.0},
    {PrintGenerator::Phase, PrintQuality::Good, 1.94, 6, 5.0, 0.0},
    {PrintGenerator::Phase, PrintQuality::Degraded, 2.50, 12, 8.0, 0.0},
};

// Stripes cos(2π·s/period) with s the signed distance across lines at `deg` (design.md §1:
// direction (cos α, −sin α) on screen, y down, so the normal is (sin α, cos α)).
cv::Mat stripes(double deg, double period, cv::Size size) {
    const double r = deg * std::numbers::pi / 180.0;
    cv::Mat img(size, CV_8U);
    for (int y = 0; y < size.height; ++y)
        for (int x = 0; x < size.width; ++x)
            img.at<uchar>(y, x) = cv::saturate_cast<uchar>(
                128 + 100 * std::cos(2 * std::numbers::pi * (x * std::sin(r) + y * std::cos(r)) / period));
    return img;
}

double meanOf(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0 : s / static_cast<double>(v.size());
}

}  // namespace

class TestOrientationAccuracy : public QObject {
    Q_OBJECT

private slots:
    void metricClosedForms() {
        QCOMPARE(angleDifference(179.0, 1.0), 2.0);
        QCOMPARE(angleDifference(10.0, 100.0), 90.0);
        QCOMPARE(angleDifference(30.0, 210.0), 0.0);
        // The doubled-angle mean of 178° and 2° is 0°, not 90°.
        cv::Mat o(16, 16, CV_32F, cv::Scalar(178.0f));
        o(cv::Rect(0, 0, 8, 16)).setTo(2.0f);
        const BlockField t = truthBlocks(o, 16);
        QCOMPARE(t.blocksX, 1);
        QVERIFY(angleDifference(t.degrees[0], 0.0) < 1e-3);
        // RMSD of differences 3° and 4° on two foreground blocks, a third block ignored.
        const BlockField a{3, 1, 16, {10.f, 20.f, 30.f}}, b{3, 1, 16, {13.f, 16.f, 120.f}};
        const FieldComparison c = compareFields(a, b, {1, 1, 0});
        QCOMPARE(c.blocks, 2);
        QVERIFY(std::abs(c.rmsd - std::sqrt(12.5)) < 1e-4);
        QCOMPARE(c.within10, 1.0);
        // Foreground: a block counts when at least 75 % of it is on the mask.
        cv::Mat mask(16, 48, CV_8U, cv::Scalar(0));
        mask(cv::Rect(0, 0, 16, 16)).setTo(255);
        mask(cv::Rect(16, 0, 16, 12)).setTo(255);
        mask(cv::Rect(32, 0, 16, 11)).setTo(255);
        QCOMPARE(foregroundBlocks(mask, 16), (std::vector<unsigned char>{1, 1, 0}));
    }

    // The peer on analytic stripes: its angle convention and accuracy, independent of the
    // generator. Blocks within 3σ of the window from the border are left out: the reflected
    // border bends the stripes there.
    void structureTensorOnStripes() {
        const StructureTensorParams p;
        const int margin = static_cast<int>(std::ceil(3 * p.windowSigma / p.blockSize));
        for (double deg : {0.0, 17.0, 45.0, 63.5, 90.0, 121.0, 158.0}) {
            const BlockField f = structureTensorField(stripes(deg, 9.0, cv::Size(224, 192)), p);
            for (int by = margin; by < f.blocksY - margin; ++by)
                for (int bx = margin; bx < f.blocksX - margin; ++bx) {
                    const float got = f.degrees[static_cast<std::size_t>(by * f.blocksX + bx)];
                    QVERIFY2(angleDifference(got, deg) < 0.5,
                             qPrintable(QString("stripes at %1°: block (%2, %3) reads %4°").arg(deg).arg(bx).arg(by).arg(got)));
                }
        }
    }

    void generatorsAgreeWithPeerAndEngineBeatsIt() {
        for (const SetFigures& set : kSets) {
            std::vector<double> engine, peer, mirrored;
            StructureTensorParams sp;
            sp.blockSize = kBlock;
            sp.windowSigma = set.tensorWindow;
            const QString name = QString("%1 %2").arg(printGeneratorName(set.generator), printQualityName(set.quality));
            for (const std::uint64_t seed : kSeeds) {
                const SyntheticPrint p = makePrint(set.generator, seed, set.quality);
                const PrintScore s = scorePrint(p, kBlock, sp);
                engine.push_back(s.engine.rmsd);
                peer.push_back(s.peer.rmsd);
                // The same peer against the truth mirrored (α → 180° − α): must disagree, or the
                // agreement above would say nothing about the sign of the generator's field.
                BlockField flipped = truthBlocks(p.orientation, kBlock);
                for (float& d : flipped.degrees) d = std::fmod(180.0f - d, 180.0f);
                mirrored.push_back(compareFields(structureTensorField(p.image, sp), flipped,
                                                 foregroundBlocks(p.mask, kBlock)).rmsd);
                qInfo("%s seed %llu (%s%s): engine RMSD %.2f°, structure tensor %.2f°", qPrintable(name),
                      static_cast<unsigned long long>(seed), printClassName(p.printClass), p.partial ? ", partial" : "",
                      s.engine.rmsd, s.peer.rmsd);
            }
            qInfo("%s mean RMSD: engine %.2f°, structure tensor (σ %.0f) %.2f°", qPrintable(name), meanOf(engine),
                  set.tensorWindow, meanOf(peer));
            QVERIFY2(meanOf(peer) <= set.peerAgreement,
                     qPrintable(name + ": the generator's field disagrees with the structure tensor"));
            QVERIFY2(meanOf(mirrored) > 20.0,
                     qPrintable(name + ": the mirrored field agrees too: the prints say nothing about the sign"));
            QVERIFY2(meanOf(engine) <= set.engineRmsd + kMarginDeg,
                     qPrintable(QString("%1: engine RMSD %2° > %3° + %4°").arg(name).arg(meanOf(engine))
                                    .arg(set.engineRmsd).arg(kMarginDeg)));
            QVERIFY2(meanOf(engine) <= meanOf(peer) + set.tieAllowance,
                     qPrintable(QString("%1: engine RMSD %2° > structure tensor %3° + %4°").arg(name)
                                    .arg(meanOf(engine)).arg(meanOf(peer)).arg(set.tieAllowance)));
        }
    }
};

QTEST_APPLESS_MAIN(TestOrientationAccuracy)
#include "test_orientation_accuracy.moc"
