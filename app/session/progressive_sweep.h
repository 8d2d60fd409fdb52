// A host sweep run by its plan (sweep_plan.h): the coarse preview on the reduced image, then
// the exact sweep's passes (SweepInProgress), a preview after each pass but the last. The
// engine queue calls it for CPU sweeps; its checkpoints and previews go through the hooks.
// The result equals one sweep() over the whole set bit for bit; previews only approximate it.
#pragma once

#include "app/session/chunked_sweep.h"
#include "app/session/snapshot.h"
#include "app/session/sweep_plan.h"

#include <functional>
#include <memory>

namespace linescope::session {

// A preview's planes (upscaled to the image's size, argIndex in the whole set's indices) and
// its spectrum (the angles it covers).
using PreviewFn = std::function<void(std::shared_ptr<const AnySweep> sweep, std::shared_ptr<const SweepSpectrum> spectrum,
                                     const SweepPreview& preview)>;

// Runs `req` by `plan` into `out`. `step` is called before the first angle (0, count) and after
// every chunk of full-resolution angles (done, count); returning false stops the sweep (false
// returned, `out` unspecified). Throws Error as sweep() does.
template <class T>
bool progressiveSweep(ImageView<const T> src, const SweepRequest& req, const EngineOptions& opt, const SweepPlan& plan,
                      const SweepStepFn& step, const PreviewFn& preview, SweepResult<T>& out);

// The coarse preview alone: `req` on `src` reduced `reduction` times (λ too) over every
// `stride`-th angle, upscaled back to the image's size; `between` is called after every
// `chunkAngles` angles but the last chunk (< 1: never). For tests and progressiveSweep.
template <class T>
SweepResult<T> coarseSweep(ImageView<const T> src, const SweepRequest& req, const EngineOptions& opt, int reduction,
                           int stride, std::shared_ptr<const SweepSpectrum>* spectrum, int chunkAngles = 0,
                           const std::function<void()>& between = {});

}  // namespace linescope::session
