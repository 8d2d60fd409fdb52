// Exports carry their recipe: the PNG text chunks and the TIFF ImageDescription written by
// io::writeImage read back to the same values, and the pixels are those written.
#include "app/io/export_recipe.h"
#include "app/io/image_io.h"
#include "app/io/spectrum_export.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <zlib.h>

#include <cstdint>
#include <map>
#include <string>

using namespace linescope;

namespace {

std::string readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll().toStdString();
}

std::uint32_t bigEndian(const std::string& b, std::size_t at, int size) {
    std::uint32_t v = 0;
    for (int i = 0; i < size; ++i) v = (v << 8) | static_cast<std::uint8_t>(b[at + static_cast<std::size_t>(i)]);
    return v;
}

// keyword → text of every iTXt chunk, parsed independently of the writer.
std::map<std::string, std::string> pngTexts(const std::string& png) {
    std::map<std::string, std::string> texts;
    for (std::size_t at = 8; at + 12 <= png.size();) {
        const std::uint32_t len = bigEndian(png, at, 4);
        const std::string type = png.substr(at + 4, 4);
        const auto crc = ::crc32(0, reinterpret_cast<const Bytef*>(png.data() + at + 4), len + 4);
        if (crc != bigEndian(png, at + 8 + len, 4)) texts["bad CRC in " + type] = "";
        if (type == "iTXt") {
            const std::string data = png.substr(at + 8, len);
            const std::size_t nul = data.find('\0');
            // keyword NUL, flag, method, language NUL, translated keyword NUL, text
            std::size_t p = data.find('\0', nul + 3);
            p = data.find('\0', p + 1);
            texts[data.substr(0, nul)] = data.substr(p + 1);
        }
        at += 12 + len;
    }
    return texts;
}

// The ImageDescription of a little-endian TIFF's first directory.
std::string tiffDescription(const std::string& t) {
    const auto le = [&](std::size_t at, int size) {
        std::uint32_t v = 0;
        for (int i = size - 1; i >= 0; --i) v = (v << 8) | static_cast<std::uint8_t>(t[at + static_cast<std::size_t>(i)]);
        return v;
    };
    const std::uint32_t ifd = le(4, 4);
    for (std::uint32_t i = 0; i < le(ifd, 2); ++i) {
        const std::size_t e = ifd + 2 + 12 * i;
        if (le(e, 2) == 270) return t.substr(le(e + 8, 4), le(e + 4, 4) - 1);
    }
    return {};
}

cv::Mat ramp(int type) {
    cv::Mat m(37, 53, type);
    for (int y = 0; y < m.rows; ++y)
        for (int x = 0; x < m.cols; ++x) {
            if (m.depth() == CV_32F) m.at<float>(y, x) = 0.25f * static_cast<float>(x * y) - 3.0f;
            else if (m.depth() == CV_16U) m.at<std::uint16_t>(y, x) = static_cast<std::uint16_t>(x * 1000 + y);
            else m.at<std::uint8_t>(y, x) = static_cast<std::uint8_t>(x * 3 + y);
        }
    return m;
}

io::ExportRecipe sample() {
    io::ExportRecipe r;
    r.op = "open";
    r.angle = 30.5;
    r.length = 41;
    r.view = "result";
    r.source = "page é 1.png";
    return r;
}

bool samePixels(const cv::Mat& a, const cv::Mat& b) {
    return a.size() == b.size() && a.type() == b.type() && cv::norm(a, b, cv::NORM_INF) == 0;
}

}  // namespace

class TestExportRecipe : public QObject {
    Q_OBJECT
private slots:
    void textRoundTrips() {
        io::ExportRecipe r = sample();
        r.angle.reset();
        r.angles = "-10:10.25:0.25";
        const io::ExportRecipe back = io::parseRecipeText(io::recipeText(r));
        QCOMPARE(back.op, r.op);
        QVERIFY(!back.angle);
        QCOMPARE(back.length, 41);
        QCOMPARE(back.angles, r.angles);
        QCOMPARE(back.lines, std::string("paths"));
        QCOMPARE(back.source, r.source);
        QCOMPARE(back.version, io::linescopeVersion());
    }

    void exportNamesSayHowTheImageWasMade() {
        io::ExportRecipe r;
        r.op = "open";
        r.angle = 30.0;
        r.length = 41;
        r.view = "result";
        QCOMPARE(io::exportBaseName("IMAGE", r), std::string("IMAGE-open-30.0deg-L41"));
        r.angle = -17.25;
        r.op = "close";
        QCOMPARE(io::exportBaseName("page 1", r), std::string("page 1-close--17.2deg-L41"));
        r.view = "lesson";  // the lesson's canvas says so
        r.angle = 30.0;
        r.length = 9;
        QCOMPARE(io::exportBaseName("IMAGE", r), std::string("IMAGE-lesson-close-30.0deg-L9"));
        r.length = 41;
        r.angle.reset();
        r.op = "open";
        r.view = "orientation";
        r.angles = io::angleSetText(AngleSet{0, 1, 180});
        QCOMPARE(r.angles, std::string("0:180:1"));
        QCOMPARE(io::exportBaseName("IMAGE", r), std::string("IMAGE-orientation-open-L41-180angles"));
        QCOMPARE(io::exportBaseName("IMAGE", io::ExportRecipe{}), std::string("IMAGE-original"));
    }

