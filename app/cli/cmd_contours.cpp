// linescope-cli contours (--threshold T | --otsu) [--mode M] [--approx A] IN [--json OUT] [--svg OUT]
#include "app/cli/command_job.h"
#include "app/cli/commands.h"
#include "app/cli/common.h"
#include "app/io/contour_export.h"
#include "app/io/image_io.h"
#include "app/io/json_writer.h"
#include "app/io/threshold.h"

#include "compute/contours/contours.h"

#include <opencv2/imgproc.hpp>

#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace linescope::cli {

namespace {
constexpr const char* kHelp =
    "usage: linescope-cli contours (--threshold T | --otsu) [options] IN [--json OUT] [--svg OUT]\n"
    "\n"
    "Binarizes IN (pixels > T become 1, or Otsu's threshold) and traces the borders of the\n"
    "non-zero pixels (8-connectivity, the image frame taken as zero) with the engine's\n"
    "parallel border tracking, which returns exactly what OpenCV's findContours returns (the\n"
    "same contours, points, order and hierarchy), then prints the number of contours.\n"
    "\n"
    "options:\n"
    "  --threshold T      pixels greater than T are foreground (any real T)\n"
    "  --otsu             Otsu's threshold; uint16 and float32 images are first scaled to\n"
    "                     8 bits (min → 0, max → 255), which is said on stderr\n"
    "  --mode M           external, list, ccomp or tree (default tree)\n"
    "  --approx A         none or simple (CHAIN_APPROX_NONE / _SIMPLE; default none)\n"
    "  --json OUT         write {\"contours\": [{\"points\": [[x, y], ...], \"parent\": i,\n"
    "                     \"hole\": bool}, ...], \"mode\": M, \"approx\": A, \"width\": W,\n"
    "                     \"height\": H, \"threshold\": T, \"algorithm\": A, \"timings_ms\": {...}}.\n"
    "                     parent is the index of the parent contour in the mode's hierarchy,\n"
    "                     or -1. hole says whether the contour is a hole border (in external\n"
    "                     mode always false: only outer borders are returned). timings_ms\n"
    "                     holds the engine's phases (preprocess, track, connect, hierarchy,\n"
    "                     download) and their total; for --algorithm opencv only the total\n"
    "  --svg OUT          draw the contours as SVG polygons through the pixel centres:\n"
    "                     outer borders red, hole borders blue\n"
    "  --svg-image        draw them over the input (embedded as 8-bit PNG; uint16 and\n"
    "                     float32 scaled min → 0, max → 255) instead of over nothing\n"
    "  --timings          print the phase timings on stderr\n"
    "  --algorithm A      engine (default) or opencv: OpenCV's own findContours, to compare\n"
    "  --backend B        cpu, cuda or auto (default auto: CUDA when available, else the\n"
    "                     CPU); both give the same contours\n"
    "  --threads N        CPU worker threads (default 0 = one per core)\n"
    "  --max-image-memory SIZE\n"
    "                     the most memory the decoded input may take (as for open)\n";

struct Traced {
    Contours contours;
    ContourTimings timings;  // only total for OpenCV
};

Traced traceWithEngine(const cv::Mat& binary, ContourMode mode, ContourApprox approx, Backend backend, int threads) {
    EngineOptions options;
    options.backend = backend;
    options.threads = threads;
    Traced t;
    t.contours = findContours(io::viewOf<std::uint8_t>(binary), mode, approx, options, &t.timings);
    return t;
}

std::vector<bool> holesByDepth(const std::vector<cv::Vec4i>& hierarchy) {
    std::vector<bool> hole(hierarchy.size(), false);
    for (std::size_t i = 0; i < hierarchy.size(); ++i) {
        int depth = 0;
        for (int p = hierarchy[i][3]; p >= 0; p = hierarchy[static_cast<std::size_t>(p)][3]) ++depth;
        hole[i] = depth % 2 == 1;
    }
    return hole;
}

// OpenCV's findContours in the engine's layout. OpenCV says nothing of holes: in tree and
// ccomp they have odd depth; in list each contour takes the flag of the same contour
// (matched by its points) in a tree pass over the same image.
Traced traceWithOpenCV(const cv::Mat& binary, ContourMode mode, ContourApprox approx) {
    static const std::map<ContourMode, int> modes = {{ContourMode::External, cv::RETR_EXTERNAL},
                                                     {ContourMode::List, cv::RETR_LIST},
                                                     {ContourMode::CComp, cv::RETR_CCOMP},
                                                     {ContourMode::Tree, cv::RETR_TREE}};
    const int method = approx == ContourApprox::None ? cv::CHAIN_APPROX_NONE : cv::CHAIN_APPROX_SIMPLE;
    std::vector<std::vector<cv::Point>> contours;
    std::vector<cv::Vec4i> hierarchy;
    const auto start = std::chrono::steady_clock::now();
    cv::findContours(binary, contours, hierarchy, modes.at(mode), method);
    Traced t;
    t.timings.total = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

    std::vector<bool> hole(contours.size(), false);
    if (mode == ContourMode::Tree || mode == ContourMode::CComp) {
        hole = holesByDepth(hierarchy);
    } else if (mode == ContourMode::List) {
        std::vector<std::vector<cv::Point>> treeContours;
        std::vector<cv::Vec4i> treeHierarchy;
        cv::findContours(binary, treeContours, treeHierarchy, cv::RETR_TREE, method);
        const std::vector<bool> treeHole = holesByDepth(treeHierarchy);
        auto key = [](const std::vector<cv::Point>& c) {
            std::vector<int> k;
            k.reserve(c.size() * 2);
            for (const auto& p : c) { k.push_back(p.x); k.push_back(p.y); }
            return k;
        };
        std::multimap<std::vector<int>, bool> byPoints;
        for (std::size_t i = 0; i < treeContours.size(); ++i) byPoints.emplace(key(treeContours[i]), treeHole[i]);
        for (std::size_t i = 0; i < contours.size(); ++i) {
            auto it = byPoints.find(key(contours[i]));
            if (it != byPoints.end()) { hole[i] = it->second; byPoints.erase(it); }
        }
    }
    Contours& c = t.contours;
    for (std::size_t i = 0; i < contours.size(); ++i) {
        for (const auto& p : contours[i]) c.points.push_back({p.x, p.y});
        c.offsets.push_back(c.points.size());
        c.next.push_back(hierarchy[i][0]);
        c.previous.push_back(hierarchy[i][1]);
        c.firstChild.push_back(hierarchy[i][2]);
        c.parent.push_back(hierarchy[i][3]);
        c.hole.push_back(hole[i]);
    }
    return t;
}

class ContoursResult final : public JobResult {
public:
    ContoursResult(Traced traced, io::ContourJsonInfo info, cv::Mat svgBackground)
        : traced_(std::move(traced)), info_(std::move(info)), svgBackground_(std::move(svgBackground)) {}

