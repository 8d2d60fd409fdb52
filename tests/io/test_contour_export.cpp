// app/io's contour exports and thresholds, shared by linescope-cli and the desktop app: the
// JSON parses (QJsonDocument) into one entry per contour with the engine's points, parent
// and hole flag; the SVG (QXmlStreamReader) has one polygon per contour through the pixel
// centres in the outer/hole colours over the embedded 8-bit image; Otsu's threshold equals
// OpenCV's on uint8 and maps back exactly for uint16 and float images built from uint8 by a
// known linear map; binarize and thresholdRange against plain loops.
#include "app/io/contour_export.h"
#include "app/io/image_io.h"
#include "app/io/json_writer.h"
#include "app/io/threshold.h"

#include "compute/contours/contours.h"
#include "tests/support/binary_shapes.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace linescope;

Q_DECLARE_METATYPE(linescope::ContourMode)
Q_DECLARE_METATYPE(linescope::ContourApprox)

namespace {

// Blobs with holes, islands in the holes and holes in those.
test::BinaryImage nestedBlobs() { return test::randomBlobs(160, 120, 40, 7); }

Contours trace(const test::BinaryImage& img, ContourMode mode, ContourApprox approx) {
    EngineOptions cpu;
    cpu.backend = Backend::Cpu;
    return findContours(img.view(), mode, approx, cpu);
}

int depthOf(const Contours& c, std::size_t i) {
    int depth = 0;
    for (int p = c.parent[i]; p >= 0; p = c.parent[static_cast<std::size_t>(p)]) ++depth;
    return depth;
}

// An 8-bit image that spans 0 … 255 exactly (so that min → 0, max → 255 is the identity).
cv::Mat fullRangeGrey(int w, int h, std::uint64_t seed) {
    cv::Mat m(h, w, CV_8U);
    cv::RNG rng(seed);
    // Two populations, so that Otsu has something to split.
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            m.at<std::uint8_t>(y, x) = cv::saturate_cast<std::uint8_t>((x < w / 3 ? 60 : 170) + rng.gaussian(25));
    m.at<std::uint8_t>(0, 0) = 0;
    m.at<std::uint8_t>(h - 1, w - 1) = 255;
    return m;
}

}  // namespace

class TestContourExport : public QObject {
    Q_OBJECT
private slots:
    void jsonHasTheEnginesContours_data() {
        QTest::addColumn<ContourMode>("mode");
        QTest::addColumn<ContourApprox>("approx");
        for (auto m : {ContourMode::External, ContourMode::List, ContourMode::CComp, ContourMode::Tree})
            for (auto a : {ContourApprox::None, ContourApprox::Simple})
                QTest::newRow((std::string(contourModeName(m)) + "/" + contourApproxName(a)).c_str()) << m << a;
    }

    void jsonHasTheEnginesContours() {
        QFETCH(ContourMode, mode);
        QFETCH(ContourApprox, approx);
        const test::BinaryImage img = nestedBlobs();
        const Contours c = trace(img, mode, approx);
        QVERIFY(c.size() > 10);
        if (mode == ContourMode::Tree) {
            int deepest = 0;
            for (std::size_t i = 0; i < c.size(); ++i) deepest = std::max(deepest, depthOf(c, i));
            QVERIFY2(deepest >= 2, "the image should nest islands in holes");
        }

        io::ContourJsonInfo info;
        info.mode = mode;
        info.approx = approx;
        info.width = img.width;
        info.height = img.height;
        info.threshold = 0.5;
        info.timings.track = 1.25;
        info.timings.total = 2.5;
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(io::contoursToJson(c, info)), &err);
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
        const QJsonObject root = doc.object();
        QCOMPARE(root["mode"].toString(), QString(contourModeName(mode)));
        QCOMPARE(root["approx"].toString(), QString(contourApproxName(approx)));
        QCOMPARE(root["width"].toInt(), img.width);
        QCOMPARE(root["height"].toInt(), img.height);
        QCOMPARE(root["threshold"].toDouble(), 0.5);
        QCOMPARE(root["algorithm"].toString(), QStringLiteral("engine"));
        const QJsonObject ms = root["timings_ms"].toObject();
        QCOMPARE(ms.keys().size(), 6);
        QCOMPARE(ms["track"].toDouble(), 1.25);
        QCOMPARE(ms["total"].toDouble(), 2.5);

