// linescope-cli bench [--repeat N] [--quick] [--workload NAME]
#include "app/cli/bench_workloads.h"
#include "app/cli/commands.h"
#include "app/cli/common.h"

#include "compute/thread_pool.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace linescope::cli {

namespace {
constexpr const char* kHelp =
    "usage: linescope-cli bench [--repeat N] [--quick] [--workload NAME] [--list]\n"
    "\n"
    "Times the engine (CPU backend, default algorithm, 1 thread and all cores) against\n"
    "OpenCV (findContours for the contours workload, else morphologyEx with the same\n"
    "digital segment as a 2-D kernel) with 1 thread (via cv::setNumThreads(1)) and with\n"
    "OpenCV's default threads, and prints a Markdown table of the median milliseconds over\n"
    "N runs after one warm-up, with the machine and date.\n"
    "\n"
    "The kernel holds the pixels of the engine's line path through its centre (from\n"
    "linescope::lineFamily and segmentOf): at 0°, 45°, 90° and 135° with odd λ both compute\n"
    "the same pixels; at other angles the engine's line paths shift their pixel pattern along\n"
    "the line while the kernel is the same everywhere, so pixels differ (on noisy images\n"
    "many of them; the share is reported under the table). With even λ the segment is not\n"
    "symmetric and OpenCV's dilation uses the kernel unreflected, so results differ too.\n"
    "\n"
    "workloads:\n"
    "  open-0-11, open-0-41, open-0-251, open-30-11, open-30-41, open-30-251\n"
    "                     one opening of a 2048×2048 uint8 image at 0° or 30°, λ = 11/41/251\n"
    "  open-A-L           any other angle A and length L, e.g. open-45-41\n"
    "  sweep-41           openings of a 640×640 uint8 image at 180 angles (0:180:1), λ = 41:\n"
    "                     supremum, orientation and spectrum (OpenCV: 180 morphologyEx calls\n"
    "                     with cv::compare/max/sum)\n"
    "  granulometry-0-256 the granulometry of a 2048×2048 uint8 image at 0°, λ = 1 … 257 (one\n"
    "                     pass a line; OpenCV: an erosion, a dilation and cv::sum per length)\n"
    "  granulometry-A-L   any other angle A and longest length L\n"
    "  contours           the contours of a 4928×4112 binary image with about 400 borders\n"
    "                     (RETR_TREE, CHAIN_APPROX_NONE) against cv::findContours; the engine\n"
    "                     reuses one ContourFinder, as a live view would\n"
    "\n"
    "options:\n"
    "  --repeat N         runs per measurement (default 7; --quick: 3)\n"
    "  --quick            a short version (512×512 openings, a 160×160 sweep over 36\n"
    "                     angles; workloads open-0-11, open-30-41 and sweep-41 unless\n"
    "                     --workload is given)\n"
    "  --workload NAME    run only this workload (may be repeated: the last one counts)\n"
    "  --line KIND        the openings' digital line: paths (default), segment or periodic;\n"
    "                     for segment and periodic OpenCV gets the kernel and anchor of\n"
    "                     'linescope-cli se' and the results are identical\n"
    "  --list             print the workload names\n";

using Clock = std::chrono::steady_clock;

double medianMs(const std::function<void()>& f, int repeat) {
    f();  // warm-up
    std::vector<double> ms;
    for (int i = 0; i < repeat; ++i) {
        const auto t0 = Clock::now();
        f();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    return n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
}

std::string cpuModel() {
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) {
                std::string m = line.substr(colon + 1);
                m.erase(0, m.find_first_not_of(" \t"));
                return m;
            }
        }
    }
    return "unknown processor";
}

std::string today() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
    return buf;
}

std::string ms(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, v < 10 ? "%.3f" : v < 100 ? "%.2f" : "%.1f", v);
    return buf;
}

std::string ratio(double opencv, double engine) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f×", engine > 0 ? opencv / engine : 0.0);
    return buf;
}

