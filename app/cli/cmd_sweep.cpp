// linescope-cli sweep --length L --angles SET IN --out-dir DIR
#include "app/cli/command_job.h"
#include "app/cli/commands.h"
#include "app/cli/common.h"
#include "app/io/export_recipe.h"
#include "app/io/image_io.h"
#include "app/io/json_writer.h"
#include "app/io/spectrum_export.h"

#include "compute/sweep.h"

#include <opencv2/imgproc.hpp>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#ifndef LINESCOPE_VERSION
#define LINESCOPE_VERSION "unknown"
#endif

namespace linescope::cli {

namespace {
constexpr const char* kHelp =
    "usage: linescope-cli sweep --length L [--angles SET] [--op OP] IN --out-dir DIR\n"
    "\n"
    "Applies OP (open, close, erode or dilate; default open) by a segment of L pixels (the\n"
    "digital line of --line) at every angle of SET (default 0:180:1, at most 720 angles) and\n"
    "writes into DIR (created when missing):\n"
    "  supremum.EXT, infimum.EXT, strength.EXT  IN's pixel type (EXT: png for uint8/uint16,\n"
    "                                           tiff for float32)\n"
    "  orientation.png           the colour map: hue = angle, value = strength\n"
    "  orientation-angles.tiff   float32: the angle α_k in degrees of each pixel's\n"
    "                            orientation (the smallest k reaching the supremum; for\n"
    "                            close and dilate, the infimum)\n"
    "  spectrum.csv              index,angle,sum\n"
    "  spectrum.json             {\"op\", \"length\", \"line\", \"angles\", \"spectrum\"}; exact integers for\n"
    "                            integer images\n"
    "  manifest.json             {\"complete\": true, \"files\": [...], the parameters}: removed\n"
    "                            before the first file is replaced and written after the\n"
    "                            last, so a folder without it is incomplete (a failed or\n"
    "                            killed run)\n"
    "and prints a one-line summary. Each file is written whole or not at all.\n"
    "\n"
    "options:\n"
    "  --length L         the segment's length in pixels, 1 … 1000000\n"
    "  --angles SET       N angles over 180°, or start:stop:step (stop excluded), e.g. 36\n"
    "                     or -10:10.25:0.25\n"
    "  --op OP            open, close, erode or dilate\n"
    "  --out-dir DIR      the folder for the results (required)\n";

template <class T>
std::string spectrumValue(const SweepResult<T>& r, std::size_t k) {
    if constexpr (std::is_same_v<T, float>) return io::jsonNumber(r.spectrum[k]);
    else return io::jsonNumber(r.spectrumExact[k]);
}

constexpr const char* kManifest = "manifest.json";

// The files a sweep writes into its folder, in the order written, the manifest last.
std::vector<std::string> sweepFileNames(int depth) {
    const std::string ext = io::defaultExtensionFor(depth);
    return {"supremum." + ext, "infimum." + ext,  "strength." + ext, "orientation.png",
            "orientation-angles.tiff", "spectrum.csv", "spectrum.json", kManifest};
}

void removeManifest(const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::remove(dir / kManifest, ec);
    if (ec) throw io::IoError("cannot remove '" + (dir / kManifest).string() + "': " + ec.message());
}

// Written last: its presence says every other file of the folder comes from this run.
void writeManifest(const std::filesystem::path& dir, const std::string& input, const SweepRequest& req, int depth) {
    std::string files;
    for (const std::string& name : sweepFileNames(depth))
        if (name != kManifest) files += (files.empty() ? "" : ", ") + io::jsonString(name);
    io::writeTextFile((dir / kManifest).string(),
                      "{\"complete\": true, \"command\": \"sweep\", \"version\": " + io::jsonString(LINESCOPE_VERSION) +
                          ", \"input\": " + io::jsonString(input) + ", \"op\": " + io::jsonString(morphOpName(req.op)) +
                          ", \"length\": " + std::to_string(req.length) + ", \"line\": " +
                          io::jsonString(lineKindName(req.kind)) + ", \"angles\": {\"start\": " +
                          io::jsonNumber(req.angles.start) + ", \"step\": " + io::jsonNumber(req.angles.step) +
                          ", \"count\": " + std::to_string(req.angles.count) + "}, \"pixel_type\": " +
                          io::jsonString(io::depthName(depth)) + ", \"files\": [" + files + "]}\n");
}

template <class T>
void writeResults(const SweepResult<T>& r, const std::filesystem::path& dir, int length, LineKind kind,
                  const std::string& input) {
    const std::string ext = io::defaultExtensionFor(io::cvDepthOf<T>());
    io::ExportRecipe recipe;
    recipe.op = morphOpName(r.op);
    recipe.length = length;
    recipe.lines = lineKindName(kind);
    recipe.angles = io::angleSetText(r.angles);
    recipe.source = std::filesystem::path(input).filename().string();
    const auto write = [&](const std::string& name, const cv::Mat& image) {
        recipe.view = name.substr(0, name.find('.'));
        io::writeImage((dir / name).string(), image, recipe);
    };
    removeManifest(dir);
    write("supremum." + ext, io::matOf(r.sup));
    write("infimum." + ext, io::matOf(r.inf));
    write("strength." + ext, io::matOf(r.strength));

    const RgbImage colours = orientationColours(r);
    cv::Mat rgb(colours.height, colours.width, CV_8UC3, const_cast<std::uint8_t*>(colours.rgb.data()));
    cv::Mat bgr;
    cv::cvtColor(rgb, bgr, cv::COLOR_RGB2BGR);
    write("orientation.png", bgr);

    cv::Mat angles(r.argIndex.height(), r.argIndex.width(), CV_32FC1);
    for (int y = 0; y < angles.rows; ++y) {
        float* row = angles.ptr<float>(y);
        for (int x = 0; x < angles.cols; ++x) row[x] = static_cast<float>(r.orientation(x, y));
    }
    write("orientation-angles.tiff", angles);

    const std::size_t n = static_cast<std::size_t>(r.angles.count);
    std::string jsonAngles, jsonSpectrum;
    for (std::size_t k = 0; k < n; ++k) {
        jsonAngles += (k ? ", " : "") + io::jsonNumber(r.angles.angle(static_cast<int>(k)));
        jsonSpectrum += (k ? ", " : "") + spectrumValue(r, k);
    }
    recipe.view = "spectrum";
    if constexpr (std::is_same_v<T, float>) io::writeSpectrumCsv((dir / "spectrum.csv").string(), r.angles, r.spectrum, &recipe);
    else io::writeSpectrumCsv((dir / "spectrum.csv").string(), r.angles, r.spectrumExact, &recipe);
    io::writeTextFile((dir / "spectrum.json").string(), "{\"op\": " + io::jsonString(morphOpName(r.op)) +
                                         ", \"length\": " + std::to_string(length) + ", \"line\": " +
                                         io::jsonString(lineKindName(kind)) + ", \"pixel_type\": " +
                                         io::jsonString(pixelTypeName(pixelTypeOf<T>())) + ", \"angles\": [" +
                                         jsonAngles + "], \"spectrum\": [" + jsonSpectrum + "]}\n");
}
template <class T>
class SweepJobResult final : public JobResult {
public:
    SweepJobResult(SweepResult<T> result, SweepRequest request, std::string input, std::string summary)
        : result_(std::move(result)), request_(std::move(request)), input_(std::move(input)), summary_(std::move(summary)) {}

