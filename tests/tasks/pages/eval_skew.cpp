// linescope-task-eval skew: LineScope's estimateSkew, Leptonica's pixFindSkew, an OpenCV Hough
// deskew and Pham & Tran's adaptive radial projection on every page of a skew data set, with
// DISEC 2013's measures (mean absolute error, share within 0.1° and 0.2°, time) and whether
// rotations below 0.1° are read as such, one Markdown table per profile, per data group and
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
    std::printf("| method | pages | mean abs error (°) | within 0.1° | within 0.2° | worst abs error (°) | below 0.1° read | no answer | mean ms | median ms |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const Method& m : methods) {
        std::vector<double> err, ms;
        int none = 0, small = 0, smallRead = 0;
        for (const Outcome& o : m.outcomes) {
            const SkewItem& it = items[o.item];
            if (!keep(it)) continue;
            const double e = std::abs(o.estimate.value_or(0.0) - it.angle);
            err.push_back(e);
            ms.push_back(o.ms);
            none += o.estimate ? 0 : 1;
            // A rotation below 0.1° is read when the answer lies within half the rotation of it
            // (between half and one and a half times it: nearer to it than to 0, and not overshot by more).
            if (it.angle != 0 && std::abs(it.angle) < 0.1) {
                ++small;
                smallRead += e < 0.5 * std::abs(it.angle) ? 1 : 0;
            }
        }
        if (err.empty()) continue;
        const double n = static_cast<double>(err.size());
        const auto within = [&](double t) { return 100.0 * static_cast<double>(std::count_if(err.begin(), err.end(), [t](double e) { return e <= t; })) / n; };
        std::printf("| %s | %zu | %.3f | %.1f %% | %.1f %% | %.2f | %d / %d | %d | %.1f | %.1f |\n", m.name.c_str(),
                    err.size(), std::accumulate(err.begin(), err.end(), 0.0) / n, within(0.1), within(0.2),
                    *std::max_element(err.begin(), err.end()), smallRead, small, none,
                    std::accumulate(ms.begin(), ms.end(), 0.0) / n, median(ms));
    }
}

constexpr const char* kUsage =
    "usage: linescope-task-eval skew DATASET_DIR [--csv OUT.csv] [--threads N] [--profiles clean,scan,hard] [--every K]\n"
    "                               [--groups score,text,table,photo] [--methods linescope,leptonica,hough,arp]\n"
    "  DATASET_DIR: a folder written by make-skew-set (truth.csv and the pages).\n"
    "  --threads N: the engine's CPU worker threads (default 0 = one per core); the peers are single-threaded.\n"
    "  --every K: only every K-th page of truth.csv (quick runs; truth.csv lists each angle in the three\n"
    "    profiles in turn, so take K prime to 3 and to the angles a page (22): 5 or 7, not 6);\n"
    "  --groups, --profiles: only those pages;\n"
    "  --only TEXT: only the pages whose file name contains TEXT.\n"
    "  --methods: which estimators run (default all; arp = Pham & Tran's adaptive radial projection).\n";

std::vector<std::string> commaList(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream ss(text);
    for (std::string p; std::getline(ss, p, ',');) out.push_back(p);
    return out;
}

bool contains(const std::vector<std::string>& list, const std::string& name) {
    return std::find(list.begin(), list.end(), name) != list.end();
}

}  // namespace

