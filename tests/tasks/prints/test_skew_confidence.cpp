// Calibration of the skew confidence (issue 20, label tasks): on pages with a known skew (the two
// committed clean crops of tests/data/tasks/pages, rotated and degraded in-process with fixed
// seeds) and on images without a dominant line direction in the search range (synthetic prints
// and textures of tests/tasks/prints, the bundled samples), a confidence at or above
// kSkewConfidentThreshold must be right within 0.1° in at least 95 % of cases, and the prints and
// textures must fall below it. Prints one row per image (LINESCOPE_SKEW_CALIBRATION=1 prints all).
#include "app/io/image_io.h"
#include "compute/skew.h"
#include "tests/tasks/pages/page_degrade.h"
#include "tests/tasks/pages/skew_dataset.h"
#include "tests/tasks/prints/fingerprint_synth.h"
#include "tests/tasks/prints/texture_synth.h"

#include <QtTest>

#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

using namespace linescope;
using namespace linescope::tasks;

namespace {

const char* const kPages[] = {"score-piano-page1-top.png", "text-twocol-middle.png"};
// The eight angles of test_skew_accuracy and eight more across ±10°.
const double kAngles[] = {0.0, 0.07, -0.3, 1.3, -2.6, 4.2, -6.9, 9.4, 0.5, -0.8, -1.1, 2.2, -3.7, 5.5, 7.1, -8.3};

struct Row {
    std::string name;
    double truth = NAN;  // NaN: no dominant line direction in the range
    SkewEstimate e;
    bool right() const { return std::isfinite(truth) && std::abs(e.angle - truth) <= 0.1; }
};

cv::Mat readGrey(const std::string& path) {
    cv::Mat m = cv::imread(path, cv::IMREAD_GRAYSCALE);
    if (m.empty()) qFatal("cannot read %s", path.c_str());
    return m;
}

SkewEstimate estimate(const cv::Mat& img, bool darkLines = true) {
    EngineOptions opt;
    opt.backend = Backend::Cpu;
    SkewParams p;
    p.darkLines = darkLines;
    return estimateSkew<std::uint8_t>(io::viewOf<std::uint8_t>(img), p, opt);
}

void print(const Row& r) {
    if (!std::getenv("LINESCOPE_SKEW_CALIBRATION")) return;
    qInfo("%-44s truth %7.2f angle %7.2f err %6.3f conf %.3f sep %.3f prom %.3f edge %d | fine sep %.3f prom %.3f",
          r.name.c_str(), r.truth, r.e.angle, std::abs(r.e.angle - r.truth), r.e.confidence, r.e.separation,
          r.e.prominence, int(r.e.atRangeEdge), r.e.fine.separation, r.e.fine.prominence);
}

// Whether a texture orientation lies in the default search range (−16…16°, as a direction),
// with a degree to spare: such a texture has a dominant line direction there.
bool inSearchRange(double orientation) {
    const AngleSet range = SkewParams{}.angles;
    const double a = std::remainder(orientation, 180.0);
    return a >= std::min(range.angle(0), range.angle(range.count - 1)) - 1.0 &&
           a <= std::max(range.angle(0), range.angle(range.count - 1)) + 1.0;
}

}  // namespace

