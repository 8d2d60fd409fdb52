// linescope-cli batch --inputs DIR|GLOB|@LIST --out-dir OUT [options] COMMAND [its options]
#include "app/cli/batch_inputs.h"
#include "app/cli/batch_jobs.h"
#include "app/cli/batch_manifest.h"
#include "app/cli/batch_pipeline.h"
#include "app/cli/batch_progress.h"
#include "app/cli/commands.h"
#include "app/cli/common.h"
#include "app/io/json_writer.h"
#include "compute/backend.h"
#include "compute/cuda_devices.h"
#include "compute/image.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
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
    "                     core, less two for each GPU, at least 2). The engine has threads\n"
    "                     of its own: two a GPU (see --devices); on the CPU, one a core,\n"
    "                     each file on one thread, when there are as many files as cores\n"
    "                     (else one, with every core); COMMAND's thread count is kept\n"
    "  --redo             process every input, even those complete from an earlier run\n"
    "  --devices LIST     the GPUs to use, as nvidia-smi numbers them: 0,1 or all. Each named GPU\n"
    "                     gets an engine thread with its own CUDA context and stream, which\n"
    "                     takes the next decoded file when it is free; the results are those of\n"
    "                     one GPU. A GPU named twice (0,0,1,1) gets two threads, whose copies\n"
    "                     and host work overlap the other's kernels; all names every GPU twice.\n"
    "                     For COMMAND's CUDA backend, cuda or auto (default: 0,0 when there is\n"
    "                     a GPU)\n"
    "\n"
    "After the summary a line says where the time went: each stage's time a file and the rate\n"
    "its threads could sustain alone, and how busy each engine thread was; the slowest stage\n"
    "bounds the batch.\n";

std::vector<OptionSpec> batchOptionSpecs() {
    return {{"--inputs", true}, {"--out-dir", true}, {"--jobs", true}, {"--redo", false}, {"--devices", true}};
}

bool namesCpuBackend(const ArgList& commandOptions) {
    for (std::size_t i = 0; i < commandOptions.size(); ++i)
        if (commandOptions[i] == "--backend=cpu" ||
            (commandOptions[i] == "--backend" && i + 1 < commandOptions.size() && commandOptions[i + 1] == "cpu"))
            return true;
    return false;
}

// --devices 0,2 or all (a device named twice gets two engine threads, and all names each GPU
// twice): each device checked to exist now, before any work.
std::vector<int> devicesFrom(const Args& args, const ArgList& commandOptions) {
    if (!args.has("--devices")) return {};
    const std::string text = args.valueOr("--devices", "");
    if (namesCpuBackend(commandOptions))
        throw UsageError("--devices chooses GPUs, but the command runs on the CPU (--backend cpu)");
    std::vector<int> devices;
    if (text == "all") {
        const int count = cudaDeviceCount();
        if (count == 0) {
            std::string why;
            backendAvailable(Backend::Cuda, &why);
            throw UsageError("--devices all: the CUDA backend is not available: " + why);
        }
        for (int d = 0; d < count; ++d) devices.insert(devices.end(), {d, d});  // two engine threads a GPU
        return devices;
    }
    std::size_t begin = 0;
    while (begin <= text.size()) {
        const std::size_t end = std::min(text.find(',', begin), text.size());
        const std::string item = text.substr(begin, end - begin);
        if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 4)
            throw UsageError("--devices takes GPU numbers separated by commas (0,1) or all, got '" + text + "'");
        devices.push_back(std::stoi(item));
        begin = end + 1;
    }
    for (int device : std::set<int>(devices.begin(), devices.end())) {
        try {
            CudaDeviceScope check(device);
        } catch (const Error& e) {
            throw UsageError(std::string("--devices: ") + e.what());
        }
    }
    return devices;
}

}  // namespace

