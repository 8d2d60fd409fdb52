// Edit > Copy as Python and Copy as Command Line (label gui): the copied text, run with
// /usr/bin/python3 and linescope-cli, gives the window's own Result and sweep-plane pixels
// bit for bit; and the text's numbers and angle sets parse back to what the session used.
#include "tests/ui/window_fixture.h"

#include "app/io/image_io.h"
#include "app/session/planes.h"
#include "ui/copy_as.h"
#include "ui/view_controls.h"
#include "ui/viewport_widget.h"

#include <QAction>
#include <QClipboard>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cstdint>
#include <cstring>

using namespace linescope;

namespace {

// Runs `program` with `args` and the environment variable `name`=`value`; its exit status
// and output (stdout and stderr).
std::pair<int, QString> run(const QString& program, const QStringList& args, const QString& name = {},
                            const QString& value = {}) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!name.isEmpty()) env.insert(name, value);
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAll())};
}

// The 8-bit plane's bytes, row after row, as NumPy's tobytes() writes them.
QByteArray bytesOf(const ImageView<const std::uint8_t>& v) {
    QByteArray b;
    for (int y = 0; y < v.height; ++y) b.append(reinterpret_cast<const char*>(v.row(y)), v.width);
    return b;
}
QByteArray bytesOf(const cv::Mat& m) {
    QByteArray b;
    for (int y = 0; y < m.rows; ++y) b.append(reinterpret_cast<const char*>(m.ptr(y)), m.cols * int(m.elemSize()));
    return b;
}

}  // namespace