// Restores OpenCV's thread count however the bench ends.
class OpenCvThreads {
public:
    OpenCvThreads() : default_(cv::getNumThreads()) {}
    ~OpenCvThreads() { cv::setNumThreads(default_); }
    OpenCvThreads(const OpenCvThreads&) = delete;
    OpenCvThreads& operator=(const OpenCvThreads&) = delete;
    void one() const { cv::setNumThreads(1); }
    void all() const { cv::setNumThreads(default_); }
    int defaultCount() const { return default_; }

private:
    int default_;
};
}  // namespace

int runBench(const ArgList& argList) {
    Args args(argList, {{"--repeat", true}, {"--quick", false}, {"--workload", true}, {"--list", false}, lineOptionSpec(), quietOptionSpec()},
              "bench");
    if (args.helpRequested()) return printHelp(args, std::string(kHelp) + kQuietHelp);
    quietFrom(args);
    args.requirePositionals({});
    if (args.has("--list")) {
        for (const auto& n : bench::workloadNames()) std::printf("%s\n", n.c_str());
        return 0;
    }
    const bool quick = args.has("--quick");
    const LineKind kind = lineKindFrom(args);
    const int repeat = integerFrom(args, "--repeat", quick ? 3 : 7, 1, 1000);
    std::vector<std::string> names = quick ? std::vector<std::string>{"open-0-11", "open-30-41", "sweep-41"}
                                           : bench::workloadNames();
    if (auto w = args.value("--workload")) {
        try {
            (void)bench::makeWorkload(*w, true);  // validates the name (a small build)
        } catch (const std::invalid_argument&) {
            std::string list;
            for (const auto& n : bench::workloadNames()) list += (list.empty() ? "" : ", ") + n;
            throw UsageError("unknown workload '" + *w + "' (known: " + list + ", or open-ANGLE-LENGTH, granulometry-ANGLE-LENGTH)");
        }
        names = {*w};
    }

    OpenCvThreads cvThreads;
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::printf("# LineScope benchmark%s\n\n", quick ? " (quick)" : "");
    std::printf("- machine: %s, %d cores (engine all threads: %d workers; OpenCV default: %d threads)\n",
                cpuModel().c_str(), cores, resolveThreads(0), cvThreads.defaultCount());
    std::printf("- OpenCV %s; date %s\n", cv::getVersionString().c_str(), today().c_str());
    std::printf("- median of %d runs after one warm-up, in milliseconds\n\n", repeat);
    std::printf("| workload | engine 1 thread | engine all threads | OpenCV 1 thread | OpenCV all threads | ratio |\n");
    std::printf("|---|---:|---:|---:|---:|---:|\n");
    std::fflush(stdout);

    std::vector<std::string> checks;
    for (const auto& name : names) {
        bench::Workload w = bench::makeWorkload(name, quick, kind);
        const double e1 = medianMs([&] { w.engine(1); }, repeat);
        const double eAll = medianMs([&] { w.engine(0); }, repeat);
        cvThreads.one();
        const double c1 = medianMs(w.opencv, repeat);
        cvThreads.all();
        const double cAll = medianMs(w.opencv, repeat);
        std::printf("| %s: %s | %s | %s | %s | %s | %s / %s |\n", w.name.c_str(), w.label.c_str(), ms(e1).c_str(),
                    ms(eAll).c_str(), ms(c1).c_str(), ms(cAll).c_str(), ratio(c1, e1).c_str(),
                    ratio(cAll, eAll).c_str());
        std::fflush(stdout);
        checks.push_back(w.name + ": " + w.check());
    }
    std::printf("\nratio: OpenCV time ÷ engine time, 1 thread / all threads (above 1: the engine is faster).\n\n");
    for (const auto& c : checks) std::printf("- %s\n", c.c_str());
    return 0;
}

}  // namespace linescope::cli
