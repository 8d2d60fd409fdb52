// The work of a batch on one machine: decoder threads → engine threads → writer threads,
// joined by bounded queues, so that decoding and encoding overlap the engine's computing
// while at most a few images wait in memory. One engine thread feeds each entry of
// plan.devices (a GPU named twice gets two, each its own CUDA context and stream); on the
// CPU, plan.cpuEngines threads each compute one image at a time.
#pragma once

#include "app/cli/batch_manifest.h"
#include "app/cli/batch_plan.h"
#include "app/cli/batch_progress.h"

#include <string>
#include <vector>

namespace linescope::cli {

// Where a batch's time went: each stage's busy time summed over its threads, so that a user
// sees which stage bounds the rate (decoding, the engine on each device, or writing).
struct BatchStageTimes {
    struct Stage {
        int threads = 0;
        std::size_t files = 0;  // items that ran the stage (failed ones included)
        double seconds = 0;     // busy, summed over the threads
    };
    Stage decoding, writing;
    std::vector<Stage> engines;  // one an engine thread, in plan.devices' order
    std::vector<int> devices;    // plan.devices (empty: the default device or the CPU)
};

// "stages: decoding 16 threads, 41.2 ms a file (at most 388 files/s); engine on GPU 0 …":
// each stage's time a file and the rate its threads could sustain alone, and each engine
// thread's share of the wall time spent busy (on the CPU, its threads' sum and mean).
std::string describeStages(const BatchStageTimes& t, double wallSeconds);

// Runs every task of `plan`; each one ends as one record in `manifest` and one report to
// `progress`, ok or failed with its reason. Outputs that would replace a file of
// `protectedFiles` (every input of the batch, however named) fail their input instead.
// Throws io::IoError only when the manifest cannot be written.
BatchStageTimes runBatchPipeline(const BatchPlan& plan, const std::vector<std::string>& protectedFiles,
                                 BatchManifest& manifest, BatchProgress& progress);

}  // namespace linescope::cli
