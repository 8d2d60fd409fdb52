// SpectrumPanel: the contents of the angular-spectrum dock. Plots σ(α_k) of a sweep (or of the
// skew estimate's sweep) with Qt Charts, as a cartesian line (the mean grey level per pixel,
// optionally from a zero baseline, its refined peaks labelled) or as a polar rose, with a marker
// at the current angle; a click on the plot proposes an angle; the skew box (ui/skew_box.h)
// reads out the estimate and offers Deskew, Undo deskew and the search's range and polarity;
// the spectrum exports as CSV and the plot as PNG. It only shows values it is given
// (snapshots' data) and the peaks of compute/spectrum_peaks.h. UI thread only.
#pragma once

#include "app/session/snapshot.h"
#include "compute/skew.h"
#include "compute/sweep.h"

#include <QString>
#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

namespace linescope::io {
struct ExportRecipe;
}

class QCategoryAxis;
class QChart;
class QChartView;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineSeries;
class QPushButton;
class QScatterSeries;
class QStackedWidget;
class QValueAxis;

namespace linescope::session {
class Session;
}

namespace linescope::ui {

class SkewBox;
class FreshnessBadge;

// How to plot a spectrum: `pixels` > 0 divides the sums by it (the mean grey level per pixel,
// the axis says so); `minima` labels the spectrum's minima (closings, dilations) as its peaks
// rather than its maxima.
struct SpectrumScale {
    long long pixels = 0;
    bool minima = false;
};

// The polar rose's geometry. Qt's polar chart runs its angular axis clockwise from the top; the
// rose plots a direction α (screen convention: 0° East, counter-clockwise, design.md §1) at the
// angular value −α on an axis from −90 to 270, so that it appears at the screen angle α, and its
// mirror α + 180° at 180 − α. A 180° set's directions are taken into the right half,
// (−90°, 90°]; a partial set's arcs are drawn where their angles lie, split at the top.
double roseValue(double degrees);          // the angular value of a direction's right-half point
double directionOfRoseValue(double value); // back: the direction in (−90, 90], for clicks

class SpectrumPanel : public QWidget {
    Q_OBJECT
public:
    // Cartesian: angle in degrees on x, σ on y. Polar: a rose, σ as the radius from zero at
    // each direction α and at α + 180° (roseValue).
    enum class Form { Cartesian, Polar };
    using Scale = SpectrumScale;

    explicit SpectrumPanel(QWidget* parent = nullptr);
    ~SpectrumPanel() override;

    // Shows the session's sweep spectra and skew estimates as they are published (ok
    // snapshots only: the window's status bar reports errors), previews included, and marks
    // the shown spectrum as a preview or stale against the session's parameters. Once, at
    // construction time.
    void follow(const session::Session& session);
    // The Sweep snapshot whose spectrum is shown (nullptr: none, or one set by hand).
    const session::SnapshotPtr& shownSweep() const { return shownSweep_; }
    // The mark over the plot's top right corner (freshness_badge.h).
    FreshnessBadge* freshnessBadge() const { return badge_; }

    // Shows σ(α_k) = values[k] with `caption` as the chart's title. A size that does not match
    // angles.count shows the placeholder with that message instead.
    void setSpectrum(const AngleSet& angles, std::vector<double> values, const QString& caption, Scale scale = {});
    // The same from exact sums (integer images): plotted as doubles, exported exactly.
    void setSpectrum(const AngleSet& angles, const std::vector<std::int64_t>& sums, const QString& caption,
                     Scale scale = {});
    // A Sweep snapshot's spectrum: exact sums for integer images, doubles for float32; plotted
    // per pixel of the sweep's image, its peaks the maxima (openings, erosions) or minima.
    void setSweep(const session::SweepSpectrum& sweep, const QString& caption);
    // Back to the placeholder (`message`, or the default "no spectrum yet" text).
    void clearSpectrum(const QString& message = {});
    bool hasSpectrum() const { return !values_.empty(); }

    // Moves the marker to `degrees` in both forms. With a 180° set (e.g. 0:180:1) the angle is
    // taken modulo 180 into the set's range; an angle outside a partial set hides the marker.
    void setCurrentAngle(double degrees);

    void setForm(Form form);
    Form form() const;

