// SkewBox: the skew part of the spectrum dock. The read-out (an angle only when the estimate is
// confident, kSkewConfidentThreshold; otherwise "no dominant line direction", and a note when
// the extreme lies at an end of the search range), Deskew and Undo deskew, and the search's
// range and polarity. It computes nothing: the window connects its signals to the session.
// UI thread only.
#pragma once

#include "compute/skew.h"

#include <QString>
#include <QWidget>

#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace linescope::ui {

class SkewBox : public QWidget {
    Q_OBJECT
public:
    explicit SkewBox(QWidget* parent = nullptr);

    // The estimate and `details` (e.g. λ and the angle range) below it. Deskew is enabled only
    // for a confident estimate that is not at an end of the range.
    void setSkew(const std::optional<SkewResult>& skew, const QString& details = {});
    // Shows the search's range and polarity (emits nothing).
    void setSkewParams(const SkewParams& p);
    // The shown parameters: p's other fields with the controls' range and polarity.
    // Whether Undo deskew is offered (the window knows whether it kept the image before).
    void setUndoAvailable(bool available);

    QLabel* label() const { return label_; }
    QPushButton* deskewButton() const { return deskew_; }
    QPushButton* undoButton() const { return undo_; }
    QDoubleSpinBox* rangeStart() const { return start_; }
    QDoubleSpinBox* rangeStop() const { return stop_; }
    QDoubleSpinBox* rangeStep() const { return step_; }
    QComboBox* polarityCombo() const { return polarity_; }

signals:
    // Deskew: rotate by −skewAngle. Undo becomes available until setUndoAvailable(false).
    void deskewRequested(double skewAngle);
    void undoDeskewRequested();
    // A control changed the range or polarity: connect to Session::setSkewParams.
    void skewParamsChanged(const linescope::SkewParams& p);

private:
    void controlsChanged();

    std::optional<SkewResult> skew_;
    SkewParams params_;
    QLabel* label_ = nullptr;
    QLabel* details_ = nullptr;
    QPushButton* deskew_ = nullptr;
    QPushButton* undo_ = nullptr;
    QDoubleSpinBox* start_ = nullptr;
    QDoubleSpinBox* stop_ = nullptr;
    QDoubleSpinBox* step_ = nullptr;
    QComboBox* polarity_ = nullptr;
};

}  // namespace linescope::ui
