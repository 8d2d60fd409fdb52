// linescope-cli end to end: runs the built executable on real files in a temporary folder
// and checks its outputs against the engine's API and OpenCV, and its errors.
#include "compute/line_kernel.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"
#include "tests/support/opencv_contours.h"
#include "tests/support/opencv_images.h"
#include "tests/support/random_images.h"
#include "tests/cli/cli_process.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include "compute/skew.h"

#include <QtTest>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

using namespace linescope;

namespace {

using test::CliRun;
using test::runProcess;

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

CliRun runCli(const QStringList& args, int timeoutMs = 300000) {
    return runProcess(QStringLiteral(LINESCOPE_CLI_PATH), args, timeoutMs);
}

// Runs the CLI with each "@N@" in `args` replaced by the bytes of `rawName`, which need
// not be UTF-8 (QProcess passes arguments as UTF-8): sh splices the name in, made by
// printf from octal escapes.
CliRun runCliWithRawName(const QStringList& args, const QByteArray& rawName) {
    QString octal;
    for (const char c : rawName) octal += QStringLiteral("\\%1").arg(static_cast<unsigned char>(c), 3, 8, QLatin1Char('0'));
    const QString script = QStringLiteral("N=$(printf '%1'); cli=$1; shift; for a do case $a in *@N@*) "
                                          "a=\"${a%%@N@*}$N${a#*@N@}\";; esac; set -- \"$@\" \"$a\"; shift; done; "
                                          "exec \"$cli\" \"$@\"")
                               .arg(octal);
    return runProcess(QStringLiteral("/bin/sh"),
                      QStringList{QStringLiteral("-c"), script, QStringLiteral("sh"), QStringLiteral(LINESCOPE_CLI_PATH)} + args,
                      300000);
}

QStringList nonEmptyLines(const QString& text) {
    QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    lines.removeIf([](const QString& l) { return l.trimmed().isEmpty(); });
    return lines;
}

using test::cvDepth;
using test::fromMat;
using test::toMat;

template <class T>
Image<T> testImage(int w, int h, std::uint64_t seed) {
    if constexpr (std::is_same_v<T, float>) return test::finiteFloatImage(w, h, seed, test::ImageKind::Blocky);
    else return test::randomImage<T>(w, h, seed, test::ImageKind::Blocky);
}

template <class T>
const char* typeName() {
    if constexpr (std::is_same_v<T, std::uint8_t>) return "u8";
    else if constexpr (std::is_same_v<T, std::uint16_t>) return "u16";
    else return "f32";
}

std::string str(const QString& s) { return s.toStdString(); }

QByteArray contents(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

// The files of a folder, hidden ones (left-over temporary files) included.
QStringList filesIn(const QString& dir) {
    return QDir(dir).entryList(QDir::Files | QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

using test::holesByDepth;

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const QString& name) const { return dir_.filePath(name); }
    std::string spath(const QString& name) const { return str(dir_.filePath(name)); }

    // Exit status non-zero (the expected one when given), no crash, one line on stderr.
    void verifyError(const CliRun& r, int expectedCode) {
        QVERIFY2(r.finished, qPrintable(r.describe()));
        QVERIFY2(!r.crashed, qPrintable(r.describe()));
        QVERIFY2(r.code != 0, qPrintable(r.describe()));
        if (expectedCode > 0) QVERIFY2(r.code == expectedCode, qPrintable(r.describe()));
        const QStringList lines = nonEmptyLines(r.err);
        QVERIFY2(lines.size() == 1, qPrintable(r.describe()));
        QVERIFY2(lines[0].startsWith(QStringLiteral("linescope-cli: error: ")), qPrintable(r.describe()));
        QVERIFY2(r.err.endsWith(QLatin1Char('\n')), qPrintable(r.describe()));
    }

    template <class T>
    void checkMorph(const QString& inName, const Image<T>& input, MorphOp op, double angle, int length,
                    const QString& algorithm = QStringLiteral("auto"), LineKind kind = LineKind::Paths) {
        const QString outName = QStringLiteral("out_%1_%2_%3_%4_%5_%6.%7")
                                    .arg(inName.section('.', 0, 0), QString::fromLatin1(morphOpName(op)))
                                    .arg(angle)
                                    .arg(length)
                                    .arg(algorithm, QString::fromLatin1(lineKindName(kind)),
                                         std::is_same_v<T, float> ? QStringLiteral("tiff") : QStringLiteral("png"));
        QStringList args{QString::fromLatin1(morphOpName(op)), QStringLiteral("--angle"),
                         QString::number(angle, 'g', 17), QStringLiteral("--length"), QString::number(length),
                         QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--algorithm"),
                         algorithm, path(inName), path(outName)};
        if (kind != LineKind::Paths) args << QStringLiteral("--line") << QString::fromLatin1(lineKindName(kind));
        const CliRun r = runCli(args);
        QVERIFY2(r.finished && !r.crashed && r.code == 0, qPrintable(r.describe()));
        QVERIFY2(r.err.isEmpty(), qPrintable(r.describe()));
        const cv::Mat out = cv::imread(spath(outName), cv::IMREAD_UNCHANGED);
        QVERIFY2(!out.empty(), qPrintable(outName));
        QCOMPARE(out.type(), CV_MAKETYPE(cvDepth<T>(), 1));
        QCOMPARE(out.cols, input.width());
        QCOMPARE(out.rows, input.height());
        EngineOptions cpu;
        cpu.backend = Backend::Cpu;
        const Image<T> expected = lineMorph<T>(op, input.cview(), {angle, length, kind}, cpu);
        const auto diff = test::firstDifference(expected, fromMat<T>(out));
        LINESCOPE_CHECK(!diff, std::string(lineKindName(kind)) + " " + morphOpName(op) + " " + typeName<T>() + " at " + std::to_string(angle) +
                                   "°, λ=" + std::to_string(length) + ": " + diff.value_or(""));
    }

    template <class T>
    void checkSweep(const QString& inName, const Image<T>& input, MorphOp op, const QString& angles, int length,
                    LineKind kind = LineKind::Paths) {
        const QString outDir = path(QStringLiteral("sweep_%1_%2_%3").arg(inName.section('.', 0, 0),
                                                                        QString::fromLatin1(morphOpName(op)),
                                                                        QString::fromLatin1(lineKindName(kind))));
        const CliRun r =
            runCli({QStringLiteral("sweep"), QStringLiteral("--length"), QString::number(length), QStringLiteral("--angles"),
                    angles, QStringLiteral("--op"), QString::fromLatin1(morphOpName(op)), QStringLiteral("--backend"),
                    QStringLiteral("cpu"), QStringLiteral("--line"), QString::fromLatin1(lineKindName(kind)), path(inName),
                    QStringLiteral("--out-dir"), outDir});
        QVERIFY2(r.finished && !r.crashed && r.code == 0, qPrintable(r.describe()));
        QCOMPARE(nonEmptyLines(r.out).size(), 1);

        SweepRequest req;
        req.op = op;
        req.length = length;
        req.angles = AngleSet::parse(str(angles));
        req.kind = kind;
        EngineOptions cpu;
        cpu.backend = Backend::Cpu;
        const SweepResult<T> expected = sweep<T>(input.cview(), req, cpu);

        const std::string ext = std::is_same_v<T, float> ? "tiff" : "png";
        const std::string d = str(outDir) + "/";
        const std::pair<const char*, const Image<T>*> images[] = {
            {"supremum", &expected.sup}, {"infimum", &expected.inf}, {"strength", &expected.strength}};
        for (const auto& [name, img] : images) {
            const cv::Mat m = cv::imread(d + name + "." + ext, cv::IMREAD_UNCHANGED);
            LINESCOPE_CHECK(!m.empty(), std::string("missing ") + name + "." + ext);
            QCOMPARE(m.type(), CV_MAKETYPE(cvDepth<T>(), 1));
            const auto diff = test::firstDifference(*img, fromMat<T>(m));
            LINESCOPE_CHECK(!diff, std::string(name) + ": " + diff.value_or(""));
        }

        const cv::Mat colours = cv::imread(d + "orientation.png", cv::IMREAD_UNCHANGED);
        QVERIFY(!colours.empty());
        QCOMPARE(colours.type(), CV_8UC3);
        QCOMPARE(colours.cols, input.width());
        QCOMPARE(colours.rows, input.height());
        const RgbImage rgb = orientationColours(expected);
        for (int y = 0; y < colours.rows; ++y)
            for (int x = 0; x < colours.cols; ++x) {
                const cv::Vec3b bgr = colours.at<cv::Vec3b>(y, x);
                const std::size_t i = 3 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(rgb.width) +
                                           static_cast<std::size_t>(x));
                LINESCOPE_CHECK(bgr[2] == rgb.rgb[i] && bgr[1] == rgb.rgb[i + 1] && bgr[0] == rgb.rgb[i + 2],
                                "orientation colour differs at " + std::to_string(x) + "," + std::to_string(y));
            }

        const cv::Mat angleMap = cv::imread(d + "orientation-angles.tiff", cv::IMREAD_UNCHANGED);
        QVERIFY(!angleMap.empty());
        QCOMPARE(angleMap.type(), CV_32FC1);
        for (int y = 0; y < angleMap.rows; ++y)
            for (int x = 0; x < angleMap.cols; ++x)
                LINESCOPE_CHECK(angleMap.at<float>(y, x) == static_cast<float>(expected.orientation(x, y)),
                                "orientation angle differs at " + std::to_string(x) + "," + std::to_string(y));

        const int n = req.angles.count;
        auto expectedSum = [&](int k) {
            if constexpr (std::is_same_v<T, float>) return expected.spectrum[static_cast<std::size_t>(k)];
            else return static_cast<double>(expected.spectrumExact[static_cast<std::size_t>(k)]);
        };
        QFile csv(QString::fromStdString(d + "spectrum.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QStringList rows = nonEmptyLines(QString::fromUtf8(csv.readAll()));
        // The parameters come first as "# key=value" comment lines.
        QVERIFY(rows.size() > 4);
        QCOMPARE(rows[0], QStringLiteral("# op=") + QString::fromLatin1(morphOpName(op)));
        QCOMPARE(rows[1], QStringLiteral("# length=") + QString::number(length));
        const AngleSet set = AngleSet::parse(angles.toStdString());  // written with its exact stop
        QCOMPARE(rows[2], QStringLiteral("# angles=%1:%2:%3").arg(set.start).arg(set.start + set.step * set.count).arg(set.step));
        while (!rows.isEmpty() && rows.front().startsWith(QLatin1Char('#'))) rows.removeFirst();
        QCOMPARE(rows.size(), n + 1);
        QCOMPARE(rows[0], QStringLiteral("index,angle,sum"));
        for (int k = 0; k < n; ++k) {
            const QStringList cells = rows[k + 1].split(QLatin1Char(','));
            QCOMPARE(cells.size(), 3);
            QCOMPARE(cells[0].toInt(), k);
            QCOMPARE(cells[1].toDouble(), req.angles.angle(k));
            if constexpr (!std::is_same_v<T, float>) {
                bool ok = false;
                QCOMPARE(cells[2].toLongLong(&ok), expected.spectrumExact[static_cast<std::size_t>(k)]);
                QVERIFY2(ok, qPrintable(rows[k + 1]));  // an exact integer
            } else {
                QCOMPARE(cells[2].toDouble(), expectedSum(k));
            }
        }

        QFile jsonFile(QString::fromStdString(d + "spectrum.json"));
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        QJsonParseError err{};
        const QJsonDocument doc = QJsonDocument::fromJson(jsonFile.readAll(), &err);
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
        const QJsonObject o = doc.object();
        QCOMPARE(o.value("op").toString(), QString::fromLatin1(morphOpName(op)));
        QCOMPARE(o.value("length").toInt(), length);
        QCOMPARE(o.value("line").toString(), QString::fromLatin1(lineKindName(kind)));
        const QJsonArray a = o.value("angles").toArray();
        const QJsonArray s = o.value("spectrum").toArray();
        QCOMPARE(a.size(), n);
        QCOMPARE(s.size(), n);
        for (int k = 0; k < n; ++k) {
            QCOMPARE(a[k].toDouble(), req.angles.angle(k));
            QCOMPARE(s[k].toDouble(), expectedSum(k));
        }
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QVERIFY2(QFile::exists(QStringLiteral(LINESCOPE_CLI_PATH)), LINESCOPE_CLI_PATH);
        // Inputs of the three pixel types, in PNG and TIFF.
        cv::imwrite(spath("u8.png"), toMat(testImage<std::uint8_t>(37, 23, 1)));
        cv::imwrite(spath("u8.tiff"), toMat(testImage<std::uint8_t>(37, 23, 1)));
        cv::imwrite(spath("u16.png"), toMat(testImage<std::uint16_t>(29, 31, 2)));
        cv::imwrite(spath("u16.tiff"), toMat(testImage<std::uint16_t>(29, 31, 2)));
        cv::imwrite(spath("f32.tiff"), toMat(testImage<float>(33, 19, 3)));
        cv::imwrite(spath("one.png"), cv::Mat(1, 1, CV_8UC1, cv::Scalar(7)));
        cv::imwrite(spath("one.tiff"), cv::Mat(1, 1, CV_32FC1, cv::Scalar(0.5)));
    }

    void helpAndVersion() {
        CliRun r = runCli({QStringLiteral("--help")});
        QVERIFY2(r.code == 0 && r.out.contains(QStringLiteral("usage")), qPrintable(r.describe()));
        r = runCli({QStringLiteral("--version")});
        QVERIFY2(r.code == 0 && r.out.startsWith(QStringLiteral("linescope-cli ")), qPrintable(r.describe()));
        // Each command's --help is checked against the options it declares (printHelp).
        for (const char* cmd : {"open", "close", "erode", "dilate", "tophat", "sweep", "skew", "spectrum", "orientation",
                                "contours", "bench", "batch", "se", "granulometry"}) {
            r = runCli({QString::fromLatin1(cmd), QStringLiteral("--help")});
            QVERIFY2(r.code == 0 && r.out.contains(QStringLiteral("usage")) && r.err.isEmpty(),
                     qPrintable(QString::fromLatin1(cmd) + ": " + r.describe()));
        }
    }

    void morphUint8() {
        const Image<std::uint8_t> img = testImage<std::uint8_t>(37, 23, 1);
        for (MorphOp op : {MorphOp::Open, MorphOp::Close, MorphOp::Erode, MorphOp::Dilate, MorphOp::TopHat})
            checkMorph<std::uint8_t>(QStringLiteral("u8.png"), img, op, 30.5, 7);
        for (double angle : {0.0, 45.0, 90.0, 135.0, -17.25, 200.0})
            checkMorph<std::uint8_t>(QStringLiteral("u8.tiff"), img, MorphOp::Open, angle, 5);
        checkMorph<std::uint8_t>(QStringLiteral("u8.png"), img, MorphOp::Close, 63.0, 1);
        checkMorph<std::uint8_t>(QStringLiteral("u8.png"), img, MorphOp::Open, 12.0, 400);  // λ > image
        for (const char* alg : {"sheared", "vhgw", "fifo", "stack", "reference"})
            checkMorph<std::uint8_t>(QStringLiteral("u8.png"), img, MorphOp::Open, 71.0, 9, QString::fromLatin1(alg));
    }

    void morphUint16() {
        const Image<std::uint16_t> img = testImage<std::uint16_t>(29, 31, 2);
        for (MorphOp op : {MorphOp::Open, MorphOp::Close, MorphOp::Erode, MorphOp::Dilate, MorphOp::TopHat})
            checkMorph<std::uint16_t>(QStringLiteral("u16.png"), img, op, 30.5, 8);
        checkMorph<std::uint16_t>(QStringLiteral("u16.tiff"), img, MorphOp::Open, 100.0, 11);
    }

    void morphFloat() {
        const Image<float> img = testImage<float>(33, 19, 3);
        for (MorphOp op : {MorphOp::Open, MorphOp::Close, MorphOp::Erode, MorphOp::Dilate, MorphOp::TopHat})
            checkMorph<float>(QStringLiteral("f32.tiff"), img, op, 30.5, 6);
        checkMorph<float>(QStringLiteral("f32.tiff"), img, MorphOp::Close, 150.0, 13);
    }

    void onePixelImage() {
        checkMorph<std::uint8_t>(QStringLiteral("one.png"), Image<std::uint8_t>(1, 1, 7), MorphOp::Open, 30.0, 41);
        checkMorph<float>(QStringLiteral("one.tiff"), Image<float>(1, 1, 0.5f), MorphOp::TopHat, 95.0, 3);
        CliRun r = runCli({QStringLiteral("sweep"), QStringLiteral("--length"), QStringLiteral("5"), path("one.png"),
                           QStringLiteral("--out-dir"), path("sweep_one"), QStringLiteral("--backend"),
                           QStringLiteral("cpu")});
        QVERIFY2(r.code == 0 && !r.crashed, qPrintable(r.describe()));
        // Too small for a skew estimate: refused with the size and the minimum (it used to
        // print −19.6°, outside the −10 … 10 searched).
        r = runCli({QStringLiteral("skew"), path("one.png")});
        verifyError(r, 1);
        QVERIFY2(r.err.contains(QStringLiteral("1×1")) && r.err.contains(QStringLiteral("16×16")), qPrintable(r.describe()));
        QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
        r = runCli({QStringLiteral("contours"), QStringLiteral("--threshold"), QStringLiteral("3"), path("one.png")});
        QVERIFY2(r.code == 0 && r.out.startsWith(QStringLiteral("1 contours")), qPrintable(r.describe()));
    }

    // --line: the CLI's results equal the engine's for every kind, operator and pixel type
    // (odd and even λ), and sweeps and spectra take the kind too.
    void lineKindsEqualTheEngine() {
        const Image<std::uint8_t> u8 = testImage<std::uint8_t>(37, 23, 1);
        const Image<std::uint16_t> u16 = testImage<std::uint16_t>(29, 31, 2);
        const Image<float> f32 = testImage<float>(33, 19, 3);
        for (LineKind kind : {LineKind::Segment, LineKind::Periodic}) {  // paths: the tests above
            for (MorphOp op : {MorphOp::Open, MorphOp::Close, MorphOp::Erode, MorphOp::Dilate, MorphOp::TopHat})
                checkMorph<std::uint8_t>(QStringLiteral("u8.png"), u8, op, 30.5, 7, QStringLiteral("auto"), kind);
            checkMorph<std::uint8_t>(QStringLiteral("u8.png"), u8, MorphOp::Dilate, 117.0, 8, QStringLiteral("auto"), kind);
            checkMorph<std::uint16_t>(QStringLiteral("u16.png"), u16, MorphOp::Open, 63.25, 10, QStringLiteral("auto"), kind);
            checkMorph<float>(QStringLiteral("f32.tiff"), f32, MorphOp::Close, 150.0, 13, QStringLiteral("auto"), kind);
            checkMorph<std::uint8_t>(QStringLiteral("u8.png"), u8, MorphOp::Erode, 12.0, 9, QStringLiteral("reference"), kind);
        }
        checkSweep<std::uint8_t>(QStringLiteral("u8.png"), u8, MorphOp::Open, QStringLiteral("0:180:15"), 7, LineKind::Segment);
        checkSweep<float>(QStringLiteral("f32.tiff"), f32, MorphOp::Close, QStringLiteral("0:180:30"), 6, LineKind::Periodic);
        // spectrum: the sums of the engine's sweep of that kind.
        const CliRun r = runCli({QStringLiteral("spectrum"), QStringLiteral("--length"), QStringLiteral("8"),
                                 QStringLiteral("--angles"), QStringLiteral("0:180:20"), QStringLiteral("--line"),
                                 QStringLiteral("segment"), QStringLiteral("--backend"), QStringLiteral("cpu"),
                                 QStringLiteral("--quiet"), path("u8.png")});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        const QJsonObject o = QJsonDocument::fromJson(r.outBytes).object();
        QCOMPARE(o.value("line").toString(), QStringLiteral("segment"));
        SweepRequest req;
        req.length = 8;
        req.angles = AngleSet::parse("0:180:20");
        req.kind = LineKind::Segment;
        EngineOptions cpu;
        cpu.backend = Backend::Cpu;
        const SweepResult<std::uint8_t> want = sweep<std::uint8_t>(u8.cview(), req, cpu);
        const QJsonArray spectrum = o.value("spectrum").toArray();
        QCOMPARE(spectrum.size(), req.angles.count);
        for (int k = 0; k < req.angles.count; ++k)
            QCOMPARE(spectrum[k].toDouble(), want.spectrum[static_cast<std::size_t>(k)]);
        // orientation takes it and says so.
        const CliRun orient = runCli({QStringLiteral("orientation"), QStringLiteral("--line"), QStringLiteral("periodic"),
                                      QStringLiteral("--angle-count"), QStringLiteral("6"), QStringLiteral("--backend"),
                                      QStringLiteral("cpu"), path("u8.png")});
        QVERIFY2(orient.code == 0, qPrintable(orient.describe()));
        QCOMPARE(QJsonDocument::fromJson(orient.outBytes).object().value("line").toString(), QStringLiteral("periodic"));
        verifyError(runCli({QStringLiteral("open"), QStringLiteral("--length"), QStringLiteral("3"), QStringLiteral("--line"),
                            QStringLiteral("discrete"), path("u8.png"), path("bad_line.png")}),
                    2);
    }

    // se: the mask and the JSON read back give line_kernel's set and anchor, for PNG and PBM.
    void seEqualsTheLineKernel() {
        int checked = 0;
        for (LineKind kind : {LineKind::Paths, LineKind::Segment, LineKind::Periodic})
            for (double angle : {0.0, 17.5, 30.0, 45.0, 90.0, 101.25, 135.0, 163.0, -20.0})
                for (int length : {1, 2, 5, 8, 41, 64}) {
                    const bool pbm = (checked++ % 3) == 2;
                    const QString out = path(QStringLiteral("se_%1_%2_%3.%4")
                                                 .arg(QString::fromLatin1(lineKindName(kind)))
                                                 .arg(angle)
                                                 .arg(length)
                                                 .arg(pbm ? QStringLiteral("pbm") : QStringLiteral("png")));
                    const CliRun r = runCli({QStringLiteral("se"), QStringLiteral("--angle"), QString::number(angle),
                                             QStringLiteral("--length"), QString::number(length), QStringLiteral("--line"),
                                             QString::fromLatin1(lineKindName(kind)), QStringLiteral("-o"), out,
                                             QStringLiteral("--quiet")});
                    QVERIFY2(r.code == 0 && r.err.isEmpty(), qPrintable(r.describe()));
                    const LineKernel kernel = lineKernel(kind, angle, length);
                    std::vector<Offset> want = kernel.offsets();
                    const OffsetBox box = boundingBox(want);
                    // The mask: OpenCV reads a PBM's 1 (black) as 0.
                    cv::Mat mask = cv::imread(str(out), cv::IMREAD_GRAYSCALE);
                    QVERIFY2(!mask.empty(), qPrintable(out));
                    if (pbm) mask = 255 - mask;
                    QCOMPARE(mask.cols, box.width());
                    QCOMPARE(mask.rows, box.height());
                    const QString sidecar = out.left(out.lastIndexOf(QLatin1Char('.'))) + QStringLiteral(".json");
                    const QJsonObject o = QJsonDocument::fromJson(readFile(sidecar)).object();
                    QCOMPARE(o.value("kind").toString(), QString::fromLatin1(lineKindName(kind)));
                    QCOMPARE(o.value("length").toInt(), length);
                    const QJsonArray anchor = o.value("anchor").toArray();
                    QCOMPARE(anchor.size(), 2);
                    QCOMPARE(anchor[0].toInt(), -box.minX);
                    QCOMPARE(anchor[1].toInt(), -box.minY);
                    std::vector<Offset> fromMask, fromJson;
                    for (int y = 0; y < mask.rows; ++y)
                        for (int x = 0; x < mask.cols; ++x)
                            if (mask.at<std::uint8_t>(y, x)) fromMask.push_back({x - anchor[0].toInt(), y - anchor[1].toInt()});
                    for (const auto& v : o.value("offsets").toArray())
                        fromJson.push_back({v.toArray()[0].toInt(), v.toArray()[1].toInt()});
                    QCOMPARE(fromJson.size(), want.size());
                    QVERIFY(fromJson == want);  // the kernel's order, along the line
                    const auto byPosition = [](const Offset& a, const Offset& b) {
                        return a.dy != b.dy ? a.dy < b.dy : a.dx < b.dx;
                    };
                    std::sort(want.begin(), want.end(), byPosition);
                    std::sort(fromMask.begin(), fromMask.end(), byPosition);
                    QVERIFY2(fromMask == want, qPrintable(out));
                    // The reflected kernel exactly when the set is not its own reflection.
                    std::vector<Offset> reflected;
                    for (const Offset& k : want) reflected.push_back({-k.dx, -k.dy});
                    std::sort(reflected.begin(), reflected.end(), byPosition);
                    QCOMPARE(o.contains("dilate"), reflected != want);
                    if (kind != LineKind::Paths && length % 2 == 1) QVERIFY2(!o.contains("dilate"), qPrintable(out));
                    if (o.contains("dilate")) {
                        const QJsonObject d = o.value("dilate").toObject();
                        QCOMPARE(d.value("anchor").toArray()[0].toInt(), box.maxX);
                        QCOMPARE(d.value("anchor").toArray()[1].toInt(), box.maxY);
                    }
                }
        // Mistakes: one line, status 2; nothing written.
        for (const QStringList& bad :
             {QStringList{QStringLiteral("se"), QStringLiteral("--length"), QStringLiteral("0"), QStringLiteral("-o"), path("bad.png")},
              QStringList{QStringLiteral("se"), QStringLiteral("--length"), QStringLiteral("5")},
              QStringList{QStringLiteral("se"), QStringLiteral("--length"), QStringLiteral("5"), QStringLiteral("-o"), path("bad.jpg")},
              QStringList{QStringLiteral("se"), QStringLiteral("--length"), QStringLiteral("5"), QStringLiteral("--angle"),
                          QStringLiteral("nan"), QStringLiteral("-o"), path("bad.png")},
              QStringList{QStringLiteral("se"), QStringLiteral("--length"), QStringLiteral("5"), QStringLiteral("--line"),
                          QStringLiteral("fast"), QStringLiteral("-o"), path("bad.png")},
              QStringList{QStringLiteral("se"), QStringLiteral("--length"), QStringLiteral("5"), QStringLiteral("-o"), path("bad.png"),
                          QStringLiteral("extra")}}) {
            verifyError(runCli(bad), 2);
            QVERIFY(!QFile::exists(path("bad.png")) && !QFile::exists(path("bad.json")));
        }
        // Paths are not translation invariant: said once on stderr.
        const CliRun r = runCli({QStringLiteral("se"), QStringLiteral("--length"), QStringLiteral("5"), QStringLiteral("-o"),
                                 path("paths_note.png")});
        QVERIFY2(r.code == 0 && nonEmptyLines(r.err).size() == 1 && r.err.contains(QStringLiteral("translation invariant")),
                 qPrintable(r.describe()));
    }

    void autoBackendNotice() {
        const CliRun r = runCli({QStringLiteral("open"), QStringLiteral("--length"), QStringLiteral("3"),
                                 path("u8.png"), path("auto_out.png")});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        std::string why;
        if (!backendAvailable(Backend::Cuda, &why)) {  // falls back with one line
            const QStringList lines = nonEmptyLines(r.err);
            QVERIFY2(lines.size() == 1 && lines[0].startsWith(QStringLiteral("linescope-cli: note: ")),
                     qPrintable(r.describe()));
        }
    }

    void colourAndFloat64Inputs() {
        const Image<std::uint8_t> gray = testImage<std::uint8_t>(21, 17, 9);
        cv::Mat bgr;
        cv::merge(std::vector<cv::Mat>{toMat(gray), toMat(testImage<std::uint8_t>(21, 17, 10)), toMat(gray)}, bgr);
        cv::imwrite(spath("colour.png"), bgr);
        CliRun r = runCli({QStringLiteral("dilate"), QStringLiteral("--length"), QStringLiteral("4"),
                           QStringLiteral("--angle"), QStringLiteral("20"), QStringLiteral("--backend"),
                           QStringLiteral("cpu"), path("colour.png"), path("colour_out.png")});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QStringList lines = nonEmptyLines(r.err);
        QVERIFY2(lines.size() == 1 && lines[0].contains(QStringLiteral("grayscale")), qPrintable(r.describe()));
        cv::Mat grayMat;
        cv::cvtColor(bgr, grayMat, cv::COLOR_BGR2GRAY);
        EngineOptions cpu;
        cpu.backend = Backend::Cpu;
        const auto expected =
            lineMorph<std::uint8_t>(MorphOp::Dilate, fromMat<std::uint8_t>(grayMat).cview(), {20.0, 4}, cpu);
        const cv::Mat out = cv::imread(spath("colour_out.png"), cv::IMREAD_UNCHANGED);
        QCOMPARE(out.type(), CV_8UC1);
        QVERIFY(!test::firstDifference(expected, fromMat<std::uint8_t>(out)));

        // float64 TIFF: converted to float32 with a note (documented in --help).
        cv::Mat f64;
        toMat(testImage<float>(15, 12, 4)).convertTo(f64, CV_64F);
        QVERIFY(cv::imwrite(spath("f64.tiff"), f64));
        r = runCli({QStringLiteral("open"), QStringLiteral("--length"), QStringLiteral("4"), QStringLiteral("--backend"),
                    QStringLiteral("cpu"), path("f64.tiff"), path("f64_out.tiff")});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        lines = nonEmptyLines(r.err);
        QVERIFY2(lines.size() == 1 && lines[0].contains(QStringLiteral("float32")), qPrintable(r.describe()));
        QCOMPARE(cv::imread(spath("f64_out.tiff"), cv::IMREAD_UNCHANGED).type(), CV_32FC1);
    }

    void sweepAllTypes() {
        checkSweep<std::uint8_t>(QStringLiteral("u8.png"), testImage<std::uint8_t>(37, 23, 1), MorphOp::Open,
                                 QStringLiteral("0:180:15"), 7);
        checkSweep<std::uint8_t>(QStringLiteral("u8.tiff"), testImage<std::uint8_t>(37, 23, 1), MorphOp::Close,
                                 QStringLiteral("-10:10.25:2.5"), 9);
        checkSweep<std::uint16_t>(QStringLiteral("u16.png"), testImage<std::uint16_t>(29, 31, 2), MorphOp::Erode,
                                  QStringLiteral("0:180:20"), 5);
        checkSweep<float>(QStringLiteral("f32.tiff"), testImage<float>(33, 19, 3), MorphOp::Dilate,
                          QStringLiteral("0:180:30"), 6);
        checkSweep<float>(QStringLiteral("f32.tiff"), testImage<float>(33, 19, 3), MorphOp::Open,
                          QStringLiteral("5:180:25"), 11);
    }

    // The images linescope-cli writes say how they were made (app/io/export_recipe.h): the
    // recipe's text lies uncompressed in the PNG's iTXt chunk and the TIFF's ImageDescription.
    void exportsCarryTheirRecipe() {
        QVERIFY(cv::imwrite(spath("in put.png"), cv::Mat(20, 30, CV_8UC1, cv::Scalar(7))));
        CliRun r = runCli({QStringLiteral("close"), QStringLiteral("--angle"), QStringLiteral("30.5"),
                           QStringLiteral("--length"), QStringLiteral("9"), path("in put.png"), path("out.png")});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QByteArray bytes = readFile(path("out.png"));
        QVERIFY2(bytes.contains("op=close\nangle=30.5\nlength=9\nlines=paths\nview=result\nsource=in put.png\n"),
                 bytes.constData());
        QVERIFY(bytes.contains("LineScope "));
        r = runCli({QStringLiteral("sweep"), QStringLiteral("--length"), QStringLiteral("5"), QStringLiteral("--angles"),
                    QStringLiteral("0:180:45"), path("in put.png"), QStringLiteral("--out-dir"), path("sw")});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        for (const char* name : {"supremum.png", "orientation.png", "orientation-angles.tiff"}) {
            bytes = readFile(path("sw/") + QString::fromLatin1(name));
            QVERIFY2(bytes.contains("op=open\nlength=5\nangles=0:180:45\nlines=paths\nview="), name);
        }
    }

    // "--angles 36" is AngleSet::overHalfTurn(36), the same set as 0:180:5: the same files, byte for byte.
    void sweepAnglesByCount() {
        QVERIFY(cv::imwrite(spath("count.png"), toMat(testImage<std::uint8_t>(23, 17, 2026))));
        for (const char* set : {"36", "0:180:5"}) {
            const CliRun r = runCli({QStringLiteral("sweep"), QStringLiteral("--length"), QStringLiteral("7"),
                                     QStringLiteral("--angles"), QString::fromLatin1(set), QStringLiteral("--backend"),
                                     QStringLiteral("cpu"), path("count.png"), QStringLiteral("--out-dir"),
                                     path("count-") + QString::fromLatin1(set).replace(':', '_')});
            QVERIFY2(r.code == 0, qPrintable(r.describe()));
        }
        const QStringList files = filesIn(path("count-36"));
        QCOMPARE(files, filesIn(path("count-0_180_5")));
        QVERIFY(files.contains(QStringLiteral("spectrum.csv")));
        for (const QString& f : files)
            QVERIFY2(readFile(path("count-36/") + f) == readFile(path("count-0_180_5/") + f), qPrintable(f));
    }

    void unknownCommandSuggestsTheNearest() {
        for (const auto& [typo, hint] : std::vector<std::pair<QString, QString>>{
                 {"opne", "open"}, {"spectra", "spectrum"}, {"sweeep", "sweep"}, {"contour", "contours"}}) {
            const CliRun r = runCli({typo, QStringLiteral("--length"), QStringLiteral("5")});
            QCOMPARE(r.code, 2);
            QCOMPARE(nonEmptyLines(r.err), QStringList{"linescope-cli: error: unknown command '" + typo +
                                                       "' (did you mean '" + hint + "'?)"});
        }
        const CliRun far = runCli({QStringLiteral("blur")});
        QCOMPARE(nonEmptyLines(far.err),
                 QStringList{"linescope-cli: error: unknown command 'blur' (see linescope-cli --help)"});
    }

    // Help texts cite only what users have: definitions.md (installed), not the design notes.
    void helpCitesNoDesignNotes() {
        for (const char* cmd : {"--help", "open", "sweep", "skew", "orientation", "spectrum", "contours", "bench"}) {
            const CliRun help = runCli(QString::fromLatin1(cmd) == "--help" ? QStringList{QString::fromLatin1(cmd)}
                                                                             : QStringList{QString::fromLatin1(cmd), "--help"});
            QCOMPARE(help.code, 0);
            QVERIFY2(!help.out.contains(QStringLiteral("design.md")), cmd);
        }
    }

    // spectrum notes an operator that measures the wrong kind of lines, and only then.
    void spectrumNotesAnOperatorOfTheWrongPolarity() {
        cv::Mat paper(40, 60, CV_8UC1, cv::Scalar(230));
        for (int y = 5; y < 40; y += 8) cv::line(paper, {0, y}, {59, y}, cv::Scalar(20), 2);
        QVERIFY(cv::imwrite(spath("paper.png"), paper));
        QVERIFY(cv::imwrite(spath("night.png"), 255 - paper));
        const auto notes = [&](const QString& image, const char* op) {
            const CliRun r = runCli({QStringLiteral("spectrum"), QStringLiteral("--backend"), QStringLiteral("cpu"),
                                     QStringLiteral("--op"), QString::fromLatin1(op), path(image)});
            return r.code == 0 ? nonEmptyLines(r.err) : QStringList{r.describe()};
        };
        QCOMPARE(notes("paper.png", "open"),
                 QStringList{"linescope-cli: note: the lines look dark on a light background: --op close suits them "
                             "(--op open measures bright lines)"});
        QCOMPARE(notes("night.png", "dilate"),
                 QStringList{"linescope-cli: note: the lines look bright on a dark background: --op open suits them "
                             "(--op dilate measures dark lines)"});
        QCOMPARE(notes("paper.png", "close"), QStringList{});
        QCOMPARE(notes("night.png", "open"), QStringList{});
    }

    // --quiet drops the notes (a colour input's conversion, the backend, a replaced file) on
    // every command, but never the error line.
    void quietSilencesNotesNotErrors() {
        QVERIFY(cv::imwrite(spath("colour.png"), cv::Mat(16, 24, CV_8UC3, cv::Scalar(10, 200, 90))));
        const QStringList morph{QStringLiteral("open"), QStringLiteral("--length"), QStringLiteral("3"),
                                path("colour.png"), path("q.png")};
        const CliRun loud = runCli(morph);
        QVERIFY2(loud.code == 0 && loud.err.contains(QStringLiteral("note: ")), qPrintable(loud.describe()));
        const CliRun quiet = runCli(morph + QStringList{QStringLiteral("--quiet")});
        QVERIFY2(quiet.code == 0 && quiet.err.isEmpty(), qPrintable(quiet.describe()));
        const CliRun contours = runCli({QStringLiteral("contours"), QStringLiteral("--quiet"), QStringLiteral("--timings"),
                                        QStringLiteral("--threshold"), QStringLiteral("50"), path("colour.png")});
        QVERIFY2(contours.code == 0 && contours.err.isEmpty(), qPrintable(contours.describe()));
        const CliRun failed = runCli({QStringLiteral("spectrum"), QStringLiteral("--quiet"), path("missing.png")});
        QCOMPARE(failed.code, 1);
        QCOMPARE(nonEmptyLines(failed.err).size(), 1);
        for (const char* cmd : {"open", "sweep", "skew", "orientation", "spectrum", "contours", "bench"}) {
            const CliRun help = runCli({QString::fromLatin1(cmd), QStringLiteral("--help")});
            QVERIFY2(help.out.contains(QStringLiteral("--quiet")), cmd);
        }
    }

    void skewOfRotatedPage() {
        // Dark parallel lines on white paper, rotated by +3° (counter-clockwise on screen).
        // 1000×800: long lines, so that the engine's default segment (≥ 200 pixels here) tells
        // 3° from 2.75° on lines 2 pixels thick.
        cv::Mat page(800, 1000, CV_8UC1, cv::Scalar(255));
        for (int y = 30; y < 770; y += 14) cv::line(page, {40, y}, {960, y}, cv::Scalar(20), 2);
        const cv::Mat m = cv::getRotationMatrix2D(cv::Point2f(499.5f, 399.5f), 3.0, 1.0);
        cv::Mat rotated;
        cv::warpAffine(page, rotated, m, page.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar(255));
        QVERIFY(cv::imwrite(spath("page.png"), rotated));

        CliRun r = runCli({QStringLiteral("skew"), path("page.png"), QStringLiteral("--deskew"), path("deskewed.png"),
                           QStringLiteral("--backend"), QStringLiteral("cpu")});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QJsonParseError err{};
        QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &err);
        QVERIFY2(err.error == QJsonParseError::NoError && doc.isObject(), qPrintable(r.describe()));
        QCOMPARE(nonEmptyLines(r.out).size(), 1);
        const QStringList keys = doc.object().keys();
        QVERIFY(keys.contains("angle") && keys.contains("confidence"));
        QVERIFY(r.out.startsWith(QStringLiteral("{\"angle\": ")));
        const double angle = doc.object().value("angle").toDouble();
        const double confidence = doc.object().value("confidence").toDouble(-1);
        QVERIFY2(std::abs(angle - 3.0) <= 0.2, qPrintable(r.describe()));
        QVERIFY2(confidence >= 0 && confidence <= 1, qPrintable(r.describe()));
        QVERIFY2(doc.object().value("dominant").isBool() && doc.object().value("at_range_edge") == QJsonValue(false),
                 qPrintable(r.describe()));
        QCOMPARE(doc.object().value("dominant").toBool(), confidence >= kSkewConfidentThreshold);
        // Searched over −2…2°, the 3° lines sit beyond the range: its end is flagged, not dominant.
        r = runCli({QStringLiteral("skew"), path("page.png"), QStringLiteral("--angles"), QStringLiteral("-2:2.1:0.5"),
                    QStringLiteral("--backend"), QStringLiteral("cpu")});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        const QJsonObject edge = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY2(edge.value("at_range_edge") == QJsonValue(true) && edge.value("dominant") == QJsonValue(false) &&
                     edge.value("confidence").toDouble(-1) == 0.0,
                 qPrintable(r.describe()));

        const cv::Mat deskewed = cv::imread(spath("deskewed.png"), cv::IMREAD_UNCHANGED);
        QCOMPARE(deskewed.type(), CV_8UC1);
        QCOMPARE(deskewed.size(), rotated.size());
        r = runCli({QStringLiteral("skew"), path("deskewed.png"), QStringLiteral("--backend"), QStringLiteral("cpu")});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        doc = QJsonDocument::fromJson(r.out.toUtf8());
        QVERIFY2(std::abs(doc.object().value("angle").toDouble()) <= 0.3, qPrintable(r.describe()));

        // The same page as uint16 with bright lines on dark paper.
        cv::Mat inverted16;
        cv::Mat inverted8 = 255 - rotated;
        inverted8.convertTo(inverted16, CV_16U, 257.0);
        QVERIFY(cv::imwrite(spath("page16.png"), inverted16));
        r = runCli({QStringLiteral("skew"), QStringLiteral("--bright-lines"), QStringLiteral("--length"),
                    QStringLiteral("200"), QStringLiteral("--angles"), QStringLiteral("-6:6.1:0.2"), path("page16.png"),
                    QStringLiteral("--backend"), QStringLiteral("cpu")});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        doc = QJsonDocument::fromJson(r.out.toUtf8());
        QVERIFY2(std::abs(doc.object().value("angle").toDouble() - 3.0) <= 0.2, qPrintable(r.describe()));
    }

    void contours_data() {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("approx");
        for (const char* mode : {"external", "list", "ccomp", "tree"})
            for (const char* approx : {"none", "simple"})
                QTest::newRow((std::string(mode) + "-" + approx).c_str())
                    << QString::fromLatin1(mode) << QString::fromLatin1(approx);
    }

    void contours() {
        QFETCH(QString, mode);
        QFETCH(QString, approx);
        // Blobs with holes, islands in holes, a one-pixel ring, single pixels, border contact.
        cv::Mat img(90, 120, CV_8UC1, cv::Scalar(30));
        cv::rectangle(img, cv::Rect(5, 5, 50, 40), cv::Scalar(200), cv::FILLED);
        cv::rectangle(img, cv::Rect(12, 12, 30, 25), cv::Scalar(10), cv::FILLED);
        cv::rectangle(img, cv::Rect(18, 18, 10, 10), cv::Scalar(250), cv::FILLED);
        cv::circle(img, cv::Point(85, 30), 15, cv::Scalar(180), 1);
        cv::circle(img, cv::Point(85, 70), 12, cv::Scalar(140), cv::FILLED);
        cv::circle(img, cv::Point(85, 70), 5, cv::Scalar(0), cv::FILLED);
        img.at<std::uint8_t>(80, 10) = 255;
        img.at<std::uint8_t>(82, 12) = 255;
        cv::rectangle(img, cv::Rect(0, 60, 30, 30), cv::Scalar(129), cv::FILLED);
        cv::line(img, {40, 85}, {70, 55}, cv::Scalar(255), 1);
        QVERIFY(cv::imwrite(spath("shapes.png"), img));

        const QString json = path(QStringLiteral("contours_%1_%2.json").arg(mode, approx));
        const QString svg = path(QStringLiteral("contours_%1_%2.svg").arg(mode, approx));
        const CliRun r = runCli({QStringLiteral("contours"), QStringLiteral("--threshold"), QStringLiteral("128"),
                                 QStringLiteral("--mode"), mode, QStringLiteral("--approx"), approx, path("shapes.png"),
                                 QStringLiteral("--json"), json, QStringLiteral("--svg"), svg,
                                 QStringLiteral("--svg-image"), QStringLiteral("--backend"), QStringLiteral("cpu")});
        QVERIFY2(r.code == 0 && r.err.isEmpty(), qPrintable(r.describe()));

        const std::map<QString, int> modes = {{"external", cv::RETR_EXTERNAL}, {"list", cv::RETR_LIST},
                                              {"ccomp", cv::RETR_CCOMP}, {"tree", cv::RETR_TREE}};
        const int method = approx == QStringLiteral("none") ? cv::CHAIN_APPROX_NONE : cv::CHAIN_APPROX_SIMPLE;
        cv::Mat binary = (img > 128) / 255;
        std::vector<std::vector<cv::Point>> expected;
        std::vector<cv::Vec4i> hierarchy;
        cv::findContours(binary.clone(), expected, hierarchy, modes.at(mode), method);
        std::vector<std::vector<cv::Point>> treeContours;
        std::vector<cv::Vec4i> treeHierarchy;
        cv::findContours(binary.clone(), treeContours, treeHierarchy, cv::RETR_TREE, method);
        const std::vector<bool> treeHoles = holesByDepth(treeHierarchy);
        QVERIFY(expected.size() >= 5);
        QVERIFY2(r.out.startsWith(QString::number(expected.size()) + QStringLiteral(" contours")),
                 qPrintable(r.describe()));

        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonParseError err{};
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &err);
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
        const QJsonArray list = doc.object().value("contours").toArray();
        QCOMPARE(static_cast<std::size_t>(list.size()), expected.size());
        int holes = 0;
        for (qsizetype i = 0; i < list.size(); ++i) {
            const std::size_t ui = static_cast<std::size_t>(i);
            const QJsonObject c = list[i].toObject();
            const QJsonArray pts = c.value("points").toArray();
            QCOMPARE(static_cast<std::size_t>(pts.size()), expected[ui].size());
            for (qsizetype j = 0; j < pts.size(); ++j) {
                const QJsonArray p = pts[j].toArray();
                QCOMPARE(p.size(), 2);
                QCOMPARE(p[0].toInt(), expected[ui][static_cast<std::size_t>(j)].x);
                QCOMPARE(p[1].toInt(), expected[ui][static_cast<std::size_t>(j)].y);
            }
            QCOMPARE(c.value("parent").toInt(-2), hierarchy[ui][3]);
            bool hole = false;
            if (mode == QStringLiteral("tree") || mode == QStringLiteral("ccomp")) {
                hole = holesByDepth(hierarchy)[ui];
            } else if (mode == QStringLiteral("list")) {
                for (std::size_t t = 0; t < treeContours.size(); ++t)
                    if (treeContours[t] == expected[ui]) { hole = treeHoles[t]; break; }
            }
            QVERIFY(c.value("hole").isBool());
            QCOMPARE(c.value("hole").toBool(), hole);
            holes += hole ? 1 : 0;
        }
        if (mode != QStringLiteral("external")) QVERIFY(holes >= 3);
        QCOMPARE(doc.object().value("algorithm").toString(), QStringLiteral("engine"));
        const QJsonObject timings = doc.object().value("timings_ms").toObject();
        for (const char* phase : {"preprocess", "track", "connect", "hierarchy", "download", "total"})
            QVERIFY2(timings.value(phase).isDouble() && timings.value(phase).toDouble() >= 0, phase);

        // OpenCV's own findContours through the same command writes the same contours.
        const QString cvJson = path(QStringLiteral("contours_%1_%2_opencv.json").arg(mode, approx));
        const CliRun cvRun = runCli({QStringLiteral("contours"), QStringLiteral("--threshold"), QStringLiteral("128"),
                                     QStringLiteral("--mode"), mode, QStringLiteral("--approx"), approx,
                                     path("shapes.png"), QStringLiteral("--json"), cvJson, QStringLiteral("--algorithm"),
                                     QStringLiteral("opencv")});
        QVERIFY2(cvRun.code == 0 && cvRun.err.isEmpty(), qPrintable(cvRun.describe()));
        QFile cf(cvJson);
        QVERIFY(cf.open(QIODevice::ReadOnly));
        const QJsonObject cvDoc = QJsonDocument::fromJson(cf.readAll()).object();
        QCOMPARE(cvDoc.value("contours").toArray(), list);
        QCOMPARE(cvDoc.value("algorithm").toString(), QStringLiteral("opencv"));

        QFile s(svg);
        QVERIFY(s.open(QIODevice::ReadOnly));
        const QString svgText = QString::fromUtf8(s.readAll());
        QVERIFY(svgText.startsWith(QStringLiteral("<svg")));
        QCOMPARE(static_cast<std::size_t>(svgText.count(QStringLiteral("<polygon"))), expected.size());
        QVERIFY(svgText.contains(QStringLiteral("<image")));
    }

    void contoursTimings() {
        cv::Mat img(60, 80, CV_8UC1, cv::Scalar(0));
        cv::circle(img, cv::Point(40, 30), 20, cv::Scalar(255), cv::FILLED);
        QVERIFY(cv::imwrite(spath("disc.png"), img));
        for (const char* algorithm : {"engine", "opencv"}) {
            const CliRun r = runCli({QStringLiteral("contours"), QStringLiteral("--threshold"), QStringLiteral("9"),
                                     QStringLiteral("--timings"), QStringLiteral("--threads"), QStringLiteral("2"),
                                     QStringLiteral("--algorithm"), QString::fromLatin1(algorithm), path("disc.png")});
            QVERIFY2(r.code == 0 && r.out.startsWith(QStringLiteral("1 contours")), qPrintable(r.describe()));
            const QStringList lines = nonEmptyLines(r.err);
            const QString expected = QString::fromLatin1(algorithm) == QStringLiteral("engine")
                                         ? QStringLiteral("linescope-cli: note: contours in ")
                                         : QStringLiteral("linescope-cli: note: OpenCV's findContours in ");
            QVERIFY2(lines.size() == 1 && lines[0].startsWith(expected), qPrintable(r.describe()));
            if (QString::fromLatin1(algorithm) == QStringLiteral("engine"))
                for (const char* phase : {"preprocess", "track", "connect", "hierarchy", "download"})
                    QVERIFY2(lines[0].contains(QString::fromLatin1(phase)), qPrintable(lines[0]));
        }
    }

    void contoursOtsu() {
        cv::Mat img(40, 50, CV_16UC1, cv::Scalar(1000));
        cv::rectangle(img, cv::Rect(10, 10, 20, 15), cv::Scalar(50000), cv::FILLED);
        QVERIFY(cv::imwrite(spath("otsu16.png"), img));
        const CliRun r = runCli({QStringLiteral("contours"), QStringLiteral("--otsu"), path("otsu16.png"),
                                 QStringLiteral("--json"), path("otsu16.json")});
        QVERIFY2(r.code == 0 && r.out.startsWith(QStringLiteral("1 contours")), qPrintable(r.describe()));
        const QStringList lines = nonEmptyLines(r.err);  // says that it scaled to 8 bits
        QVERIFY2(lines.size() == 1 && lines[0].startsWith(QStringLiteral("linescope-cli: note: ")),
                 qPrintable(r.describe()));
    }

    void errors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        const QString u8 = path("u8.png");
        const QString out = path("err_out.png");
        auto open = [&](QStringList extra, QString in, QString o) {
            return QStringList{QStringLiteral("open")} + extra + QStringList{in, o};
        };
        const QStringList len5{QStringLiteral("--length"), QStringLiteral("5")};
        QTest::newRow("missing file") << open(len5, path("no-such-file.png"), out) << 1;
        QTest::newRow("truncated png") << open(len5, path("truncated.png"), out) << 1;
        QTest::newRow("text named png") << open(len5, path("text.png"), out) << 1;
        QTest::newRow("empty file") << open(len5, path("empty.png"), out) << 1;
        QTest::newRow("folder as input") << open(len5, dir_.path(), out) << 1;
        QTest::newRow("int16 tiff") << open(len5, path("s16.tiff"), out) << 1;
        QTest::newRow("int32 tiff") << open(len5, path("s32.tiff"), out) << 1;
        QTest::newRow("nan float tiff") << open(len5, path("nan.tiff"), path("nan_out.tiff")) << 1;
        QTest::newRow("float to png") << open(len5, path("f32.tiff"), path("f32_out.png")) << 1;
        QTest::newRow("float to jpeg") << open(len5, path("f32.tiff"), path("f32_out.jpg")) << 1;
        QTest::newRow("uint16 to jpeg") << open(len5, path("u16.png"), path("u16_out.jpg")) << 1;
        QTest::newRow("unknown output format") << open(len5, u8, path("out.xyz")) << 1;
        QTest::newRow("output folder missing") << open(len5, u8, path("no/such/folder/out.png")) << 1;
        QTest::newRow("length 0") << open({"--length", "0"}, u8, out) << 2;
        QTest::newRow("length -3") << open({"--length", "-3"}, u8, out) << 2;
        QTest::newRow("length abc") << open({"--length", "abc"}, u8, out) << 2;
        QTest::newRow("length 7.5") << open({"--length", "7.5"}, u8, out) << 2;
        QTest::newRow("length absurd") << open({"--length", "2000000"}, u8, out) << 2;
        QTest::newRow("length huge") << open({"--length", "99999999999999999999999"}, u8, out) << 2;
        QTest::newRow("length missing") << open({}, u8, out) << 2;
        QTest::newRow("angle nan") << open({"--length", "5", "--angle", "nan"}, u8, out) << 2;
        QTest::newRow("angle text") << open({"--length", "5", "--angle", "east"}, u8, out) << 2;
        QTest::newRow("bad backend") << open({"--length", "5", "--backend", "gpu"}, u8, out) << 2;
        QTest::newRow("bad algorithm") << open({"--length", "5", "--algorithm", "fast"}, u8, out) << 2;
        QTest::newRow("bad threads") << open({"--length", "5", "--threads", "-1"}, u8, out) << 2;
        QTest::newRow("unknown option") << open({"--length", "5", "--frobnicate"}, u8, out) << 2;
        QTest::newRow("option without value") << QStringList{"open", u8, out, "--length"} << 2;
        QTest::newRow("missing output") << QStringList{"open", "--length", "5", u8} << 2;
        QTest::newRow("extra argument") << QStringList{"open", "--length", "5", u8, out, out} << 2;
        QTest::newRow("no command") << QStringList{} << 2;
        QTest::newRow("unknown command") << QStringList{"blur", u8, out} << 2;
        QTest::newRow("unknown global option") << QStringList{"--frobnicate"} << 2;
        QTest::newRow("angles step 0") << QStringList{"sweep", "--length", "5", "--angles", "0:180:0", u8,
                                                      "--out-dir", path("sw_err")}
                                       << 2;
        QTest::newRow("angles text") << QStringList{"sweep", "--length", "5", "--angles", "all", u8, "--out-dir",
                                                    path("sw_err")}
                                     << 2;
        QTest::newRow("angles too many") << QStringList{"sweep", "--length", "5", "--angles", "0:180:0.01", u8,
                                                        "--out-dir", path("sw_err")}
                                         << 2;
        QTest::newRow("sweep tophat") << QStringList{"sweep", "--length", "5", "--op", "tophat", u8, "--out-dir",
                                                     path("sw_err")}
                                      << 2;
        QTest::newRow("sweep without out-dir") << QStringList{"sweep", "--length", "5", u8} << 2;
        QTest::newRow("sweep nan") << QStringList{"sweep", "--length", "5", path("nan.tiff"), "--out-dir",
                                                  path("sw_nan")}
                                   << 1;
        QTest::newRow("skew missing file") << QStringList{"skew", path("nothing.png")} << 1;
        QTest::newRow("skew truncated") << QStringList{"skew", path("truncated.png")} << 1;
        QTest::newRow("skew nan") << QStringList{"skew", path("nan.tiff")} << 1;
        QTest::newRow("skew deskew float png") << QStringList{"skew", path("f32.tiff"), "--deskew", path("d.png")}
                                               << 1;
        QTest::newRow("contours no threshold") << QStringList{"contours", u8} << 2;
        QTest::newRow("contours bad mode") << QStringList{"contours", "--threshold", "9", "--mode", "all", u8} << 2;
        QTest::newRow("contours bad approx") << QStringList{"contours", "--threshold", "9", "--approx", "x", u8}
                                             << 2;
        QTest::newRow("contours bad algorithm")
            << QStringList{"contours", "--threshold", "9", "--algorithm", "fast", u8} << 2;
        QTest::newRow("contours bad threads") << QStringList{"contours", "--threshold", "9", "--threads", "-1", u8} << 2;
        QTest::newRow("contours cuda") << QStringList{"contours", "--threshold", "9", "--backend", "cuda", u8} << 1;
        QTest::newRow("contours text png") << QStringList{"contours", "--threshold", "9", path("text.png")} << 1;
        QTest::newRow("bench unknown workload") << QStringList{"bench", "--workload", "everything"} << 2;
        QTest::newRow("bench bad repeat") << QStringList{"bench", "--repeat", "0"} << 2;
    }

