#include "tests/bench/gpu_bench_contours.h"

#include "compute/backend.h"
#include "tests/bench/gpu_bench_engine.h"
#include "tests/support/binary_shapes.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace lsbench {

using linescope::ContourApprox;
using linescope::ContourMode;
using linescope::Contours;

namespace {

std::string describeFirstDifference(const Contours& want, const Contours& got) {
    if (got.size() != want.size())
        return std::to_string(got.size()) + " contours, the CPU engine has " + std::to_string(want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        if (got.length(i) != want.length(i))
            return "contour " + std::to_string(i) + ": " + std::to_string(got.length(i)) + " points, the CPU engine has " +
                   std::to_string(want.length(i));
        for (std::size_t j = 0; j < want.length(i); ++j)
            if (!(got.begin(i)[j] == want.begin(i)[j]))
                return "contour " + std::to_string(i) + " point " + std::to_string(j) + " differs";
        if (got.next[i] != want.next[i] || got.previous[i] != want.previous[i] ||
            got.firstChild[i] != want.firstChild[i] || got.parent[i] != want.parent[i])
            return "contour " + std::to_string(i) + ": hierarchy differs";
        if (got.hole[i] != want.hole[i]) return "contour " + std::to_string(i) + ": hole flag differs";
    }
    return "";
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

std::vector<std::uint8_t> contourImage(const ContourWorkload& w, int* bordersMade) {
    const auto seed = 20261123u + static_cast<std::uint64_t>(w.width) * 7919u + static_cast<std::uint64_t>(w.borders);
    return linescope::test::discField(w.width, w.height, w.borders, seed, bordersMade).pixels;
}

void dumpContourImage(const std::string& dir, const ContourWorkload& w, const std::vector<std::uint8_t>& pixels) {
    std::filesystem::create_directories(dir);
    std::vector<std::uint8_t> bits((pixels.size() + 7) / 8, 0);
    for (std::size_t i = 0; i < pixels.size(); ++i)
        if (pixels[i]) bits[i >> 3] = static_cast<std::uint8_t>(bits[i >> 3] | (1u << (i & 7)));
    const std::string path = dir + "/contours-" + std::to_string(w.width) + "x" + std::to_string(w.height) + "-" +
                             std::to_string(w.borders) + ".bits";
    writeRaw(path, bits);
}

ContourRun runContourWorkload(const ContourWorkload& w, const std::vector<std::uint8_t>& pixels, int bordersMade,
                              const linescope::ContourTuning& tuning, int warmup, int reps, int rotations, bool check) {
    ContourRun run;
    run.width = w.width;
    run.height = w.height;
    run.bordersAsked = w.borders;
    run.bordersMade = bordersMade;
    run.key = "contours-" + std::to_string(w.width) + "x" + std::to_string(w.height) + "-" + std::to_string(w.borders);
    run.workload = "contours " + std::to_string(w.width) + "×" + std::to_string(w.height) + ", " +
                   std::to_string(bordersMade) + " borders, tree/none";

    std::vector<DeviceImage<std::uint8_t>> inputs;
    for (int i = 0; i < std::max(1, rotations); ++i) {
        inputs.emplace_back(w.width, w.height);
        inputs.back().upload(pixels);
    }
    Contours got;
    std::vector<linescope::ContourTimings> phases;
    {
        auto lock = lockEngine();
        run.wall = timeHost(warmup, reps, [&](int i) {
            linescope::ContourTimings t;
            engineContours(inputs[static_cast<std::size_t>(i) % inputs.size()], ContourMode::Tree, ContourApprox::None,
                           tuning, got, &t);
            if (i >= warmup) phases.push_back(t);
        });
    }
    auto phase = [&](double linescope::ContourTimings::*field) {
        std::vector<double> v;
        for (const auto& t : phases) v.push_back(t.*field);
        return median(std::move(v));
    };
    run.phases.preprocess = phase(&linescope::ContourTimings::preprocess);
    run.phases.track = phase(&linescope::ContourTimings::track);
    run.phases.connect = phase(&linescope::ContourTimings::connect);
    run.phases.hierarchy = phase(&linescope::ContourTimings::hierarchy);
    run.phases.download = phase(&linescope::ContourTimings::download);
    run.phases.total = phase(&linescope::ContourTimings::total);
    run.contours = got.size();
    run.points = got.points.size();

    if (check) {
        linescope::EngineOptions cpu;
        cpu.backend = linescope::Backend::Cpu;
        const Contours want =
            linescope::findContours({pixels.data(), w.width, w.height}, ContourMode::Tree, ContourApprox::None, cpu);
        const std::string d = describeFirstDifference(want, got);
        run.check = d.empty() ? "= CPU" : "DIFFERS";
        run.checkDetail = d.empty() ? "identical" : d;
    }
    return run;
}

}  // namespace lsbench
