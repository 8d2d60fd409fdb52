// linescope-cli batch end to end, on a folder of generated images with subfolders, a
// corrupt file and an unreadable one: outputs equal to the subcommand run alone byte for
// byte, failures recorded and the batch going on, the manifest, resuming, the plain
// progress lines, lists and globs, and the usage mistakes. Nothing here is timed.
#include "tests/cli/cli_process.h"
#include "tests/support/opencv_images.h"
#include "tests/support/random_images.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <opencv2/imgcodecs.hpp>

#include <map>

#include <sys/stat.h>
#include <unistd.h>

using namespace linescope;
using test::CliRun;

namespace {

constexpr int kInputs = 5;  // a.png, sub/b.png, sub/deeper/c.tiff, sub/corrupt.png, unreadable.png
const QStringList kOpen = {QStringLiteral("open"), QStringLiteral("--length"), QStringLiteral("7"),
                           QStringLiteral("--angle"), QStringLiteral("30"), QStringLiteral("--backend"),
                           QStringLiteral("cpu")};

QByteArray contents(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

QStringList nonEmptyLines(const QString& text) { return text.split(QLatin1Char('\n'), Qt::SkipEmptyParts); }

// The manifest's records; every line must be one JSON object, but for `brokenLines` allowed.
QList<QJsonObject> manifestRecords(const QString& path, int brokenLines = 0) {
    QList<QJsonObject> records;
    int broken = 0;
    for (const QByteArray& line : contents(path).split('\n')) {
        if (line.isEmpty()) continue;
        const QJsonDocument doc = QJsonDocument::fromJson(line);
        if (doc.isObject()) records.push_back(doc.object());
        else ++broken;
    }
    if (broken != brokenLines) qWarning("manifest %s: %d broken lines", qPrintable(path), broken);
    return broken == brokenLines ? records : QList<QJsonObject>();
}

// The latest record of each input.
std::map<QString, QJsonObject> latestByInput(const QList<QJsonObject>& records) {
    std::map<QString, QJsonObject> latest;
    for (const QJsonObject& r : records) latest[r[QStringLiteral("input")].toString()] = r;
    return latest;
}

}  // namespace

class TestCliBatch : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const QString& name) const { return dir_.filePath(name); }

    // The CLI in the temporary folder, so that inputs and outputs are named relative to it.
    CliRun cli(const QStringList& args) const {
        return test::runProcess(QStringLiteral(LINESCOPE_CLI_PATH), args, 300000, dir_.path());
    }
    CliRun batch(const QString& outDir, const QStringList& sources, const QStringList& command,
                 const QStringList& extra = {}) const {
        QStringList args{QStringLiteral("batch")};
        for (const QString& s : sources) args << QStringLiteral("--inputs") << s;
        args << QStringLiteral("--out-dir") << outDir << extra << command;
        return cli(args);
    }

    void verifyOneErrorLine(const CliRun& r, int code, const QString& words) {
        QVERIFY2(r.finished && !r.crashed && r.code == code, qPrintable(r.describe()));
        const QStringList lines = nonEmptyLines(r.err);
        QVERIFY2(lines.size() == 1 && lines[0].startsWith(QStringLiteral("linescope-cli: error: ")) &&
                     lines[0].contains(words),
                 qPrintable(r.describe()));
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QVERIFY(QDir(dir_.path()).mkpath(QStringLiteral("in/sub/deeper")));
        cv::imwrite(path("in/a.png").toStdString(), test::toMat(test::randomImage<std::uint8_t>(61, 47, 11, test::ImageKind::Blocky)));
        cv::imwrite(path("in/sub/b.png").toStdString(), test::toMat(test::randomImage<std::uint16_t>(40, 52, 12, test::ImageKind::Blocky)));
        cv::imwrite(path("in/sub/deeper/c.tiff").toStdString(), test::toMat(test::finiteFloatImage(33, 29, 13, test::ImageKind::Blocky)));
        QFile corrupt(path("in/sub/corrupt.png"));
        QVERIFY(corrupt.open(QIODevice::WriteOnly));
        corrupt.write("\x89PNG\r\n\x1a\n this is no PNG after its signature");
        corrupt.close();
        QFile notes(path("in/sub/readme.txt"));  // not an image: not an input
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("notes\n");
        notes.close();
        // Unreadable: a file without read permission; as root, which reads it anyway, a FIFO,
        // which the loader refuses to open.
        const std::string unreadable = path("in/unreadable.png").toStdString();
        if (::geteuid() == 0) QCOMPARE(::mkfifo(unreadable.c_str(), 0644), 0);
        else {
            cv::imwrite(unreadable, cv::Mat(5, 5, CV_8UC1, cv::Scalar(3)));
            QCOMPARE(::chmod(unreadable.c_str(), 0), 0);
        }
    }

    void folderBatchEqualsSingleRuns() {
        const CliRun r = batch(QStringLiteral("out"), {QStringLiteral("in")}, kOpen);
        // Two files failed, the others were done: exit 1, the last line says so.
        QVERIFY2(r.finished && !r.crashed && r.code == 1, qPrintable(r.describe()));
        const QStringList err = nonEmptyLines(r.err);
        QVERIFY2(err.size() == kInputs + 1, qPrintable(r.describe()));
        QVERIFY2(err.last().startsWith(QStringLiteral("linescope-cli: error: 2 of 5 files failed")), qPrintable(r.describe()));
        // Not a terminal: one plain line a file, numbered.
        const QRegularExpression line(QStringLiteral("^batch: \\[[1-5]/5\\] (ok|failed) in/"));
        for (int i = 0; i < kInputs; ++i) QVERIFY2(line.match(err[i]).hasMatch(), qPrintable(err[i]));
        QVERIFY2(r.err.contains(QStringLiteral("failed in/sub/corrupt.png: cannot read")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("failed in/unreadable.png: cannot read")), qPrintable(r.err));
        QVERIFY2(r.out.startsWith(QStringLiteral("batch: 3 ok, 2 failed, 0 skipped of 5 files")), qPrintable(r.out));
        // Then where the time went: all five decoded, the three readable computed and written.
        const QRegularExpression stages(QStringLiteral(
            "\nstages: decoding \\d+ threads, [0-9.]+ ms a file \\(at most [0-9.]+ files/s\\); engine on the CPU, 3 files: "
            "\\d+ threads?, [0-9.]+ ms a file \\(at most [0-9.]+ files/s\\), busy \\d+ % of the time; writing \\d+ threads, [0-9.]+ ms a file"));
        QVERIFY2(stages.match(r.out).hasMatch(), qPrintable(r.out));

        // Each output is what the subcommand writes alone, byte for byte.
        QVERIFY(QDir(dir_.path()).mkpath(QStringLiteral("single")));
        const std::map<QString, QString> outputs = {{QStringLiteral("in/a.png"), QStringLiteral("out/a.png")},
                                                    {QStringLiteral("in/sub/b.png"), QStringLiteral("out/sub/b.png")},
                                                    {QStringLiteral("in/sub/deeper/c.tiff"), QStringLiteral("out/sub/deeper/c.tiff")}};
        for (const auto& [input, output] : outputs) {
            const QString alone = QStringLiteral("single/") + QFileInfo(output).fileName();
            const CliRun one = cli(QStringList(kOpen) << input << alone);
            QVERIFY2(one.code == 0, qPrintable(one.describe()));
            QVERIFY2(QFileInfo::exists(path(output)), qPrintable(output));
            QVERIFY2(contents(path(output)) == contents(path(alone)), qPrintable(output));
        }
        QVERIFY(!QFileInfo::exists(path("out/sub/readme.txt")));
        QVERIFY(!QFileInfo::exists(path("out/sub/corrupt.png")));

        // The manifest: one record per input, with the fields its readers rely on.
        const QList<QJsonObject> records = manifestRecords(path("out/batch-manifest.jsonl"));
        QCOMPARE(records.size(), kInputs);
        const auto latest = latestByInput(records);
        QCOMPARE(latest.size(), std::size_t(kInputs));
        const QJsonObject a = latest.at(QStringLiteral("in/a.png"));
        QCOMPARE(a[QStringLiteral("status")].toString(), QStringLiteral("ok"));
        QCOMPARE(a[QStringLiteral("outputs")].toArray(), QJsonArray{QStringLiteral("a.png")});
        QVERIFY(a[QStringLiteral("error")].isNull());
        QVERIFY(a[QStringLiteral("time_ms")].toDouble() >= 0);
        QCOMPARE(a[QStringLiteral("command")].toString(), QStringLiteral("open"));
        QCOMPARE(a[QStringLiteral("options")].toArray().size(), kOpen.size() - 1);
        QCOMPARE(a[QStringLiteral("results")].toObject()[QStringLiteral("width")].toInt(), 61);
        QCOMPARE(a[QStringLiteral("results")].toObject()[QStringLiteral("pixel_type")].toString(), QStringLiteral("uint8"));
        QCOMPARE(latest.at(QStringLiteral("in/sub/deeper/c.tiff"))[QStringLiteral("outputs")].toArray(),
                 QJsonArray{QStringLiteral("sub/deeper/c.tiff")});
        for (const char* bad : {"in/sub/corrupt.png", "in/unreadable.png"}) {
            const QJsonObject f = latest.at(QString::fromLatin1(bad));
            QCOMPARE(f[QStringLiteral("status")].toString(), QStringLiteral("failed"));
            QVERIFY(f[QStringLiteral("error")].toString().startsWith(QStringLiteral("cannot read '") + QString::fromLatin1(bad)));
            QVERIFY(f[QStringLiteral("outputs")].toArray().isEmpty());
        }
    }

    void rerunSkipsCompleteInputs() {
        const QByteArray before = contents(path("out/sub/b.png"));
        CliRun r = batch(QStringLiteral("out"), {QStringLiteral("in")}, kOpen);
        QVERIFY2(r.code == 1, qPrintable(r.describe()));  // the two bad files fail again
        QVERIFY2(r.out.startsWith(QStringLiteral("batch: 0 ok, 2 failed, 3 skipped")), qPrintable(r.out));
        QCOMPARE(r.err.count(QStringLiteral("skipped in/")), 3);
        QCOMPARE(contents(path("out/sub/b.png")), before);
        auto latest = latestByInput(manifestRecords(path("out/batch-manifest.jsonl")));
        const QJsonObject b = latest.at(QStringLiteral("in/sub/b.png"));
        QCOMPARE(b[QStringLiteral("status")].toString(), QStringLiteral("skipped"));
        QCOMPARE(b[QStringLiteral("outputs")].toArray(), QJsonArray{QStringLiteral("sub/b.png")});  // carried over

        // One output gone: only its input is done again.
        QVERIFY(QFile::remove(path("out/sub/b.png")));
        r = batch(QStringLiteral("out"), {QStringLiteral("in")}, kOpen);
        QVERIFY2(r.out.startsWith(QStringLiteral("batch: 1 ok, 2 failed, 2 skipped")), qPrintable(r.out));
        QVERIFY2(r.err.contains(QStringLiteral("ok in/sub/b.png")), qPrintable(r.err));
        QCOMPARE(contents(path("out/sub/b.png")), before);

        // Other options are another result: nothing is skipped; neither with --redo.
        r = batch(QStringLiteral("out"), {QStringLiteral("in")}, QStringList(kOpen) << QStringLiteral("--threads") << QStringLiteral("1"));
        QVERIFY2(r.out.startsWith(QStringLiteral("batch: 3 ok, 2 failed, 0 skipped")), qPrintable(r.out));
        r = batch(QStringLiteral("out"), {QStringLiteral("in")}, kOpen, {QStringLiteral("--redo")});
        QVERIFY2(r.out.startsWith(QStringLiteral("batch: 3 ok, 2 failed, 0 skipped")), qPrintable(r.out));
    }

    void aLineCutShortByACrashIsNotARecord() {
        const QString manifest = path("out-crash/batch-manifest.jsonl");
        CliRun r = batch(QStringLiteral("out-crash"), {QStringLiteral("in/a.png")}, kOpen);
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QFile f(manifest);
        QVERIFY(f.open(QIODevice::Append));
        f.write("{\"input\": \"in/a.png\", \"status\": \"o");  // a crash mid-line
        f.close();
        r = batch(QStringLiteral("out-crash"), {QStringLiteral("in/a.png")}, kOpen);
        QVERIFY2(r.code == 0 && r.out.contains(QStringLiteral("1 skipped")), qPrintable(r.describe()));
        const QList<QJsonObject> records = manifestRecords(manifest, 1);
        QCOMPARE(records.size(), 2);  // the first run's and this run's: the broken line stays apart
        QCOMPARE(records.last()[QStringLiteral("status")].toString(), QStringLiteral("skipped"));
    }

    void sweepWritesAFolderPerInput() {
        const QStringList sweep = {QStringLiteral("sweep"), QStringLiteral("--length"), QStringLiteral("5"),
                                   QStringLiteral("--angles"), QStringLiteral("6"), QStringLiteral("--backend"),
                                   QStringLiteral("cpu")};
        const CliRun r = batch(QStringLiteral("out-sweep"), {QStringLiteral("in/sub/b.png")}, sweep);
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        const CliRun one = cli(QStringList(sweep) << QStringLiteral("in/sub/b.png") << QStringLiteral("--out-dir")
                                                  << QStringLiteral("single-sweep"));
        QVERIFY2(one.code == 0, qPrintable(one.describe()));
        const QStringList files = QDir(path("single-sweep")).entryList(QDir::Files);
        QCOMPARE(files.size(), 8);
        for (const QString& name : files)
            QVERIFY2(contents(path("out-sweep/in/sub/b/" + name)) == contents(path("single-sweep/" + name)), qPrintable(name));
    }

    void skewAndContoursRecordTheirResults() {
        QVERIFY(QDir(dir_.path()).mkpath(QStringLiteral("pages/2")));
        QVERIFY(QFile::copy(QStringLiteral(LINESCOPE_SAMPLES_DIR "/text_page.png"), path("pages/p1.png")));
        QVERIFY(QFile::copy(QStringLiteral(LINESCOPE_SAMPLES_DIR "/music_sheet.png"), path("pages/2/p2.png")));
        const QStringList skew = {QStringLiteral("skew"), QStringLiteral("--backend"), QStringLiteral("cpu"),
                                  QStringLiteral("--deskew"), QStringLiteral(".deskewed.png")};
        CliRun r = batch(QStringLiteral("out-skew"), {QStringLiteral("pages")}, skew);
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        const auto latest = latestByInput(manifestRecords(path("out-skew/batch-manifest.jsonl")));
        for (const QString& page : {QStringLiteral("p1"), QStringLiteral("2/p2")}) {
            const CliRun one = cli({QStringLiteral("skew"), QStringLiteral("--backend"), QStringLiteral("cpu"),
                                    QStringLiteral("--deskew"), "single-" + QString(page).replace('/', '-') + ".png",
                                    "pages/" + page + ".png"});
            QVERIFY2(one.code == 0, qPrintable(one.describe()));
            QJsonObject alone = QJsonDocument::fromJson(one.outBytes).object();
            QJsonObject inBatch = QJsonDocument::fromJson(contents(path("out-skew/" + page + ".skew.json"))).object();
            QCOMPARE(contents(path("out-skew/" + page + ".deskewed.png")),
                     contents(path("single-" + QString(page).replace('/', '-') + ".png")));
            for (QJsonObject* o : {&alone, &inBatch}) o->remove(QStringLiteral("time_ms")), o->remove(QStringLiteral("deskewed"));
            QCOMPARE(inBatch, alone);
            const QJsonObject results = latest.at("pages/" + page + ".png")[QStringLiteral("results")].toObject();
            QCOMPARE(results[QStringLiteral("angle")].toDouble(), alone[QStringLiteral("angle")].toDouble());
            QCOMPARE(results[QStringLiteral("confidence")].toDouble(), alone[QStringLiteral("confidence")].toDouble());
            QCOMPARE(results[QStringLiteral("dominant")].toBool(), alone[QStringLiteral("dominant")].toBool());
        }

        r = batch(QStringLiteral("out-contours"), {QStringLiteral("pages")},
                  {QStringLiteral("contours"), QStringLiteral("--threshold"), QStringLiteral("128"),
                   QStringLiteral("--svg"), QStringLiteral(".svg")});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        const CliRun one = cli({QStringLiteral("contours"), QStringLiteral("--threshold"), QStringLiteral("128"),
                                QStringLiteral("pages/p1.png"), QStringLiteral("--svg"), QStringLiteral("single-p1.svg")});
        QVERIFY2(one.code == 0, qPrintable(one.describe()));
        QCOMPARE(contents(path("out-contours/p1.svg")), contents(path("single-p1.svg")));
        const auto contours = latestByInput(manifestRecords(path("out-contours/batch-manifest.jsonl")));
        const int count = contours.at(QStringLiteral("pages/p1.png"))[QStringLiteral("results")].toObject()[QStringLiteral("contours")].toInt();
        QCOMPARE(QString::number(count) + QStringLiteral(" contours\n"), one.out);
    }

    void listFileAndGlob() {
        QFile list(path("list.txt"));
        QVERIFY(list.open(QIODevice::WriteOnly));
        list.write("# two inputs\nin/a.png\n\nin/sub/deeper/c.tiff\nin/missing.png\n");
        list.close();
        CliRun r = batch(QStringLiteral("out-list"), {QStringLiteral("@list.txt")}, kOpen);
        QVERIFY2(r.code == 1, qPrintable(r.describe()));  // the missing one fails, alone
        QVERIFY2(r.out.startsWith(QStringLiteral("batch: 2 ok, 1 failed")), qPrintable(r.out));
        QVERIFY2(r.err.contains(QStringLiteral("failed in/missing.png: cannot open 'in/missing.png': no such file")), qPrintable(r.err));
        QVERIFY(QFileInfo::exists(path("out-list/in/a.png")));  // mirrored as listed
        QVERIFY(QFileInfo::exists(path("out-list/in/sub/deeper/c.tiff")));

        r = batch(QStringLiteral("out-glob"), {QStringLiteral("in/sub/*.png")}, kOpen);
        QVERIFY2(r.code == 1 && r.out.startsWith(QStringLiteral("batch: 1 ok, 1 failed")), qPrintable(r.describe()));
        QVERIFY(QFileInfo::exists(path("out-glob/b.png")));  // relative to the glob's folder
        QCOMPARE(contents(path("out-glob/b.png")), contents(path("out/sub/b.png")));
    }

    void outputsNeverReplaceInputs() {
        // An output folder whose file is a hard link to an input: that input fails, unchanged.
        QVERIFY(QDir(dir_.path()).mkpath(QStringLiteral("out-link/in")));
        const QByteArray original = contents(path("in/a.png"));
        QCOMPARE(::link(path("in/a.png").toLocal8Bit().constData(), path("out-link/in/a.png").toLocal8Bit().constData()), 0);
        const CliRun r = batch(QStringLiteral("out-link"), {QStringLiteral("in/a.png")}, kOpen);
        QVERIFY2(r.code == 1 && r.err.contains(QStringLiteral("is an input of the batch")), qPrintable(r.describe()));
        QCOMPARE(contents(path("in/a.png")), original);
        // An output folder inside the input folder is never searched for inputs.
        const CliRun inside = batch(QStringLiteral("in/sub/deeper/out"), {QStringLiteral("in/sub/deeper")}, kOpen);
        QVERIFY2(inside.code == 0, qPrintable(inside.describe()));
        const CliRun again = batch(QStringLiteral("in/sub/deeper/out"), {QStringLiteral("in/sub/deeper")}, kOpen);
        QVERIFY2(again.out.startsWith(QStringLiteral("batch: 0 ok, 0 failed, 1 skipped of 1 files")), qPrintable(again.describe()));
        QVERIFY(QDir(path("in/sub/deeper/out")).removeRecursively());
    }

    void mistakesAreOneLine() {
        QFile file(path("a-file"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        verifyOneErrorLine(batch(QStringLiteral("o"), {QStringLiteral("no-such-folder")}, kOpen), 1,
                           QStringLiteral("--inputs 'no-such-folder': no such file or folder"));
        verifyOneErrorLine(batch(QStringLiteral("a-file"), {QStringLiteral("in")}, kOpen), 1,
                           QStringLiteral("the output folder 'a-file' is a file"));
        verifyOneErrorLine(batch(QStringLiteral("o"), {QStringLiteral("in")}, {QStringLiteral("opne")}), 2,
                           QStringLiteral("'batch' cannot run 'opne'"));
        verifyOneErrorLine(batch(QStringLiteral("o"), {QStringLiteral("in")}, {}), 2,
                           QStringLiteral("needs a command"));
        verifyOneErrorLine(batch(QStringLiteral("o"), {QStringLiteral("in/*.jpg")}, kOpen), 1,
                           QStringLiteral("matches no file"));
        verifyOneErrorLine(batch(QStringLiteral("o"), {QStringLiteral("@no-list.txt")}, kOpen), 1,
                           QStringLiteral("cannot read the list 'no-list.txt'"));
        // The subcommand's own parser checks its options, in batch as alone.
        verifyOneErrorLine(batch(QStringLiteral("o"), {QStringLiteral("in")}, {QStringLiteral("open"), QStringLiteral("--length"), QStringLiteral("0")}), 2,
                           QStringLiteral("--length must be between 1 and"));
        verifyOneErrorLine(batch(QStringLiteral("o"), {QStringLiteral("in")}, QStringList(kOpen) << QStringLiteral("in/a.png")), 2,
                           QStringLiteral("batch takes its files from --inputs"));
        verifyOneErrorLine(batch(QStringLiteral("o"), {QStringLiteral("in")}, {QStringLiteral("contours"), QStringLiteral("--otsu"), QStringLiteral("--json"), QStringLiteral("x/y.json")}), 2,
                           QStringLiteral("--json takes a suffix"));
        verifyOneErrorLine(batch(QStringLiteral("o"), {QStringLiteral("in")}, kOpen, {QStringLiteral("--devices"), QStringLiteral("0,1")}), 2,
                           QStringLiteral("--devices chooses GPUs, but the command runs on the CPU (--backend cpu)"));
        const QStringList openOnAnyBackend = {QStringLiteral("open"), QStringLiteral("--length"), QStringLiteral("7")};
        verifyOneErrorLine(batch(QStringLiteral("o"), {QStringLiteral("in")}, openOnAnyBackend, {QStringLiteral("--devices"), QStringLiteral("0,x")}), 2,
                           QStringLiteral("--devices takes GPU numbers separated by commas (0,1) or all, got '0,x'"));
        verifyOneErrorLine(batch(QStringLiteral("o"), {QStringLiteral("in")}, openOnAnyBackend, {QStringLiteral("--devices"), QStringLiteral("0,,1")}), 2,
                           QStringLiteral("--devices takes GPU numbers separated by commas (0,1) or all, got '0,,1'"));
        // A GPU that is not there (on this machine: no CUDA, or fewer than 100 GPUs).
        verifyOneErrorLine(batch(QStringLiteral("o"), {QStringLiteral("in")}, openOnAnyBackend, {QStringLiteral("--devices"), QStringLiteral("99")}), 2,
                           QStringLiteral("--devices: "));
        QVERIFY2(!QFileInfo::exists(path("o")), "a mistake creates no output folder");
        const CliRun help = cli({QStringLiteral("batch"), QStringLiteral("--help")});
        QVERIFY2(help.code == 0 && help.out.startsWith(QStringLiteral("usage: linescope-cli batch")), qPrintable(help.describe()));
    }
};

QTEST_MAIN(TestCliBatch)
#include "test_cli_batch.moc"
