// What the session suites share: a session on the CPU backend, and how long they wait for it.
#pragma once

#include "app/session/engine_queue.h"

namespace linescope::test {

// Long enough for any suite's request on a loaded two-core machine; the tests never time.
inline constexpr int kSessionTimeoutMs = 120000;

// An engine queue on the CPU, whatever the machine has.
inline session::EngineQueue::Options cpuSessionOptions() {
    session::EngineQueue::Options o;
    o.engine.backend = Backend::Cpu;
    return o;
}

}  // namespace linescope::test
