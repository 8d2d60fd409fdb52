#include "ui/view_kind.h"

namespace linescope::ui {

const char* viewKindName(ViewKind v) {
    switch (v) {
    case ViewKind::Original: return "Original";
    case ViewKind::Result: return "Result";
    case ViewKind::Supremum: return "Supremum";
    case ViewKind::Infimum: return "Infimum";
    case ViewKind::Orientation: return "Orientation";
    case ViewKind::Strength: return "Strength";
    }
    return "?";
}

}  // namespace linescope::ui