class TestCopyAs : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<ui::MainWindow> window_;
    QTemporaryDir dir_;

    QString copied(const char* action) {
        QAction* a = window_->findChild<QAction*>(action);
        if (!a || !a->isEnabled()) return {};
        QGuiApplication::clipboard()->clear();
        a->trigger();
        return QGuiApplication::clipboard()->text();
    }

    // The copied Python with a line that writes `variable`'s bytes; those bytes.
    QByteArray runPython(const QString& code, const char* variable) {
#ifndef LINESCOPE_PYTHONPATH
        Q_UNUSED(code);
        Q_UNUSED(variable);
        return {};
#else
        const QString out = dir_.filePath("python.bin");
        QFile::remove(out);
        const QString script = code + "open(" + "\"" + out + "\", \"wb\").write(" + variable + ".tobytes())\n";
        const auto [status, output] =
            run("/usr/bin/python3", {"-c", script}, "PYTHONPATH", QStringLiteral(LINESCOPE_PYTHONPATH));
        if (status != 0) qWarning().noquote() << script << output;
        QFile f(out);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
#endif
    }

    // The copied command with linescope-cli's path; its comment dropped.
    int runCommand(QString command) {
        command = command.section('#', 0, 0).trimmed();
        command.replace(QRegularExpression("^linescope-cli "), QStringLiteral(LINESCOPE_CLI " "));
        const auto [status, output] = run("/bin/sh", {"-c", "cd '" + dir_.path() + "' && " + command});
        if (status != 0) qWarning().noquote() << command << output;
        return status;
    }

    // The image the copied result command writes, its output (the last word) put in the folder.
    QByteArray resultOfCommand(QString command, const QString& name) {
        const QString out = dir_.filePath(name);
        command = command.trimmed().section(' ', 0, -2) + " " + out;
        if (runCommand(command) != 0) return {};
        return bytesOf(io::readImage(out.toStdString(), {}));
    }
    // The supremum the copied sweep command writes, its folder put in ours.
    QByteArray supremumOfCommand(QString command, const QString& name) {
        const QString folder = command.section("--out-dir ", 1).section(' ', 0, 0);
        command.replace("--out-dir " + folder, "--out-dir " + dir_.filePath(name));
        if (runCommand(command) != 0) return {};
        return bytesOf(io::readImage(dir_.filePath(name + "/supremum.png").toStdString(), {}));
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        window_ = test::makeTestWindow(QStringLiteral(LINESCOPE_SAMPLES_DIR));
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QVERIFY(copied("copyAsPython").isEmpty());  // nothing to copy before an image
        QSignalSpy opened(&window_->session(), &session::Session::imageOpened);
        window_->openFile(QStringLiteral(LINESCOPE_SAMPLES_DIR "/oriented_texture.png"));
        QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty(), 30000);
    }

    void numbersAndAngleSetsParseBack() {
        for (double v : {0.0, -0.0, 30.0, 0.1, 37.300000000000004, 179.9, -12.25, 1e-7, 123456.789})
            QCOMPARE(std::stod(ui::exactNumber(v)), v);
        QCOMPARE(ui::exactNumber(37.3), std::string("37.3"));
        QCOMPARE(ui::exactNumber(-0.0), std::string("0"));
        for (const AngleSet& a : {AngleSet{0, 1, 180}, AngleSet::overHalfTurn(36), AngleSet::overHalfTurn(7),
                                  AngleSet{-10, 0.25, 81}, AngleSet{-10, 2.5, 9}, AngleSet{3.3, 0.1, 17}}) {
            const AngleSet back = AngleSet::parse(ui::angleSetWords(a));
            QVERIFY2(back.start == a.start && back.step == a.step && back.count == a.count, ui::angleSetWords(a).c_str());
        }
        QCOMPARE(ui::angleSetWords(AngleSet::overHalfTurn(36)), std::string("36"));
    }

    void contoursTextNamesTheirParameters() {
        ui::CopyAsState s;
        s.file = "/data/a b's.png";
        s.params.op = MorphOp::TopHat;
        s.params.angle = 12.5;
        s.params.length = 9;
        s.params.contours = {40.5, ContourMode::Tree, ContourApprox::None};
        s.contours = true;
        s.contourSource = session::Plane::Supremum;
        const std::string py = ui::copyAsPython(s);
        QVERIFY2(py.find("img = linescope.imread(\"/data/a b's.png\")") != std::string::npos, py.c_str());
        QVERIFY2(py.find("sweep = linescope.sweep(img, length=9, angles=\"180\", op=\"open\")") != std::string::npos,
                 py.c_str());  // a top-hat view sweeps openings, as the session does
        QVERIFY2(py.find("linescope.contours(sweep.sup, mode=\"tree\", approx=\"none\", threshold=40.5)") !=
                     std::string::npos, py.c_str());
        const std::string sh = ui::copyAsCommandLine(s);
        QVERIFY2(sh.find("linescope-cli sweep --length 9 --angles 180 --op open '/data/a b'\\''s.png' --out-dir") !=
                     std::string::npos, sh.c_str());
        QVERIFY2(sh.find("linescope-cli contours --threshold 40.5 --mode tree --approx none a b's-sweep-open-L9/supremum.png") ==
                     std::string::npos, sh.c_str());  // quoted
        QVERIFY2(sh.find("--mode tree --approx none 'a b'\\''s-sweep-open-L9/supremum.png' --json") != std::string::npos,
                 sh.c_str());
    }

    // The Result view: the copied call and command give the snapshot's pixels.
    void resultViewRoundTrips() {
        window_->viewControls()->setView(ui::Plane::Result);
        window_->setOperator(MorphOp::Close);
        window_->setAngle(37.3);
        window_->setLength(15);
        const double angle = window_->session().parameters().angle;
        QTRY_VERIFY_WITH_TIMEOUT(window_->viewport()->snapshot() && [&] {
            const auto& p = std::get<session::ResultParams>(window_->viewport()->snapshot()->request.params);
            return p.op == MorphOp::Close && p.line.angle == angle && p.line.length == 15;
        }(), 30000);
        const auto result = session::hostResult(*window_->viewport()->snapshot());
        const QByteArray expected = bytesOf(std::get<Image<std::uint8_t>>(*result).cview());
        QVERIFY(!expected.isEmpty());

        const QString python = copied("copyAsPython");
        QVERIFY2(python.contains("result = linescope.close(img, angle=37.3, length=15)"), qPrintable(python));
#ifdef LINESCOPE_PYTHONPATH
        QCOMPARE(runPython(python, "result"), expected);
#endif
        const QString command = copied("copyAsCommandLine");
        QVERIFY2(command.startsWith("linescope-cli close --angle 37.3 --length 15 "), qPrintable(command));
        QCOMPARE(resultOfCommand(command, "cli-result.png"), expected);
    }

    // A sweep plane: the copied sweep, its field and its folder's file give the plane.
    void sweepPlaneRoundTrips() {
        const AngleSet angles{-10, 2.5, 9};
        window_->setOperator(MorphOp::Open);
        window_->setLength(11);
        window_->viewControls()->setAngleSet(angles);
        window_->viewControls()->setView(ui::Plane::Supremum);
        const auto sweepDone = [&] {
            const auto s = window_->viewport()->sweepSnapshot();
            if (!s || window_->viewport()->shownSweepId() != s->id) return false;
            const SweepRequest& r = std::get<session::SweepParams>(s->request.params).sweep;
            return r.length == 11 && r.op == MorphOp::Open && r.angles.start == angles.start &&
                   r.angles.step == angles.step && r.angles.count == angles.count;
        };
        QTRY_VERIFY_WITH_TIMEOUT(sweepDone(), 60000);
        const auto sweep = session::hostSweep(*window_->viewport()->sweepSnapshot());
        const QByteArray expected = bytesOf(std::get<SweepResult<std::uint8_t>>(*sweep).sup.cview());
        QVERIFY(!expected.isEmpty());

        const QString python = copied("copyAsPython");
        QVERIFY2(python.contains("sweep = linescope.sweep(img, length=11, angles=\"-10:12.5:2.5\", op=\"open\")") &&
                     python.contains("plane = sweep.sup"), qPrintable(python));
#ifdef LINESCOPE_PYTHONPATH
        QCOMPARE(runPython(python, "plane"), expected);
#endif
        const QString command = copied("copyAsCommandLine");
        QVERIFY2(command.startsWith("linescope-cli sweep --length 11 --angles -10:12.5:2.5 --op open "), qPrintable(command));
        const QString folder = command.section("--out-dir ", 1).section(' ', 0, 0);
        QVERIFY2(command.contains("# the view: " + folder + "/supremum.png"), qPrintable(command));
        QCOMPARE(supremumOfCommand(command, "cli-sweep"), expected);
    }

    // Another line kind: the text names it (--line, line=) and still gives the window's pixels,
    // the result's and a sweep plane's.
    void lineKindRoundTrips() {
        window_->viewControls()->setView(ui::Plane::Result);
        window_->setOperator(MorphOp::Open);
        window_->setAngle(30);
        window_->setLength(11);
        window_->setLineKind(LineKind::Segment);
        QTRY_VERIFY_WITH_TIMEOUT(window_->viewport()->snapshot() && [&] {
            const auto& p = std::get<session::ResultParams>(window_->viewport()->snapshot()->request.params);
            return p.op == MorphOp::Open && p.line.angle == 30 && p.line.length == 11 && p.line.kind == LineKind::Segment;
        }(), 30000);
        const QByteArray expected =
            bytesOf(std::get<Image<std::uint8_t>>(*session::hostResult(*window_->viewport()->snapshot())).cview());
        const QString python = copied("copyAsPython");
        QVERIFY2(python.contains("result = linescope.open(img, angle=30, length=11, line=\"segment\")"), qPrintable(python));
#ifdef LINESCOPE_PYTHONPATH
        QCOMPARE(runPython(python, "result"), expected);
#endif
        const QString command = copied("copyAsCommandLine");
        QVERIFY2(command.startsWith("linescope-cli open --angle 30 --length 11 --line segment "), qPrintable(command));
        QCOMPARE(resultOfCommand(command, "cli-segment.png"), expected);

        window_->setLineKind(LineKind::Periodic);
        window_->viewControls()->setAngleSet(AngleSet{0, 30, 6});
        window_->viewControls()->setView(ui::Plane::Supremum);
        QTRY_VERIFY_WITH_TIMEOUT([&] {
            const auto s = window_->viewport()->sweepSnapshot();
            return s && window_->viewport()->shownSweepId() == s->id &&
                   std::get<session::SweepParams>(s->request.params).sweep.kind == LineKind::Periodic &&
                   std::get<session::SweepParams>(s->request.params).sweep.angles.count == 6;
        }(), 60000);
        const QByteArray plane = bytesOf(
            std::get<SweepResult<std::uint8_t>>(*session::hostSweep(*window_->viewport()->sweepSnapshot())).sup.cview());
        const QString sweepPython = copied("copyAsPython");
        QVERIFY2(sweepPython.contains("line=\"periodic\")"), qPrintable(sweepPython));
#ifdef LINESCOPE_PYTHONPATH
        QCOMPARE(runPython(sweepPython, "plane"), plane);
#endif
        const QString sweepCommand = copied("copyAsCommandLine");
        QVERIFY2(sweepCommand.contains(" --line periodic "), qPrintable(sweepCommand));
        QCOMPARE(supremumOfCommand(sweepCommand, "cli-periodic"), plane);
        window_->setLineKind(LineKind::Paths);
    }

    void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(TestCopyAs)
#include "test_copy_as.moc"
