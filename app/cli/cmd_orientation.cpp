// linescope-cli orientation [--block B] [--length L] … IMAGE: the block orientation field
// (fingerprint ridges, hatching) as JSON, and optionally as CSV and a needle drawing.
#include "app/cli/command_job.h"
#include "app/cli/commands.h"
#include "app/cli/common.h"
#include "app/io/image_io.h"
#include "app/io/json_writer.h"
#include "app/io/orientation_export.h"
#include "app/io/text_file.h"

#include "compute/orientation_field.h"

#include <opencv2/imgproc.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

namespace linescope::cli {

namespace {
constexpr const char* kHelp =
    "usage: linescope-cli orientation [options] IMAGE\n"
    "\n"
    "The orientation of the lines (fingerprint ridges, hatching) per block of B×B pixels:\n"
    "for each of N angles over 180°, the closing minus the opening by a segment of λ\n"
    "pixels, summed over the block, is small along the lines and large across them; the\n"
    "block's orientation is half the argument of that block spectrum's doubled-angle\n"
    "harmonic, smoothed by a Gaussian over blocks on (cos 2θ, sin 2θ). Prints one JSON\n"
    "object:\n"
    "  {\"blocks_x\", \"blocks_y\", \"block_size\", \"length\", \"angle_count\", \"smoothing\", \"line\",\n"
    "   \"method\", \"angles\": [...], \"coherence\": [...], \"foreground\": [...], \"time_ms\"}\n"
    "with one value a block, row by row; angles in degrees in [0, 180), counter-clockwise\n"
    "from East as seen on screen (definitions.md §5). foreground is 1 where the block has lines.\n"
    "\n"
    "options:\n"
    "  --block B          the block size in pixels (default 16)\n"
    "  --length L         the segment's Euclidean length (default 9: about one ridge period at 500 dpi)\n"
    "  --angle-count N    angles over 180° (default 24)\n"
    "  --smoothing S      σ of the fine Gaussian over blocks (default 0.8; 0: none)\n"
    "  --method M         block (default) or pixel: each pixel's orientation-map angle (the\n"
    "                     supremum of openings, the infimum of closings) averaged per block\n"
    "  --csv OUT          also write bx,by,angle,coherence,weight,foreground a block\n"
    "  --needles OUT      also write IMAGE (as 8-bit grey) with a needle on each foreground\n"
    "                     block, drawn along its orientation\n";

void writeNeedles(const std::string& path, const cv::Mat& image, const OrientationField& f) {
    cv::Mat grey;
    if (image.depth() == CV_8U) grey = image;
    else cv::normalize(image, grey, 0, 255, cv::NORM_MINMAX, CV_8U);
    cv::Mat out;
    cv::cvtColor(grey, out, cv::COLOR_GRAY2BGR);
    const double half = 0.45 * f.blockSize;
    for (int by = 0; by < f.blocksY; ++by)
        for (int bx = 0; bx < f.blocksX; ++bx) {
            const std::size_t b = static_cast<std::size_t>(by) * static_cast<std::size_t>(f.blocksX) + static_cast<std::size_t>(bx);
            if (!f.foreground[b]) continue;
            const double a = f.angle[b] * std::numbers::pi / 180;
            const double cx = (bx + 0.5) * f.blockSize, cy = (by + 0.5) * f.blockSize;
            const cv::Point2d d(std::cos(a) * half, -std::sin(a) * half);  // y down on screen
            cv::line(out, cv::Point2d(cx, cy) - d, cv::Point2d(cx, cy) + d, cv::Scalar(0, 0, 255), 1, cv::LINE_AA);
        }
    io::writeImage(path, out);
}
class OrientationResult final : public JobResult {
public:
    OrientationResult(OrientationField field, OrientationFieldParams params, double ms, cv::Mat image)
        : f_(std::move(field)), p_(std::move(params)), ms_(ms), image_(std::move(image)) {}

