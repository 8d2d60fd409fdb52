// The orientation-field workbench in the window (label gui, issue 21): the needles drawn are
// the engine's field (angle and coherence a block, in the app's orientation colours); the
// exported CSV and JSON are linescope-cli orientation's bytes for the same parameters; the
// singular points are the engine's on the field shown; the difference map is the per-block
// 180°-periodic difference of the engine's field and the structure tensor's; the workbench
// fits 1280×800; the Fingerprint orientation task opens it.
#include "app/analysis/structure_tensor.h"
#include "app/session/any_image_mat.h"
#include "app/session/orientation_workbench.h"
#include "compute/orientation_field.h"
#include "compute/singular_points.h"
#include "compute/sweep.h"
#include "tests/cli/cli_process.h"
#include "tests/ui/window_fixture.h"
#include "ui/field_workbench_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <numbers>

using namespace linescope;
using namespace linescope::ui;

namespace {

constexpr int kTimeoutMs = 120000;

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The JSON with its time_ms value (the one number that differs from run to run) replaced.
QByteArray withoutTime(QByteArray json) {
    return QString::fromUtf8(json).replace(QRegularExpression("\"time_ms\": [-0-9.e+]+"), "\"time_ms\": T").toUtf8();
}

int colourDistance(QRgb a, QRgb b) {
    return std::max({std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b))});
}

}  // namespace

class TestFieldWorkbench : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;

    session::Session& session() { return window_->session(); }
    FieldWorkbenchPanel& panel() { return *window_->fieldWorkbenchPanel(); }

    // Waits until both panes show the Field snapshot of the session's current parameters.
    session::SnapshotPtr awaitField() {
        session::SnapshotPtr shown;
        const bool ok = QTest::qWaitFor(
            [&] {
                const auto s = session().latest(session::RequestKind::Field);
                const auto want = session().requestFor(session::RequestKind::Field);
                if (!s || !want || !s->ok() || s->request.image != want->image || session().queue().busy()) return false;
                const auto& a = std::get<session::FieldParams>(s->request.params);
                const auto& b = std::get<session::FieldParams>(want->params);
                if (a.field.blockSize != b.field.blockSize || a.field.length != b.field.length ||
                    a.field.smoothing != b.field.smoothing || !a.tensor != !b.tensor ||
                    (a.tensor && a.tensor->windowSigma != b.tensor->windowSigma))
                    return false;
                if (panel().workbench()->shown() != s) return false;
                shown = s;
                return true;
            },
            kTimeoutMs);
        return ok ? shown : nullptr;
    }

    void openSample(const QString& name) {
        session().openImage(QStringLiteral(LINESCOPE_SAMPLES_DIR "/") + name);
        QVERIFY(QTest::qWaitFor([&] { return session().image() != nullptr && !session().opening(); }, kTimeoutMs));
    }

    // The engine's field for the snapshot's request, computed here.
    static OrientationField engineField(const session::Snapshot& s) {
        const auto& p = std::get<session::FieldParams>(s.request.params);
        return std::visit([&](const auto& img) { return estimateOrientationField(img.cview(), p.field, {}); }, *s.request.image);
    }

