// One subcommand's work on one image, split into the phases that `batch` overlaps across
// files: decoding (io::readImage, common to all), prepare (checks that need the decoded
// image), compute (the engine) and write (encoding and files). The subcommand alone runs
// the phases one after the other on its own arguments (runSingleJob); batch runs them on
// many inputs with outputs named after each input. Both use the same job, so a batch
// writes byte for byte what the subcommand writes.
#pragma once

#include "app/cli/args.h"
#include "app/io/image_io.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace linescope::cli {

enum class JobMode { Single, Batch };

// Where one input's results go, by role: "out", "dir", "deskew", "json", "svg", "csv",
// "needles", and in batch "printed" (the file that receives what the command prints).
using OutputPaths = std::map<std::string, std::string>;

// What writing one input's results produced.
struct JobReport {
    std::vector<std::string> files;  // every file written
    std::string printed;             // what the subcommand prints on stdout for this input
    std::string results;             // JSON members for batch's manifest ("\"angle\": 1.5"), or ""
};

// An input's computed results, not yet written. Written on another thread than the one
// that computed them.
class JobResult {
public:
    virtual ~JobResult() = default;
    virtual JobReport write(const OutputPaths& outputs) const = 0;
};

// A subcommand's parsed and validated options. Its methods are const and may run on
// several threads at once; compute too (batch --devices runs one engine thread a GPU), so
// it keeps no state between calls.
class CommandJob {
public:
    virtual ~CommandJob() = default;

    // Batch: the outputs of the input `input`, decoded as `image`, whose mirror in the
    // output folder is `stem` (OUT/sub/name, without the input's extension).
    virtual OutputPaths batchOutputs(const std::string& stem, const std::string& input, const cv::Mat& image) const = 0;
    // Checks that need the decoded image (an output format that cannot hold its pixel type)
    // and makes what the outputs need (sweep's folder); returns every file the write will
    // make, so that batch can refuse to replace an input before anything is written.
    virtual std::vector<std::string> prepare(const std::string& input, const cv::Mat& image,
                                             const OutputPaths& outputs) const = 0;
    virtual std::unique_ptr<JobResult> compute(const std::string& input, const cv::Mat& image,
                                               const io::NoticeFn& notice) const = 0;

    // Single mode: the input and outputs its own arguments name.
    std::string singleInput;
    OutputPaths singleOutputs;
};

// The subcommand on its own arguments: read, prepare, compute, write, print. A null job
// (its --help was printed) returns 0.
int runSingleJob(const std::unique_ptr<CommandJob>& job);

// The file arguments a job takes in its mode: in single mode exactly `names`; in batch
// none, since batch's --inputs names the files (a UsageError that says so otherwise).
void requireFileArguments(const Args& args, JobMode mode, const std::vector<std::string>& names);

// Batch refuses --force: it never replaces an input, and its outputs go to its own folder.
void refuseForceInBatch(const Args& args, JobMode mode);

// An option that names an output file. Single mode: the path. Batch: a suffix for each
// input's mirrored stem ("--json .json" writes OUT/sub/page.json); a suffix with a '/'
// or an empty one is a UsageError.
std::optional<std::string> outputOption(const Args& args, const std::string& name, JobMode mode);

// Batch's name for an image result: the input's own extension when it is lossless and can
// hold `depth` (png, tiff, pgm, pnm, pfm, bmp), else png, or tiff for float32.
std::string batchImageName(const std::string& stem, const std::string& input, int depth);

}  // namespace linescope::cli
