#include "app/cli/command_job.h"

#include "app/cli/common.h"

#include <cstdio>

namespace linescope::cli {

int runSingleJob(const std::unique_ptr<CommandJob>& job) {
    if (!job) return 0;
    const cv::Mat image = io::readImage(job->singleInput, notice);
    job->prepare(job->singleInput, image, job->singleOutputs);
    const std::unique_ptr<JobResult> result = job->compute(job->singleInput, image, notice);
    const JobReport report = result->write(job->singleOutputs);
    std::fputs(report.printed.c_str(), stdout);
    return 0;
}

void requireFileArguments(const Args& args, JobMode mode, const std::vector<std::string>& names) {
    if (mode == JobMode::Single) return args.requirePositionals(names);
    if (!args.positionals().empty())
        throw UsageError("unexpected argument '" + args.positionals()[0] + "' for 'batch " + args.command() +
                         "': batch takes its files from --inputs, given before the command");
}

void refuseForceInBatch(const Args& args, JobMode mode) {
    if (mode == JobMode::Batch && args.has("--force"))
        throw UsageError("'batch " + args.command() + "' takes no --force: a batch never replaces an input");
}

std::optional<std::string> outputOption(const Args& args, const std::string& name, JobMode mode) {
    auto value = args.value(name);
    if (!value || mode == JobMode::Single) return value;
    if (value->empty() || value->find('/') != std::string::npos)
        throw UsageError("in a batch, " + name + " takes a suffix for each input's name, such as " + name +
                         " .out.png (no '/'), got '" + *value + "'");
    return value;
}

std::string batchImageName(const std::string& stem, const std::string& input, int depth) {
    const std::string ext = io::extensionOf(input);
    const bool lossless = ext == "png" || ext == "tif" || ext == "tiff" || ext == "pgm" || ext == "pnm" ||
                          ext == "pfm" || ext == "bmp";
    if (lossless) {
        try {
            io::requireWritable(stem + "." + ext, depth);
            return stem + "." + ext;
        } catch (const io::IoError&) {
            // this format cannot hold the result's pixel type: the default below can
        }
    }
    return stem + "." + io::defaultExtensionFor(depth);
}

}  // namespace linescope::cli
