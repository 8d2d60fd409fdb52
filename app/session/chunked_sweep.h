// A sweep run as consecutive chunks of angles, so that the engine queue can stop it between
// chunks (the engine itself has no cancellation hooks). The merged result equals one call of
// linescope::sweep over the whole angle set, pixel for pixel (tests/session checks it).
#pragma once

#include "compute/sweep.h"

#include <functional>

namespace linescope::session {

// Called on the computing thread before the first chunk (done = 0) and after each chunk;
// returning false stops the sweep.
using SweepStepFn = std::function<bool(int doneAngles, int totalAngles)>;

// Runs `req` over its angles `chunkAngles` at a time (< 1: all at once) into `out`.
// Returns false, leaving `out` unspecified, when `step` asked to stop. Throws Error as
// sweep() does (empty image, NaN, bad operator or angle count).
template <class T>
bool chunkedSweep(ImageView<const T> src, const SweepRequest& req, const EngineOptions& opt, int chunkAngles,
                  const SweepStepFn& step, SweepResult<T>& out);

}  // namespace linescope::session