    void errors() {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        // The bad files (written once; rows share them).
        if (!QFile::exists(path("truncated.png"))) {
            cv::Mat big(64, 64, CV_8UC1);
            cv::randu(big, 0, 256);
            std::vector<uchar> png;
            cv::imencode(".png", big, png);
            QFile t(path("truncated.png"));
            QVERIFY(t.open(QIODevice::WriteOnly));
            t.write(reinterpret_cast<const char*>(png.data()), static_cast<qint64>(png.size() / 2));
            t.close();
            QFile text(path("text.png"));
            QVERIFY(text.open(QIODevice::WriteOnly));
            text.write("this is not an image\n");
            text.close();
            QFile empty(path("empty.png"));
            QVERIFY(empty.open(QIODevice::WriteOnly));
            empty.close();
            QVERIFY(cv::imwrite(spath("s16.tiff"), cv::Mat(8, 9, CV_16SC1, cv::Scalar(-5))));
            QVERIFY(cv::imwrite(spath("s32.tiff"), cv::Mat(8, 9, CV_32SC1, cv::Scalar(70000))));
            cv::Mat nan(12, 10, CV_32FC1, cv::Scalar(0.25));
            nan.at<float>(4, 3) = std::numeric_limits<float>::quiet_NaN();
            QVERIFY(cv::imwrite(spath("nan.tiff"), nan));
            const cv::Mat back = cv::imread(spath("nan.tiff"), cv::IMREAD_UNCHANGED);
            QVERIFY(back.type() == CV_32FC1 && std::isnan(back.at<float>(4, 3)));
        }
        const CliRun r = runCli(args);
        verifyError(r, code);
    }

