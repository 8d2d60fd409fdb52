// linescope-task-eval skew: LineScope's estimateSkew, Leptonica's pixFindSkew and an OpenCV
// Hough deskew on every page of a skew data set, with DISEC 2013's measures (mean absolute
// error, share within 0.1° and 0.2°, time), one Markdown table per profile, per data group and
// overall. Pages run one after another so each method's time is its own.
#include "app/io/image_io.h"
#include "compute/skew.h"
#include "tests/tasks/eval_common.h"
#include "tests/tasks/pages/skew_dataset.h"
#include "tests/tasks/pages/skew_peers.h"
#include "tests/tasks/task_eval.h"

#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace linescope::tasks {

namespace {

struct Outcome {
    std::size_t item = 0;
    std::optional<double> estimate;  // nullopt: the method gave no answer (counted as 0°)
    double ms = 0;
};

struct Method {
    std::string name;
    std::vector<Outcome> outcomes;
};

template <class F>
double timedMs(F&& f) {
    const Stopwatch watch;
    f();
    return watch.milliseconds();
}

void printTable(const std::string& title, const std::vector<Method>& methods, const std::vector<SkewItem>& items,
                const std::function<bool(const SkewItem&)>& keep) {
    std::printf("\n### %s\n\n", title.c_str());
    std::printf("| method | pages | mean abs error (°) | within 0.1° | within 0.2° | worst abs error (°) | no answer | mean ms | median ms |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const Method& m : methods) {
        std::vector<double> err, ms;
        int none = 0;
        for (const Outcome& o : m.outcomes) {
            if (!keep(items[o.item])) continue;
            err.push_back(std::abs(o.estimate.value_or(0.0) - items[o.item].angle));
            ms.push_back(o.ms);
            none += o.estimate ? 0 : 1;
        }
        if (err.empty()) continue;
        const double n = static_cast<double>(err.size());
        const auto within = [&](double t) { return 100.0 * static_cast<double>(std::count_if(err.begin(), err.end(), [t](double e) { return e <= t; })) / n; };
        std::printf("| %s | %zu | %.3f | %.1f %% | %.1f %% | %.2f | %d | %.1f | %.1f |\n", m.name.c_str(), err.size(),
                    std::accumulate(err.begin(), err.end(), 0.0) / n, within(0.1), within(0.2),
                    *std::max_element(err.begin(), err.end()), none, std::accumulate(ms.begin(), ms.end(), 0.0) / n,
                    median(ms));
    }
}

constexpr const char* kUsage =
    "usage: linescope-task-eval skew DATASET_DIR [--csv OUT.csv] [--threads N] [--profiles clean,scan,hard] [--every K]\n"
    "  DATASET_DIR: a folder written by make-skew-set (truth.csv and the pages).\n"
    "  --threads N: the engine's CPU worker threads (default 0 = one per core); the peers are single-threaded.\n"
    "  --every K: only every K-th page of truth.csv (quick runs).\n";

}  // namespace

