// What a batch will do with each of its inputs, decided before any work: an input whose
// outputs would take the names of an earlier one's fails, one complete from an earlier run
// (its latest manifest record, isComplete) is skipped, and the others become tasks. Shared
// by linescope-cli batch and linescope.dask, so that either resumes the other's manifest.
#pragma once

#include "app/cli/batch_inputs.h"
#include "app/cli/batch_item.h"
#include "app/cli/batch_manifest.h"
#include "app/cli/command_job.h"

#include <algorithm>
#include <string>
#include <vector>

namespace linescope::cli {

struct BatchPlan {
    const CommandJob* job = nullptr;
    std::string command;            // for the manifest: "skew"
    std::string options = "[]";     // for the manifest: the command's options as a JSON array
    std::string outputFolder;
    std::vector<BatchTask> tasks;   // those to process, in input order
    std::vector<ManifestRecord> settled;  // failed or skipped without work, in input order
    int ioThreads = 2;              // decoders, and as many writers
    std::vector<int> devices;       // CUDA devices, an engine thread each (empty: the CPU)
    int cpuEngines = 1;             // engine threads on the CPU (devices empty)
    int cpuThreadsEach = 0;         // their "one per core" (DefaultThreadsScope; 0: every core)
    bool pinDecoded = false;        // page-lock each decoded image for the GPU (HostMemoryPin)
};

// Decoders (and as many writers) when --jobs is not given: one a core, less two for each GPU
// the engine uses, at least two. A GPU's engine threads spin while its kernels run and queue
// the next page's copies and kernels between them; with a decoder on every core they lost
// their cores (skew of 1056 A4 pages on an H200 and 16 cores: 348 pages/s with 16 decoders,
// 372 with 14; tests/bench/gpu-results.md).
inline int defaultBatchDecoders(int cores, int gpus) { return std::max(2, cores - 2 * std::max(0, gpus)); }

// The engine on the CPU: with at least as many files as cores, one engine thread a core, each
// file on one thread (its calls' "one per core" is 1). One file on every core wastes them:
// the engine's parallel loops share one pool, one loop at a time, and a file's serial parts
// leave the other cores idle (skew of 50 pages on 2 cores: one engine thread 9.2 s, two on
// the shared pool 8.8 s, two one-thread engines 5.4 s, two processes each doing half 5.8 s;
// tests/bench/cpu-results.md). With fewer files, one engine thread with every core.
struct CpuEngines {
    int threads = 1;
    int threadsEach = 0;
};
inline CpuEngines defaultBatchCpuEngines(int cores, std::size_t files) {
    if (cores > 1 && files >= static_cast<std::size_t>(cores)) return {cores, 1};
    return {1, 0};
}

// outputFolder/relative without its extension (a folder's name keeps any dot in it).
std::string batchStem(const std::string& outputFolder, const std::string& relative);

// Fills plan.tasks and plan.settled from the inputs; plan's command, options and
// outputFolder must be set. `redo`: make every input a task but those whose names collide.
void planBatch(BatchPlan& plan, const std::vector<BatchInput>& inputs, const BatchManifest& manifest, bool redo);

}  // namespace linescope::cli