    // An output that is an input (however it is spelled) is refused with exit status 2 and
    // the input untouched; --force allows it; replacing any existing file is said on stderr.
    void outputsNeverReplaceInputs() {
        QVERIFY(QDir(dir_.path()).mkpath(QStringLiteral("clash")));
        const QString in = path("clash/in.png");
        QVERIFY(QFile::copy(path("u8.png"), in));
        QVERIFY(::link(str(in).c_str(), spath("clash/hard.png").c_str()) == 0);
        const QByteArray before = contents(in);
        const QStringList open{"open", "--length", "5", "--backend", "cpu"};
        for (const QString& out : {in, path("clash/./in.png"), path("clash/../clash/in.png"), path("clash/hard.png")}) {
            const CliRun r = runCli(open + QStringList{in, out});
            verifyError(r, 2);
            QVERIFY2(r.err.contains(QStringLiteral("refusing to overwrite")) && r.err.contains(out), qPrintable(r.describe()));
            QCOMPARE(contents(in), before);
        }
        QVERIFY(QDir().mkpath(path("clash/sweep")) && QFile::copy(in, path("clash/sweep/supremum.png")));
        const QList<QStringList> others = {
            {"skew", in, "--deskew", in},
            {"orientation", in, "--csv", path("clash/o.csv"), "--needles", in},
            {"contours", "--threshold", "9", in, "--svg", in},
            {"sweep", "--length", "5", "--angles", "0:180:45", path("clash/sweep/supremum.png"), "--out-dir",
             path("clash/sweep")}};
        for (const QStringList& args : others) {
            const CliRun r = runCli(args);
            verifyError(r, 2);
            QVERIFY2(r.err.contains(QStringLiteral("refusing to overwrite")), qPrintable(r.describe()));
        }
        QCOMPARE(contents(in), before);
        QCOMPARE(filesIn(path("clash/sweep")), QStringList{"supremum.png"});

        // Two outputs naming one file are refused even with --force.
        const CliRun same = runCli({"contours", "--threshold", "9", in, "--json", path("clash/c.txt"), "--svg",
                                    path("clash/./c.txt"), "--force"});
        verifyError(same, 2);
        QVERIFY2(same.err.contains(QStringLiteral("same file")), qPrintable(same.describe()));

        // --force replaces the input with the result, and says so.
        const CliRun expected = runCli(open + QStringList{in, path("clash/expected.png")});
        QVERIFY2(expected.code == 0 && expected.err.isEmpty(), qPrintable(expected.describe()));
        const CliRun forced = runCli(open + QStringList{in, in, "--force"});
        QVERIFY2(forced.code == 0, qPrintable(forced.describe()));
        QCOMPARE(nonEmptyLines(forced.err), QStringList{"linescope-cli: note: replaced the existing file '" + in + "'"});
        QCOMPARE(contents(in), contents(path("clash/expected.png")));
        QCOMPARE(contents(path("clash/hard.png")), before);  // the old inode: a new file was renamed in
        const CliRun again = runCli(open + QStringList{path("u8.png"), path("clash/expected.png")});
        QCOMPARE(nonEmptyLines(again.err),
                 QStringList{"linescope-cli: note: replaced the existing file '" + path("clash/expected.png") + "'"});
    }