int runSkewEval(const ArgList& args) {
    std::vector<std::string> pos;
    std::string csvPath;
    int threads = 0, every = 1;
    std::vector<DegradeProfile> profiles(std::begin(kAllProfiles), std::end(kAllProfiles));
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (args[i] == "--csv" && i + 1 < args.size()) csvPath = args[++i];
        else if (args[i] == "--threads" && i + 1 < args.size()) threads = std::stoi(args[++i]);
        else if (args[i] == "--every" && i + 1 < args.size()) every = std::max(1, std::stoi(args[++i]));
        else if (args[i] == "--profiles" && i + 1 < args.size()) {
            profiles.clear();
            std::stringstream ss(args[++i]);
            for (std::string p; std::getline(ss, p, ',');) profiles.push_back(parseProfile(p));
        } else pos.push_back(args[i]);
    }
    if (pos.size() != 1) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    std::vector<SkewItem> items;
    {
        const std::vector<SkewItem> all = readSkewTruth(pos[0]);
        for (std::size_t i = 0; i < all.size(); i += static_cast<std::size_t>(every))
            if (std::find(profiles.begin(), profiles.end(), all[i].profile) != profiles.end()) items.push_back(all[i]);
    }
    if (items.empty()) throw std::runtime_error("no pages selected in " + pos[0]);

    const bool lept = leptonicaAvailable();
    std::vector<Method> methods{{"LineScope estimateSkew (CPU)", {}}};
    if (lept) {
        methods.push_back({"Leptonica pixFindSkew (±7°)", {}});
        methods.push_back({"Leptonica sweep+search ±10°", {}});
    }
    methods.push_back({"OpenCV Hough (HoughLines)", {}});

    EngineOptions engine;
    engine.backend = Backend::Cpu;
    engine.threads = threads;
    const SkewParams params{};  // the engine's defaults: what users get
    std::vector<double> otsuMs;
    std::ofstream csv;
    if (!csvPath.empty()) {
        csv.open(csvPath);
        if (!csv) throw std::runtime_error("cannot write " + csvPath);
        csv << "file,source,group,profile,truth_deg,method,estimate_deg,abs_error_deg,ms\n";
    }
    for (std::size_t i = 0; i < items.size(); ++i) {
        const SkewItem& it = items[i];
        const cv::Mat page = cv::imread((fs::path(pos[0]) / it.file).string(), cv::IMREAD_GRAYSCALE);
        if (page.empty()) throw std::runtime_error("cannot read " + it.file);
        const auto view = io::viewOf<std::uint8_t>(page);
        if (i == 0) (void)estimateSkew<std::uint8_t>(view, params, engine);  // warm-up: thread pool, caches

        std::size_t m = 0;
        Outcome ours{i, {}, 0};
        ours.ms = timedMs([&] { ours.estimate = estimateSkew<std::uint8_t>(view, params, engine).angle; });
        methods[m++].outcomes.push_back(ours);

        // Outside the timers: the peers' binarization (Otsu) and Leptonica's 1-bpp copy.
        cv::Mat ink;
        otsuMs.push_back(timedMs([&] { ink = otsuInk(page); }));
        if (lept) {
            const LeptonicaImage bin = leptonicaBinary(ink);
            for (double range : {7.0, 10.0}) {
                Outcome o{i, {}, 0};
                o.ms = timedMs([&] { o.estimate = leptonicaSkew(bin, range); });
                methods[m++].outcomes.push_back(o);
            }
        }
        Outcome hough{i, {}, 0};
        hough.ms = timedMs([&] { hough.estimate = houghSkew(ink); });
        methods[m++].outcomes.push_back(hough);

        if (csv)
            for (const Method& meth : methods) {
                const Outcome& o = meth.outcomes.back();
                csv << it.file << ',' << it.source << ',' << it.group << ',' << profileName(it.profile) << ',' << it.angle << ','
                    << meth.name << ',' << (o.estimate ? std::to_string(*o.estimate) : "") << ','
                    << std::abs(o.estimate.value_or(0.0) - it.angle) << ',' << o.ms << '\n';
            }
        if ((i + 1) % 50 == 0) std::fprintf(stderr, "%zu / %zu pages\n", i + 1, items.size());
    }

    std::printf("## Skew: %zu pages of %s\n\n", items.size(), pos[0].c_str());
    std::printf("Machine: %s, %u logical CPUs; engine threads: %s. Times: the estimate only, the page already decoded;\n"
                "the peers' Otsu binarization (mean %.1f ms) and Leptonica's 1-bpp copy are made outside their timers.\n"
                "A method with no answer counts as 0°.%s\n",
                cpuModel().c_str(), std::thread::hardware_concurrency(), threads > 0 ? std::to_string(threads).c_str() : "one per core",
                std::accumulate(otsuMs.begin(), otsuMs.end(), 0.0) / static_cast<double>(otsuMs.size()),
                lept ? "" : " Leptonica not built (pkg-config lept not found): its rows are left out.");
    for (DegradeProfile p : profiles)
        printTable(std::string("Profile ") + profileName(p), methods, items, [p](const SkewItem& s) { return s.profile == p; });
    for (const char* g : {"score", "text"})
        printTable(std::string("Group ") + g + " (all profiles)", methods, items, [g](const SkewItem& s) { return s.group == g; });
    printTable("All pages", methods, items, [](const SkewItem&) { return true; });
    return 0;
}

}  // namespace linescope::tasks