    void spectrumCsvStartsWithItsParameters() {
        io::ExportRecipe r;
        r.op = "close";
        r.length = 41;
        r.angles = "0:180:90";
        r.source = "a, b.png";
        const std::string csv = io::spectrumCsv(AngleSet{0, 90, 2}, std::vector<std::int64_t>{7, 9}, &r);
        const QStringList lines = QString::fromStdString(csv).split('\n', Qt::SkipEmptyParts);
        std::string comments;
        int k = 0;
        for (; k < lines.size() && lines[k].startsWith("# "); ++k) comments += lines[k].mid(2).toStdString() + "\n";
        const io::ExportRecipe back = io::parseRecipeText(comments);
        QCOMPARE(back.op, r.op);
        QCOMPARE(back.length, 41);
        QCOMPARE(back.angles, r.angles);
        QCOMPARE(back.source, r.source);
        QCOMPARE(lines.mid(k), QStringList({"index,angle,sum", "0,0,7", "1,90,9"}));
        QVERIFY(io::spectrumCsv(AngleSet{0, 90, 2}, std::vector<double>{7, 9}).rfind("index,angle,sum\n", 0) == 0);
    }

    void pngCarriesTheRecipe_data() {
        QTest::addColumn<int>("type");
        QTest::newRow("uint8") << CV_8UC1;
        QTest::newRow("uint16") << CV_16UC1;
        QTest::newRow("colour") << CV_8UC3;
    }
    void pngCarriesTheRecipe() {
        QFETCH(int, type);
        QTemporaryDir dir;
        const QString path = dir.filePath("out.png");
        const cv::Mat image = ramp(type);
        io::writeImage(path.toStdString(), image, sample());
        const auto texts = pngTexts(readAll(path));
        QCOMPARE(texts.size(), std::size_t(3));  // Software, Source, Description, no bad CRC
        QCOMPARE(texts.count("Description"), std::size_t(1));
        QCOMPARE(texts.at("Source"), sample().source);
        QCOMPARE(texts.at("Software"), "LineScope " + io::linescopeVersion());
        const io::ExportRecipe back = io::parseRecipeText(texts.at("Description"));
        QCOMPARE(back.op, std::string("open"));
        QCOMPARE(*back.angle, 30.5);
        QCOMPARE(back.length, 41);
        QCOMPARE(back.source, sample().source);
        QVERIFY(samePixels(cv::imread(path.toStdString(), cv::IMREAD_UNCHANGED), image));
    }

    void tiffCarriesTheRecipe_data() {
        QTest::addColumn<int>("type");
        QTest::newRow("uint8") << CV_8UC1;
        QTest::newRow("float32") << CV_32FC1;
    }
    void tiffCarriesTheRecipe() {
        QFETCH(int, type);
        QTemporaryDir dir;
        const QString path = dir.filePath("out.tiff");
        const cv::Mat image = ramp(type);
        io::writeImage(path.toStdString(), image, sample());
        const std::string bytes = readAll(path);
        QVERIFY(bytes.rfind(std::string("II*\0", 4), 0) == 0);  // what the parser above reads
        QCOMPARE(tiffDescription(bytes), io::recipeText(sample()));
        QVERIFY(samePixels(cv::imread(path.toStdString(), cv::IMREAD_UNCHANGED), image));
    }

    void theBigEndianTiffDirectoryIsPatchedToo() {
        // A one-entry directory in Motorola order (ImageWidth 1), then the next-directory offset 0.
        std::string tiff("MM\0*\0\0\0\x08\0\x01\x01\x00\0\x03\0\0\0\x01\0\x01\0\0\0\0\0\0", 26);
        const std::string out = io::withTiffDescription(tiff, "op=close");
        const std::uint32_t ifd = bigEndian(out, 4, 4);
        QCOMPARE(bigEndian(out, ifd, 2), 2u);
        QCOMPARE(bigEndian(out, ifd + 2, 2), 256u);   // sorted: ImageWidth first
        QCOMPARE(bigEndian(out, ifd + 14, 2), 270u);
        QCOMPARE(out.substr(bigEndian(out, ifd + 22, 4), 8), std::string("op=close"));
    }

    void otherFormatsAreWrittenAsBefore() {
        QTemporaryDir dir;
        const QString a = dir.filePath("a.pgm"), b = dir.filePath("b.pgm");
        io::writeImage(a.toStdString(), ramp(CV_8UC1), sample());
        io::writeImage(b.toStdString(), ramp(CV_8UC1));
        QCOMPARE(readAll(a), readAll(b));
    }

    void notAPngIsRefused() {
        QVERIFY_THROWS_EXCEPTION(io::IoError, io::withPngText("GIF89a", "Software", "x"));
        QVERIFY_THROWS_EXCEPTION(io::IoError, io::withTiffDescription(std::string_view("II*\0\xff\xff\0\0", 8), "x"));
    }
};

QTEST_APPLESS_MAIN(TestExportRecipe)
#include "test_export_recipe.moc"
