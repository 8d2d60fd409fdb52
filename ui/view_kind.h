// What the viewport shows — one plane of the session's data (app/session/plane.h) — and how:
// alone or beside the original. Shared by the viewport, its controls, the launch options and
// the exports.
#pragma once

#include "app/session/plane.h"
#include "app/session/view_options.h"

namespace linescope::ui {

using session::Plane;
using session::kPlaneCount;
using session::planeName;

using session::CompareMode;
using session::comparesKinds;

}  // namespace linescope::ui
