// The work of a batch on one machine: decoder threads → the engine thread → writer threads,
// joined by bounded queues, so that decoding and encoding overlap the engine's computing
// while at most a few images wait in memory. The engine keeps its own parallelism; one
// thread feeds it, since it has one CUDA context.
#pragma once

#include "app/cli/batch_manifest.h"
#include "app/cli/batch_plan.h"
#include "app/cli/batch_progress.h"

#include <string>
#include <vector>

namespace linescope::cli {

// Runs every task of `plan`; each one ends as one record in `manifest` and one report to
// `progress`, ok or failed with its reason. Outputs that would replace a file of
// `protectedFiles` (every input of the batch, however named) fail their input instead.
// Throws io::IoError only when the manifest cannot be written.
void runBatchPipeline(const BatchPlan& plan, const std::vector<std::string>& protectedFiles, BatchManifest& manifest,
                      BatchProgress& progress);

}  // namespace linescope::cli
