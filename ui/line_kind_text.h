// What the window calls each line kind, what its tooltip says, and the one-line summary of
// two kinds compared: the same words in the selector, the viewport's labels and the status bar.
//
// Thread: UI thread (translations).
#pragma once

#include "compute/line_kind.h"

#include <QString>

namespace linescope::session {
struct KindDifference;
}

namespace linescope::ui {

// "Line paths", "Segment (OpenCV kernel)", "Periodic".
QString lineKindLabel(LineKind kind);
// What the kind is and which one matches OpenCV's morphologyEx.
QString lineKindToolTip(LineKind kind);
// "1,234 of 262,144 pixels differ (0.47 %)".
QString kindDifferenceCount(const session::KindDifference& d);
// "Line paths − Segment (OpenCV kernel): 1,234 of 262,144 pixels differ (0.47 %)".
QString kindDifferenceText(const session::KindDifference& d);
// What the difference map's colours mean: "orange: line paths above, blue: below".
QString kindDifferenceLegend(const session::KindDifference& d);

}  // namespace linescope::ui
