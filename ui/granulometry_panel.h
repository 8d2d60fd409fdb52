// GranulometryPanel: the contents of the Granulometry dock. Plots the session's newest
// granulometry (compute/granulometry.h) as the curve S(λ)/S(1) and the pattern spectrum
// PS(λ)/S(1) as bars, both against λ, with a marker at the controls' λ; a click on the plot
// proposes the λ under the pointer. Below the plot: the longest length Λ, "over the sweep's
// angles" (the supremum) and a region X,Y,W,H typed, or drawn in the viewport after Draw
// (empty or Whole: the whole image). It shows values it is given and only asks for settings:
// the session computes on its engine thread. UI thread only.
#pragma once

#include "app/session/session.h"
#include "compute/granulometry.h"

#include <QString>
#include <QWidget>

#include <optional>

class QBarSeries;
class QBarSet;
class QChart;
class QChartView;
class QCheckBox;
class QLabel;
class QLineEdit;
class QLineSeries;
class QSpinBox;
class QStackedWidget;
class QToolButton;
class QValueAxis;

namespace linescope::ui {

// "X,Y,W,H" (spaces allowed) as a rectangle, "" as the whole image (nullopt inside); nullopt
// outside for text that is not four whole numbers with W, H ≥ 1.
std::optional<std::optional<PixelRect>> parseRegionText(const QString& text);

class GranulometryPanel : public QWidget {
    Q_OBJECT
public:
    explicit GranulometryPanel(QWidget* parent = nullptr);
    ~GranulometryPanel() override;

    // Shows the session's granulometry snapshots as they come (an error snapshot's sentence in
    // place of the plot), keeps the marker at the session's λ and the settings in step with
    // the session's, and says "computing…" while the newest result is not the controls'. Once.
    void follow(const session::Session& session);

    // Plots g with `caption` above it.
    void setGranulometry(const Granulometry& g, const QString& caption);
    // Back to the placeholder with `message`.
    void clear(const QString& message);
    bool hasGranulometry() const { return shown_.has_value(); }
    const std::optional<Granulometry>& shown() const { return shown_; }
    // Moves the marker to λ (hidden outside 1 … Λ+1).
    void setCurrentLength(int length);
    int currentLength() const { return currentLength_; }
    // Sets the region (nullopt: the whole image), shows it, emits settingsChanged if it
    // changed, and releases the Draw button (a region drawn in the viewport comes here).
    void setRegion(std::optional<PixelRect> region);
    // Shows the settings without emitting settingsChanged.
    void setSettings(const session::GranulometrySettings& s);
    session::GranulometrySettings settings() const { return settings_; }

    // The λ under a point of the chart view's viewport, within 1 … Λ+1 (nullopt: no plot).
    std::optional<int> lengthAt(QPointF viewPos) const;
    // The viewport point of λ on the plot's middle height, for tests that click a bar.
    QPointF pointOfLength(int length) const;

    // The parts, for the window's wiring and for tests.
    QChartView* chartView() const { return view_; }
    QLineSeries* sumSeries() const { return sums_; }          // (λ, S(λ)/S(1)), λ = 1 … Λ+1
    QBarSet* spectrumBars() const { return bars_; }           // bar λ: PS(λ)/S(1) (bar 0 is empty)
    QLineSeries* markerSeries() const { return marker_; }     // two points at the current λ, or none
    QSpinBox* maxLengthSpin() const { return maxLength_; }
    QCheckBox* supremumBox() const { return supremum_; }
    QLineEdit* regionEdit() const { return region_; }
    QToolButton* drawRegionButton() const { return drawRegion_; }
    QToolButton* wholeImageButton() const { return wholeImage_; }
    QLabel* statusLabel() const { return status_; }

signals:
    // A left click (or drag) on the plot: the λ under the pointer. The panel does not move
    // its marker itself: connect this to the λ control, whose change comes back.
    void lengthClicked(int length);
    // The user changed Λ, the supremum box or the region: connect to Session::setGranulometrySettings.
    void settingsChanged(const linescope::session::GranulometrySettings& settings);
    // Draw was pressed (on) or released (off): arm the viewport's region drawing.
    void drawRegionToggled(bool on);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildChart();
    void updateMarker();
    void applyRegionText();
    void emitSettings();

    std::optional<Granulometry> shown_;
    double scale_ = 1;  // what the plotted values are divided by: S(1), or 1 when S(1) ≤ 0
    int currentLength_ = 1;
    session::GranulometrySettings settings_;

    QStackedWidget* stack_ = nullptr;
    QLabel* placeholder_ = nullptr;
    QLabel* caption_ = nullptr;
    QChartView* view_ = nullptr;
    QChart* chart_ = nullptr;
    QLineSeries* sums_ = nullptr;
    QBarSeries* barSeries_ = nullptr;
    QBarSet* bars_ = nullptr;
    QLineSeries* marker_ = nullptr;
    QValueAxis* lengthAxis_ = nullptr;
    QValueAxis* sumAxis_ = nullptr;
    QValueAxis* spectrumAxis_ = nullptr;
    QSpinBox* maxLength_ = nullptr;
    QCheckBox* supremum_ = nullptr;
    QLineEdit* region_ = nullptr;
    QToolButton* drawRegion_ = nullptr;
    QToolButton* wholeImage_ = nullptr;
    QLabel* status_ = nullptr;
};

}  // namespace linescope::ui