        const QJsonArray list = root["contours"].toArray();
        QCOMPARE(static_cast<std::size_t>(list.size()), c.size());
        for (std::size_t i = 0; i < c.size(); ++i) {
            const QJsonObject o = list[static_cast<qsizetype>(i)].toObject();
            QCOMPARE(o["parent"].toInt(), c.parent[i]);
            QCOMPARE(o["hole"].toBool(), c.hole[i] != 0);
            const QJsonArray pts = o["points"].toArray();
            QCOMPARE(static_cast<std::size_t>(pts.size()), c.length(i));
            for (std::size_t j = 0; j < c.length(i); ++j) {
                const QJsonArray p = pts[static_cast<qsizetype>(j)].toArray();
                QCOMPARE(p.size(), 2);
                QCOMPARE(p[0].toInt(), c.begin(i)[j].x);
                QCOMPARE(p[1].toInt(), c.begin(i)[j].y);
            }
        }
    }

    void jsonOfOpenCvHasOnlyTheTotalAndEmptyIsValid() {
        io::ContourJsonInfo info;
        info.algorithm = "opencv";
        info.threshold = 29900.6431372549;
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(io::contoursToJson({}, info)));
        QVERIFY(doc.isObject());
        QCOMPARE(doc.object()["contours"].toArray().size(), 0);
        QCOMPARE(doc.object()["timings_ms"].toObject().keys(), QStringList{"total"});
        QCOMPARE(doc.object()["threshold"].toDouble(), 29900.6431372549);  // shortest round trip
    }

    // Found by tests/fuzz/fuzz_json_writers: a NaN or infinite timing was written as "nan" or
    // "inf", and bytes that are not UTF-8 (a file name) were copied raw: neither is JSON.
    void jsonStaysValidForAnyTimingAndText() {
        const auto parsed = [](const io::ContourJsonInfo& info) {
            QJsonParseError error;
            const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(io::contoursToJson({}, info)), &error);
            if (error.error != QJsonParseError::NoError) qWarning() << "not JSON:" << error.errorString();
            return doc.object();
        };
        io::ContourJsonInfo info;
        info.threshold = std::numeric_limits<double>::quiet_NaN();
        info.timings.total = std::numeric_limits<double>::quiet_NaN();
        info.timings.track = -std::numeric_limits<double>::infinity();
        info.timings.connect = 1e300;  // written in full: %.3f of it has 301 digits
        const QJsonObject doc = parsed(info);
        const QJsonObject timings = doc["timings_ms"].toObject();
        QVERIFY(timings["total"].isNull());
        QVERIFY(timings["track"].isNull());
        QCOMPARE(timings["connect"].toDouble(), 1e300);
        QVERIFY(doc["threshold"].isNull());
        info.algorithm = "opencv \xff\xfe\xc3(";  // not UTF-8: each bad byte becomes U+FFFD
        QCOMPARE(parsed(info)["algorithm"].toString(), QString::fromUtf8("opencv \ufffd\ufffd\ufffd("));
        // Valid UTF-8 passes unchanged, up to four bytes a character.
        const char* utf8 = "\xc3\xa9\xe2\x82\xac\xf0\x9f\x99\x82";
        QCOMPARE(QByteArray::fromStdString(io::jsonString(utf8)), "\"" + QByteArray(utf8) + "\"");
        // An overlong '/' and a surrogate are not UTF-8: one U+FFFD a byte.
        QCOMPARE(QByteArray::fromStdString(io::jsonString("\xc0\xaf\xed\xa0\x80")),
                 "\"" + QByteArray("\\ufffd").repeated(5) + "\"");
    }

    void svgHasOnePolygonPerContourOverTheImage() {
        const test::BinaryImage img = nestedBlobs();
        const Contours c = trace(img, ContourMode::Tree, ContourApprox::Simple);
        // A uint16 background v · 257: its 8-bit PNG must be v again (min 0 → 0, max 65535 → 255).
        const cv::Mat grey = fullRangeGrey(img.width, img.height, 3);
        cv::Mat grey16;
        grey.convertTo(grey16, CV_16U, 257.0);
        const std::string svg = io::contoursToSvg(c, img.width, img.height, grey16);

        QXmlStreamReader xml(QByteArray::fromStdString(svg));
        std::size_t polygons = 0;
        int images = 0;
        while (xml.readNextStartElement()) {
            if (xml.name() == QLatin1String("svg")) {
                QCOMPARE(xml.attributes().value("width").toInt(), img.width);
                QCOMPARE(xml.attributes().value("height").toInt(), img.height);
                continue;  // descend
            }
            if (xml.name() == QLatin1String("image")) {
                ++images;
                const QString href = xml.attributes().value("href").toString();
                const QString prefix = QStringLiteral("data:image/png;base64,");
                QVERIFY(href.startsWith(prefix));
                const QByteArray png = QByteArray::fromBase64(href.mid(prefix.size()).toLatin1());
                const cv::Mat decoded =
                    cv::imdecode(std::vector<uchar>(png.begin(), png.end()), cv::IMREAD_UNCHANGED);
                QCOMPARE(decoded.type(), CV_8UC1);
                QCOMPARE(cv::norm(decoded, grey, cv::NORM_INF), 0.0);
            } else if (xml.name() == QLatin1String("polygon")) {
                QVERIFY2(polygons < c.size(), "more polygons than contours");
                const auto a = xml.attributes();
                QCOMPARE(a.value("stroke").toString(),
                         c.hole[polygons] ? QStringLiteral("#0050ff") : QStringLiteral("#ff2020"));
                QCOMPARE(a.value("fill").toString(), QStringLiteral("none"));
                const QStringList pts = a.value("points").toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
                QCOMPARE(static_cast<std::size_t>(pts.size()), c.length(polygons));
                for (std::size_t j = 0; j < c.length(polygons); ++j) {
                    const QStringList xy = pts[static_cast<qsizetype>(j)].split(QLatin1Char(','));
                    QCOMPARE(xy.size(), 2);
                    QCOMPARE(xy[0].toDouble(), c.begin(polygons)[j].x + 0.5);
                    QCOMPARE(xy[1].toDouble(), c.begin(polygons)[j].y + 0.5);
                }
                ++polygons;
            }
            xml.skipCurrentElement();
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(polygons, c.size());
        QCOMPARE(images, 1);

        // Without a background: no image; a background of another size is refused.
        QVERIFY(io::contoursToSvg(c, img.width, img.height).find("<image") == std::string::npos);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, io::contoursToSvg(c, img.width + 1, img.height, grey));
    }

    void otsuEqualsOpenCvOnUint8() {
        for (const char* name : {"fingerprint.png", "text_page.png", "music_sheet.png"}) {
            const cv::Mat img = cv::imread(std::string(LINESCOPE_SAMPLES_DIR) + "/" + name, cv::IMREAD_GRAYSCALE);
            QVERIFY2(!img.empty(), name);
            cv::Mat unused;
            QCOMPARE(io::otsuThreshold(img), cv::threshold(img, unused, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU));
        }
    }

    void otsuMapsBackForUint16AndFloat() {
        const cv::Mat grey = fullRangeGrey(200, 150, 11);
        cv::Mat unused;
        const double t8 = cv::threshold(grey, unused, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
        QVERIFY(t8 > 60 && t8 < 170);

        cv::Mat grey16;
        grey.convertTo(grey16, CV_16U, 257.0);  // 0 … 65535: the 8-bit map is v · 257 → v exactly
        QCOMPARE(io::otsuThreshold(grey16), t8 * 257.0);

        cv::Mat greyF;
        grey.convertTo(greyF, CV_32F, 0.5, 10.0);  // 10 … 137.5: the 8-bit map is 2 · (f − 10)
        QVERIFY(std::abs(io::otsuThreshold(greyF) - (0.5 * t8 + 10.0)) < 1e-12);
        const io::OtsuResult o = io::otsu(greyF);
        QCOMPARE(o.eightBit, t8);
        QCOMPARE(cv::norm(o.eight, grey, cv::NORM_INF), 0.0);
    }

    void thresholdRangeAndBinarize() {
        const cv::Mat grey = fullRangeGrey(64, 48, 5);
        cv::Mat greyF;
        grey.convertTo(greyF, CV_32F, 0.5, 10.0);
        const io::ThresholdRange r8 = io::thresholdRange(grey);
        QCOMPARE(r8.min, 0.0);
        QCOMPARE(r8.max, 255.0);
        QVERIFY(r8.integer);
        const io::ThresholdRange rf = io::thresholdRange(greyF);
        QCOMPARE(rf.min, 10.0);
        QCOMPARE(rf.max, 137.5);
        QVERIFY(!rf.integer);

        for (double t : {-1.0, 0.0, 99.5, 100.0, 254.9, 255.0}) {
            const cv::Mat b = io::binarize(grey, t);
            QCOMPARE(b.type(), CV_8UC1);
            for (int y = 0; y < grey.rows; ++y)
                for (int x = 0; x < grey.cols; ++x)
                    QCOMPARE(b.at<std::uint8_t>(y, x), std::uint8_t(grey.at<std::uint8_t>(y, x) > t ? 1 : 0));
        }

        greyF.at<float>(3, 4) = std::numeric_limits<float>::infinity();
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, io::thresholdRange(greyF));
    }

    void writeTextFileReportsFailure() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string ok = dir.filePath("a.json").toStdString();
        io::writeTextFile(ok, "{}\n");
        QFile f(QString::fromStdString(ok));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("{}\n"));
        QVERIFY_THROWS_EXCEPTION(io::IoError, io::writeTextFile(dir.filePath("missing/a.json").toStdString(), "x"));
    }
};

QTEST_GUILESS_MAIN(TestContourExport)
#include "test_contour_export.moc"