    JobReport write(const OutputPaths& outputs) const override {
        JobReport report;
        if (const auto json = outputs.find("json"); json != outputs.end()) {
            io::writeTextFile(json->second, io::contoursToJson(traced_.contours, info_));
            report.files.push_back(json->second);
        }
        if (const auto svg = outputs.find("svg"); svg != outputs.end()) {
            io::writeTextFile(svg->second, io::contoursToSvg(traced_.contours, info_.width, info_.height, svgBackground_));
            report.files.push_back(svg->second);
        }
        report.printed = std::to_string(traced_.contours.size()) + " contours\n";
        report.results = "\"contours\": " + std::to_string(traced_.contours.size());
        return report;
    }

private:
    Traced traced_;
    io::ContourJsonInfo info_;
    cv::Mat svgBackground_;  // empty: the contours over nothing
};

struct ContoursSettings {
    ContourMode mode{};
    ContourApprox approx{};
    std::string algorithm;
    Backend backend = Backend::Cpu;
    int threads = 0;
    bool otsu = false;
    double threshold = 0;
    bool svgImage = false;
    bool timings = false;
    std::optional<std::string> json, svg;  // single mode: paths; batch: suffixes
};

class ContoursJob final : public CommandJob {
public:
    explicit ContoursJob(ContoursSettings settings) : s_(std::move(settings)) {}

