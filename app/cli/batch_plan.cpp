#include "app/cli/batch_plan.h"

#include <filesystem>
#include <map>

namespace linescope::cli {

namespace fs = std::filesystem;

std::string batchStem(const std::string& outputFolder, const std::string& relative) {
    const fs::path r(relative);
    return (fs::path(outputFolder) / r.parent_path() / r.stem()).string();
}

void planBatch(BatchPlan& plan, const std::vector<BatchInput>& inputs, const BatchManifest& manifest, bool redo) {
    std::map<std::string, std::string> inputByStem;  // the first input of each output name
    for (const BatchInput& input : inputs) {
        const BatchTask task{input.path, batchStem(plan.outputFolder, input.relative), stampOf(input.path)};
        const auto [first, unique] = inputByStem.emplace(task.stem, input.path);
        ManifestRecord record;
        record.input = input.path;
        record.command = plan.command;
        record.options = plan.options;
        record.stamp = task.stamp;
        if (!unique) {
            record.status = "failed";
            record.error = "its outputs would have the names of those of '" + first->second +
                           "' (the same name but for the extension)";
            plan.settled.push_back(std::move(record));
            continue;
        }
        const ManifestRecord* latest = manifest.previous(input.path);
        if (!redo && isComplete(latest, plan.command, plan.options, task.stamp, plan.outputFolder)) {
            record.status = "skipped";
            record.outputs = latest->outputs;
            record.results = latest->results;
            plan.settled.push_back(std::move(record));
            continue;
        }
        plan.tasks.push_back(task);
    }
}

}  // namespace linescope::cli
