// The one vocabulary for "which plane": what the viewport shows, what contours are traced
// from, what an export writes. The session, the viewport, the docks and the exports all
// speak it, so a new plane is one enumerator here and the compiler lists every switch that
// must handle it (none has a default). Any thread.
#pragma once

#include <array>

namespace linescope::session {

enum class Plane {
    Original,     // the input image
    Result,       // the line operator at the current angle and λ
    Supremum,     // the sweep's supremum over the angles
    Infimum,      // the sweep's infimum
    Orientation,  // the sweep's argmax angle with its strength (a colour map, not a grey plane)
    Strength,     // the sweep's supremum − infimum
};
inline constexpr int kPlaneCount = 6;

// The grey planes, which contours can be traced from (all but Orientation), in the order the
// contours dock lists them.
inline constexpr std::array<Plane, 5> kContourSources = {Plane::Original, Plane::Result, Plane::Supremum,
                                                         Plane::Infimum, Plane::Strength};

// The plane's name as the UI shows it: "Original", "Result", "Supremum", …
constexpr const char* planeName(Plane p) {
    switch (p) {
    case Plane::Original: return "Original";
    case Plane::Result: return "Result";
    case Plane::Supremum: return "Supremum";
    case Plane::Infimum: return "Infimum";
    case Plane::Orientation: return "Orientation";
    case Plane::Strength: return "Strength";
    }
    return "?";
}

// Whether the plane is one of the sweep's (Supremum, Infimum, Orientation, Strength): its
// snapshot is a Sweep snapshot, and the sweep must be computed to show it.
constexpr bool isSweepPlane(Plane p) {
    switch (p) {
    case Plane::Original:
    case Plane::Result: return false;
    case Plane::Supremum:
    case Plane::Infimum:
    case Plane::Orientation:
    case Plane::Strength: return true;
    }
    return false;
}

}  // namespace linescope::session
