// app/io's rotation about the centre and deskew (shared by linescope-cli skew --deskew and the
// desktop app's Deskew button): the sign of the rotation against a closed form, and a ruled page
// rotated by a known angle whose skew the engine finds and the deskew removes.
#include "app/io/deskew.h"
#include "compute/skew.h"

#include <QtTest>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <cstdint>
#include <numbers>

using namespace linescope;

namespace {

// A white page (255) with dark horizontal rules (20), 2 pixels thick every 14 pixels, with a
// margin: what a scanned sheet of ruled paper or a stave looks like.
cv::Mat ruledPage(int w, int h) {
    cv::Mat page(h, w, CV_8UC1, cv::Scalar(255));
    for (int y = 24; y < h - 24; y += 14) cv::line(page, {30, y}, {w - 31, y}, cv::Scalar(20), 2);
    return page;
}

SkewResult skewOf(const cv::Mat& page) {
    EngineOptions cpu;
    cpu.backend = Backend::Cpu;
    return io::visitPixelType(page, [&]<class T>(std::type_identity<T>) {
        return estimateSkew<T>(io::viewOf<T>(page), SkewParams{}, cpu);
    });
}

}  // namespace

class TestDeskew : public QObject {
    Q_OBJECT

private slots:
    void positiveDegreesTurnCounterClockwiseOnScreen() {
        // One bright pixel 100 px right of the centre: +90° must carry it 100 px up (y down),
        // +30° to (cx + 100 cos 30°, cy − 100 sin 30°): design.md's direction (cos α, −sin α).
        for (double degrees : {90.0, 30.0, -45.0}) {
            cv::Mat img(201, 301, CV_32FC1, cv::Scalar(0));
            const double cx = 150, cy = 100;
            img.at<float>(static_cast<int>(cy), static_cast<int>(cx) + 100) = 1000;
            const cv::Mat out = io::rotateAboutCentre(img, degrees, io::RotationBorder::Replicate);
            QCOMPARE(out.size(), img.size());
            QCOMPARE(out.type(), img.type());
            // The bilinear spot's centre of mass. warpAffine quantises source positions to 1/32
            // pixel, which moved it by up to 0.06 px here; a wrong sign or centre moves it by tens.
            const cv::Moments m = cv::moments(out);
            QVERIFY(m.m00 > 0);
            const double r = degrees * std::numbers::pi / 180.0;
            const double wantX = cx + 100 * std::cos(r), wantY = cy - 100 * std::sin(r);
            QVERIFY2(std::abs(m.m10 / m.m00 - wantX) < 0.1 && std::abs(m.m01 / m.m00 - wantY) < 0.1,
                     qPrintable(QString("%1°: spot at (%2, %3), want (%4, %5)")
                                    .arg(degrees).arg(m.m10 / m.m00).arg(m.m01 / m.m00).arg(wantX).arg(wantY)));
        }
    }

    void zeroDegreesIsTheIdentity() {
        const cv::Mat page = ruledPage(120, 80);
        const cv::Mat out = io::deskew(page, 0.0, io::RotationBorder::White);
        QCOMPARE(cv::norm(page, out, cv::NORM_INF), 0.0);
    }

    void borders() {
        // Rotating a black page brings in corners: white fills them with the type's maximum,
        // replicate with the (black) edge.
        const cv::Mat black(100, 160, CV_16UC1, cv::Scalar(0));
        const cv::Mat white = io::rotateAboutCentre(black, 20, io::RotationBorder::White);
        const cv::Mat replicated = io::rotateAboutCentre(black, 20, io::RotationBorder::Replicate);
        QCOMPARE(white.at<std::uint16_t>(0, 0), std::uint16_t{65535});
        QCOMPARE(white.at<std::uint16_t>(50, 80), std::uint16_t{0});
        QCOMPARE(cv::countNonZero(replicated), 0);
        // float32: the page's own maximum.
        cv::Mat f(100, 160, CV_32FC1, cv::Scalar(0.25f));
        f.at<float>(50, 80) = 0.75f;
        QCOMPARE(io::rotateAboutCentre(f, 20, io::RotationBorder::White).at<float>(0, 0), 0.75f);
    }

    void skewFoundAndRemoved_data() {
        QTest::addColumn<double>("angle");
        QTest::newRow("+3°") << 3.0;
        QTest::newRow("-2.3°") << -2.3;
        QTest::newRow("+0.7°") << 0.7;
        QTest::newRow("-6.1°") << -6.1;
    }

    void skewFoundAndRemoved() {
        QFETCH(double, angle);
        const cv::Mat page = ruledPage(640, 480);
        QVERIFY2(std::abs(skewOf(page).angle) <= 0.05, "the straight page is found straight");

        const cv::Mat skewed = io::rotateAboutCentre(page, angle, io::RotationBorder::White);
        const SkewResult found = skewOf(skewed);
        // Tolerance: on these four angles the estimate came within 0.078° of the rotation (worst at
        // 0.7°, between two of the search's 0.25° steps, where the parabola refines; bilinear
        // resampling also blurs the rules), and the deskewed pages measured within 0.041° of 0.
        // 0.15° leaves margin (the float32 copy too) yet stays well under one search step.
        QVERIFY2(std::abs(found.angle - angle) <= 0.15,
                 qPrintable(QString("rotated by %1°, estimated %2°").arg(angle).arg(found.angle)));
        QVERIFY(found.confidence > 0.5);

        const cv::Mat straight = io::deskew(skewed, found.angle, io::RotationBorder::White);
        QCOMPARE(straight.size(), page.size());
        QCOMPARE(straight.type(), page.type());
        const SkewResult after = skewOf(straight);
        QVERIFY2(std::abs(after.angle) <= 0.15, qPrintable(QString("deskewed page: %1°").arg(after.angle)));

        // The engine-image overload (what the desktop app uses) gives the same pixels for
        // every pixel type.
        const Image<std::uint8_t> u8 = Image<std::uint8_t>::copyOf(io::viewOf<std::uint8_t>(skewed));
        const Image<std::uint8_t> viaImage = io::deskew(u8.cview(), found.angle, io::RotationBorder::White);
        QCOMPARE(cv::norm(cv::Mat(viaImage.height(), viaImage.width(), CV_8UC1, const_cast<std::uint8_t*>(viaImage.data())),
                          straight, cv::NORM_INF),
                 0.0);
        cv::Mat skewedF;
        skewed.convertTo(skewedF, CV_32F, 1.0 / 255.0);
        const Image<float> f32 = Image<float>::copyOf(io::viewOf<float>(skewedF));
        const Image<float> straightF = io::deskew(f32.cview(), found.angle, io::RotationBorder::White);
        const cv::Mat straightFMat(straightF.height(), straightF.width(), CV_32FC1, const_cast<float*>(straightF.data()));
        QVERIFY(std::abs(skewOf(straightFMat).angle) <= 0.15);
    }
};

QTEST_APPLESS_MAIN(TestDeskew)
#include "test_deskew.moc"
