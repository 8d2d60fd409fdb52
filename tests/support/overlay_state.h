// A filled render::OverlayState for the overlay's tests (headless render and Qt input).
#pragma once

#include "render/imgui_overlay.h"

namespace linescope::test {

// Backend, device, three timings and fps, a valid probe with every value.
inline render::OverlayState sampleOverlayState() {
    render::OverlayState s;
    s.backend = "CPU";
    s.device = "CPU, 8 threads";
    s.timings.computeMs = 3.25;
    s.timings.uploadMs = 0.4;
    s.timings.drawMs = 0.12;
    s.timings.fps = 60;
    s.probe = {true, 12, 34, 200.0, "opening", 150.0, 210.0, 37.5, 0.82};
    return s;
}

}  // namespace linescope::test
