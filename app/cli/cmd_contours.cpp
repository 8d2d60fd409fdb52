// linescope-cli contours (--threshold T | --otsu) [--mode M] [--approx A] IN [--json OUT] [--svg OUT]
#include "app/cli/commands.h"
#include "app/cli/common.h"
#include "app/io/image_io.h"
#include "app/io/json_writer.h"

#include "compute/contours/contours.h"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
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
    "  --threads N        CPU worker threads (default 0 = one per core)\n";

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

// Milliseconds to the microsecond.
std::string millis(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", ms);
    return buf;
}

std::string timingsJson(const ContourTimings& t, bool phases) {
    std::string s = "{";
    if (phases)
        s += "\"preprocess\": " + millis(t.preprocess) + ", \"track\": " + millis(t.track) +
             ", \"connect\": " + millis(t.connect) + ", \"hierarchy\": " + millis(t.hierarchy) +
             ", \"download\": " + millis(t.download) + ", ";
    return s + "\"total\": " + millis(t.total) + "}";
}

void writeText(const std::string& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary);
    f << text;
    f.close();
    if (!f) throw io::IoError("cannot write '" + path + "'");
}

std::string toJson(const Traced& t, const std::string& mode, const std::string& approx, const cv::Mat& binary,
                   const std::string& thresholdJson, const std::string& algorithm) {
    const Contours& c = t.contours;
    std::string s = "{\"contours\": [";
    for (std::size_t i = 0; i < c.size(); ++i) {
        s += i ? ",\n  " : "\n  ";
        s += "{\"points\": [";
        for (std::size_t j = 0; j < c.length(i); ++j) {
            if (j) s += ", ";
            s += '[';
            s += std::to_string(c.begin(i)[j].x);
            s += ", ";
            s += std::to_string(c.begin(i)[j].y);
            s += ']';
        }
        s += "], \"parent\": ";
        s += std::to_string(c.parent[i]);
        s += ", \"hole\": ";
        s += c.hole[i] ? "true}" : "false}";
    }
    s += c.size() == 0 ? "]" : "\n]";
    s += ", \"mode\": " + io::jsonString(mode) + ", \"approx\": " + io::jsonString(approx) +
         ", \"width\": " + std::to_string(binary.cols) + ", \"height\": " + std::to_string(binary.rows) +
         ", \"threshold\": " + thresholdJson + ", \"algorithm\": " + io::jsonString(algorithm) +
         ", \"timings_ms\": " + timingsJson(t.timings, algorithm == "engine") + "}\n";
    return s;
}

std::string base64(const std::vector<uchar>& bytes) {
    static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const unsigned b0 = bytes[i];
        const unsigned b1 = i + 1 < bytes.size() ? bytes[i + 1] : 0u;
        const unsigned b2 = i + 2 < bytes.size() ? bytes[i + 2] : 0u;
        const unsigned v = (b0 << 16) | (b1 << 8) | b2;
        out += abc[(v >> 18) & 63];
        out += abc[(v >> 12) & 63];
        out += i + 1 < bytes.size() ? abc[(v >> 6) & 63] : '=';
        out += i + 2 < bytes.size() ? abc[v & 63] : '=';
    }
    return out;
}

std::string toSvg(const Traced& t, const cv::Mat& binary, bool overImage) {
    const std::string w = std::to_string(binary.cols), h = std::to_string(binary.rows);
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + w + "\" height=\"" + h +
                    "\" viewBox=\"0 0 " + w + " " + h + "\">\n";
    if (overImage) {
        std::vector<uchar> png;
        cv::imencode(".png", binary, png);
        s += "<image width=\"" + w + "\" height=\"" + h + "\" style=\"image-rendering:pixelated\" href=\"data:image/png;base64," +
             base64(png) + "\"/>\n";
    }
    const Contours& c = t.contours;
    for (std::size_t i = 0; i < c.size(); ++i) {
        s += "<polygon fill=\"none\" stroke-width=\"0.25\" stroke=\"";
        s += c.hole[i] ? "#0050ff" : "#ff2020";
        s += "\" points=\"";
        for (const ContourPoint* p = c.begin(i); p != c.begin(i) + c.length(i); ++p)
            s += std::to_string(p->x) + ".5," + std::to_string(p->y) + ".5 ";
        s += "\"/>\n";
    }
    return s + "</svg>\n";
}
}  // namespace

