// SpectrumPanel: the contents of the angular-spectrum dock. Plots σ(α_k) of a sweep (or of the
// skew estimate's sweep) with Qt Charts, as a cartesian line or on a polar chart, with a marker
// at the current angle; a click on the plot proposes an angle; the skew read-out offers a
// one-click deskew; the spectrum exports as CSV and the plot as PNG. It only shows values it is
// given (snapshots' data): nothing here computes. UI thread only.
#pragma once

#include "app/session/snapshot.h"
#include "compute/skew.h"
#include "compute/sweep.h"

#include <QString>
#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
class QPushButton;
class QStackedWidget;
class QValueAxis;

namespace linescope::ui {

class SpectrumPanel : public QWidget {
    Q_OBJECT
public:
    // Cartesian: angle in degrees on x, σ on y. Polar: the angle around the circle (clockwise
    // from the top, Qt's polar convention) and σ as the radius.
    enum class Form { Cartesian, Polar };

    explicit SpectrumPanel(QWidget* parent = nullptr);
    ~SpectrumPanel() override;

    // Shows σ(α_k) = values[k] with `caption` as the chart's title. A size that does not match
    // angles.count shows the placeholder with that message instead.
    void setSpectrum(const AngleSet& angles, std::vector<double> values, const QString& caption);
    // The same from exact sums (integer images): plotted as doubles, exported exactly.
    void setSpectrum(const AngleSet& angles, const std::vector<std::int64_t>& sums, const QString& caption);
    // A Sweep snapshot's spectrum: exact sums for integer images, doubles for float32.
    void setSweep(const session::AnySweep& sweep, const QString& caption);
    // Back to the placeholder (`message`, or the default "no spectrum yet" text).
    void clearSpectrum(const QString& message = {});
    bool hasSpectrum() const { return !values_.empty(); }

    // Moves the marker to `degrees` in both forms. With a 180° set (e.g. 0:180:1) the angle is
    // taken modulo 180 into the set's range; an angle outside a partial set hides the marker.
    void setCurrentAngle(double degrees);
    double currentAngle() const { return currentAngle_; }

    void setForm(Form form);
    Form form() const;

    // The skew read-out: "Skew +1.48° (confidence 0.91)" and `details` (e.g. λ and the angle
    // range) below; the Deskew button is enabled only with an estimate.
    void setSkew(const std::optional<SkewResult>& skew, const QString& details = {});

    // The spectrum as CSV ("index,angle,sum", app/io/spectrum_export.h: exact integers after the
    // int64 setSpectrum). False with `error` set when there is no spectrum or the file cannot
    // be written.
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    // The visible chart view as PNG, at the view's size in device pixels. False with `error`
    // set when there is no spectrum or the file cannot be written.
    bool exportPng(const QString& path, QString* error = nullptr) const;

    // The parts, for the window's wiring and for tests.
    QChartView* chartView(Form form) const;
    QLineSeries* spectrumSeries(Form form) const;  // one point (α_k, σ_k) per angle; the polar
                                                   // one closes a 180° set with (α_0 + 180, σ_0)
    QLineSeries* markerSeries(Form form) const;    // two points at the current angle, or none
    QLabel* skewLabel() const { return skewLabel_; }
    QPushButton* deskewButton() const { return deskewButton_; }
    QComboBox* formCombo() const { return formCombo_; }

signals:
    // A left click (or drag) on the plot: the angle under the pointer, in degrees, within the
    // set's range. The panel does not move its marker itself: connect this to the angle control,
    // whose change comes back through setCurrentAngle.
    void angleClicked(double degrees);
    // The Deskew button: the estimate's angle (SkewResult::angle); rotate by −skewAngle.
    void deskewRequested(double skewAngle);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // One chart view with its series and axes (children of the view: Qt owns them).
    struct Plot {
        QChartView* view = nullptr;
        QChart* chart = nullptr;
        QLineSeries* spectrum = nullptr;
        QLineSeries* marker = nullptr;
        QValueAxis* angleAxis = nullptr;
        QValueAxis* valueAxis = nullptr;
    };
    Plot buildPlot(Form form);
    const Plot& plot(Form form) const { return plots_[form == Form::Polar ? 1 : 0]; }
    void showSpectrum(const QString& caption);
    void updateMarker();
    std::optional<double> angleAt(Form form, QPointF viewPos) const;
    double angleInRange(double degrees) const;  // modulo 180 into the range for 180° sets
    bool periodic() const;                       // the set covers 180°: its ends meet
    double angleLow() const;
    double angleHigh(Form form) const;

    AngleSet angles_;
    std::vector<double> values_;
    std::vector<std::int64_t> exact_;  // empty unless set from exact sums
    double currentAngle_ = 0;
    std::optional<SkewResult> skew_;

    QComboBox* formCombo_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    QLabel* placeholder_ = nullptr;
    QLabel* skewLabel_ = nullptr;
    QLabel* skewDetails_ = nullptr;
    QPushButton* deskewButton_ = nullptr;
    Plot plots_[2];  // Cartesian, Polar
};

}  // namespace linescope::ui