private slots:
    void initTestCase() {
        window_ = test::makeTestWindow(QStringLiteral(LINESCOPE_SAMPLES_DIR));
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        openSample("fingerprint.png");
        window_->setFieldWorkbenchMode(true);
        QVERIFY(window_->fieldWorkbenchMode());
        QVERIFY(session().isLive(session::RequestKind::Field));
    }

    // Each needle is a foreground block of the engine's field: its angle and coherence, its
    // length from the coherence; drawn in the orientation colour of that angle along it.
    void needlesAreTheEngineField() {
        const auto s = awaitField();
        QVERIFY(s);
        const OrientationField want = engineField(*s);
        const OrientationField& shown = s->field->field;
        QCOMPARE(shown.angle, want.angle);
        QCOMPARE(shown.coherence, want.coherence);
        QCOMPARE(shown.foreground, want.foreground);
        const auto needles = fieldNeedles(shown);
        int foreground = 0;
        for (const unsigned char f : want.foreground) foreground += f;
        QCOMPARE(int(needles.size()), foreground);
        QVERIFY(foreground > 50);
        const double scale = 3;
        const QImage pane = renderFieldView(FieldView::Needles, *s->field, *s->request.image, scale);
        int drawnChecked = 0;
        for (const FieldNeedle& n : needles) {
            const std::size_t b = static_cast<std::size_t>(n.by) * want.blocksX + n.bx;
            QCOMPARE(n.angle, double(want.angle[b]));
            QCOMPARE(n.coherence, double(want.coherence[b]));
            const double len = std::hypot(n.x1 - n.x0, n.y1 - n.y0);
            QVERIFY(std::abs(len - needleLength(want.blockSize, want.coherence[b])) < 1e-9);
            // Direction (cos α, −sin α), y down.
            const double a = want.angle[b] * std::numbers::pi / 180;
            QVERIFY(std::abs((n.x1 - n.x0) / len - std::cos(a)) < 1e-9 && std::abs((n.y1 - n.y0) / len + std::sin(a)) < 1e-9);
            std::uint8_t rgb[3];
            orientationColour(want.angle[b], 1.0, rgb);
            QCOMPARE(n.colour, QColor(rgb[0], rgb[1], rgb[2]));
            // Drawn: the needle's colour at its centre and a third of the way to its end, unless
            // a singular point's marker is there.
            bool nearMarker = false;
            for (const SingularPoint& p : s->field->singular)
                nearMarker = nearMarker || std::hypot(p.x - (n.bx + 0.5), p.y - (n.by + 0.5)) < 2.5;
            if (nearMarker) continue;
            const double cx = (n.x0 + n.x1) / 2, cy = (n.y0 + n.y1) / 2;
            for (const double t : {0.0, 0.33}) {
                const int px = int(std::floor((cx + t * (n.x1 - cx)) * scale)), py = int(std::floor((cy + t * (n.y1 - cy)) * scale));
                if (!pane.rect().contains(px, py)) continue;  // a block the image's edge cuts
                QVERIFY2(colourDistance(pane.pixel(px, py), n.colour.rgb()) <= 24,
                         qPrintable(QString("block (%1, %2) at %3: drawn %4, needle %5")
                                        .arg(n.bx).arg(n.by).arg(t).arg(QColor(pane.pixel(px, py)).name(), n.colour.name())));
            }
            ++drawnChecked;
        }
        QVERIFY(drawnChecked > foreground / 2);
    }

    // The CSV and the JSON from the window are the CLI's for the same parameters, byte for byte
    // (the JSON's time_ms aside: each run's own time).
    void exportsAreTheCli() {
        panel().blockSlider()->setValue(12);
        panel().lengthSlider()->setValue(13);
        panel().smoothingBox()->setValue(1.5);
        const auto s = awaitField();
        QVERIFY(s);
        QTemporaryDir dir;
        const QString csv = dir.filePath("window.csv"), json = dir.filePath("window.json"), png = dir.filePath("needles.png");
        QString error;
        QVERIFY2(panel().workbench()->exportCsv(csv, &error), qPrintable(error));
        QVERIFY2(panel().workbench()->exportJson(json, &error), qPrintable(error));
        QVERIFY2(panel().workbench()->exportNeedleImage(png, &error), qPrintable(error));
        const test::CliRun run = test::runProcess(
            QStringLiteral(LINESCOPE_CLI),
            {"orientation", "--block", "12", "--length", "13", "--smoothing", "1.5", "--csv", dir.filePath("cli.csv"),
             QStringLiteral(LINESCOPE_SAMPLES_DIR "/fingerprint.png")},
            kTimeoutMs);
        QVERIFY2(run.finished && run.code == 0, qPrintable(run.describe()));
        const QByteArray cliCsv = readAll(dir.filePath("cli.csv"));
        QVERIFY(cliCsv.size() > 1000);
        QCOMPARE(readAll(csv), cliCsv);
        QVERIFY(run.outBytes.contains("\"block_size\": 12, \"length\": 13"));
        QCOMPARE(withoutTime(readAll(json)), withoutTime(run.outBytes));
        // The needle image: the image's size, the left pane at 1:1.
        const QImage img(png);
        QCOMPARE(img.size(), QSize(session::widthOf(*s->request.image), session::heightOf(*s->request.image)));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).size() == 4);  // no temporary file left
        panel().blockSlider()->setValue(16);
        panel().lengthSlider()->setValue(kDefaultOrientationLength);
        panel().smoothingBox()->setValue(1.0);
    }

    // The points marked are singularPoints of the field shown, with the workbench's smoothing.
    void singularPointsAreTheEngines() {
        const auto s = awaitField();
        QVERIFY(s);
        const auto& p = std::get<session::FieldParams>(s->request.params);
        const OrientationField& f = s->field->field;
        const auto want = singularPoints(f.angle, f.foreground, f.blocksX, f.blocksY, p.singular);
        QCOMPARE(s->field->singular.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            QCOMPARE(s->field->singular[i].kind, want[i].kind);
            QCOMPARE(s->field->singular[i].x, want[i].x);
            QCOMPARE(s->field->singular[i].y, want[i].y);
        }
        // The bundled print's model has its core near (205, 185) and its delta near (120, 355)
        // (resources/samples/README.md): each found within 1.5 blocks.
        const auto near = [&](SingularKind kind, double x, double y) {
            return std::any_of(want.begin(), want.end(), [&](const SingularPoint& q) {
                return q.kind == kind && std::hypot(q.x * f.blockSize - x, q.y * f.blockSize - y) <= 1.5 * f.blockSize;
            });
        };
        QVERIFY(near(SingularKind::Core, 205, 185));
        QVERIFY(near(SingularKind::Delta, 120, 355));
        QVERIFY2(panel().summaryLabel()->text().contains("core"), qPrintable(panel().summaryLabel()->text()));
    }

    // The difference map is |LineScope − tensor| modulo 180 into [0, 90] per block, the tensor
    // computed here with the workbench's window on the same blocks; the pane paints its colour.
    void differenceIsPeriodicPerBlock() {
        panel().rightViewBox()->setCurrentIndex(panel().rightViewBox()->findData(int(FieldView::Difference)));
        QCOMPARE(panel().workbench()->rightView(), FieldView::Difference);
        const auto s = awaitField();
        QVERIFY(s && s->field->tensor);
        const auto& p = std::get<session::FieldParams>(s->request.params);
        analysis::StructureTensorParams tp = *p.tensor;
        tp.blockSize = s->field->field.blockSize;
        const analysis::BlockField tensor = analysis::structureTensorField(session::matOf(*s->request.image), tp);
        QCOMPARE(s->field->tensor->degrees, tensor.degrees);
        const OrientationField& f = s->field->field;
        QCOMPARE(s->field->difference.size(), f.angle.size());
        const double scale = 2;
        const QImage pane = renderFieldView(FieldView::Difference, *s->field, *s->request.image, scale);
        for (std::size_t b = 0; b < f.angle.size(); ++b) {
            double d = std::abs(double(f.angle[b]) - double(tensor.degrees[b]));
            while (d >= 180) d -= 180;
            if (d > 90) d = 180 - d;
            QVERIFY2(std::abs(s->field->difference[b] - d) < 1e-4, qPrintable(QString("block %1").arg(b)));
            if (!f.foreground[b]) continue;
            const int bx = int(b % f.blocksX), by = int(b / f.blocksX);
            const int px = int((bx + 0.5) * f.blockSize * scale), py = int((by + 0.5) * f.blockSize * scale);
            if (px >= pane.width() || py >= pane.height()) continue;
            QVERIFY2(colourDistance(pane.pixel(px, py), differenceColour(d)) <= 20, qPrintable(QString("block %1").arg(b)));
        }
        // Periodicity itself: 179° and 1° are 2° apart, 10° and 100° are 90°.
        QCOMPARE(session::periodicDifference({179.f, 10.f}, {1.f, 100.f}), (std::vector<float>{2.f, 90.f}));
        panel().rightViewBox()->setCurrentIndex(panel().rightViewBox()->findData(int(FieldView::Tensor)));
    }

    // A drag of the block slider: the engine answers its last value, and the panes show it.
    void sliderDragEndsOnItsLastValue() {
        for (int b = 8; b <= 24; b += 2) panel().blockSlider()->setValue(b);
        const auto s = awaitField();
        QVERIFY(s);
        QCOMPARE(s->field->field.blockSize, 24);
        QVERIFY(QTest::qWaitFor([&] { return panel().leftPane()->shownId() == s->id; }, kTimeoutMs));
        panel().blockSlider()->setValue(16);
        QVERIFY(awaitField());
    }

    // At 1280×800 the window fits, the controls column shows every control unscrolled and
    // both panes get a usable width.
    void fitsAt1280x800() {
        window_->resize(1280, 800);
        QTest::qWait(50);
        QVERIFY(QTest::qWaitFor([&] { return window_->width() <= 1280 && window_->height() <= 800; }, 5000));
        QVERIFY2(window_->minimumSizeHint().width() <= 1280 && window_->minimumSizeHint().height() <= 800,
                 qPrintable(QString("%1×%2").arg(window_->minimumSizeHint().width()).arg(window_->minimumSizeHint().height())));
        auto* scroll = panel().findChild<QScrollArea*>("fieldControlsScroll");
        QVERIFY(scroll);
        QCOMPARE(scroll->verticalScrollBar()->maximum(), 0);  // every control shows unscrolled
        QVERIFY2(panel().leftPane()->width() >= 380 && panel().rightPane()->width() >= 380,
                 qPrintable(QString("%1, %2").arg(panel().leftPane()->width()).arg(panel().rightPane()->width())));
        QVERIFY(panel().leftPane()->height() >= 500);
    }

    // Task ▸ Fingerprint orientation opens the workbench; another task closes it; lesson mode
    // and the workbench exclude each other.
    void fingerprintTaskOpensTheWorkbench() {
        window_->applyTask(Task::PageSkew);
        QVERIFY(!window_->fieldWorkbenchMode());
        QVERIFY(!session().isLive(session::RequestKind::Field));
        window_->applyTask(Task::FingerprintOrientation);
        QVERIFY(window_->fieldWorkbenchMode());
        QVERIFY(session().isLive(session::RequestKind::Field));
        window_->setLessonMode(true);
        QVERIFY(!window_->fieldWorkbenchMode());
        window_->setFieldWorkbenchMode(true);
        QVERIFY(!window_->lessonMode());
    }

    void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(TestFieldWorkbench)
#include "test_field_workbench.moc"