    JobReport write(const OutputPaths& outputs) const override {
        const OrientationField& f = f_;
        int foregroundBlocks = 0;
        for (const unsigned char fg : f.foreground) foregroundBlocks += fg ? 1 : 0;
        JobReport report;
        if (const auto csv = outputs.find("csv"); csv != outputs.end()) {
            io::writeTextFile(csv->second, io::orientationFieldCsv(f));
            report.files.push_back(csv->second);
        }
        if (const auto needles = outputs.find("needles"); needles != outputs.end()) {
            writeNeedles(needles->second, image_, f);
            report.files.push_back(needles->second);
        }
        report.printed = io::orientationFieldJson(f, p_, ms_);
        report.results = "\"blocks\": " + std::to_string(f.angle.size()) +
                         ", \"foreground_blocks\": " + std::to_string(foregroundBlocks);
        return report;
    }

private:
    OrientationField f_;
    OrientationFieldParams p_;  // its method is the report's (io::orientationMethodName)
    double ms_;
    cv::Mat image_;  // for the needles
};

class OrientationJob final : public CommandJob {
public:
    OrientationJob(OrientationFieldParams params, std::optional<std::string> csv, std::optional<std::string> needles,
                   EngineOptions options)
        : params_(std::move(params)), csv_(std::move(csv)), needles_(std::move(needles)),
          options_(options) {}

    OutputPaths batchOutputs(const std::string& stem, const std::string&, const cv::Mat&) const override {
        OutputPaths outputs{{"printed", stem + ".orientation.json"}};
        if (csv_) outputs["csv"] = stem + *csv_;
        if (needles_) outputs["needles"] = stem + *needles_;
        return outputs;
    }
    std::vector<std::string> prepare(const std::string&, const cv::Mat&, const OutputPaths& outputs) const override {
        std::vector<std::string> files;
        if (const auto csv = outputs.find("csv"); csv != outputs.end()) files.push_back(csv->second);
        if (const auto needles = outputs.find("needles"); needles != outputs.end()) {
            io::requireWritable(needles->second, CV_8U, 3);
            files.push_back(needles->second);
        }
        return files;
    }
    std::unique_ptr<JobResult> compute(const std::string&, const cv::Mat& image, const io::NoticeFn&) const override {
        const auto start = std::chrono::steady_clock::now();
        OrientationField f = io::visitPixelType(image, [&]<class T>(std::type_identity<T>) {
            return estimateOrientationField<T>(io::viewOf<T>(image), params_, options_);
        });
        const double ms = millisecondsSince(start);
        return std::make_unique<OrientationResult>(std::move(f), params_, ms, image);
    }

private:
    OrientationFieldParams params_;
    std::optional<std::string> csv_, needles_;  // single mode: paths; batch: suffixes
    EngineOptions options_;
};

}  // namespace

std::unique_ptr<CommandJob> orientationJob(const ArgList& argList, JobMode mode) {
    auto specs = engineOptionSpecs();
    for (const char* o : {"--block", "--length", "--angle-count", "--smoothing", "--method", "--csv", "--needles"})
        specs.push_back({o, true});
    specs.push_back(lineOptionSpec());
    specs.push_back(forceOptionSpec());
    Args args(argList, specs, "orientation");
    if (args.helpRequested()) {
        printHelp(args, std::string(kHelp) + kLineHelp + kForceHelp + kEngineOptionsHelp);
        return nullptr;
    }
    requireFileArguments(args, mode, {"IMAGE"});
    refuseForceInBatch(args, mode);
    OrientationFieldParams p;
    p.blockSize = integerFrom(args, "--block", p.blockSize, 1, 4096);
    p.length = lengthFrom(args, 0);
    p.angleCount = angleCountFrom(args, p.angleCount);
    p.smoothing = numberFrom(args, "--smoothing", p.smoothing, 0, 100);
    p.kind = lineKindFrom(args);
    const std::string method = args.valueOr("--method", "block");
    if (method != "block" && method != "pixel") throw UsageError("--method must be block or pixel, got '" + method + "'");
    p.method = method == "block" ? OrientationMethod::BlockSpectrum : OrientationMethod::PixelArg;
    const auto csv = outputOption(args, "--csv", mode);
    const auto needles = outputOption(args, "--needles", mode);
    if (mode == JobMode::Single) {
        std::vector<std::string> outputs;
        if (csv) outputs.push_back(*csv);
        if (needles) outputs.push_back(*needles);
        checkOutputs({args.positionals()[0]}, outputs, args.has("--force"));
    }
    const EngineOptions options = engineOptionsFrom(args);
    auto job = std::make_unique<OrientationJob>(p, csv, needles, options);
    if (mode == JobMode::Single) {
        job->singleInput = args.positionals()[0];
        if (csv) job->singleOutputs["csv"] = *csv;
        if (needles) job->singleOutputs["needles"] = *needles;
    }
    return job;
}

int runOrientation(const ArgList& args) { return runSingleJob(orientationJob(args, JobMode::Single)); }

}  // namespace linescope::cli
