// linescope-cli batch --inputs DIR|GLOB|@LIST --out-dir OUT [options] COMMAND [its options]
#include "app/cli/batch_inputs.h"
#include "app/cli/batch_manifest.h"
#include "app/cli/batch_pipeline.h"
#include "app/cli/batch_progress.h"
#include "app/cli/commands.h"
#include "app/cli/common.h"
#include "app/io/json_writer.h"

#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <thread>

namespace linescope::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kHelp =
    "usage: linescope-cli batch --inputs SRC [--inputs SRC …] --out-dir OUT [options] COMMAND [its options]\n"
    "\n"
    "Runs COMMAND (open, close, erode, dilate, tophat, sweep, skew, orientation, spectrum or\n"
    "contours) with its options on every input, with the outputs mirrored into OUT: an input\n"
    "found as SUB/NAME.EXT under its source writes to OUT/SUB/, named after NAME:\n"
    "  open … tophat  OUT/SUB/NAME.EXT (EXT kept when lossless and able to hold the result,\n"
    "                 else .png, or .tiff for float32)\n"
    "  sweep          the folder OUT/SUB/NAME/\n"
    "  skew, orientation, spectrum\n"
    "                 what the command prints, in OUT/SUB/NAME.skew.json (.orientation.json,\n"
    "                 .spectrum.json)\n"
    "The options that name an output file (deskew of skew, json and svg of contours, csv and\n"
    "needles of orientation) take a suffix instead, added to NAME: given .deskewed.png, skew's\n"
    "deskew option writes OUT/SUB/NAME.deskewed.png. Batch options go before COMMAND;\n"
    "COMMAND's options, after it, are checked by COMMAND as when it runs alone, and give the\n"
    "same files byte for byte. No input is ever replaced, so COMMAND takes no force option.\n"
    "\n"
    "A file that fails (unreadable, not an image, an engine error) is reported with its reason\n"
    "and the batch goes on; the exit status is then 1. Every input gets a line in\n"
    "OUT/batch-manifest.jsonl as it finishes: {\"input\", \"status\" (ok, failed or skipped),\n"
    "\"outputs\" (relative to OUT), \"error\", \"time_ms\", \"results\" (the image's size and type;\n"
    "skew's angle, confidence and dominant; contours' count; spectrum's peak angles;\n"
    "orientation's block counts), \"notes\", \"command\", \"options\", \"input_bytes\",\n"
    "\"input_mtime_ns\"}. A re-run skips an input whose latest line is ok (or skipped) for the\n"
    "same command, options and input file (size and time) and whose outputs are all there:\n"
    "each output is written whole or not at all, so one that exists is complete.\n"
    "On a terminal, a progress line shows done/total, files/s and the time left; otherwise each\n"
    "input gets a line on stderr. A summary line goes to stdout.\n"
    "\n"
    "options:\n"
    "  --inputs SRC       a folder (searched recursively for image files, by extension or\n"
    "                     signature; hidden files skipped), a glob in quotes ('scans/*.png';\n"
    "                     * ? [..], no **), a file, or @LIST: a file with one path a line\n"
    "                     (empty lines and lines starting with # skipped). Repeatable\n"
    "  --out-dir OUT      the output folder (created when missing); files below it are never\n"
    "                     taken as inputs, and no input is ever replaced\n"
    "  --jobs N           decoding threads, and as many writing threads (default: one per\n"
    "                     core, at least 2); the engine runs on one thread of its own and\n"
    "                     keeps its own parallelism (COMMAND's threads option)\n"
    "  --redo             process every input, even those complete from an earlier run\n"
    "  --devices LIST     not supported yet: the engine has one CUDA context, so a batch uses\n"
    "                     one GPU (or the CPU)\n";

std::vector<OptionSpec> batchOptionSpecs() {
    return {{"--inputs", true}, {"--out-dir", true}, {"--jobs", true}, {"--redo", false}, {"--devices", true}};
}

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

std::unique_ptr<CommandJob> jobFor(const std::string& command, const ArgList& options) {
    const auto factory = jobFactories().find(command);
    if (factory != jobFactories().end()) return factory->second(options, JobMode::Batch);
    std::error_code ec;
    if (fs::exists(command, ec))  // an unquoted glob, expanded by the shell into several words
        throw UsageError("'" + command + "' is not a command for 'batch': quote a glob given to --inputs "
                         "('scans/*.png') so that the shell leaves it to batch");
    throw UsageError("'batch' cannot run '" + command + "': it runs " + commandList());
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

std::string jsonArray(const ArgList& words) {
    std::string array;
    for (const std::string& w : words) array += (array.empty() ? "" : ", ") + io::jsonString(w);
    return "[" + array + "]";
}

// outputFolder/relative without its extension (a folder's name keeps any dot in it).
std::string stemOf(const std::string& outputFolder, const std::string& relative) {
    const fs::path r(relative);
    return (fs::path(outputFolder) / r.parent_path() / r.stem()).string();
}

}  // namespace

