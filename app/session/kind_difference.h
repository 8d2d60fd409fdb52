// Two line kinds' results of one operator compared pixel by pixel (the window's difference
// view, issue 18): how many pixels differ, in which direction, and the signed difference map
// the viewport colours. Computed on the engine thread with the result it belongs to; any thread.
#pragma once

#include "app/session/snapshot.h"

namespace linescope::session {

// A = the result of the session's kind, B = the result of the kind it is compared with.
struct KindDifference {
    LineKind a = LineKind::Paths;
    LineKind b = LineKind::Segment;
    long long pixels = 0;     // width × height
    long long differing = 0;  // pixels where A ≠ B
    long long aAbove = 0;     // of those, where A > B
    double maxAbs = 0;        // the largest |A − B|
    Image<float> signedDifference;  // A − B (in double, then rounded to float: 0 exactly where they agree)

    double share() const { return pixels > 0 ? static_cast<double>(differing) / static_cast<double>(pixels) : 0; }
};

// Compares two images of one pixel type and size; throws Error otherwise.
KindDifference kindDifference(const AnyImage& a, const AnyImage& b, LineKind kindA, LineKind kindB);

}  // namespace linescope::session