    OutputPaths batchOutputs(const std::string& stem, const std::string&, const cv::Mat&) const override {
        OutputPaths outputs;
        if (s_.json) outputs["json"] = stem + *s_.json;
        if (s_.svg) outputs["svg"] = stem + *s_.svg;
        return outputs;
    }
    std::vector<std::string> prepare(const std::string&, const cv::Mat&, const OutputPaths& outputs) const override {
        std::vector<std::string> files;
        for (const auto& [role, path] : outputs)
            if (role == "json" || role == "svg") files.push_back(path);
        return files;
    }
    std::unique_ptr<JobResult> compute(const std::string&, const cv::Mat& src, const io::NoticeFn& notice) const override {
        cv::Mat binary;
        double usedThreshold = s_.threshold;
        // The 8-bit view of the input: for Otsu and for --svg-image.
        cv::Mat eight = src;
        if (s_.otsu) {
            const io::OtsuResult o = io::otsu(src);
            if (src.depth() != CV_8U)
                notice(std::string("Otsu's threshold needs 8 bits: the ") + io::depthName(src.depth()) +
                       " image was scaled from [" + io::jsonNumber(o.scale.min) + ", " + io::jsonNumber(o.scale.max) +
                       "] to [0, 255]");
            // The contours are those of the 8-bit image Otsu split (see io::otsu on the difference).
            binary = io::binarize(o.eight, o.eightBit);
            usedThreshold = o.threshold;
            eight = o.eight;
        } else {
            binary = io::binarize(src, s_.threshold);
            if (s_.svgImage) eight = io::toEightBit(src);
        }

        Traced t = s_.algorithm == "engine" ? traceWithEngine(binary, s_.mode, s_.approx, s_.backend, s_.threads)
                                            : traceWithOpenCV(binary, s_.mode, s_.approx);
        if (s_.timings) {
            const ContourTimings& ms = t.timings;
            using io::formatMillis;
            if (s_.algorithm == "engine")
                notice("contours in " + formatMillis(ms.total) + " ms (" + backendName(s_.backend) + "): preprocess " +
                       formatMillis(ms.preprocess) + ", track " + formatMillis(ms.track) + ", connect " +
                       formatMillis(ms.connect) + ", hierarchy " + formatMillis(ms.hierarchy) + ", download " +
                       formatMillis(ms.download));
            else
                notice("OpenCV's findContours in " + formatMillis(ms.total) + " ms");
        }
        io::ContourJsonInfo info;
        info.mode = s_.mode;
        info.approx = s_.approx;
        info.width = binary.cols;
        info.height = binary.rows;
        info.threshold = usedThreshold;
        info.algorithm = s_.algorithm;
        info.timings = t.timings;
        return std::make_unique<ContoursResult>(std::move(t), std::move(info), s_.svgImage ? eight : cv::Mat());
    }

private:
    ContoursSettings s_;
};

}  // namespace

std::unique_ptr<CommandJob> contoursJob(const ArgList& argList, JobMode mode) {
    Args args(argList,
              {{"--threshold", true}, {"--otsu", false}, {"--mode", true}, {"--approx", true}, {"--json", true},
               {"--svg", true}, {"--svg-image", false}, {"--backend", true}, {"--algorithm", true},
               {"--threads", true}, {"--timings", false}, forceOptionSpec(), imageMemoryOptionSpec(),
               quietOptionSpec()},
              "contours");
    if (args.helpRequested()) {
        printHelp(args, std::string(kHelp) + kForceHelp + kQuietHelp);
        return nullptr;
    }
    quietFrom(args);
    requireFileArguments(args, mode, {"IN"});
    refuseForceInBatch(args, mode);
    ContoursSettings s;
    s.json = outputOption(args, "--json", mode);
    s.svg = outputOption(args, "--svg", mode);
    if (mode == JobMode::Single) {
        std::vector<std::string> outputs;
        for (const auto& o : {s.json, s.svg})
            if (o) outputs.push_back(*o);
        checkOutputs({args.positionals()[0]}, outputs, args.has("--force"));
    }
    const std::string modeText = args.valueOr("--mode", "tree");
    const std::string approxText = args.valueOr("--approx", "none");
    try {
        s.mode = parseContourMode(modeText);
    } catch (const Error&) {
        throw UsageError("--mode must be external, list, ccomp or tree, got '" + modeText + "'");
    }
    try {
        s.approx = parseContourApprox(approxText);
    } catch (const Error&) {
        throw UsageError("--approx must be none or simple, got '" + approxText + "'");
    }
    s.algorithm = args.valueOr("--algorithm", "engine");
    if (s.algorithm != "engine" && s.algorithm != "opencv")
        throw UsageError("--algorithm must be engine or opencv, got '" + s.algorithm + "'");
    s.threads = threadsFrom(args);
    const Backend requestedBackend = backendFrom(args);
    imageMemoryFrom(args);

    s.otsu = args.has("--otsu");
    const auto thresholdText = args.value("--threshold");
    if (s.otsu == thresholdText.has_value()) throw UsageError("'contours' needs exactly one of --threshold T and --otsu");
    s.threshold = thresholdText ? parseReal(*thresholdText, "--threshold") : 0.0;
    s.svgImage = args.has("--svg-image");
    s.timings = args.has("--timings");
    // Auto falls back to the CPU quietly (the contours are the same); an explicit cuda
    // without a usable GPU throws "the CUDA backend is not available: ...".
    s.backend = s.algorithm == "engine" ? resolveBackend(requestedBackend) : Backend::Cpu;

    auto job = std::make_unique<ContoursJob>(s);
    if (mode == JobMode::Single) {
        job->singleInput = args.positionals()[0];
        if (s.json) job->singleOutputs["json"] = *s.json;
        if (s.svg) job->singleOutputs["svg"] = *s.svg;
    }
    return job;
}

int runContours(const ArgList& args) { return runSingleJob(contoursJob(args, JobMode::Single)); }

}  // namespace linescope::cli