int runBatch(const ArgList& argList) {
    const std::vector<OptionSpec> specs = batchOptionSpecs();
    const auto split = argList.begin() + static_cast<std::ptrdiff_t>(optionsEnd(argList, specs));
    Args args(ArgList(argList.begin(), split), specs, "batch");
    if (args.helpRequested()) return printHelp(args, kHelp);
    if (args.has("--devices"))
        throw UsageError("--devices is not supported yet: a batch runs the engine on one device");
    if (split == argList.end())
        throw UsageError("'batch' needs a command to run, e.g. linescope-cli batch --inputs scans --out-dir out skew");
    const std::string command = *split;
    const ArgList commandOptions(split + 1, argList.end());
    const std::unique_ptr<CommandJob> job = jobFor(command, commandOptions);
    if (!job) return 0;  // COMMAND --help
    requireDistinctOutputs(*job);
    const std::vector<std::string> sources = args.values("--inputs");
    if (sources.empty()) throw UsageError("'batch' needs --inputs DIR, GLOB or @LIST (before the command)");
    const std::string outputFolder = args.valueOr("--out-dir", "");
    if (outputFolder.empty()) throw UsageError("'batch' needs --out-dir OUT (before the command)");
    const int defaultJobs = static_cast<int>(std::max(2u, std::thread::hardware_concurrency()));
    const int jobs = integerFrom(args, "--jobs", defaultJobs, 1, 256);

    std::error_code ec;
    if (fs::exists(outputFolder, ec) && !fs::is_directory(outputFolder, ec))
        throw io::IoError("the output folder '" + outputFolder + "' is a file, not a folder");
    const std::vector<BatchInput> inputs = collectBatchInputs(sources, outputFolder);
    if (inputs.empty()) throw io::IoError("--inputs names no image file");
    fs::create_directories(outputFolder, ec);
    if (ec || !fs::is_directory(outputFolder, ec))
        throw io::IoError("cannot create the output folder '" + outputFolder + "'" + (ec ? ": " + ec.message() : ""));

    BatchManifest manifest(outputFolder);
    BatchProgress progress(inputs.size());
    BatchPlan plan;
    plan.job = job.get();
    plan.command = command;
    plan.options = jsonArray(commandOptions);
    plan.outputFolder = outputFolder;
    plan.ioThreads = jobs;
    std::vector<std::string> protectedFiles;
    std::map<std::string, std::string> inputByStem;  // the first input of each output name
    for (const BatchInput& input : inputs) {
        protectedFiles.push_back(input.path);
        const std::string stem = stemOf(outputFolder, input.relative);
        const InputStamp stamp = stampOf(input.path);
        const auto [first, unique] = inputByStem.emplace(stem, input.path);
        ManifestRecord record;
        record.input = input.path;
        record.command = command;
        record.options = plan.options;
        record.stamp = stamp;
        if (!unique) {
            record.status = "failed";
            record.error = "its outputs would have the names of those of '" + first->second +
                           "' (the same name but for the extension)";
            manifest.append(record);
            progress.failed(input.path, record.error);
            continue;
        }
        const ManifestRecord* latest = manifest.previous(input.path);
        if (!args.has("--redo") && isComplete(latest, command, plan.options, stamp, outputFolder)) {
            record.status = "skipped";
            record.outputs = latest->outputs;
            record.results = latest->results;
            manifest.append(record);
            progress.skipped(input.path);
            continue;
        }
        plan.inputs.push_back(input);
        plan.stems.push_back(stem);
        plan.stamps.push_back(stamp);
    }
    runBatchPipeline(plan, protectedFiles, manifest, progress);
    progress.finish();

    const double seconds = progress.elapsedSeconds();
    const std::size_t processed = progress.successes() + progress.failures();
    std::printf("batch: %zu ok, %zu failed, %zu skipped of %zu files in %.1f s (%.2f files/s); manifest: %s\n",
                progress.successes(), progress.failures(), progress.skips(), inputs.size(), seconds,
                seconds > 0 ? static_cast<double>(processed) / seconds : 0.0, manifest.path().c_str());
    std::fflush(stdout);
    if (progress.failures() > 0)
        throw io::IoError(std::to_string(progress.failures()) + " of " + std::to_string(inputs.size()) +
                          " files failed (their reasons are in " + manifest.path() + ")");
    return 0;
}

}  // namespace linescope::cli
