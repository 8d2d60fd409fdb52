// What the viewport shows (one view of the session's data) and how (alone or beside the
// original). Shared by the viewport, its controls, the launch options and the exports.
#pragma once

namespace linescope::ui {

enum class ViewKind { Original, Result, Supremum, Infimum, Orientation, Strength };
inline constexpr int kViewKindCount = 6;
const char* viewKindName(ViewKind v);  // "Original", "Result", …

enum class CompareMode { Single, SideBySide, Split };

}  // namespace linescope::ui
