// The line-kind selector: "Line paths", "Segment (OpenCV kernel)", "Periodic", each item
// with a tooltip saying what it is (line_kind_text.h); the combo's own tooltip follows the
// current kind. Used beside the length (the session's kind) and in the compare modes (the
// kind compared with).
//
// Thread: UI thread only.
#pragma once

#include "compute/line_kind.h"

#include <QComboBox>

namespace linescope::ui {

class LineKindCombo : public QComboBox {
    Q_OBJECT
public:
    explicit LineKindCombo(QWidget* parent = nullptr);

    LineKind kind() const;
    // Moves the combo (kindChanged follows when the kind changes).
    void setKind(LineKind kind);

signals:
    void kindChanged(linescope::LineKind kind);
};

}  // namespace linescope::ui
