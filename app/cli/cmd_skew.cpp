// linescope-cli skew [--length L] [--angles SET] [--bright-lines] [--deskew OUT] PAGE
#include "app/cli/command_job.h"
#include "app/cli/commands.h"
#include "app/cli/common.h"
#include "app/io/deskew.h"
#include "app/io/image_io.h"
#include "app/io/json_writer.h"

#include "compute/skew.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>

namespace linescope::cli {

namespace {
constexpr const char* kHelp =
    "usage: linescope-cli skew [options] PAGE\n"
    "\n"
    "Estimates the skew of a page or music sheet from the angular spectrum of closings\n"
    "(dark lines on light paper) or openings (--bright-lines) by a long segment, and prints\n"
    "one JSON object on stdout:\n"
    "  {\"angle\": A, \"confidence\": C, \"dominant\": D, \"at_range_edge\": E,\n"
    "   \"coarse_angle\": A0, \"reduction\": F, \"length\": L, \"coarse_length\": L0,\n"
    "   \"lines\": \"dark\", \"time_ms\": T}\n"
    "A is the angle of the lines in degrees, counter-clockwise positive; C is in 0 … 1.\n"
    "D is true when C reaches 0.75: the page has a dominant line direction and A was right\n"
    "within 0.1° on the calibration pages; false: no dominant line direction (prints,\n"
    "textures), A is not to be trusted. E is true when the extreme lies at an end of\n"
    "--angles: the lines may lie outside the range (C is then 0).\n"
    "Two stages: the page is reduced by F (to about 1200 pixels across), its background taken\n"
    "away (dark margins and photographs become paper) and its ink smeared\n"
    "along the lines; a coarse search over --angles on the page reduced by 2F (λ = L0), then\n"
    "a fine one over A0 ± --refine-range in --refine-step steps on the page reduced by F\n"
    "(λ = L). Measured on rendered scores and text pages: tests/bench/task-results.md.\n"
    "\n"
    "options:\n"
    "  --length L         the fine stage's segment length on the reduced page (default:\n"
    "                     three fifths of its width)\n"
    "  --angles SET       the coarse angles: N angles over 180°, or start:stop:step (stop\n"
    "                     excluded; default -16:16.5:0.5)\n"
    "  --refine-range R   degrees either side of the coarse angle (default 1; 0: no fine stage)\n"
    "  --refine-step S    the fine stage's step in degrees (default 0.05)\n"
    "  --reduction F      the reduction factor (default: width / 1200, rounded, at least 1)\n"
    "  --bright-lines     bright lines on a dark background: openings instead of closings\n"
    "  --deskew OUT       also write PAGE rotated by -A about its centre (same size and\n"
    "                     pixel type, bilinear)\n"
    "  --border B         the border of the deskewed page: replicate (default) or white\n"
    "                     (the type's maximum; for float32 the page's maximum)\n";

// The confidence's threshold (0.75) was calibrated with line paths.
constexpr const char* kSkewLineNote =
    "                     (of the smear and both stages; the confidence was calibrated\n"
    "                     with paths)\n";

class SkewResult final : public JobResult {
public:
    SkewResult(SkewEstimate estimate, double ms, bool darkLines, cv::Mat page, io::RotationBorder border)
        : estimate_(estimate), ms_(ms), darkLines_(darkLines), page_(std::move(page)), border_(border) {}

    JobReport write(const OutputPaths& outputs) const override {
        JobReport report;
        const auto deskewOut = outputs.find("deskew");
        if (deskewOut != outputs.end()) {
            io::writeImage(deskewOut->second, io::deskew(page_, estimate_.angle, border_));
            report.files.push_back(deskewOut->second);
        }
        const SkewEstimate& r = estimate_;
        const std::string dominant = r.confidence >= kSkewConfidentThreshold ? "true" : "false";
        std::string json = "{\"angle\": " + io::jsonNumber(r.angle) + ", \"confidence\": " + io::jsonNumber(r.confidence) +
                           ", \"dominant\": " + dominant +
                           ", \"at_range_edge\": " + (r.atRangeEdge ? "true" : "false") + ", \"coarse_angle\": " + io::jsonNumber(r.coarseAngle) + ", \"reduction\": " +
                           std::to_string(r.reduction) + ", \"length\": " + std::to_string(r.length) +
                           ", \"coarse_length\": " + std::to_string(r.coarseLength) + ", \"lines\": " +
                           io::jsonString(darkLines_ ? "dark" : "bright") + ", \"time_ms\": " + io::jsonNumber(ms_);
        if (deskewOut != outputs.end()) json += ", \"deskewed\": " + io::jsonString(deskewOut->second);
        json += "}\n";
        report.printed = json;
        report.results = "\"angle\": " + io::jsonNumber(r.angle) + ", \"confidence\": " + io::jsonNumber(r.confidence) +
                         ", \"dominant\": " + dominant;
        return report;
    }

private:
    SkewEstimate estimate_;
    double ms_;
    bool darkLines_;
    // The rotation is done here, on batch's writer threads, rather than on the engine's.
    cv::Mat page_;
    io::RotationBorder border_;
};

class SkewJob final : public CommandJob {
public:
    SkewJob(SkewParams params, io::RotationBorder border, std::optional<std::string> deskewSuffix, EngineOptions options)
        : params_(std::move(params)), border_(border), deskewSuffix_(std::move(deskewSuffix)), options_(options) {}