int runBatch(const ArgList& argList) {
    const std::vector<OptionSpec> specs = batchOptionSpecs();
    const auto split = argList.begin() + static_cast<std::ptrdiff_t>(optionsEnd(argList, specs));
    Args args(ArgList(argList.begin(), split), specs, "batch");
    if (args.helpRequested()) return printHelp(args, kHelp);
    if (split == argList.end())
        throw UsageError("'batch' needs a command to run, e.g. linescope-cli batch --inputs scans --out-dir out skew");
    const std::string command = *split;
    const ArgList commandOptions(split + 1, argList.end());
    const std::unique_ptr<CommandJob> job = makeBatchJob(command, commandOptions);
    if (!job) return 0;  // COMMAND --help
    const std::vector<std::string> sources = args.values("--inputs");
    if (sources.empty()) throw UsageError("'batch' needs --inputs DIR, GLOB or @LIST (before the command)");
    const std::string outputFolder = args.valueOr("--out-dir", "");
    if (outputFolder.empty()) throw UsageError("'batch' needs --out-dir OUT (before the command)");
    std::vector<int> devices = devicesFrom(args, commandOptions);
    const bool engineOnGpu = !devices.empty() || (!namesCpuBackend(commandOptions) && cudaDeviceCount() > 0);
    if (engineOnGpu && devices.empty()) devices = {0, 0};  // device 0, two engine threads
    const int gpus = static_cast<int>(std::set<int>(devices.begin(), devices.end()).size());
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    const int defaultJobs = defaultBatchDecoders(cores, gpus);
    const int jobs = integerFrom(args, "--jobs", defaultJobs, 1, 256);

    std::error_code ec;
    if (fs::exists(outputFolder, ec) && !fs::is_directory(outputFolder, ec))
        throw io::IoError("the output folder '" + outputFolder + "' is a file, not a folder");
    const std::vector<BatchInput> inputs = collectBatchInputs(sources, outputFolder);
    // Files inside the output folder are never inputs, so an output folder that holds the
    // inputs (an output equal to an input) ends here too: say so.
    if (inputs.empty())
        throw io::IoError("--inputs names no image file outside the output folder '" + outputFolder +
                          "' (files inside it are never read as inputs)");
    fs::create_directories(outputFolder, ec);
    if (ec || !fs::is_directory(outputFolder, ec))
        throw io::IoError("cannot create the output folder '" + outputFolder + "'" + (ec ? ": " + ec.message() : ""));

    BatchManifest manifest(outputFolder);
    BatchProgress progress(inputs.size());
    BatchPlan plan;
    plan.job = job.get();
    plan.command = command;
    plan.options = optionsJson(commandOptions);
    plan.outputFolder = outputFolder;
    plan.ioThreads = jobs;
    plan.devices = devices;
    // Decoders page-lock pages for one GPU only: with two, their locking went through GPU 0's
    // context and slowed its engine threads to a third of GPU 1's (2 × H200: 413 against 472
    // pages/s unlocked). LINESCOPE_BATCH_PIN=0 copies through the staging area, for benchmarks.
    const char* pin = std::getenv("LINESCOPE_BATCH_PIN");
    plan.pinDecoded = gpus == 1 && !(pin && std::string(pin) == "0");
    planBatch(plan, inputs, manifest, args.has("--redo"));
    if (devices.empty()) {
        const CpuEngines cpu = defaultBatchCpuEngines(cores, plan.tasks.size());
        plan.cpuEngines = cpu.threads;
        plan.cpuThreadsEach = cpu.threadsEach;
    }
    for (const ManifestRecord& record : plan.settled) {
        manifest.append(record);
        if (record.status == "skipped") progress.skipped(record.input);
        else progress.failed(record.input, record.error);
    }
    std::vector<std::string> protectedFiles;
    for (const BatchInput& input : inputs) protectedFiles.push_back(input.path);
    const BatchStageTimes stages = runBatchPipeline(plan, protectedFiles, manifest, progress);
    progress.finish();

    const double seconds = progress.elapsedSeconds();
    const std::size_t processed = progress.successes() + progress.failures();
    std::printf("batch: %zu ok, %zu failed, %zu skipped of %zu files in %.1f s (%.2f files/s); manifest: %s\n",
                progress.successes(), progress.failures(), progress.skips(), inputs.size(), seconds,
                seconds > 0 ? static_cast<double>(processed) / seconds : 0.0, manifest.path().c_str());
    if (!plan.tasks.empty()) std::printf("%s\n", describeStages(stages, seconds).c_str());
    std::fflush(stdout);
    if (progress.failures() > 0)
        throw io::IoError(std::to_string(progress.failures()) + " of " + std::to_string(inputs.size()) +
                          " files failed (their reasons are in " + manifest.path() + ")");
    return 0;
}

}  // namespace linescope::cli