    // A sweep folder is complete when manifest.json is there: it is written last and removed
    // before the first file changes, so a run that fails half-way leaves none.
    void sweepManifestMarksACompleteFolder() {
        const QString out = path("manifest");
        const QStringList args{"sweep", "--length", "5", "--angles", "0:180:30", "--backend", "cpu", path("u16.png"),
                               "--out-dir", out};
        const CliRun first = runCli(args);
        QVERIFY2(first.code == 0 && first.err.isEmpty(), qPrintable(first.describe()));
        QJsonParseError error{};
        const QJsonObject manifest = QJsonDocument::fromJson(contents(out + "/manifest.json"), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(manifest.value("complete").toBool(), true);
        QCOMPARE(manifest.value("input").toString(), path("u16.png"));
        QCOMPARE(manifest.value("length").toInt(), 5);
        QCOMPARE(manifest.value("pixel_type").toString(), QStringLiteral("uint16"));
        QCOMPARE(manifest.value("angles").toObject().value("count").toInt(), 6);
        QStringList listed;
        for (const auto& f : manifest.value("files").toArray()) listed << f.toString();
        QCOMPARE(listed, (QStringList{"supremum.png", "infimum.png", "strength.png", "orientation.png",
                                      "orientation-angles.tiff", "spectrum.csv", "spectrum.json"}));
        QStringList all = listed + QStringList{"manifest.json"};
        all.sort();
        QCOMPARE(filesIn(out), all);

        // spectrum.json cannot be written now (a folder took its name): the run fails after
        // writing the images, and the folder says it is incomplete.
        QVERIFY(QFile::remove(out + "/spectrum.json") && QDir(out).mkdir("spectrum.json"));
        const CliRun failed = runCli(args);
        verifyError(failed, 1);
        QVERIFY2(failed.err.contains(QStringLiteral("spectrum.json': it is a folder")), qPrintable(failed.describe()));
        QVERIFY(!QFile::exists(out + "/manifest.json"));
        all.removeAll("manifest.json");
        QCOMPARE(filesIn(out), all);  // and no temporary file left
    }

    // The reason of a failed write comes from the system.
    // The allocation seam (LINESCOPE_FAIL_ALLOCATION): the nth allocation of at least 4 KiB
    // fails, for every n a sweep and an opening make. Each run succeeds or ends with one error
    // line and exit 1, never a signal (a sweep used to crash in the thread pool), and a failed
    // run leaves the earlier outputs as they were or, for a sweep folder, marks it incomplete.
    void allocationFailuresEndWithOneLine() {
        cv::imwrite(spath("alloc.png"), toMat(testImage<std::uint8_t>(160, 120, 8)));
        const QString out = path("alloc-out"), single = path("alloc-open.png");
        const QStringList sweep{"sweep", "--length", "9", "--angles", "0:180:15", "--threads", "3",
                                "--backend", "cpu", "--force", path("alloc.png"), "--out-dir", out};
        const QStringList open{"open", "--length", "9", "--angle", "30", "--threads", "3", "--backend", "cpu",
                               "--force", path("alloc.png"), single};
        for (const QStringList& args : {sweep, open}) {
            QVERIFY(runCli(args).code == 0);
            int failures = 0;
            for (int n = 1; n <= 40; ++n) {
                const QString target = args.first() == "sweep" ? out + "/supremum.png" : single;
                const QByteArray before = contents(target);
                qputenv("LINESCOPE_FAIL_ALLOCATION", QByteArray::number(n) + ":4096");
                const CliRun r = runCli(args);
                qunsetenv("LINESCOPE_FAIL_ALLOCATION");
                QVERIFY2(r.finished && !r.crashed && (r.code == 0 || r.code == 1), qPrintable(r.describe()));
                if (r.code == 0) continue;
                ++failures;
                QCOMPARE(nonEmptyLines(r.err).size(), 1);
                QVERIFY2(r.err.contains(QStringLiteral("out of memory")), qPrintable(r.describe()));
                QVERIFY(filesIn(QFileInfo(target).path()).filter(QStringLiteral(".tmp-")).isEmpty());
                if (args.first() == "sweep")
                    QVERIFY2(contents(target) == before || !QFile::exists(out + "/manifest.json"), qPrintable(r.describe()));
                else
                    QCOMPARE(contents(target), before);
            }
            QVERIFY2(failures > 0, qPrintable(args.first()));
        }
    }

    void writeFailuresSayWhy() {
        if (QFile::exists(QStringLiteral("/dev/full"))) {
            const CliRun r = runCli({"contours", "--threshold", "9", path("u8.png"), "--json", "/dev/full"});
            verifyError(r, 1);
            QVERIFY2(r.err.contains(QStringLiteral("cannot write '/dev/full': No space left on device")),
                     qPrintable(r.describe()));
        }
        const CliRun notFolder = runCli({"open", "--length", "5", "--backend", "cpu", path("u8.png"), path("u8.png/x.png")});
        verifyError(notFolder, 1);
        QVERIFY2(notFolder.err.contains("'" + path("u8.png") + "' is not a folder"), qPrintable(notFolder.describe()));
        const CliRun folder = runCli({"orientation", "--backend", "cpu", path("u8.png"), "--csv", dir_.path()});
        verifyError(folder, 1);
        QVERIFY2(folder.err.contains(QStringLiteral("it is a folder")), qPrintable(folder.describe()));
    }

    // Two runs writing the same file at once: both succeed and the file is one of the two
    // results, whole (it used to be a corrupt mix).
    void concurrentRunsLeaveOneWholeResult() {
        cv::Mat big(700, 900, CV_8UC1);
        cv::theRNG().state = 7;
        cv::randu(big, 0, 256);
        QVERIFY(cv::imwrite(spath("race_in.png"), big));
        auto args = [&](const char* angle, const QString& out) {
            return QStringList{"open", "--length", "9", "--angle", angle, "--backend", "cpu", path("race_in.png"), out};
        };
        QVERIFY(runCli(args("0", path("race_0.png"))).code == 0);
        QVERIFY(runCli(args("90", path("race_90.png"))).code == 0);
        const QByteArray a = contents(path("race_0.png")), b = contents(path("race_90.png"));
        QVERIFY(a != b);
        for (int round = 0; round < 3; ++round) {
            QProcess p0, p90;
            p0.start(QStringLiteral(LINESCOPE_CLI_PATH), args("0", path("race.png")));
            p90.start(QStringLiteral(LINESCOPE_CLI_PATH), args("90", path("race.png")));
            QVERIFY(p0.waitForFinished(300000) && p90.waitForFinished(300000));
            QCOMPARE(p0.exitCode(), 0);
            QCOMPARE(p90.exitCode(), 0);
            const QByteArray result = contents(path("race.png"));
            QVERIFY2(result == a || result == b, "the file is neither run's result");
        }
        QVERIFY(filesIn(dir_.path()).filter(QStringLiteral(".tmp-")).isEmpty());
    }

    // Each usage mistake is refused with exit 2 and one line naming the option and the text
    // (whole-number options used to truncate 1.9 to 1; strtod took 0x1e, " 30" and inf).
    void mistakesNamed_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QStringList>("said");  // each must be in the error line
        const QString u8 = path("u8.png");
        const QString out = path("named_out.png");
        const QStringList open{"open", "--length", "5"};
        QTest::newRow("block 1.9") << QStringList{"orientation", "--block", "1.9", u8} << 2
                                   << QStringList{"--block", "'1.9'"};
        QTest::newRow("peaks 2.5") << QStringList{"spectrum", "--peaks", "2.5", u8} << 2
                                   << QStringList{"--peaks", "'2.5'"};
        QTest::newRow("reduction 0.5") << QStringList{"skew", "--reduction", "0.5", u8} << 2
                                       << QStringList{"--reduction", "'0.5'"};
        QTest::newRow("angle-count 2.9") << QStringList{"orientation", "--angle-count", "2.9", u8} << 2
                                         << QStringList{"--angle-count", "'2.9'"};
        QTest::newRow("threads 1.5") << open + QStringList{"--threads", "1.5", u8, out} << 2
                                     << QStringList{"--threads", "'1.5'"};
        QTest::newRow("device-memory-cap 12Q") << open + QStringList{"--device-memory-cap", "12Q", u8, out} << 2
                                               << QStringList{"--device-memory-cap", "'12Q'"};
        QTest::newRow("repeat 2.5") << QStringList{"bench", "--repeat", "2.5"} << 2 << QStringList{"--repeat", "'2.5'"};
        QTest::newRow("length 1e3") << open.mid(0, 1) + QStringList{"--length", "1e3", u8, out} << 2
                                    << QStringList{"--length", "'1e3'"};
        for (const char* text : {"0x1e", "inf", "-inf", "nan", "1e400", " 30", "30 ", "+-3", "3deg"})
            QTest::addRow("angle '%s'", text) << open + QStringList{"--angle", text, u8, out} << 2
                                              << QStringList{"--angle", QStringLiteral("'%1'").arg(text)};
        QTest::newRow("angles hex") << QStringList{"spectrum", "--angles", "0:0xb4:1", u8} << 2
                                    << QStringList{"--angles", "'0xb4'"};
        QTest::newRow("refine-step 1e-4") << QStringList{"skew", "--refine-step", "1e-4", u8} << 2
                                          << QStringList{"--refine-step 1e-4", "at most 720"};
        for (const char* workload : {"open-0x1e-41", "open-30- 41", "open-30-41.5", "open-inf-41", "open--41"})
            QTest::addRow("workload %s", workload) << QStringList{"bench", "--workload", workload} << 2
                                                   << QStringList{QStringLiteral("unknown workload '%1'").arg(workload)};
        QTest::newRow("short option -l") << open + QStringList{"-l", u8, out} << 2 << QStringList{"unknown option '-l'"};
        QTest::newRow("short option -x=1") << open + QStringList{u8, out, "-x=1"} << 2
                                           << QStringList{"unknown option '-x=1'"};
        // One limit on angles, with one message, in every command.
        const QStringList tooMany{"more than 720 angles"};
        QTest::newRow("spectrum too many angles") << QStringList{"spectrum", "--angles", "0:180:0.1", u8} << 2 << tooMany;
        QTest::newRow("sweep too many angles")
            << QStringList{"sweep", "--length", "5", "--angles", "0:180:0.1", u8, "--out-dir", path("named_sw")} << 2
            << tooMany;
        QTest::newRow("skew too many angles") << QStringList{"skew", "--angles", "0:180:0.1", u8} << 2 << tooMany;
        QTest::newRow("angle-count 1000") << QStringList{"orientation", "--angle-count", "1000", u8} << 2
                                          << QStringList{"--angle-count", "at most 720"};
        QTest::newRow("contours backend") << QStringList{"contours", "--threshold", "9", "--backend", "gpu", u8} << 2
                                          << QStringList{"--backend", "'gpu'"};
        // Refused before the computation by io::requireWritable, not by OpenCV's writer after it.
        QTest::newRow("gray to ppm") << open + QStringList{u8, path("gray.ppm")} << 1
                                     << QStringList{"gray.ppm", ".pgm"};
        QTest::newRow("deskew gray to ppm") << QStringList{"skew", path("u8.png"), "--deskew", path("gray.ppm")} << 1
                                            << QStringList{"gray.ppm", ".pgm"};
    }

