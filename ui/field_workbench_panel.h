// FieldWorkbenchPanel: the orientation-field workbench's centre (issue 21): a column of
// controls (block size, λ, smoothing, the singular points' smoothing, the structure tensor's
// window; what each pane shows; the legend; exports) beside two panes, LineScope's field on
// the left and, by default, the structure tensor's on the right. A thin host over
// FieldWorkbench (field_workbench.h): every value it shows comes from the controller.
// UI thread.
#pragma once

#include "app/session/session.h"
#include "ui/field_workbench.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;

namespace linescope::ui {

// One pane: the view painted at the scale that fits, its title above it.
class FieldPane : public QWidget {
    Q_OBJECT
public:
    FieldPane(FieldWorkbench& workbench, bool left, QWidget* parent = nullptr);
    FieldView view() const;
    // The id of the Field snapshot last painted (0: none): what --screenshot waits for.
    quint64 shownId() const { return shownId_; }
    // Where the image is drawn in the widget and at which scale (screen pixels an image pixel).
    QRectF imageRect() const;
    double scale() const;
    QSize minimumSizeHint() const override { return {200, 200}; }

protected:
    void paintEvent(QPaintEvent* e) override;

private:
    FieldWorkbench& workbench_;
    bool left_;
    quint64 shownId_ = 0;
    QImage cache_;
    quint64 cacheId_ = 0;
    FieldView cacheView_ = FieldView::Needles;
    QSize cacheSize_;
};

class FieldWorkbenchPanel : public QWidget {
    Q_OBJECT
public:
    explicit FieldWorkbenchPanel(QWidget* parent = nullptr);
    void follow(session::Session& session);

    FieldWorkbench* workbench() const { return workbench_; }
    FieldPane* leftPane() const { return left_; }
    FieldPane* rightPane() const { return right_; }
    QSlider* blockSlider() const { return block_; }
    QSlider* lengthSlider() const { return length_; }
    QDoubleSpinBox* smoothingBox() const { return smoothing_; }
    QComboBox* leftViewBox() const { return leftView_; }
    QComboBox* rightViewBox() const { return rightView_; }
    QLabel* summaryLabel() const { return summary_; }

    // Asks for a file and exports (FieldWorkbench::exportCsv …); a failure in a message box.
    void exportCsv();
    void exportJson();
    void exportNeedleImage();

private:
    void pushParameters();  // the controls → Session::setFieldParams
    void showParameters();  // the session's field parameters → the controls

    session::Session* session_ = nullptr;
    FieldWorkbench* workbench_ = nullptr;
    FieldPane* left_ = nullptr;
    FieldPane* right_ = nullptr;
    QSlider* block_ = nullptr;
    QSlider* length_ = nullptr;
    QLabel* blockValue_ = nullptr;
    QLabel* lengthValue_ = nullptr;
    QDoubleSpinBox* smoothing_ = nullptr;
    QDoubleSpinBox* singularSmoothing_ = nullptr;
    QDoubleSpinBox* tensorWindow_ = nullptr;
    QComboBox* leftView_ = nullptr;
    QComboBox* rightView_ = nullptr;
    QLabel* summary_ = nullptr;
    QPushButton* exportCsv_ = nullptr;
    QPushButton* exportJson_ = nullptr;
    QPushButton* exportImage_ = nullptr;
};

}  // namespace linescope::ui
