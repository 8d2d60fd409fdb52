// How the window shows the session's data: the one value the viewport, the docks and the
// exports ask the session for (Session::viewOptions), and from which the session decides which
// views to compute (a view nobody looks at is not computed, so a drag never waits behind it).
#pragma once

#include "app/session/plane.h"
#include "compute/line_kind.h"

namespace linescope::session {

// Alone; beside the original (side by side or split); or the result by the session's line
// kind against the result by ViewOptions::otherKind (side by side, or their signed difference
// over the image): these two show the Result view.
enum class CompareMode { Single, SideBySide, Split, KindsSideBySide, KindsDifference };
inline constexpr int kCompareModeCount = 5;

// Whether the mode compares two line kinds' results (the result request then computes both).
constexpr bool comparesKinds(CompareMode m) {
    switch (m) {
    case CompareMode::Single:
    case CompareMode::SideBySide:
    case CompareMode::Split: return false;
    case CompareMode::KindsSideBySide:
    case CompareMode::KindsDifference: return true;
    }
    return false;
}

struct ViewOptions {
    Plane view = Plane::Result;                 // the plane the viewport shows
    CompareMode compare = CompareMode::Single;  // alone, beside the original, or two line kinds
    LineKind otherKind = LineKind::Segment;     // the kind the kinds modes compare the session's with
    bool blend = false;                         // the orientation map over the image …
    double blendAmount = 0.7;                   // … with this weight of its colours
    int needleStep = 0;                         // orientation needles every n pixels (0: none)
    bool glyphVisible = true;                   // the segment at the cursor
    bool contoursVisible = false;               // contours drawn over the view (and listed)
    bool spectrumShown = false;                 // the spectrum dock (sweep spectrum, skew) is on screen
    bool contoursShown = false;                 // the contours dock is on screen
    bool granulometryShown = false;             // the granulometry dock is on screen
    bool lesson = false;                        // the lesson mode: its stages are computed (lesson.h)
    bool fieldWorkbench = false;                // the orientation-field workbench: its fields are computed

    bool operator==(const ViewOptions&) const = default;
};

}  // namespace linescope::session
