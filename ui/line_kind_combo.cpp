#include "ui/line_kind_combo.h"

#include "ui/line_kind_text.h"

namespace linescope::ui {

LineKindCombo::LineKindCombo(QWidget* parent) : QComboBox(parent) {
    for (LineKind k : {LineKind::Paths, LineKind::Segment, LineKind::Periodic}) {
        addItem(lineKindLabel(k), static_cast<int>(k));
        setItemData(count() - 1, lineKindToolTip(k), Qt::ToolTipRole);
    }
    setToolTip(lineKindToolTip(kind()));
    connect(this, &QComboBox::currentIndexChanged, this, [this] {
        setToolTip(lineKindToolTip(kind()));
        emit kindChanged(kind());
    });
}

LineKind LineKindCombo::kind() const { return static_cast<LineKind>(currentData().toInt()); }

void LineKindCombo::setKind(LineKind kind) { setCurrentIndex(findData(static_cast<int>(kind))); }

}  // namespace linescope::ui
