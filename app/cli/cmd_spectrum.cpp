// linescope-cli spectrum [--op OP] [--length L] [--angles SET] [--peaks N] IMAGE: the angular
// spectrum and its dominant orientations as JSON (texture analysis).
#include "app/cli/command_job.h"
#include "app/cli/commands.h"
#include "app/cli/common.h"
#include "app/io/image_io.h"
#include "app/io/image_polarity.h"
#include "app/io/json_writer.h"

#include "compute/spectrum_peaks.h"
#include "compute/sweep.h"
#include "compute/sweep_spectrum.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

namespace linescope::cli {

namespace {
constexpr const char* kHelp =
    "usage: linescope-cli spectrum [options] IMAGE\n"
    "\n"
    "The angular spectrum σ(k) = Σ_x OP_k(x) of IMAGE (definitions.md §6) and its dominant\n"
    "orientations: the spectrum's peaks (its maxima for open and erode, its minima for close\n"
    "and dilate), refined by a parabola, strongest first. Prints one JSON object:\n"
    "  {\"op\", \"length\", \"line\", \"angles\": [...], \"spectrum\": [...],\n"
    "   \"peaks\": [{\"angle\", \"prominence\", \"index\"}, ...], \"time_ms\"}\n"
    "A prominence is the peak's height over the higher of its two valleys, divided by the\n"
    "spectrum's range (0 … 1). Bright strokes on a dark ground: open (default); dark strokes\n"
    "on a light ground: close.\n"
    "\n"
    "options:\n"
    "  --op OP            open (default), close, erode or dilate\n"
    "  --length L         the segment's length (default: a quarter of the image's smaller side)\n"
    "  --angles SET       N angles over 180°, or start:stop:step, stop excluded (default\n"
    "                     0:180:1; a set spanning 180° wraps around, so a peak may sit\n"
    "                     at its seam)\n"
    "  --peaks N          at most N peaks (default 4)\n"
    "  --min-prominence P peaks below P are left out (default 0.1)\n";
// A note when OP does not suit the image's polarity: openings and erosions measure bright
// lines, closings and dilations dark ones (io::meanLevelIsLight tells the background).
void notePolarity(const cv::Mat& image, MorphOp op, const io::NoticeFn& notice) {
    const std::optional<bool> lightGround = io::meanLevelIsLight(image);
    if (!lightGround) return;  // a flat image has no lines either way
    const bool light = *lightGround;
    const bool bright = op == MorphOp::Open || op == MorphOp::Erode;
    if (light && bright)
        notice(std::string("the lines look dark on a light background: --op close suits them (--op ") +
               morphOpName(op) + " measures bright lines)");
    else if (!light && !bright)
        notice(std::string("the lines look bright on a dark background: --op open suits them (--op ") +
               morphOpName(op) + " measures dark lines)");
}

class SpectrumResult final : public JobResult {
public:
    SpectrumResult(std::string json, std::string peakAngles)
        : json_(std::move(json)), peakAngles_(std::move(peakAngles)) {}
    JobReport write(const OutputPaths&) const override { return {{}, json_, "\"peaks\": [" + peakAngles_ + "]"}; }

private:
    std::string json_;
    std::string peakAngles_;
};

class SpectrumJob final : public CommandJob {
public:
    SpectrumJob(SweepRequest request, std::optional<int> length, int maxPeaks, double minProminence, EngineOptions options)
        : request_(std::move(request)), length_(length), maxPeaks_(maxPeaks), minProminence_(minProminence), options_(options) {}

    OutputPaths batchOutputs(const std::string& stem, const std::string&, const cv::Mat&) const override {
        return {{"printed", stem + ".spectrum.json"}};
    }
    std::vector<std::string> prepare(const std::string&, const cv::Mat&, const OutputPaths&) const override { return {}; }
    std::unique_ptr<JobResult> compute(const std::string&, const cv::Mat& image, const io::NoticeFn& notice) const override {
        SweepRequest req = request_;
        req.length = length_ ? *length_ : std::max(1, std::min(image.cols, image.rows) / 4);
        notePolarity(image, req.op, notice);

        const auto start = std::chrono::steady_clock::now();
        const std::vector<double> spectrum = io::visitPixelType(image, [&]<class T>(std::type_identity<T>) {
            return sweepSpectrum<T>(io::viewOf<T>(image), req, options_).spectrum;
        });
        const bool minimum = req.op == MorphOp::Close || req.op == MorphOp::Dilate;
        const auto peaks = spectrumPeaks(spectrum, req.angles, minimum, maxPeaks_, minProminence_);
        const double ms = millisecondsSince(start);

        std::string angles, values, peakList, peakAngles;
        for (int k = 0; k < req.angles.count; ++k) {
            angles += (k ? ", " : "") + io::jsonNumber(req.angles.angle(k));
            values += (k ? ", " : "") + io::jsonNumber(spectrum[static_cast<std::size_t>(k)]);
        }
        for (std::size_t i = 0; i < peaks.size(); ++i) {
            peakList += std::string(i ? ", " : "") + "{\"angle\": " + io::jsonNumber(peaks[i].angle) +
                        ", \"prominence\": " + io::jsonNumber(peaks[i].prominence) +
                        ", \"index\": " + std::to_string(peaks[i].index) + "}";
            peakAngles += (i ? ", " : "") + io::jsonNumber(peaks[i].angle);
        }
        std::string json = "{\"op\": " + io::jsonString(morphOpName(req.op)) + ", \"length\": " + std::to_string(req.length) +
                           ", \"line\": " + io::jsonString(lineKindName(req.kind)) + ", \"angles\": [" + angles + "], \"spectrum\": [" + values + "], \"peaks\": [" +
                           peakList + "], \"time_ms\": " + io::jsonNumber(ms) + "}\n";
        return std::make_unique<SpectrumResult>(std::move(json), std::move(peakAngles));
    }

private:
    SweepRequest request_;
    std::optional<int> length_;  // default: a quarter of the image's smaller side
    int maxPeaks_;
    double minProminence_;
    EngineOptions options_;
};
}  // namespace

std::unique_ptr<CommandJob> spectrumJob(const ArgList& argList, JobMode mode) {
    auto specs = engineOptionSpecs();
    specs.push_back({"--op", true});
    specs.push_back({"--length", true});
    specs.push_back({"--angles", true});
    specs.push_back({"--peaks", true});
    specs.push_back({"--min-prominence", true});
    specs.push_back(lineOptionSpec());
    Args args(argList, specs, "spectrum");
    if (args.helpRequested()) {
        printHelp(args, std::string(kHelp) + kLineHelp + kEngineOptionsHelp);
        return nullptr;
    }
    requireFileArguments(args, mode, {"IMAGE"});
    SweepRequest req;
    req.op = sweepOpFrom(args);
    req.angles = anglesFrom(args, "0:180:1");
    req.kind = lineKindFrom(args);
    const int maxPeaks = integerFrom(args, "--peaks", 4, 1, 100);
    const double minProminence = numberFrom(args, "--min-prominence", 0.1, 0, 1);
    const std::optional<int> length = args.has("--length") ? std::optional<int>(lengthFrom(args)) : std::nullopt;
    const EngineOptions options = engineOptionsFrom(args);
    auto job = std::make_unique<SpectrumJob>(req, length, maxPeaks, minProminence, options);
    if (mode == JobMode::Single) job->singleInput = args.positionals()[0];
    return job;
}

int runSpectrum(const ArgList& args) { return runSingleJob(spectrumJob(args, JobMode::Single)); }

}  // namespace linescope::cli
