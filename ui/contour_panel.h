// The contours dock: which view to trace (source), the threshold (slider + spin box over the
// source's range, and an Otsu button), the retrieval mode and approximation, "show contours",
// the count of outer and hole borders with the engine's time, and the contour list (a lazy
// table model: 355 000 rows cost only the visible ones). It computes nothing: its signals
// tell the owner what the user changed, and the owner hands it each published contour
// snapshot through setContours().
//
// Thread: UI thread only.
#pragma once

#include "app/io/contour_export.h"
#include "app/session/plane.h"
#include "compute/contours/contours.h"

#include <QColor>
#include <QString>
#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;
class QTableView;

namespace linescope::session {
class Session;
}

namespace linescope::ui {

class ContourTableModel;

class ContourPanel : public QWidget {
    Q_OBJECT
public:
    explicit ContourPanel(QWidget* parent = nullptr);

    // The colours of outer and hole borders, on screen and in the legend: those of the SVG
    // export (io::contoursToSvg's #ff2020 and #0050ff).
    static QColor outerColour() { return QColor(0xff, 0x20, 0x20); }
    static QColor holeColour() { return QColor(0x00, 0x50, 0xff); }
    ~ContourPanel() override;

    // The controls' values. Defaults: Original, threshold 127 over 0…255 (integer), list,
    // simple (the session's ContourParams), contours hidden (MainWindow remembers the choice).
    session::Plane source() const { return source_; }
    double threshold() const { return threshold_; }
    ContourMode mode() const;
    ContourApprox approx() const;
    bool contoursVisible() const;

    // The range the threshold spans: the current source's pixel values (io::thresholdRange).
    // For integer images the threshold is kept whole (⌊T⌋: "pixel > T" is the same for
    // integer pixels) and the slider moves in steps of 1; for float images the slider has
    // 1000 steps and the spin box enough decimals for them. The threshold is clamped into
    // [lo, hi] (thresholdChanged when that changes it). Non-finite bounds are ignored.
    void setRange(double lo, double hi, bool isInteger);

    // The setters move the widgets and emit the matching signal when the value changes, as a
    // user's change does (so the owner has one path: e.g. Otsu → setThreshold → thresholdChanged).
    void setThreshold(double threshold);
    void setSource(session::Plane source);
    void setApprox(ContourApprox approx);
    void setContoursVisible(bool visible);

    // Shows the session's contour snapshots as they are published (ok ones: the window's status
    // bar reports errors). Once, at construction time.
    void follow(const session::Session& session);
    // Shows a published contour snapshot (nullptr: none) and its engine timings: the count of
    // outer and hole borders and the list. Clears the selection (contourSelected(−1) when a
    // row was selected: the indices refer to the new contours now).
    void setContours(std::shared_ptr<const Contours> contours, const ContourTimings& timings = {});
    // Clears the list and shows `message` (e.g. a failed contour request) instead of the count.
    void setError(const QString& message);
    const std::shared_ptr<const Contours>& contours() const;

    // Selects contour `index` in the list and scrolls to it (−1 clears the selection);
    // contourSelected when the selection changes.
    void selectContour(int index);
    int selectedContour() const { return selected_; }

    // Writes the shown contours with io::contoursToJson / io::contoursToSvg (the CLI's
    // writers). `info` describes how they were traced (the snapshot's threshold, mode,
    // approximation, image size, timings); `background` (may be empty) is drawn beneath the
    // SVG's polygons. False with `error` set when no contours are shown or the file cannot be
    // written.
    bool exportJson(const QString& path, const io::ContourJsonInfo& info, QString* error = nullptr) const;
    bool exportSvg(const QString& path, int width, int height, const cv::Mat& background = {},
                   QString* error = nullptr) const;

    // The widgets, for tests and for the window's layout.
    QComboBox* sourceCombo() const { return sourceCombo_; }
    QSlider* thresholdSlider() const { return slider_; }
    QDoubleSpinBox* thresholdSpin() const { return spin_; }
    QPushButton* otsuButton() const { return otsuButton_; }
    QComboBox* modeCombo() const { return modeCombo_; }
    QCheckBox* visibleCheck() const { return visibleCheck_; }
    QLabel* countLabel() const { return countLabel_; }
    QLabel* legendLabel() const { return legend_; }
    QTableView* table() const { return table_; }
    ContourTableModel* model() const { return model_; }

signals:
    void sourceChanged(linescope::session::Plane source);
    void thresholdChanged(double threshold);
    void otsuRequested();
    void modeChanged(linescope::ContourMode mode);
    void approxChanged(linescope::ContourApprox approx);
    void visibleChanged(bool visible);
    // The user (or selectContour) selected contour `index` of the shown contours; −1: none.
    void contourSelected(int index);

private:
    void buildThresholdRow();
    void changeThreshold(double threshold, bool fromSlider, bool fromSpin);
    double sliderToThreshold(int tick) const;
    int thresholdToSlider(double threshold) const;
    void onSelectionChanged();

    QComboBox* sourceCombo_ = nullptr;
    QSlider* slider_ = nullptr;
    QDoubleSpinBox* spin_ = nullptr;
    QPushButton* otsuButton_ = nullptr;
    QComboBox* modeCombo_ = nullptr;
    QComboBox* approxCombo_ = nullptr;
    QCheckBox* visibleCheck_ = nullptr;
    QLabel* countLabel_ = nullptr;
    QLabel* legend_ = nullptr;
    QTableView* table_ = nullptr;
    ContourTableModel* model_ = nullptr;

    session::Plane source_ = session::Plane::Original;
    double threshold_ = 127;
    double lo_ = 0, hi_ = 255;
    bool integer_ = true;
    int ticks_ = 255;  // slider steps over [lo, hi]
    int selected_ = -1;
};

}  // namespace linescope::ui
