// The "View" section of the controls dock: which view the viewport shows and how (alone,
// side by side or split with the original, or the result beside another line kind's or as
// their difference, with that kind), snapping the angle to distinct segments and the sentence
// on the current one, the sweep's angle set (N angles over 180°, or a
// range and step such as −10…10° in 0.25° steps), the orientation map's blend and needles,
// the SE glyph, and whether the GPU draws. It only holds values and says when they change.
//
// Thread: UI thread only.
#pragma once

#include "compute/sweep.h"
#include "ui/viewport_widget.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QSpinBox;
class QStackedWidget;

namespace linescope::ui {

class OrientationLegend;
class LineKindCombo;

class ViewControls : public QWidget {
    Q_OBJECT
public:
    explicit ViewControls(QWidget* parent = nullptr);
    ~ViewControls() override;

    Plane view() const;
    CompareMode compareMode() const;
    LineKind otherKind() const;  // the kind the kinds' compare modes compare with
    bool snapAngle() const;
    AngleSet angleSet() const;
    bool blend() const;
    double blendAmount() const;  // 0…1
    int needleStep() const;      // 0: no needles
    bool glyphVisible() const;

    // Setters that move the widgets and emit the change signal when the value changes.
    void setView(Plane v);
    // A kinds' compare mode shows the Result view (the view moves there), and another view
    // leaves a kinds' compare mode (alone).
    void setCompareMode(CompareMode m);
    void setOtherKind(LineKind kind);
    void setSnapAngle(bool on);
    // The sentence on the current angle's segment (AngleResolutionControl::describe).
    void setResolutionText(const QString& text);
    void setAngleSet(const AngleSet& a);
    void setBlend(bool on, double amount);
    void setNeedleStep(int step);
    void setGlyphVisible(bool on);
    // The GPU check box: enabled when CUDA can run here (otherwise its tooltip says why).
    void setGpuAvailable(bool available, const QString& why);
    void setGpuChecked(bool on);
    bool gpuChecked() const;

    QComboBox* viewCombo() const { return view_; }
    QComboBox* compareCombo() const { return compare_; }
    LineKindCombo* otherKindCombo() const { return otherKind_; }
    QCheckBox* snapCheck() const { return snap_; }
    QLabel* resolutionLabel() const { return resolution_; }
    QSpinBox* angleCountSpin() const { return count_; }
    QDoubleSpinBox* rangeStepSpin() const { return step_; }

signals:
    void viewChanged(linescope::ui::Plane view);
    void compareModeChanged(linescope::ui::CompareMode mode);
    void otherKindChanged(linescope::LineKind kind);
    void snapAngleChanged(bool on);
    void angleSetChanged(const linescope::AngleSet& angles);
    void orientationChanged(bool blend, double amount, int needleStep);
    void glyphVisibleChanged(bool visible);
    void gpuToggled(bool on);

private:
    void emitAngleSet();
    void emitOrientation();

    QComboBox* view_ = nullptr;
    QComboBox* compare_ = nullptr;
    LineKindCombo* otherKind_ = nullptr;
    QCheckBox* snap_ = nullptr;
    QLabel* resolution_ = nullptr;
    QComboBox* angleMode_ = nullptr;
    QStackedWidget* angleStack_ = nullptr;
    QSpinBox* count_ = nullptr;
    QDoubleSpinBox* from_ = nullptr;
    QDoubleSpinBox* to_ = nullptr;
    QDoubleSpinBox* step_ = nullptr;
    QCheckBox* blend_ = nullptr;
    QSlider* blendAmount_ = nullptr;
    QCheckBox* needles_ = nullptr;
    QSpinBox* needleStep_ = nullptr;
    QCheckBox* glyph_ = nullptr;
    QCheckBox* gpu_ = nullptr;
    OrientationLegend* legend_ = nullptr;  // shown with the orientation view
};

}  // namespace linescope::ui
