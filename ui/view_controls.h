// The "View" section of the controls dock: which view the viewport shows and how (alone,
// side by side or split with the original), the sweep's angle set (N angles over 180°, or a
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
class QSlider;
class QSpinBox;
class QStackedWidget;

namespace linescope::ui {

class OrientationLegend;

class ViewControls : public QWidget {
    Q_OBJECT
public:
    explicit ViewControls(QWidget* parent = nullptr);
    ~ViewControls() override;

    Plane view() const;
    CompareMode compareMode() const;
    AngleSet angleSet() const;
    bool blend() const;
    double blendAmount() const;  // 0…1
    int needleStep() const;      // 0: no needles
    bool glyphVisible() const;

    // Setters that move the widgets and emit the change signal when the value changes.
    void setView(Plane v);
    void setCompareMode(CompareMode m);
    void setAngleSet(const AngleSet& a);
    void setBlend(bool on, double amount);
    void setNeedleStep(int step);
    void setGlyphVisible(bool on);
    // The GPU check box: enabled when CUDA can run here (otherwise its tooltip says why).
    void setGpuAvailable(bool available, const QString& why);
    void setGpuChecked(bool on);
    bool gpuChecked() const;

    QComboBox* viewCombo() const { return view_; }
    QSpinBox* angleCountSpin() const { return count_; }
    QDoubleSpinBox* rangeStepSpin() const { return step_; }

signals:
    void viewChanged(linescope::ui::Plane view);
    void compareModeChanged(linescope::ui::CompareMode mode);
    void angleSetChanged(const linescope::AngleSet& angles);
    void orientationChanged(bool blend, double amount, int needleStep);
    void glyphVisibleChanged(bool visible);
    void gpuToggled(bool on);

private:
    void emitAngleSet();
    void emitOrientation();

    QComboBox* view_ = nullptr;
    QComboBox* compare_ = nullptr;
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