class TestSkewConfidence : public QObject {
    Q_OBJECT
private slots:
    void confidentMeansRightAndPrintsAreNotConfident() {
        std::vector<Row> pages, flat;
        for (const char* name : kPages) {
            const cv::Mat page = readGrey(std::string(LINESCOPE_TASK_PAGES_DIR) + "/" + name);
            for (int k = 0; k < int(std::size(kAngles)); ++k)
                for (DegradeProfile p : kAllProfiles) {
                    Row r{std::string(name) + " " + profileName(p), kAngles[k],
                          estimate(makeSkewedPage(page, kAngles[k], p, itemSeed(name, k, p)))};
                    print(r);
                    pages.push_back(r);
                }
        }
        for (const auto& [file, truth] : {std::pair{"music_sheet.png", 1.5}, {"text_page.png", -2.0},
                                          {"task_score_skew_2.567.png", 2.567}}) {
            Row r{file, truth, estimate(readGrey(std::string(LINESCOPE_SAMPLES_DIR) + "/" + file))};
            print(r);
            pages.push_back(r);
        }
        for (const char* file : {"fingerprint.png", "oriented_texture.png", "task_fingerprint_arch_degraded.png",
                                 "task_fingerprint_whorl.png", "task_texture_78.6_128.5.png"}) {
            Row r{file, NAN, estimate(readGrey(std::string(LINESCOPE_SAMPLES_DIR) + "/" + file))};
            print(r);
            flat.push_back(r);
        }
        for (std::uint64_t seed = 1; seed <= 12; ++seed) {
            const SyntheticPrint sp = makeSyntheticPrint(seed, seed % 2 ? PrintQuality::Good : PrintQuality::Degraded);
            Row r{"print " + std::to_string(seed), NAN, estimate(sp.image)};
            print(r);
            flat.push_back(r);
            const SyntheticTexture st = makeSyntheticTexture(seed);
            bool dominant = false;
            for (double o : st.orientations) dominant = dominant || inSearchRange(o);
            Row t{"texture " + std::to_string(seed) + (dominant ? " (in range)" : ""), NAN,
                  estimate(st.image, /*darkLines=*/false)};
            print(t);
            if (!dominant) flat.push_back(t);
        }

        int confident = 0, confidentRight = 0, unsureRight = 0, unsureWrong = 0, flatConfident = 0;
        for (const Row& r : pages) {
            if (r.e.confidence >= kSkewConfidentThreshold) {
                ++confident;
                confidentRight += r.right();
                if (!r.right()) qInfo("  confident but wrong: %s at %.2f°: %.3f°, confidence %.3f", r.name.c_str(),
                                      r.truth, r.e.angle, r.e.confidence);
            } else {
                (r.right() ? unsureRight : unsureWrong)++;
            }
        }
        for (const Row& r : flat)
            if (r.e.confidence >= kSkewConfidentThreshold) {
                ++flatConfident;
                qInfo("  no dominant direction but confident: %s, %.2f°, confidence %.3f", r.name.c_str(), r.e.angle,
                      r.e.confidence);
            }
        qInfo("threshold %.2f: pages %zu, confident %d (right %d), below it %d right + %d wrong; "
              "prints and textures %zu, confident %d",
              kSkewConfidentThreshold, pages.size(), confident, confidentRight, unsureRight, unsureWrong, flat.size(),
              flatConfident);
        QVERIFY2(confident > 0, "no page is confident");
        QVERIFY2(confidentRight >= 0.95 * confident, "fewer than 95 % of confident pages are right within 0.1°");
        QCOMPARE(flatConfident, 0);
    }

    // The bundled samples, as the window shows them: the music sheet and the text page are
    // confident and right, the fingerprint and the oriented texture have no dominant line
    // direction in the range.
    void samples() {
        const auto at = [](const char* file) { return std::string(LINESCOPE_SAMPLES_DIR) + "/" + file; };
        const SkewEstimate music = estimate(readGrey(at("music_sheet.png")));
        QVERIFY2(music.confidence >= kSkewConfidentThreshold, qPrintable(QString::number(music.confidence)));
        QVERIFY2(std::abs(music.angle - 1.5) <= 0.1, qPrintable(QString::number(music.angle)));
        QVERIFY(!music.atRangeEdge);
        // The text page (large type at about 100 dpi, lines at −2°): 0.64° off before issue 20,
        // when its smear left the words apart and nothing dark survived the coarse closings.
        const SkewEstimate text = estimate(readGrey(at("text_page.png")));
        QVERIFY2(text.confidence >= kSkewConfidentThreshold, qPrintable(QString::number(text.confidence)));
        QVERIFY2(std::abs(text.angle + 2.0) <= 0.1, qPrintable(QString::number(text.angle)));
        for (const char* file : {"fingerprint.png", "oriented_texture.png"}) {
            const SkewEstimate e = estimate(readGrey(at(file)));
            QVERIFY2(e.confidence < kSkewConfidentThreshold, qPrintable(QString("%1: %2").arg(file).arg(e.confidence)));
        }
        // Its strongest orientations (78.6°, 128.5°) lie outside the range: whatever extreme the
        // range holds (at its end, or a weak one inside since the background is taken away
        // first), it is not confident.
        const SkewEstimate texture = estimate(readGrey(at("task_texture_78.6_128.5.png")));
        QVERIFY2(texture.confidence < kSkewConfidentThreshold, qPrintable(QString::number(texture.confidence)));
    }
};

QTEST_APPLESS_MAIN(TestSkewConfidence)
#include "test_skew_confidence.moc"
