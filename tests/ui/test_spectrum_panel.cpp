// The angular-spectrum dock (label gui, under Xvfb without a display): a real sweep's spectrum
// in the series, clicks mapped back to angles, the marker, the polar form, the skew read-out
// and Deskew, and the CSV/PNG exports read back.
#include "ui/spectrum_panel.h"

#include "app/session/planes.h"

#include "app/io/atomic_file.h"
#include "app/io/export_recipe.h"
#include "compute/spectrum_peaks.h"
#include "compute/sweep.h"
#include "ui/skew_box.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QPolarChart>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numbers>

using namespace linescope;
using linescope::ui::SpectrumPanel;
using linescope::ui::directionOfRoseValue;
using linescope::ui::roseValue;
using Form = SpectrumPanel::Form;

namespace {

// Bright lines (200) on a dark ground (20), 3 px thick every 12 px, running at `degrees`
// counter-clockwise on screen (direction (cos α, −sin α)).
template <class T>
Image<T> linesAt(double degrees, int w = 160, int h = 120, double scale = 1) {
    const double r = degrees * std::numbers::pi / 180.0;
    const double nx = std::sin(r), ny = std::cos(r);  // the lines' unit normal
    Image<T> img(w, h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const double s = x * nx + y * ny;
            const double u = s - 12 * std::floor(s / 12);
            img.at(x, y) = static_cast<T>((u < 3 ? 200 : 20) * scale);
        }
    return img;
}

template <class T>
SweepResult<T> sweepOf(const Image<T>& img, const AngleSet& angles) {
    SweepRequest req;
    req.op = MorphOp::Open;
    req.length = 41;
    req.angles = angles;
    EngineOptions cpu;
    cpu.backend = Backend::Cpu;
    return sweep<T>(img.cview(), req, cpu);
}

// The angle axis (x, or the polar chart's angular one) or the value axis (y, or radial).
QValueAxis* axisOf(QChartView* view, bool angle) {
    QChart* chart = view->chart();
    QList<QAbstractAxis*> axes;
    if (auto* polar = qobject_cast<QPolarChart*>(chart))
        axes = polar->axes(angle ? QPolarChart::PolarOrientationAngular : QPolarChart::PolarOrientationRadial);
    else
        axes = chart->axes(angle ? Qt::Horizontal : Qt::Vertical);
    return axes.isEmpty() ? nullptr : qobject_cast<QValueAxis*>(axes.first());
}

}  // namespace

class TestSpectrumPanel : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<SpectrumPanel> panel_;
    const AngleSet angles_{0, 5, 36};  // 0:180:5
    SweepResult<std::uint8_t> u8_;

    // The viewport pixel nearest to (angle, value) of `form`'s spectrum series.
    QPoint pixelOf(Form form, double angle, double value) const {
        QChart* chart = panel_->chartView(form)->chart();
        const QPointF inChart = chart->mapToPosition({angle, value}, panel_->spectrumSeries(form));
        return panel_->chartView(form)->mapFromScene(chart->mapToScene(inChart));
    }

    // Clicks at the pixel of `angle` and returns the emitted angles.
    QList<double> clickAt(Form form, double angle, double value) {
        QSignalSpy spy(panel_.get(), &SpectrumPanel::angleClicked);
        QTest::mouseClick(panel_->chartView(form)->viewport(), Qt::LeftButton, {}, pixelOf(form, angle, value));
        QList<double> out;
        for (const auto& args : spy) out.append(args.at(0).toDouble());
        return out;
    }