    // The skew read-out (SkewBox::setSkew): "Skew +1.48° (confidence 0.91)" for a confident
    // estimate, "no dominant line direction" below kSkewConfidentThreshold or at a range end
    // (Deskew disabled then), and `details` (e.g. λ and the angle range) below.
    void setSkew(const std::optional<SkewResult>& skew, const QString& details = {});
    void setSkewParams(const SkewParams& p);   // shows the search's range and polarity
    void setUndoAvailable(bool available);     // Undo deskew offered or not

    // The spectrum as CSV ("index,angle,sum", app/io/spectrum_export.h: exact integers after the
    // int64 setSpectrum), after the `recipe`'s "# key=value" lines when one is given (the
    // window's: operator, λ, angle set, source file). False with `error` set when there is no
    // spectrum or the file cannot be written.
    bool exportCsv(const QString& path, QString* error = nullptr, const io::ExportRecipe* recipe = nullptr) const;
    // The visible chart view as PNG, at the view's size in device pixels. False with `error`
    // set when there is no spectrum or the file cannot be written.
    bool exportPng(const QString& path, QString* error = nullptr) const;

    // The parts, for the window's wiring and for tests.
    QChartView* chartView(Form form) const;
    QLineSeries* spectrumSeries(Form form) const;  // one point (α_k, σ_k) per angle; the polar
                                                   // one closes a 180° set with (α_0 + 180, σ_0)
    QLineSeries* markerSeries(Form form) const;    // two points at the current angle, or none
    QLineSeries* mirrorSeries() const;             // the polar rose's α + 180° half
    QScatterSeries* peakSeries() const;            // the cartesian plot's labelled peaks
    QCheckBox* zeroBaselineBox() const { return zeroBaseline_; }
    SkewBox* skewBox() const { return skewBox_; }
    QLabel* skewLabel() const;
    QPushButton* deskewButton() const;
    QPushButton* undoDeskewButton() const;
    QComboBox* formCombo() const { return formCombo_; }

signals:
    // A left click (or drag) on the plot: the angle under the pointer, in degrees, within the
    // set's range. The panel does not move its marker itself: connect this to the angle control,
    // whose change comes back through setCurrentAngle.
    void angleClicked(double degrees);
    // The Deskew button: the estimate's angle (SkewResult::angle); rotate by −skewAngle.
    void deskewRequested(double skewAngle);
    // Undo deskew: back to the image before the last deskew (the window keeps it).
    void undoDeskewRequested();
    // The skew search's range or polarity changed in the box: connect to Session::setSkewParams.
    void skewParamsChanged(const linescope::SkewParams& p);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // One chart view with its series and axes (children of the view: Qt owns them).
    struct Plot {
        QChartView* view = nullptr;
        QChart* chart = nullptr;
        QLineSeries* spectrum = nullptr;
        QLineSeries* marker = nullptr;
        QLineSeries* mirror = nullptr;    // polar: the rose's other half
        QLineSeries* wrapped[2] = {};     // polar, partial sets: the parts of spectrum and mirror
                                          // past the top, where Qt's angular axis ends
        QScatterSeries* peaks = nullptr;  // cartesian: the refined peaks, labelled
        QValueAxis* angleAxis = nullptr;  // polar: a QCategoryAxis labelled in screen degrees
        QValueAxis* valueAxis = nullptr;
    };
    Plot buildPlot(Form form);
    const Plot& plot(Form form) const { return plots_[form == Form::Polar ? 1 : 0]; }
    void showSpectrum(const QString& caption);
    void showCartesian();
    void showRose();
    void updateMarker();
    std::optional<double> angleAt(Form form, QPointF viewPos) const;
    double angleInRange(double degrees) const;  // modulo 180 into the range for 180° sets
    bool periodic() const;                       // the set covers 180°: its ends meet
    double angleLow() const;
    double angleHigh(Form form) const;

    AngleSet angles_;
    std::vector<double> values_;
    std::vector<double> shown_;        // values_ as plotted: per pixel when scale_.pixels > 0
    std::vector<std::int64_t> exact_;  // empty unless set from exact sums
    Scale scale_;
    QString caption_;
    double currentAngle_ = 0;

    QComboBox* formCombo_ = nullptr;
    QCheckBox* zeroBaseline_ = nullptr;
    SkewBox* skewBox_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    QLabel* placeholder_ = nullptr;
    Plot plots_[2];  // Cartesian, Polar
    FreshnessBadge* badge_ = nullptr;
    session::SnapshotPtr shownSweep_;
    void placeBadge();
    void updateMark(const session::Session& session);
};

}  // namespace linescope::ui