    void mistakesNamed() {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QStringList, said);
        const CliRun r = runCli(args);
        verifyError(r, code);
        for (const QString& s : said) QVERIFY2(r.err.contains(s), qPrintable(s + " not said: " + r.describe()));
        QVERIFY2(!r.err.contains(QStringLiteral("OpenCV")), qPrintable(r.describe()));
        QVERIFY(!QFile::exists(path("gray.ppm")));
    }

    // Negative numbers stay values and positionals; "-" alone is a file name, not an option.
    void negativeNumbersAreValues() {
        for (const QStringList& angle : {QStringList{"--angle", "-3"}, QStringList{"--angle=-3"},
                                         QStringList{"--angle", "-.5"}, QStringList{"--angle", "+2.5"}}) {
            const CliRun r = runCli(QStringList{"open", "--length", "5", "--backend", "cpu"} + angle +
                                    QStringList{path("u8.png"), path("negative_out.png")});
            QVERIFY2(r.code == 0, qPrintable(angle.join(' ') + ": " + r.describe()));
        }
        const CliRun r = runCli({QStringLiteral("open"), QStringLiteral("--length"), QStringLiteral("5"),
                                 QStringLiteral("-"), path("dash_out.png")});
        verifyError(r, 1);  // no file named "-": a file error, not a usage one
    }

    // File names need not be UTF-8; the JSON the commands print or write stays valid JSON
    // (the bytes that are not UTF-8 become U+FFFD).
    void nonUtf8FileNames() {
        const QByteArray name("caf\xe9-\xff\xfe");  // Latin-1 and stray bytes
        const std::string dir = QFile::encodeName(dir_.path()).toStdString() + "/";
        struct RemoveRawNames {  // QTemporaryDir cannot remove files whose names are not UTF-8
            std::string stem;
            ~RemoveRawNames() {
                for (const char* suffix : {".png", "-deskewed.png", ".json"}) std::filesystem::remove(stem + suffix);
            }
        } cleanup{dir + name.toStdString()};
        QVERIFY(cv::imwrite(dir + name.toStdString() + ".png", toMat(testImage<std::uint8_t>(37, 23, 1))));
        const QString in = dir_.filePath(QStringLiteral("@N@.png"));
        auto parses = [](const QByteArray& json, const CliRun& r) {
            QJsonParseError err{};
            const QJsonDocument doc = QJsonDocument::fromJson(json, &err);
            QVERIFY2(err.error == QJsonParseError::NoError && doc.isObject(),
                     qPrintable(err.errorString() + QStringLiteral(": ") + r.describe()));
        };
        CliRun r = runCliWithRawName({QStringLiteral("skew"), QStringLiteral("--backend"), QStringLiteral("cpu"), in,
                                      QStringLiteral("--deskew"), dir_.filePath(QStringLiteral("@N@-deskewed.png"))},
                                     name);
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        parses(r.outBytes, r);
        const QString deskewed = QJsonDocument::fromJson(r.outBytes).object().value("deskewed").toString();
        QVERIFY2(deskewed.endsWith(QStringLiteral("caf\uFFFD-\uFFFD\uFFFD-deskewed.png")), qPrintable(deskewed));
        QVERIFY(std::filesystem::exists(dir + name.toStdString() + "-deskewed.png"));  // Qt cannot name it
        for (const QStringList& args :
             {QStringList{"spectrum", "--backend", "cpu", in}, QStringList{"orientation", "--backend", "cpu", in}}) {
            r = runCliWithRawName(args, name);
            QVERIFY2(r.code == 0, qPrintable(r.describe()));
            parses(r.outBytes, r);
        }
        r = runCliWithRawName({QStringLiteral("contours"), QStringLiteral("--threshold"), QStringLiteral("100"), in,
                               QStringLiteral("--json"), dir_.filePath(QStringLiteral("@N@.json"))},
                              name);
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        std::ifstream json(dir + name.toStdString() + ".json", std::ios::binary);
        QVERIFY(json);
        parses(QByteArray::fromStdString(std::string(std::istreambuf_iterator<char>(json), {})), r);
    }

    void benchQuick() {
        const CliRun r = runCli({QStringLiteral("bench"), QStringLiteral("--quick"), QStringLiteral("--repeat"),
                                 QStringLiteral("1")});
        QVERIFY2(r.finished && r.code == 0, qPrintable(r.describe()));
        const QStringList lines = nonEmptyLines(r.out);
        const qsizetype header = lines.indexOf(QStringLiteral(
            "| workload | engine 1 thread | engine all threads | OpenCV 1 thread | OpenCV all threads | ratio |"));
        QVERIFY2(header >= 0, qPrintable(r.out));
        QVERIFY(header + 2 < lines.size());
        QVERIFY(lines[header + 1].startsWith(QStringLiteral("|---")));
        int rows = 0;
        for (qsizetype i = header + 2; i < lines.size() && lines[i].startsWith(QLatin1Char('|')); ++i, ++rows)
            QCOMPARE(lines[i].count(QLatin1Char('|')), 7);
        QCOMPARE(rows, 3);
        QVERIFY(r.out.contains(QStringLiteral("machine: ")));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
