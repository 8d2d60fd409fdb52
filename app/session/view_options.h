// How the window shows the session's data: the one value the viewport, the docks and the
// exports ask the session for (Session::viewOptions), and from which the session decides which
// views to compute (a view nobody looks at is not computed, so a drag never waits behind it).
#pragma once

#include "app/session/plane.h"

namespace linescope::session {

enum class CompareMode { Single, SideBySide, Split };

struct ViewOptions {
    Plane view = Plane::Result;                 // the plane the viewport shows
    CompareMode compare = CompareMode::Single;  // alone, or beside the original
    bool blend = false;                         // the orientation map over the image …
    double blendAmount = 0.7;                   // … with this weight of its colours
    int needleStep = 0;                         // orientation needles every n pixels (0: none)
    bool glyphVisible = true;                   // the segment at the cursor
    bool contoursVisible = false;               // contours drawn over the view (and listed)
    bool spectrumShown = false;                 // the spectrum dock (sweep spectrum, skew) is on screen
    bool contoursShown = false;                 // the contours dock is on screen
    bool granulometryShown = false;             // the granulometry dock is on screen

    bool operator==(const ViewOptions&) const = default;
};

}  // namespace linescope::session
