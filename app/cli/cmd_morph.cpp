// linescope-cli open|close|erode|dilate|tophat --angle A --length L in out
#include "app/cli/command_job.h"
#include "app/cli/commands.h"
#include "app/cli/common.h"
#include "app/io/export_recipe.h"
#include "app/io/image_io.h"

#include <cstdio>
#include <filesystem>
#include <string>

namespace linescope::cli {

namespace {
constexpr const char* kHelp =
    "usage: linescope-cli OP --length L [--angle A] [options] IN OUT\n"
    "\n"
    "OP is open, close, erode, dilate or tophat (IN minus its opening): the operator by a\n"
    "digital line segment of L pixels at A degrees (counter-clockwise from East), applied\n"
    "along digital line paths (definitions.md §5, in /usr/share/doc/linescope) or, with\n"
    "--line, by another kind of digital line. OUT keeps\n"
    "IN's pixel type (uint8, uint16, float32): float32 needs a .tiff or .pfm output,\n"
    "uint16 a .png, .tiff or .pgm.\n"
    "\n"
    "options:\n"
    "  --length L         the segment's length in pixels, 1 … 1000000 (longer than the\n"
    "                     image is allowed)\n"
    "  --angle A          degrees, any real number (taken modulo 180; default 0)\n";


class MorphResult final : public JobResult {
public:
    MorphResult(cv::Mat image, io::ExportRecipe recipe) : image_(std::move(image)), recipe_(std::move(recipe)) {}
    JobReport write(const OutputPaths& outputs) const override {
        const std::string& out = outputs.at("out");
        io::writeImage(out, image_, recipe_);
        return {{out}, "", ""};
    }

private:
    cv::Mat image_;
    io::ExportRecipe recipe_;
};

class MorphJob final : public CommandJob {
public:
    MorphJob(MorphOp op, LineParams params, EngineOptions options) : op_(op), params_(params), options_(options) {}

    OutputPaths batchOutputs(const std::string& stem, const std::string& input, const cv::Mat& image) const override {
        return {{"out", batchImageName(stem, input, image.depth())}};
    }
    std::vector<std::string> prepare(const std::string&, const cv::Mat& image, const OutputPaths& outputs) const override {
        io::requireWritable(outputs.at("out"), image.depth());
        return {outputs.at("out")};
    }
    std::unique_ptr<JobResult> compute(const std::string& input, const cv::Mat& src, const io::NoticeFn&) const override {
        cv::Mat dst(src.size(), src.type());
        io::visitPixelType(src, [&]<class T>(std::type_identity<T>) {
            lineMorph<T>(op_, io::viewOf<T>(src), io::mutableViewOf<T>(dst), params_, options_);
        });
        io::ExportRecipe recipe;
        recipe.op = morphOpName(op_);
        recipe.angle = params_.angle;
        recipe.length = params_.length;
        recipe.lines = lineKindName(params_.kind);
        recipe.view = "result";
        recipe.source = std::filesystem::path(input).filename().string();
        return std::make_unique<MorphResult>(std::move(dst), std::move(recipe));
    }

private:
    MorphOp op_;
    LineParams params_;
    EngineOptions options_;
};
}  // namespace

std::unique_ptr<CommandJob> morphJob(MorphOp op, const ArgList& argList, JobMode mode) {
    auto specs = engineOptionSpecs();
    specs.push_back({"--length", true});
    specs.push_back({"--angle", true});
    specs.push_back(lineOptionSpec());
    specs.push_back(forceOptionSpec());
    Args args(argList, specs, morphOpName(op));
    if (args.helpRequested()) {
        printHelp(args, std::string(kHelp) + kLineHelp + kForceHelp + kEngineOptionsHelp);
        return nullptr;
    }
    requireFileArguments(args, mode, {"IN", "OUT"});
    refuseForceInBatch(args, mode);
    LineParams p;
    p.length = lengthFrom(args);
    p.angle = parseReal(args.valueOr("--angle", "0"), "--angle");
    p.kind = lineKindFrom(args);
    if (mode == JobMode::Single) checkOutputs({args.positionals()[0]}, {args.positionals()[1]}, args.has("--force"));
    const EngineOptions options = engineOptionsFrom(args);
    auto job = std::make_unique<MorphJob>(op, p, options);
    if (mode == JobMode::Single) {
        job->singleInput = args.positionals()[0];
        job->singleOutputs = {{"out", args.positionals()[1]}};
    }
    return job;
}

int runMorph(MorphOp op, const ArgList& args) { return runSingleJob(morphJob(op, args, JobMode::Single)); }

}  // namespace linescope::cli