int runSkewEval(const ArgList& args) {
    std::vector<std::string> pos;
    std::string csvPath;
    int threads = 0, every = 1;
    std::string only;
    std::vector<DegradeProfile> profiles(std::begin(kAllProfiles), std::end(kAllProfiles));
    std::vector<std::string> groups(std::begin(kSkewGroups), std::end(kSkewGroups));
    std::vector<std::string> run{"linescope", "leptonica", "hough", "arp"};
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (args[i] == "--csv" && i + 1 < args.size()) csvPath = args[++i];
        else if (args[i] == "--threads" && i + 1 < args.size()) threads = std::stoi(args[++i]);
        else if (args[i] == "--only" && i + 1 < args.size()) only = args[++i];
        else if (args[i] == "--every" && i + 1 < args.size()) every = std::max(1, std::stoi(args[++i]));
        else if (args[i] == "--groups" && i + 1 < args.size()) groups = commaList(args[++i]);
        else if (args[i] == "--methods" && i + 1 < args.size()) run = commaList(args[++i]);
        else if (args[i] == "--profiles" && i + 1 < args.size()) {
            profiles.clear();
            for (const std::string& p : commaList(args[++i])) profiles.push_back(parseProfile(p));
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
            if (std::find(profiles.begin(), profiles.end(), all[i].profile) != profiles.end() && contains(groups, all[i].group) &&
                all[i].file.find(only) != std::string::npos)
                items.push_back(all[i]);
    }
    if (items.empty()) throw std::runtime_error("no pages selected in " + pos[0]);

    const bool ours = contains(run, "linescope"), lept = leptonicaAvailable() && contains(run, "leptonica");
    const bool hough = contains(run, "hough"), arp = contains(run, "arp");
    std::vector<Method> methods;
    if (ours) methods.push_back({"LineScope estimateSkew (CPU)", {}});
    if (lept) {
        methods.push_back({"Leptonica pixFindSkew (±7°)", {}});
        methods.push_back({"Leptonica sweep+search ±15°", {}});
    }
    if (hough) methods.push_back({"OpenCV Hough (HoughLines)", {}});
    if (arp) {
        methods.push_back({"Pham & Tran radial projection (V 3072)", {}});
        methods.push_back({"Pham & Tran + parabola", {}});
    }
    if (methods.empty()) throw std::runtime_error("no method to run (--methods linescope,leptonica,hough,arp)");

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
        std::size_t m = 0;
        if (ours) {
            if (i == 0) (void)estimateSkew<std::uint8_t>(view, params, engine);  // warm-up: thread pool, caches
            Outcome o{i, {}, 0};
            o.ms = timedMs([&] { o.estimate = estimateSkew<std::uint8_t>(view, params, engine).angle; });
            methods[m++].outcomes.push_back(o);
        }

        // Outside the timers: the peers' binarization (Otsu) and Leptonica's 1-bpp copy.
        cv::Mat ink;
        if (lept || hough) otsuMs.push_back(timedMs([&] { ink = otsuInk(page); }));
        if (lept) {
            const LeptonicaImage bin = leptonicaBinary(ink);
            for (double range : {7.0, kSkewSetRange}) {
                Outcome o{i, {}, 0};
                o.ms = timedMs([&] { o.estimate = leptonicaSkew(bin, range); });
                methods[m++].outcomes.push_back(o);
            }
        }
        if (hough) {
            Outcome o{i, {}, 0};
            o.ms = timedMs([&] { o.estimate = houghSkew(ink); });
            methods[m++].outcomes.push_back(o);
        }
        if (arp)
            for (bool refine : {false, true}) {
                RadialProjectionParams rp;
                rp.refine = refine;
                Outcome o{i, {}, 0};
                o.ms = timedMs([&] { o.estimate = radialProjectionSkew(page, rp); });
                methods[m++].outcomes.push_back(o);
            }

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
                otsuMs.empty() ? 0.0 : std::accumulate(otsuMs.begin(), otsuMs.end(), 0.0) / static_cast<double>(otsuMs.size()),
                lept || !contains(run, "leptonica") ? "" : " Leptonica not built (pkg-config lept not found): its rows are left out.");
    std::printf("A rotation below 0.1° is read when the answer lies within half the rotation of it (\"below 0.1° read\").\n");
    for (DegradeProfile p : profiles)
        printTable(std::string("Profile ") + profileName(p), methods, items, [p](const SkewItem& s) { return s.profile == p; });
    for (const std::string& g : groups)
        printTable(std::string("Group ") + g + " (all profiles)", methods, items, [&g](const SkewItem& s) { return s.group == g; });
    printTable("All pages", methods, items, [](const SkewItem&) { return true; });
    return 0;
}

}  // namespace linescope::tasks
