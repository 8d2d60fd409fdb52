// linescope-cli granulometry end to end: the printed JSON and the written CSV hold the
// engine's numbers exactly (integers as integers, doubles read back to the same bits) for
// one angle, the supremum over angles, a region and another line kind; the bad inputs give
// one error line and a non-zero status, and an output never replaces the input.
#include "compute/granulometry.h"
#include "tests/cli/cli_process.h"
#include "tests/support/opencv_images.h"
#include "tests/support/random_images.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <opencv2/imgcodecs.hpp>

#include <cstdint>
#include <string>

using namespace linescope;
using test::CliRun;

namespace {

CliRun runCli(const QStringList& args) { return test::runProcess(QStringLiteral(LINESCOPE_CLI_PATH), args, 300000); }

QStringList nonEmptyLines(const QString& text) { return text.split(QLatin1Char('\n'), Qt::SkipEmptyParts); }

template <class T>
Image<T> testImage(int w, int h, std::uint64_t seed) {
    if constexpr (std::is_same_v<T, float>) return test::finiteFloatImage(w, h, seed, test::ImageKind::Noise);
    else return test::randomImage<T>(w, h, seed, test::ImageKind::Blocky);
}

}  // namespace

class TestCliGranulometry : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const QString& name) const { return dir_.filePath(name); }

    void verifyError(const CliRun& r, int expectedCode, const char* words) {
        QVERIFY2(r.finished && !r.crashed && r.code == expectedCode, qPrintable(r.describe()));
        const QStringList lines = nonEmptyLines(r.err);
        QVERIFY2(lines.size() == 1 && lines[0].startsWith(QStringLiteral("linescope-cli: error: ")), qPrintable(r.describe()));
        QVERIFY2(r.err.contains(QString::fromUtf8(words)), qPrintable(r.describe()));
    }

    // The CLI's JSON for `args` on `file` against granulometry<T>(image, req), number by number.
    template <class T>
    void checkJson(const QString& file, const Image<T>& image, const GranulometryRequest& req, const QStringList& args) {
        const CliRun r = runCli(QStringList{QStringLiteral("granulometry"), path(file), QStringLiteral("--backend"),
                                            QStringLiteral("cpu"), QStringLiteral("--quiet")} + args);
        QVERIFY2(r.code == 0 && r.err.isEmpty(), qPrintable(r.describe()));
        const QJsonObject o = QJsonDocument::fromJson(r.outBytes).object();
        const Granulometry g = *granulometry<T>(image.cview(), req);
        QCOMPARE(o.value("max_length").toInt(), req.maxLength);
        QCOMPARE(o.value("pixels").toInteger(), g.pixels);
        QCOMPARE(o.value("supremum").toBool(), req.angles.has_value());
        QCOMPARE(o.value("line").toString(), QString::fromLatin1(lineKindName(req.kind)));
        const QJsonArray sums = o.value("sums").toArray(), spectrum = o.value("pattern_spectrum").toArray();
        QCOMPARE(sums.size(), static_cast<qsizetype>(g.sums.size()));
        QCOMPARE(spectrum.size(), static_cast<qsizetype>(g.spectrum.size()));
        for (qsizetype i = 0; i < sums.size(); ++i) {
            const auto u = static_cast<std::size_t>(i);
            if constexpr (std::is_floating_point_v<T>) {
                QCOMPARE(sums[i].toDouble(), g.sums[u]);
                if (u < g.spectrum.size()) QCOMPARE(spectrum[i].toDouble(), g.spectrum[u]);
            } else {
                QCOMPARE(sums[i].toInteger(), g.sumsExact[u]);
                if (u < g.spectrum.size()) QCOMPARE(spectrum[i].toInteger(), g.spectrumExact[u]);
            }
        }
        QCOMPARE(o.value("residual").toDouble(), g.residual());
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        cv::imwrite(path("u8.png").toStdString(), test::toMat(testImage<std::uint8_t>(41, 27, 1)));
        cv::imwrite(path("u16.png").toStdString(), test::toMat(testImage<std::uint16_t>(33, 29, 2)));
        cv::imwrite(path("f32.tiff").toStdString(), test::toMat(testImage<float>(31, 23, 3)));
    }

    void helpNamesTheOptions() {
        const CliRun r = runCli({QStringLiteral("granulometry"), QStringLiteral("--help")});
        QVERIFY2(r.code == 0 && r.out.contains(QStringLiteral("usage")) && r.err.isEmpty(), qPrintable(r.describe()));
    }

    void jsonEqualsTheEngine() {
        GranulometryRequest req;
        req.angle = 30.5;
        req.maxLength = 50;
        checkJson<std::uint8_t>(QStringLiteral("u8.png"), testImage<std::uint8_t>(41, 27, 1), req,
                                {QStringLiteral("--angle"), QStringLiteral("30.5"), QStringLiteral("--max-length"), QStringLiteral("50")});
        req.angle = 90;
        req.rect = PixelRect{4, 5, 20, 10};
        checkJson<std::uint16_t>(QStringLiteral("u16.png"), testImage<std::uint16_t>(33, 29, 2), req,
                                 {QStringLiteral("--angle"), QStringLiteral("90"), QStringLiteral("--max-length=50"),
                                  QStringLiteral("--region"), QStringLiteral("4,5,20,10")});
        req.rect.reset();
        req.angle = 135;
        req.maxLength = 20;
        checkJson<float>(QStringLiteral("f32.tiff"), testImage<float>(31, 23, 3), req,
                         {QStringLiteral("--angle"), QStringLiteral("135"), QStringLiteral("--max-length"), QStringLiteral("20"),
                          QStringLiteral("--format"), QStringLiteral("json")});
        GranulometryRequest sup;
        sup.angles = AngleSet{0, 45, 4};
        sup.maxLength = 9;
        checkJson<std::uint8_t>(QStringLiteral("u8.png"), testImage<std::uint8_t>(41, 27, 1), sup,
                                {QStringLiteral("--angles"), QStringLiteral("4"), QStringLiteral("--max-length"), QStringLiteral("9")});
        GranulometryRequest segment;
        segment.angle = 20;
        segment.maxLength = 8;
        segment.kind = LineKind::Segment;
        checkJson<std::uint8_t>(QStringLiteral("u8.png"), testImage<std::uint8_t>(41, 27, 1), segment,
                                {QStringLiteral("--angle"), QStringLiteral("20"), QStringLiteral("--max-length"), QStringLiteral("8"),
                                 QStringLiteral("--line"), QStringLiteral("segment")});
    }

    void csvFileEqualsTheEngine() {
        const QString out = path(QStringLiteral("g.csv"));
        const CliRun r = runCli({QStringLiteral("granulometry"), QStringLiteral("--angle"), QStringLiteral("12"),
                                 QStringLiteral("--max-length"), QStringLiteral("30"), QStringLiteral("-o"), out, path("u16.png"),
                                 QStringLiteral("--quiet")});
        QVERIFY2(r.code == 0 && r.out.isEmpty() && r.err.isEmpty(), qPrintable(r.describe()));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList rows = nonEmptyLines(QString::fromUtf8(f.readAll()));
        GranulometryRequest req;
        req.angle = 12;
        req.maxLength = 30;
        const Granulometry g = *granulometry<std::uint16_t>(testImage<std::uint16_t>(33, 29, 2).cview(), req);
        QCOMPARE(rows.mid(0, 5), (QStringList{"# line=paths", "# angle=12", "# region=whole", "# pixels=957",
                                              "length,sum,normalized,pattern_spectrum"}));
        QCOMPARE(rows.size(), 5 + 31);
        for (int l = 1; l <= 31; ++l) {
            const QStringList cells = rows[4 + l].split(QLatin1Char(','));
            QCOMPARE(cells.size(), 4);
            const auto i = static_cast<std::size_t>(l - 1);
            QCOMPARE(cells[0].toInt(), l);
            QCOMPARE(cells[1].toLongLong(), g.sumsExact[i]);
            QCOMPARE(cells[2].toDouble(), g.sums[i] / g.sums[0]);
            if (l <= 30) QCOMPARE(cells[3].toLongLong(), g.spectrumExact[i]);
            else QVERIFY(cells[3].isEmpty());  // the residual's row has no pattern spectrum
        }
    }

    void badInputs() {
        const QString img = path("u8.png");
        const QString g = QStringLiteral("granulometry");
        const QString maxL = QStringLiteral("--max-length"), angle = QStringLiteral("--angle");
        verifyError(runCli({g, img, angle, "3"}), 2, "needs --max-length");
        verifyError(runCli({g, img, maxL, "5"}), 2, "either --angle");
        verifyError(runCli({g, img, angle, "3", QStringLiteral("--angles"), "8", maxL, "5"}), 2, "either --angle");
        verifyError(runCli({g, img, angle, "3", maxL, "0"}), 2, "--max-length");
        verifyError(runCli({g, img, angle, "3", maxL, "2.5"}), 2, "--max-length");
        verifyError(runCli({g, img, angle, "3", maxL, "5", QStringLiteral("--region"), "1,2,3"}), 2, "X,Y,W,H");
        verifyError(runCli({g, img, angle, "3", maxL, "5", QStringLiteral("--region"), "1,2,0,4"}), 2, "--region");
        verifyError(runCli({g, img, angle, "3", maxL, "5", QStringLiteral("--format"), "xml"}), 2, "csv or json");
        verifyError(runCli({g, img, angle, "3", maxL, "5", QStringLiteral("--angles"), "0:10:0"}), 2, "--angles");
        verifyError(runCli({g, img, angle, "3", maxL, "5", QStringLiteral("--region"), "100,0,5,5"}), 1,
                    "lies outside the 41x27 image");
        verifyError(runCli({g, path("missing.png"), angle, "3", maxL, "5"}), 1, "missing.png");
        // The input is never replaced without --force.
        const QByteArray before = [&] { QFile f(img); f.open(QIODevice::ReadOnly); return f.readAll(); }();
        verifyError(runCli({g, img, angle, "3", maxL, "5", QStringLiteral("-o"), img}), 2, "u8.png");
        QFile f(img);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
    }
};

QTEST_MAIN(TestCliGranulometry)
#include "test_cli_granulometry.moc"