    OutputPaths batchOutputs(const std::string& stem, const std::string&, const cv::Mat&) const override {
        OutputPaths outputs{{"printed", stem + ".skew.json"}};
        if (deskewSuffix_) outputs["deskew"] = stem + *deskewSuffix_;
        return outputs;
    }
    std::vector<std::string> prepare(const std::string&, const cv::Mat& page, const OutputPaths& outputs) const override {
        const auto deskewOut = outputs.find("deskew");
        if (deskewOut == outputs.end()) return {};
        io::requireWritable(deskewOut->second, page.depth());
        return {deskewOut->second};
    }
    std::unique_ptr<JobResult> compute(const std::string&, const cv::Mat& page, const io::NoticeFn&) const override {
        const auto start = std::chrono::steady_clock::now();
        const SkewEstimate r = io::visitPixelType(page, [&]<class T>(std::type_identity<T>) {
            return estimateSkew<T>(io::viewOf<T>(page), params_, options_);
        });
        const double ms = millisecondsSince(start);
        return std::make_unique<SkewResult>(r, ms, params_.darkLines, page, border_);
    }

private:
    SkewParams params_;
    io::RotationBorder border_;
    std::optional<std::string> deskewSuffix_;  // single mode: the path; batch: the suffix
    EngineOptions options_;
};

}  // namespace

std::unique_ptr<CommandJob> skewJob(const ArgList& argList, JobMode mode) {
    auto specs = engineOptionSpecs();
    specs.push_back({"--length", true});
    specs.push_back({"--angles", true});
    specs.push_back({"--refine-range", true});
    specs.push_back({"--refine-step", true});
    specs.push_back({"--reduction", true});
    specs.push_back({"--bright-lines", false});
    specs.push_back({"--deskew", true});
    specs.push_back({"--border", true});
    specs.push_back(lineOptionSpec());
    specs.push_back(forceOptionSpec());
    Args args(argList, specs, "skew");
    if (args.helpRequested()) {
        printHelp(args, std::string(kHelp) + kLineHelp + kSkewLineNote + kForceHelp + kEngineOptionsHelp);
        return nullptr;
    }
    requireFileArguments(args, mode, {"PAGE"});
    refuseForceInBatch(args, mode);
    SkewParams p;
    p.length = lengthFrom(args, 0);
    p.angles = anglesFrom(args, "-16:16.5:0.5");
    p.refineRange = numberFrom(args, "--refine-range", p.refineRange, 0, 10);
    p.refineStep = numberFrom(args, "--refine-step", p.refineStep, 1e-4, 5);
    p.reduction = integerFrom(args, "--reduction", 0, 0, 64);
    if (p.refineRange > 0)
        requireAngleCount("--refine-step " + args.valueOr("--refine-step", shortNumber(p.refineStep)) +
                              " over --refine-range " + shortNumber(p.refineRange),
                          skewFineAngleCount(p.refineRange, p.refineStep));
    p.darkLines = !args.has("--bright-lines");
    p.kind = lineKindFrom(args);
    const std::string border = args.valueOr("--border", "replicate");
    if (border != "replicate" && border != "white")
        throw UsageError("--border must be replicate or white, got '" + border + "'");
    const auto deskewOut = outputOption(args, "--deskew", mode);
    if (deskewOut && mode == JobMode::Single) checkOutputs({args.positionals()[0]}, {*deskewOut}, args.has("--force"));
    const auto fill = border == "white" ? io::RotationBorder::White : io::RotationBorder::Replicate;
    auto job = std::make_unique<SkewJob>(p, fill, deskewOut, engineOptionsFrom(args));
    if (mode == JobMode::Single) {
        job->singleInput = args.positionals()[0];
        if (deskewOut) job->singleOutputs["deskew"] = *deskewOut;
    }
    return job;
}

int runSkew(const ArgList& args) { return runSingleJob(skewJob(args, JobMode::Single)); }

}  // namespace linescope::cli