int runContours(const ArgList& argList) {
    Args args(argList,
              {{"--threshold", true}, {"--otsu", false}, {"--mode", true}, {"--approx", true}, {"--json", true},
               {"--svg", true}, {"--svg-image", false}, {"--backend", true}, {"--algorithm", true},
               {"--threads", true}, {"--timings", false}},
              "contours");
    if (args.helpRequested()) return printHelp(kHelp);
    args.requirePositionals({"IN"});
    const std::string modeText = args.valueOr("--mode", "tree");
    const std::string approxText = args.valueOr("--approx", "none");
    ContourMode mode{};
    ContourApprox approx{};
    try {
        mode = parseContourMode(modeText);
    } catch (const Error&) {
        throw UsageError("--mode must be external, list, ccomp or tree, got '" + modeText + "'");
    }
    try {
        approx = parseContourApprox(approxText);
    } catch (const Error&) {
        throw UsageError("--approx must be none or simple, got '" + approxText + "'");
    }
    const std::string algorithm = args.valueOr("--algorithm", "engine");
    if (algorithm != "engine" && algorithm != "opencv")
        throw UsageError("--algorithm must be engine or opencv, got '" + algorithm + "'");
    const int threads = static_cast<int>(parseInteger(args.valueOr("--threads", "0"), "--threads", 0, 4096));
    const std::string backendText = args.valueOr("--backend", "auto");
    if (backendText != "cpu" && backendText != "cuda" && backendText != "auto")
        throw UsageError("--backend must be cpu, cuda or auto, got '" + backendText + "'");

    const bool otsu = args.has("--otsu");
    const auto thresholdText = args.value("--threshold");
    if (otsu == thresholdText.has_value()) throw UsageError("'contours' needs exactly one of --threshold T and --otsu");
    const double threshold = thresholdText ? parseReal(*thresholdText, "--threshold") : 0.0;

    const cv::Mat src = io::readImage(args.positionals()[0], notice);
    cv::Mat binary;
    std::string thresholdJson;
    // The 8-bit view of the input: for Otsu and for --svg-image.
    cv::Mat eight = src;
    double lo = 0, hi = 0, scale = 1, shift = 0;
    if (src.depth() != CV_8U && (otsu || args.has("--svg-image"))) {
        cv::minMaxLoc(src, &lo, &hi);
        if (!std::isfinite(lo) || !std::isfinite(hi))
            throw std::runtime_error("the float image holds NaN or infinite values: cannot scale it to 8 bits");
        scale = hi > lo ? 255.0 / (hi - lo) : 1.0;
        shift = -lo * scale;
        src.convertTo(eight, CV_8U, scale, shift);
    }
    if (otsu) {
        if (src.depth() != CV_8U)
            notice(std::string("Otsu's threshold needs 8 bits: the ") + io::depthName(src.depth()) +
                   " image was scaled from [" + io::jsonNumber(lo) + ", " + io::jsonNumber(hi) + "] to [0, 255]");
        const double t8 = cv::threshold(eight, binary, 0, 1, cv::THRESH_BINARY | cv::THRESH_OTSU);
        thresholdJson = io::jsonNumber(src.depth() == CV_8U ? t8 : (t8 - shift) / scale);
    } else {
        cv::Mat mask = src > threshold;  // 255 where src > T (NaN compares false)
        mask.convertTo(binary, CV_8U, 1.0 / 255.0);
        thresholdJson = io::jsonNumber(threshold);
    }

    // Auto falls back to the CPU quietly (the contours are the same); an explicit cuda
    // without a usable GPU throws "the CUDA backend is not available: ...".
    const Backend backend = algorithm == "engine" ? resolveBackend(parseBackend(backendText)) : Backend::Cpu;
    const Traced t = algorithm == "engine" ? traceWithEngine(binary, mode, approx, backend, threads)
                                           : traceWithOpenCV(binary, mode, approx);
    if (args.has("--timings")) {
        const ContourTimings& ms = t.timings;
        if (algorithm == "engine")
            notice("contours in " + millis(ms.total) + " ms (" + backendName(backend) + "): preprocess " +
                   millis(ms.preprocess) + ", track " + millis(ms.track) + ", connect " + millis(ms.connect) +
                   ", hierarchy " + millis(ms.hierarchy) + ", download " + millis(ms.download));
        else
            notice("OpenCV's findContours in " + millis(ms.total) + " ms");
    }
    if (auto json = args.value("--json"))
        writeText(*json, toJson(t, modeText, approxText, binary, thresholdJson, algorithm));
    if (auto svg = args.value("--svg")) {
        writeText(*svg, toSvg(t, eight, args.has("--svg-image")));
    }
    std::printf("%zu contours\n", t.contours.size());
    return 0;
}

}  // namespace linescope::cli
