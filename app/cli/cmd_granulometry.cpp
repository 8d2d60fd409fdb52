// linescope-cli granulometry (--angle A | --angles SET) --max-length L [--region x,y,w,h]
// [--format csv|json] [-o FILE] IMAGE: the size distribution of the image's bright structures
// along lines, S(λ) for λ = 1 … L+1, and its pattern spectrum.
#include "app/cli/command_job.h"
#include "app/cli/commands.h"
#include "app/cli/common.h"
#include "app/io/granulometry_export.h"
#include "app/io/image_io.h"
#include "app/io/text_file.h"

#include "compute/granulometry.h"

#include <chrono>
#include <string>

namespace linescope::cli {

namespace {
constexpr const char* kHelp =
    "usage: linescope-cli granulometry (--angle A | --angles SET) --max-length L [options] IMAGE\n"
    "\n"
    "The granulometry of IMAGE by openings along lines (definitions.md §10): for every\n"
    "length λ = 1 … L+1 the sum S(λ) of the opening by λ pixels over the image (or over a\n"
    "region of it: the opening is still that of the whole image), and the pattern spectrum\n"
    "PS(λ) = S(λ) − S(λ+1) for λ = 1 … L, the mass of the bright structures whose length\n"
    "along the lines is λ. S(1) is the image's sum and S(L+1), the residual, what outlasts\n"
    "every length, so the pattern spectrum and the residual add up to S(1). Integer images\n"
    "give exact integers; float32 images the exact sum rounded once.\n"
    "With --angle and line paths it is one pass a line whatever L; --angles (the supremum of\n"
    "the openings over the angles) and --line segment or periodic compute one opening, or one\n"
    "sweep of openings, per length: L+1 times the work of one.\n"
    "\n"
    "options:\n"
    "  --angle A          one angle in degrees (counter-clockwise from East)\n"
    "  --angles SET       the supremum over N angles, or start:stop:step with stop excluded\n"
    "  --max-length L     the longest length L, 1 … 1000000 (required)\n"
    "  --region X,Y,W,H   sum over this rectangle of pixels only (clipped to the image)\n"
    "  --format F         csv or json (default: csv when the output ends in .csv, else json)\n"
    "  --out FILE, -o FILE  write FILE (whole or not at all) instead of printing\n"
    "CSV: '# ' lines naming the line kind, the angle(s), the region and the pixel count, then\n"
    "length,sum,normalized,pattern_spectrum with one row a length (normalized = S(λ)/S(1)).\n"
    "JSON: {\"line\", \"angle\" or \"angles\", \"supremum\", \"max_length\", \"region\", \"pixels\",\n"
    "\"lengths\", \"sums\", \"normalized\", \"pattern_spectrum\", \"residual\", \"time_ms\"}.\n";

// --region X,Y,W,H: whole numbers, W and H at least 1.
PixelRect regionFrom(const std::string& text) {
    PixelRect r;
    int* parts[] = {&r.x, &r.y, &r.width, &r.height};
    std::size_t pos = 0;
    for (int i = 0; i < 4; ++i) {
        const std::size_t end = i < 3 ? text.find(',', pos) : text.size();
        if (end == std::string::npos || (i == 3 && text.find(',', pos) != std::string::npos))
            throw UsageError("--region takes X,Y,W,H (four whole numbers of pixels, e.g. 10,20,300,200), got '" + text + "'");
        const long long min = i < 2 ? -1'000'000'000LL : 1;
        *parts[i] = static_cast<int>(parseInteger(text.substr(pos, end - pos), "--region", min, 1'000'000'000LL));
        pos = end + 1;
    }
    return r;
}

class GranulometryResult final : public JobResult {
public:
    GranulometryResult(std::string text) : text_(std::move(text)) {}
    JobReport write(const OutputPaths& outputs) const override {
        if (const auto out = outputs.find("out"); out != outputs.end()) {
            io::writeTextFile(out->second, text_);
            return {{out->second}, {}, {}};
        }
        return {{}, text_, {}};
    }

private:
    std::string text_;
};

class GranulometryJob final : public CommandJob {
public:
    GranulometryJob(GranulometryRequest request, bool csv, EngineOptions options)
        : request_(request), csv_(csv), options_(options) {}

    OutputPaths batchOutputs(const std::string& stem, const std::string&, const cv::Mat&) const override {
        return {{"printed", stem + (csv_ ? ".granulometry.csv" : ".granulometry.json")}};
    }
    std::vector<std::string> prepare(const std::string&, const cv::Mat&, const OutputPaths& outputs) const override {
        if (const auto out = outputs.find("out"); out != outputs.end()) return {out->second};
        return {};
    }
    std::unique_ptr<JobResult> compute(const std::string&, const cv::Mat& image, const io::NoticeFn& say) const override {
        const auto start = std::chrono::steady_clock::now();
        const Granulometry g = io::visitPixelType(image, [&]<class T>(std::type_identity<T>) {
            const std::string line = granulometryCpuNotice(request_, options_.backend, std::is_floating_point_v<T>);
            if (!line.empty() && say) say(line);
            return *granulometry<T>(io::viewOf<T>(image), request_, options_);
        });
        const io::GranulometryInfo info{request_, millisecondsSince(start)};
        return std::make_unique<GranulometryResult>(csv_ ? io::granulometryCsv(g, info) : io::granulometryJson(g, info));
    }

private:
    GranulometryRequest request_;
    bool csv_;
    EngineOptions options_;
};

}  // namespace

int runGranulometry(const ArgList& argList) {
    auto specs = engineOptionSpecs();
    for (const char* o : {"--angle", "--angles", "--max-length", "--region", "--format", "--out"}) specs.push_back({o, true});
    specs.push_back(lineOptionSpec());
    specs.push_back(forceOptionSpec());
    Args args(withLongOut(argList), specs, "granulometry");
    if (args.helpRequested()) return printHelp(args, std::string(kHelp) + kLineHelp + kForceHelp + kEngineOptionsHelp);
    requireFileArguments(args, JobMode::Single, {"IMAGE"});
    GranulometryRequest req;
    if (args.has("--angle") == args.has("--angles"))
        throw UsageError("'granulometry' needs either --angle A (one angle) or --angles SET (the supremum over them)");
    if (args.has("--angle")) req.angle = parseReal(*args.value("--angle"), "--angle");
    else req.angles = anglesFrom(args, "");
    const auto maxLength = args.value("--max-length");
    if (!maxLength) throw UsageError("'granulometry' needs --max-length L (the longest length, 1 … 1000000)");
    req.maxLength = static_cast<int>(parseInteger(*maxLength, "--max-length", 1, kMaxGranulometryLength));
    if (const auto region = args.value("--region")) req.rect = regionFrom(*region);
    req.kind = lineKindFrom(args);
    const auto out = args.value("--out");
    if (out && out->empty()) throw UsageError("-o needs a file name");
    const std::string format = args.valueOr("--format", out && io::extensionOf(*out) == "csv" ? "csv" : "json");
    if (format != "csv" && format != "json") throw UsageError("--format must be csv or json, got '" + format + "'");
    if (out) checkOutputs({args.positionals()[0]}, {*out}, args.has("--force"));
    const EngineOptions options = engineOptionsFrom(args);
    auto job = std::make_unique<GranulometryJob>(req, format == "csv", options);
    job->singleInput = args.positionals()[0];
    if (out) job->singleOutputs["out"] = *out;
    return runSingleJob(std::unique_ptr<CommandJob>(std::move(job)));
}

}  // namespace linescope::cli
