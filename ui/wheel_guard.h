// Wheel guard: combo boxes, spin boxes and sliders that take the mouse wheel only once they
// have the keyboard focus (a click or Tab gives it). Inside a scrolling dock a wheel turned
// to scroll the panel otherwise changes whatever control passes under the pointer (issue 20:
// "Erosion became Dilation"); an unfocused control passes the wheel on to its parent.
//
// Thread: UI thread only.
#pragma once

class QWidget;

namespace linescope::ui {

// Guards `widget` itself if it is a combo box, spin box or slider, and every such descendant
// it has now (widgets added later are not guarded). Also gives them Qt::StrongFocus, so
// that a click focuses them.
void guardWheel(QWidget* widget);

}  // namespace linescope::ui