    JobReport write(const OutputPaths& outputs) const override {
        const std::filesystem::path dir(outputs.at("dir"));
        writeResults(result_, dir, request_.length, request_.kind, input_);
        writeManifest(dir, input_, request_, io::cvDepthOf<T>());
        JobReport report;
        for (const std::string& name : sweepFileNames(io::cvDepthOf<T>())) report.files.push_back((dir / name).string());
        report.printed = summary_ + dir.string() + "\n";
        return report;
    }

private:
    SweepResult<T> result_;
    SweepRequest request_;
    std::string input_;
    std::string summary_;  // the printed line, less the folder
};

class SweepJob final : public CommandJob {
public:
    SweepJob(SweepRequest request, EngineOptions options, bool force, JobMode mode)
        : request_(std::move(request)), options_(options), force_(force), mode_(mode) {}

    OutputPaths batchOutputs(const std::string& stem, const std::string&, const cv::Mat&) const override {
        return {{"dir", stem}};
    }
    std::vector<std::string> prepare(const std::string& input, const cv::Mat& src, const OutputPaths& outputs) const override {
        const std::filesystem::path dir(outputs.at("dir"));
        std::vector<std::string> files;
        for (const std::string& name : sweepFileNames(src.depth())) files.push_back((dir / name).string());
        if (mode_ == JobMode::Single) checkOutputs({input}, files, force_);
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        if (ec || !std::filesystem::is_directory(dir))
            throw io::IoError("cannot create the folder '" + dir.string() + "'" + (ec ? ": " + ec.message() : ""));
        return files;
    }
    std::unique_ptr<JobResult> compute(const std::string& input, const cv::Mat& src, const io::NoticeFn&) const override {
        return io::visitPixelType(src, [&]<class T>(std::type_identity<T>) -> std::unique_ptr<JobResult> {
            SweepResult<T> r = sweep<T>(io::viewOf<T>(src), request_, options_);
            char line[256];
            std::snprintf(line, sizeof line, "sweep: %s, length %d, %d angles from %g step %g, %dx%d %s -> ",
                          morphOpName(request_.op), request_.length, request_.angles.count, request_.angles.start,
                          request_.angles.step, src.cols, src.rows, pixelTypeName(pixelTypeOf<T>()));
            return std::make_unique<SweepJobResult<T>>(std::move(r), request_, input, line);
        });
    }

private:
    SweepRequest request_;
    EngineOptions options_;
    bool force_;
    JobMode mode_;
};
}  // namespace

std::unique_ptr<CommandJob> sweepJob(const ArgList& argList, JobMode mode) {
    auto specs = engineOptionSpecs();
    specs.push_back({"--length", true});
    specs.push_back({"--angles", true});
    specs.push_back({"--op", true});
    specs.push_back({"--out-dir", true});
    specs.push_back(lineOptionSpec());
    specs.push_back(forceOptionSpec());
    Args args(argList, specs, "sweep");
    if (args.helpRequested()) {
        printHelp(args, std::string(kHelp) + kLineHelp + kForceHelp + kEngineOptionsHelp);
        return nullptr;
    }
    requireFileArguments(args, mode, {"IN"});
    refuseForceInBatch(args, mode);
    SweepRequest req;
    req.length = lengthFrom(args);
    req.angles = anglesFrom(args, "0:180:1");
    req.op = sweepOpFrom(args);
    req.kind = lineKindFrom(args);
    const auto outDir = args.value("--out-dir");
    if (mode == JobMode::Batch && outDir)
        throw UsageError("'batch sweep' takes no --out-dir: each input's results go to the folder OUT/SUB/NAME of "
                         "batch's --out-dir");
    if (mode == JobMode::Single && (!outDir || outDir->empty())) throw UsageError("'sweep' needs --out-dir DIR");
    const EngineOptions options = engineOptionsFrom(args);
    auto job = std::make_unique<SweepJob>(req, options, args.has("--force"), mode);
    if (mode == JobMode::Single) {
        job->singleInput = args.positionals()[0];
        job->singleOutputs = {{"dir", *outDir}};
    }
    return job;
}

int runSweep(const ArgList& args) { return runSingleJob(sweepJob(args, JobMode::Single)); }

}  // namespace linescope::cli