private slots:
    void initTestCase() {
        u8_ = sweepOf(linesAt<std::uint8_t>(30), angles_);
        // The synthetic image says what it should: the openings keep most at the lines' angle.
        const auto peak = std::max_element(u8_.spectrum.begin(), u8_.spectrum.end()) - u8_.spectrum.begin();
        QCOMPARE(angles_.angle(static_cast<int>(peak)), 30.0);
    }

    void init() {
        panel_ = std::make_unique<SpectrumPanel>();
        panel_->resize(640, 480);
        panel_->show();
        QVERIFY(QTest::qWaitForWindowExposed(panel_.get()));
    }

    void cleanup() { panel_.reset(); }

    void emptyStateIsAPlaceholder() {
        QVERIFY(!panel_->hasSpectrum());
        auto* stack = panel_->findChild<QStackedWidget*>();
        QVERIFY(stack);
        auto* label = qobject_cast<QLabel*>(stack->currentWidget());
        QVERIFY2(label && !label->text().isEmpty(), "the placeholder text is shown");
        panel_->setCurrentAngle(42);
        panel_->setForm(Form::Polar);
        QCOMPARE(stack->currentWidget(), label);
        QVERIFY(panel_->markerSeries(Form::Cartesian)->points().isEmpty());
        QTemporaryDir dir;
        QString error;
        QVERIFY(!panel_->exportCsv(dir.filePath("s.csv"), &error));
        QVERIFY(!error.isEmpty());
        error.clear();
        QVERIFY(!panel_->exportPng(dir.filePath("s.png"), &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!QFile::exists(dir.filePath("s.csv")) && !QFile::exists(dir.filePath("s.png")));

        // A spectrum whose size does not match its angles is refused with a message.
        panel_->setSpectrum(angles_, std::vector<double>(5, 1.0), QStringLiteral("bad"));
        QVERIFY(!panel_->hasSpectrum());
        QCOMPARE(stack->currentWidget(), label);
        QVERIFY(label->text().contains(QStringLiteral("5")));
    }

    // The cartesian plot shows the mean grey level per pixel (sum / pixel count), says so on
    // its axis, and labels the peaks spectrumPeaks finds; a zero baseline on request.
    void seriesHoldTheSpectrum() {
        panel_->setSweep(*session::spectrumOf(session::AnySweep(u8_)), QStringLiteral("opening, λ 41"));
        QVERIFY(panel_->hasSpectrum());
        const double pixels = double(u8_.sup.width()) * u8_.sup.height();
        const QList<QPointF> cart = panel_->spectrumSeries(Form::Cartesian)->points();
        QCOMPARE(cart.size(), angles_.count);
        std::vector<double> perPixel;
        for (int k = 0; k < angles_.count; ++k) {
            QCOMPARE(cart[k].x(), angles_.angle(k));
            perPixel.push_back(static_cast<double>(u8_.spectrumExact[static_cast<std::size_t>(k)]) / pixels);
            QCOMPARE(cart[k].y(), perPixel.back());
            QVERIFY(cart[k].y() >= 0 && cart[k].y() <= 255);
        }
        auto* values = axisOf(panel_->chartView(Form::Cartesian), false);
        QVERIFY(values->titleText().contains(QStringLiteral("px")));
        QVERIFY(panel_->chartView(Form::Cartesian)->chart()->title().contains(QStringLiteral("mean grey level per pixel")));
        QVERIFY(values->min() > 0);  // fitted to the curve by default
        panel_->zeroBaselineBox()->setChecked(true);
        QCOMPARE(values->min(), 0.0);
        panel_->zeroBaselineBox()->setChecked(false);
        QVERIFY(values->min() > 0);

        const std::vector<SpectrumPeak> peaks = spectrumPeaks(perPixel, angles_, false);
        QVERIFY(!peaks.empty());
        const QList<QPointF> labelled = panel_->peakSeries()->points();
        QCOMPARE(labelled.size(), qsizetype(peaks.size()));
        for (std::size_t i = 0; i < peaks.size(); ++i)
            QCOMPARE(labelled[qsizetype(i)].x(), std::round(peaks[i].angle * 100) / 100);  // labelled to 0.01°
        QVERIFY(panel_->peakSeries()->pointLabelsVisible());
        QVERIFY(std::abs(peaks[0].angle - 30) < 2.5);  // the lines' angle
        QVERIFY(panel_->chartView(Form::Cartesian)->chart()->title().startsWith(QStringLiteral("opening, λ 41")));
    }

    // The rose: each direction α at the angular value −α (roseValue), so that it appears at the
    // screen angle α (0° East, counter-clockwise), its mirror at α + 180°, the radius from zero.
    void polarRoseIsMirroredAndInScreenAngles() {
        QCOMPARE(roseValue(0), 0.0);
        QCOMPARE(roseValue(30), -30.0);
        QCOMPARE(roseValue(150), 30.0);   // ≡ −30°
        QCOMPARE(roseValue(-10), 10.0);
        QCOMPARE(directionOfRoseValue(-30), 30.0);
        QCOMPARE(directionOfRoseValue(150), 30.0);  // the mirror's point (−30 + 180) is the same direction
        panel_->setSweep(*session::spectrumOf(session::AnySweep(u8_)), QString());
        panel_->setForm(Form::Polar);
        QTest::qWait(0);
        const QList<QPointF> right = panel_->spectrumSeries(Form::Polar)->points();
        const QList<QPointF> left = panel_->mirrorSeries()->points();
        QCOMPARE(right.size(), left.size());
        const QList<QPointF> cart = panel_->spectrumSeries(Form::Cartesian)->points();
        for (int k = 0; k < angles_.count; ++k) {
            const double v = roseValue(angles_.angle(k));
            const auto at = [&](const QList<QPointF>& pts, double x) {
                for (const QPointF& p : pts)
                    if (std::abs(p.x() - x) < 1e-9) return p.y();
                return -1.0;
            };
            QCOMPARE(at(right, v), cart[k].y());
            QCOMPARE(at(left, v + 180), cart[k].y());
        }
        // Drawn at the screen angle: the point of α = 30° lies up and to the right of the centre,
        // at 30° above the horizontal, and its mirror opposite.
        QChart* chart = panel_->chartView(Form::Polar)->chart();
        const QPointF centre = chart->plotArea().center();
        for (double a : {30.0, 100.0, 0.0}) {
            const QPointF p = chart->mapToPosition({roseValue(a), 1.0}, panel_->spectrumSeries(Form::Polar));
            const QPointF m = chart->mapToPosition({roseValue(a) + 180, 1.0}, panel_->mirrorSeries());
            const double screen = std::atan2(-(p.y() - centre.y()), p.x() - centre.x()) * 180 / std::numbers::pi;
            const double d = std::remainder(screen - a, 180.0);
            QVERIFY2(std::abs(d) < 0.5, qPrintable(QString("α %1: drawn at %2°").arg(a).arg(screen)));
            QVERIFY(std::abs((p + m).x() / 2 - centre.x()) < 1 && std::abs((p + m).y() / 2 - centre.y()) < 1);
        }
        auto* radial = axisOf(panel_->chartView(Form::Polar), false);
        QCOMPARE(radial->min(), 0.0);
    }

    // A partial set through the vertical (60 … 120°) draws two arcs, each where its angles lie,
    // split at the top where Qt's angular axis ends: no line jumps across the rose.
    void partialSetRoseHasNoJumps() {
        const AngleSet upright{60, 5, 13};
        panel_->setSpectrum(upright, std::vector<double>(13, 2.0), QString());
        QChart* chart = panel_->chartView(Form::Polar)->chart();
        int points = 0;
        QList<double> xs;
        for (QAbstractSeries* a : chart->series()) {
            auto* line = qobject_cast<QLineSeries*>(a);
            if (!line || line == panel_->markerSeries(Form::Polar)) continue;
            const QList<QPointF> pts = line->points();
            points += int(pts.size());
            for (int i = 0; i < pts.size(); ++i) {
                QVERIFY(pts[i].x() >= -90 && pts[i].x() <= 270);
                xs.append(pts[i].x());
                if (i > 0) QVERIFY2(std::abs(pts[i].x() - pts[i - 1].x()) <= 5 + 1e-9, "a jump across the rose");
            }
        }
        QCOMPARE(points, 2 * 13 + 2);  // both arcs, and the seam's point on either side of the top
        // The arc of 60 … 120° sits at the screen angles 60 … 120 (values −60 … −90 and 270 … 240),
        // the opposite arc at 240 … 300 (values 120 … 60).
        for (double a : {60.0, 75.0, 120.0}) {
            const double v = -a, m = 180 - a;
            QVERIFY(xs.contains(v) || xs.contains(v + 360));
            QVERIFY(xs.contains(m));
        }
    }

    void clickGivesTheAngle() {
        panel_->setSweep(*session::spectrumOf(session::AnySweep(u8_)), QString());
        QTest::qWait(0);  // layout
        auto* axis = axisOf(panel_->chartView(Form::Cartesian), true);
        QVERIFY(axis);
        const QList<QPointF> curve = panel_->spectrumSeries(Form::Cartesian)->points();  // per pixel
        const double mid = (curve.front().y() + curve.back().y()) / 2;
        // One pixel's worth of degrees (rounding the click to a pixel moves it by at most half).
        const double perPixel = (axis->max() - axis->min()) / panel_->chartView(Form::Cartesian)->chart()->plotArea().width();
        for (double a : {30.0, 77.5, 151.2}) {
            const QList<double> got = clickAt(Form::Cartesian, a, mid);
            QCOMPARE(got.size(), 1);
            QVERIFY2(std::abs(got[0] - a) <= perPixel, qPrintable(QString("clicked %1°, got %2°").arg(a).arg(got[0])));
        }
        // Outside the plot area: nothing.
        QSignalSpy spy(panel_.get(), &SpectrumPanel::angleClicked);
        QTest::mouseClick(panel_->chartView(Form::Cartesian)->viewport(), Qt::LeftButton, {}, QPoint(2, 2));
        QCOMPARE(spy.count(), 0);

        // Polar: the angle of the click point. At radius r pixels one pixel spans
        // (range / 2π r) degrees; the points clicked lie near the outer radius.
        panel_->setForm(Form::Polar);
        QTest::qWait(0);
        QChart* polar = panel_->chartView(Form::Polar)->chart();
        auto* radial = axisOf(panel_->chartView(Form::Polar), false);
        QVERIFY(radial);
        const double outer = radial->min() + 0.9 * (radial->max() - radial->min());
        for (double a : {30.0, 100.0, 172.5}) {
            const QPoint p = pixelOf(Form::Polar, roseValue(a), outer);
            const QPointF centre = panel_->chartView(Form::Polar)->mapFromScene(polar->mapToScene(polar->plotArea().center()));
            const double r = std::hypot(p.x() - centre.x(), p.y() - centre.y());
            QVERIFY(r > 50);
            const double perPixelPolar = 180.0 / (2 * std::numbers::pi * r);
            const QList<double> got = clickAt(Form::Polar, roseValue(a), outer);
            QCOMPARE(got.size(), 1);
            QVERIFY2(std::abs(got[0] - a) <= perPixelPolar,
                     qPrintable(QString("polar: clicked %1°, got %2°").arg(a).arg(got[0])));
        }
    }

    void markerFollowsTheAngle() {
        panel_->setSweep(*session::spectrumOf(session::AnySweep(u8_)), QString());
        for (Form form : {Form::Cartesian, Form::Polar}) {
            panel_->setCurrentAngle(42.5);
            QList<QPointF> m = panel_->markerSeries(form)->points();
            QCOMPARE(m.size(), 2);
            const double x = form == Form::Polar ? roseValue(42.5) : 42.5;
            QCOMPARE(m[0].x(), x);
            QCOMPARE(m[1].x(), x);
            // The line spans the value axis.
            auto* values = axisOf(panel_->chartView(form), false);
            QCOMPARE(m[0].y(), values->min());
            QCOMPARE(m[1].y(), values->max());
            // Angles are modulo 180 on a 180° set.
            panel_->setCurrentAngle(222.5);
            QCOMPARE(panel_->markerSeries(form)->points().value(0).x(), x);
        }
        // A partial set (a skew search) hides the marker outside it and keeps it inside.
        const AngleSet narrow{-10, 0.5, 41};
        const SweepResult<std::uint8_t> r = sweepOf(linesAt<std::uint8_t>(3), narrow);
        panel_->setSpectrum(narrow, r.spectrumExact, QStringLiteral("skew"));
        panel_->setCurrentAngle(30);
        QVERIFY(panel_->markerSeries(Form::Cartesian)->points().isEmpty());
        QVERIFY(panel_->markerSeries(Form::Polar)->points().isEmpty());
        panel_->setCurrentAngle(-4.25);
        QCOMPARE(panel_->markerSeries(Form::Cartesian)->points().value(0).x(), -4.25);
        QCOMPARE(panel_->markerSeries(Form::Polar)->points().value(0).x(), roseValue(-4.25));
    }

    void polarToggle() {
        panel_->setSweep(*session::spectrumOf(session::AnySweep(u8_)), QString());
        auto* stack = panel_->findChild<QStackedWidget*>();
        QCOMPARE(panel_->form(), Form::Cartesian);
        QCOMPARE(stack->currentWidget(), panel_->chartView(Form::Cartesian));
        panel_->formCombo()->setCurrentIndex(1);  // as the user does
        QCOMPARE(panel_->form(), Form::Polar);
        QCOMPARE(stack->currentWidget(), panel_->chartView(Form::Polar));
        QVERIFY(panel_->chartView(Form::Polar)->isVisible());
        QVERIFY(qobject_cast<QPolarChart*>(panel_->chartView(Form::Polar)->chart()));
        // The rose's angular axis covers the whole circle (its values are −screen angle).
        auto* angular = axisOf(panel_->chartView(Form::Polar), true);
        QVERIFY(angular);
        QCOMPARE(angular->min(), -90.0);
        QCOMPARE(angular->max(), 270.0);
        panel_->setForm(Form::Cartesian);
        QCOMPARE(stack->currentWidget(), panel_->chartView(Form::Cartesian));
    }

    // Confident: the angle and Deskew; below kSkewConfidentThreshold: "no dominant line
    // direction" and no Deskew; an extreme at the range's end says so. Undo follows a deskew.
    void skewReadOutAndDeskew() {
        QVERIFY(!panel_->deskewButton()->isEnabled());
        QVERIFY(!panel_->undoDeskewButton()->isEnabled());
        SkewResult skew;
        skew.angle = 1.5;
        skew.confidence = 0.97;
        panel_->setSkew(skew, QStringLiteral("λ 41, −10 … 10° in 0.5° steps"));
        QCOMPARE(panel_->skewLabel()->text(), QStringLiteral("Skew +1.50° (confidence 0.97)"));
        QVERIFY(panel_->deskewButton()->isEnabled());
        QSignalSpy spy(panel_.get(), &SpectrumPanel::deskewRequested);
        QTest::mouseClick(panel_->deskewButton(), Qt::LeftButton);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toDouble(), 1.5);
        QVERIFY(panel_->undoDeskewButton()->isEnabled());
        QSignalSpy undo(panel_.get(), &SpectrumPanel::undoDeskewRequested);
        QTest::mouseClick(panel_->undoDeskewButton(), Qt::LeftButton);
        QCOMPARE(undo.count(), 1);
        QVERIFY(!panel_->undoDeskewButton()->isEnabled());
        panel_->setUndoAvailable(true);
        QVERIFY(panel_->undoDeskewButton()->isEnabled());

        // The fingerprint sample's estimate: −9.32°, confidence below the threshold.
        skew.angle = -9.32;
        skew.confidence = kSkewConfidentThreshold - 0.01;
        panel_->setSkew(skew);
        QVERIFY2(panel_->skewLabel()->text().contains(QStringLiteral("No dominant line direction")),
                 qPrintable(panel_->skewLabel()->text()));
        QVERIFY(!panel_->skewLabel()->text().contains(QStringLiteral("9.32")));
        QVERIFY(!panel_->deskewButton()->isEnabled());
        QTest::mouseClick(panel_->deskewButton(), Qt::LeftButton);
        QCOMPARE(spy.count(), 1);

        skew.angle = 10;
        skew.confidence = 0;
        skew.atRangeEdge = true;
        panel_->setSkew(skew);
        QVERIFY2(panel_->skewLabel()->text().contains(QStringLiteral("end")) &&
                     panel_->skewLabel()->text().contains(QStringLiteral("widen")),
                 qPrintable(panel_->skewLabel()->text()));
        QVERIFY(!panel_->deskewButton()->isEnabled());

        panel_->setSkew(std::nullopt);
        QVERIFY(!panel_->deskewButton()->isEnabled());
        QVERIFY(!panel_->skewLabel()->text().contains(QStringLiteral("confidence")));
    }

    // The search's range (start, stop inclusive, step) and polarity: shown from the session's
    // parameters, and each change emits the new parameters for Session::setSkewParams.
    void skewRangeAndPolarityControls() {
        ui::SkewBox* box = panel_->skewBox();
        SkewParams p;
        p.angles = AngleSet{-5, 0.25, 41};
        p.darkLines = false;
        p.refineRange = 0.4;
        QList<SkewParams> got;
        connect(panel_.get(), &SpectrumPanel::skewParamsChanged, this, [&](const SkewParams& q) { got.append(q); });
        panel_->setSkewParams(p);
        QVERIFY(got.isEmpty());  // showing emits nothing
        QCOMPARE(box->rangeStart()->value(), -5.0);
        QCOMPARE(box->rangeStop()->value(), 5.0);
        QCOMPARE(box->rangeStep()->value(), 0.25);
        QCOMPARE(box->polarityCombo()->currentIndex(), 1);
        box->rangeStop()->setValue(15);
        QCOMPARE(got.size(), 1);
        QCOMPARE(got[0].angles.start, -5.0);
        QCOMPARE(got[0].angles.step, 0.25);
        QCOMPARE(got[0].angles.count, 81);  // −5 … 15 inclusive
        QVERIFY(!got[0].darkLines);
        QCOMPARE(got[0].refineRange, 0.4);  // the rest kept
        box->polarityCombo()->setCurrentIndex(0);
        QCOMPARE(got.size(), 2);
        QVERIFY(got[1].darkLines);
    }

    void csvRoundTrip() {
        QTemporaryDir dir;
        // uint8: exact integer sums.
        panel_->setSweep(*session::spectrumOf(session::AnySweep(u8_)), QString());
        QVERIFY(panel_->exportCsv(dir.filePath("u8.csv")));
        // float32: shortest round-trip doubles.
        const SweepResult<float> f = sweepOf(linesAt<float>(30, 160, 120, 1.0 / 255.0), angles_);
        QVERIFY(f.spectrumExact.empty());
        panel_->setSweep(*session::spectrumOf(session::AnySweep(f)), QString());
        QVERIFY(panel_->exportCsv(dir.filePath("f32.csv")));

        for (const bool exact : {true, false}) {
            QFile file(dir.filePath(exact ? "u8.csv" : "f32.csv"));
            QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
            const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
            QCOMPARE(lines.size(), angles_.count + 1);
            QCOMPARE(lines[0], QStringLiteral("index,angle,sum"));
            for (int k = 0; k < angles_.count; ++k) {
                const QStringList cells = lines[k + 1].split(',');
                QCOMPARE(cells.size(), 3);
                QCOMPARE(cells[0].toInt(), k);
                QCOMPARE(cells[1].toDouble(), angles_.angle(k));
                const auto i = static_cast<std::size_t>(k);
                if (exact) {
                    bool ok = false;
                    QCOMPARE(cells[2].toLongLong(&ok), u8_.spectrumExact[i]);
                    QVERIFY2(ok, qPrintable("not an integer: " + cells[2]));
                } else {
                    QCOMPARE(cells[2].toDouble(), f.spectrum[i]);
                }
            }
        }
    }

    // With the window's recipe, the CSV starts with its "# key=value" lines; without, it has none.
    void csvCarriesTheRecipe() {
        QTemporaryDir dir;
        panel_->setSweep(*session::spectrumOf(session::AnySweep(u8_)), QString());
        io::ExportRecipe recipe;
        recipe.op = "open";
        recipe.length = 41;
        recipe.angles = "0:180:5";
        recipe.source = "page one.png";
        QVERIFY(panel_->exportCsv(dir.filePath("r.csv"), nullptr, &recipe));
        QFile file(dir.filePath("r.csv"));
        QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
        const QString text = QString::fromUtf8(file.readAll());
        QVERIFY2(text.startsWith(QStringLiteral("# op=open\n# length=41\n# angles=0:180:5\n# lines=paths\n"
                                                "# source=page one.png\n")),
                 qPrintable(text.left(200)));
        QVERIFY2(text.contains(QStringLiteral("\nindex,angle,sum\n0,0,")), qPrintable(text.left(300)));
        QVERIFY(panel_->exportCsv(dir.filePath("plain.csv")));
        QFile plain(dir.filePath("plain.csv"));
        QVERIFY(plain.open(QIODevice::ReadOnly));
        QVERIFY(plain.readAll().startsWith("index,angle,sum\n"));
    }

    void pngExport() {
        panel_->setSweep(*session::spectrumOf(session::AnySweep(u8_)), QString());
        panel_->setCurrentAngle(90);
        QTemporaryDir dir;
        for (Form form : {Form::Cartesian, Form::Polar}) {
            panel_->setForm(form);
            const QString path = dir.filePath(form == Form::Polar ? "polar.png" : "cartesian.png");
            QString error;
            QVERIFY2(panel_->exportPng(path, &error), qPrintable(error));
            const QImage img(path);
            QVERIFY(!img.isNull());
            QChartView* view = panel_->chartView(form);
            QCOMPARE(img.size(), view->size() * view->devicePixelRatio());
            // The marker's colour is drawn: the plot is in the picture, not a blank grab.
            const QColor markerColour = panel_->markerSeries(form)->pen().color();
            bool found = false;
            for (int y = 0; y < img.height() && !found; ++y)
                for (int x = 0; x < img.width() && !found; ++x) found = img.pixelColor(x, y) == markerColour;
            QVERIFY(found);
        }
    }

    void exportToAnUnwritablePathFails() {
        panel_->setSweep(*session::spectrumOf(session::AnySweep(u8_)), QString());
        QTemporaryDir dir;
        for (const QString& path : {dir.filePath("no/such/folder/s.csv"), dir.path()}) {
            QString error;
            QVERIFY(!panel_->exportCsv(path, &error));
            QVERIFY2(error.contains(path), qPrintable(error));
            error.clear();
            const QString png = path.endsWith(".csv") ? path.chopped(4) + ".png" : path;
            QVERIFY(!panel_->exportPng(png, &error));
            QVERIFY2(error.contains(png), qPrintable(error));
        }
        QVERIFY(panel_->hasSpectrum());  // nothing lost
    }

    // A full disk half-way through an export keeps the previous file whole.
    void failedExportKeepsThePreviousFile() {
        panel_->setSweep(*session::spectrumOf(session::AnySweep(u8_)), QString());
        QTemporaryDir dir;
        for (const QString name : {"s.png", "s.csv"}) {
            const QString path = dir.filePath(name);
            QString error;
            QVERIFY2(name.endsWith(".png") ? panel_->exportPng(path, &error) : panel_->exportCsv(path, &error),
                     qPrintable(error));
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray before = file.readAll();
            file.close();
            io::failNextWriteForTesting(ENOSPC, static_cast<std::size_t>(before.size() / 2));
            panel_->setCurrentAngle(45);  // a different picture
            QVERIFY(!(name.endsWith(".png") ? panel_->exportPng(path, &error) : panel_->exportCsv(path, &error)));
            QVERIFY2(error.contains(QStringLiteral("No space left on device")), qPrintable(error));
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(file.readAll(), before);
        }
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2);  // no temporary file left
    }
};

QTEST_MAIN(TestSpectrumPanel)
#include "test_spectrum_panel.moc"
