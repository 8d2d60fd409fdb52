// One input of a batch through its phases: decode (read, name the outputs, prepare, refuse
// to replace an input), compute (the engine), write (the files), and its manifest record.
// linescope-cli batch runs the phases on different threads (batch_pipeline); linescope.dask
// runs them one after the other on a worker (runBatchItem). Both therefore write the same
// files and the same record for an input.
#pragma once

#include "app/cli/batch_manifest.h"
#include "app/cli/command_job.h"

#include <chrono>
#include <exception>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <sys/types.h>

namespace linescope::cli {

// Files by identity, so that a link or another spelling of an input is still that input.
using FileIds = std::set<std::pair<dev_t, ino_t>>;
FileIds fileIdsOf(const std::vector<std::string>& paths);

// What a batch knows of one input before its work starts.
struct BatchTask {
    std::string input;  // its path, as the manifest records it
    std::string stem;   // its mirror: OUT/SUB/NAME, without the input's extension
    InputStamp stamp;   // taken when the batch was planned
};

struct BatchItem {
    cv::Mat image;
    OutputPaths outputs;
    std::unique_ptr<JobResult> result;
    std::vector<std::string> notes;
    std::string results;             // the image's size and type, then the command's key results
    std::vector<std::string> files;  // written, once write has run
    std::string error;               // the reason the item failed, if it did
    double ms = 0;
};

void decodeBatchItem(const CommandJob& job, const BatchTask& task, const FileIds& protectedFiles, BatchItem& item);
void computeBatchItem(const CommandJob& job, const BatchTask& task, BatchItem& item);
void writeBatchItem(BatchItem& item);

// Runs one phase, adding its time to the item; a failure ends the item with its one-line
// reason (the words the command alone would fail with). True on success.
template <class Phase>
bool runBatchPhase(BatchItem& item, Phase&& phase);

// The item's manifest record; `outputFolder` is what outputs are listed relative to.
ManifestRecord batchRecord(const BatchItem& item, const BatchTask& task, const std::string& outputFolder,
                           const std::string& command, const std::string& options);

// All three phases on this thread, then the record.
ManifestRecord runBatchItem(const CommandJob& job, const BatchTask& task, const FileIds& protectedFiles,
                            const std::string& outputFolder, const std::string& command, const std::string& options);

std::string describeCurrentFailure();  // the one-line reason of the exception being handled

template <class Phase>
bool runBatchPhase(BatchItem& item, Phase&& phase) {
    const auto start = std::chrono::steady_clock::now();
    const auto elapsed = [&] {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    };
    try {
        phase();
        item.ms += elapsed();
        return true;
    } catch (...) {
        item.ms += elapsed();
        item.error = describeCurrentFailure();
        return false;
    }
}

}  // namespace linescope::cli
