#include "app/cli/batch_jobs.h"

#include "app/cli/commands.h"
#include "app/io/json_writer.h"

#include <filesystem>
#include <functional>
#include <map>

namespace linescope::cli {

namespace {

using JobFactory = std::function<std::unique_ptr<CommandJob>(const ArgList&, JobMode)>;

const std::map<std::string, JobFactory>& jobFactories() {
    static const std::map<std::string, JobFactory> factories = [] {
        std::map<std::string, JobFactory> f;
        for (MorphOp op : {MorphOp::Open, MorphOp::Close, MorphOp::Erode, MorphOp::Dilate, MorphOp::TopHat})
            f[morphOpName(op)] = [op](const ArgList& a, JobMode m) { return morphJob(op, a, m); };
        f["sweep"] = sweepJob;
        f["skew"] = skewJob;
        f["spectrum"] = spectrumJob;
        f["orientation"] = orientationJob;
        f["contours"] = contoursJob;
        return f;
    }();
    return factories;
}

std::string commandList() {
    std::string list;
    for (const auto& [name, factory] : jobFactories()) list += (list.empty() ? "" : ", ") + name;
    return list;
}

// Every output role must name its own file: "contours --json .x --svg .x" would not.
void requireDistinctOutputs(const CommandJob& job) {
    const cv::Mat probe(1, 1, CV_8UC1);
    std::map<std::string, std::string> byPath;
    for (const auto& [role, path] : job.batchOutputs("NAME", "NAME.png", probe))
        if (!byPath.emplace(path, role).second)
            throw UsageError("two outputs of each input would be the same file '" + path +
                             "': give the output options different suffixes");
}

}  // namespace

std::unique_ptr<CommandJob> makeBatchJob(const std::string& command, const std::vector<std::string>& options) {
    const auto factory = jobFactories().find(command);
    if (factory == jobFactories().end()) {
        std::error_code ec;
        if (std::filesystem::exists(command, ec))  // an unquoted glob, expanded by the shell into several words
            throw UsageError("'" + command + "' is not a command for 'batch': quote a glob given to --inputs "
                             "('scans/*.png') so that the shell leaves it to batch");
        throw UsageError("'batch' cannot run '" + command + "': it runs " + commandList());
    }
    std::unique_ptr<CommandJob> job = factory->second(options, JobMode::Batch);
    if (job) requireDistinctOutputs(*job);
    return job;
}

std::string optionsJson(const std::vector<std::string>& options) {
    std::string array;
    for (const std::string& w : options) array += (array.empty() ? "" : ", ") + io::jsonString(w);
    return "[" + array + "]";
}

}  // namespace linescope::cli
