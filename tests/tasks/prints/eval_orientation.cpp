// linescope-task-eval orientation: block orientation fields of synthetic fingerprints with
// known truth, LineScope's estimateOrientationField against the gradient structure tensor,
// on good and degraded prints; RMSD on foreground blocks as FVC-onGoing reports it.
#include "app/io/image_io.h"
#include "tests/tasks/eval_common.h"
#include "tests/tasks/prints/phase_print_synth.h"
#include "tests/tasks/prints/print_scoring.h"
#include "tests/tasks/task_eval.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace linescope::tasks {

namespace {

constexpr const char* kHelp =
    "usage: linescope-task-eval orientation [--count N] [--seed S] [--block B] [--generator G]\n"
    "                                       [--engine E] [--tensor-window W] [--write DIR] [--csv FILE]\n"
    "  Generates N good and N degraded synthetic fingerprints (seeds S … S+N-1; default 20 and 1),\n"
    "  estimates their block orientation fields (blocks of B pixels, default 16) with LineScope and\n"
    "  with the gradient structure tensor, and prints a Markdown table of the RMSD against the\n"
    "  known field on the foreground blocks.\n"
    "  --generator G      gabor (default: SFinGe-style Gabor growth, fingerprint_synth.h) or phase\n"
    "                     (ridges as cos of a phase with spiral minutiae, phase_print_synth.h).\n"
    "  --engine E         default (the engine's default parameters) or before (the field before\n"
    "                     issue 21: λ 15 line-path pixels, one Gaussian of 1 block, no presmoothing).\n"
    "  --tensor-window W  the structure tensor's Gaussian window σ in pixels, or tuned (default):\n"
    "                     for each quality the σ of 6, 8, … 20 with the lowest mean RMSD on these\n"
    "                     very prints (tuned in the tensor's favour); the table names the σ used.\n"
    "  --write DIR  also writes each print: NAME.png (image), NAME_orientation.tif (float32 degrees\n"
    "               per pixel, design.md §1), NAME_mask.png (foreground) and prints.csv.\n"
    "  --csv FILE   writes one row per print and method (the tensor at its chosen window).\n";

constexpr double kTensorWindows[] = {6, 8, 10, 12, 14, 16, 18, 20};
constexpr int kWindowCount = static_cast<int>(std::size(kTensorWindows));

struct Tally {
    std::vector<double> rmsd;
    double blocks = 0, within10 = 0, within20 = 0, ms = 0;
    void add(const FieldComparison& c, double milliseconds) {
        rmsd.push_back(c.rmsd);
        blocks += c.blocks;
        within10 += c.within10 * c.blocks;
        within20 += c.within20 * c.blocks;
        ms += milliseconds;
    }
};

void writePrint(const std::filesystem::path& dir, const std::string& name, const SyntheticPrint& p, std::ofstream& index) {
    io::writeImage((dir / (name + ".png")).string(), p.image);
    io::writeImage((dir / (name + "_orientation.tif")).string(), p.orientation);
    io::writeImage((dir / (name + "_mask.png")).string(), p.mask);
    index << name << ',' << printClassName(p.printClass) << ',' << printQualityName(p.quality) << ','
          << (p.partial ? 1 : 0) << ',' << p.image.cols << ',' << p.image.rows << '\n';
}

}  // namespace

int runOrientationEval(const ArgList& args) {
    const EvalOptions opt(args, {"--count", "--seed", "--block", "--generator", "--engine", "--tensor-window", "--write", "--csv"});
    if (opt.helpRequested()) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const int count = static_cast<int>(opt.integer("--count", 20, 1, 100000));
    const long long seed = opt.integer("--seed", 1, 0, 1LL << 40);
    const int block = static_cast<int>(opt.integer("--block", 16, 4, 128));
    const std::string generatorName = opt.text("--generator", "gabor");
    if (generatorName != "gabor" && generatorName != "phase")
        throw std::invalid_argument("--generator must be gabor or phase, got '" + generatorName + "'");
    const PrintGenerator generator = generatorName == "gabor" ? PrintGenerator::Gabor : PrintGenerator::Phase;
    const std::string engineName = opt.text("--engine", "default");
    if (engineName != "default" && engineName != "before")
        throw std::invalid_argument("--engine must be default or before, got '" + engineName + "'");
    const OrientationFieldParams engineParams = engineName == "default" ? OrientationFieldParams{} : engineParamsBeforeIssue21();
    const std::string windowText = opt.text("--tensor-window", "tuned");
    std::vector<double> windows(std::begin(kTensorWindows), std::end(kTensorWindows));
    if (windowText != "tuned") {
        std::size_t used = 0;
        double w = 0;
        try {
            w = std::stod(windowText, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != windowText.size() || !(w > 0 && w <= 200))
            throw std::invalid_argument("--tensor-window must be tuned or a σ in (0, 200] pixels, got '" + windowText + "'");
        windows = {w};
    }
    const std::string writeDir = opt.text("--write");
    std::ofstream index = openDataIndex(writeDir, "prints.csv", "name,class,quality,partial,width,height");
    std::ofstream csv;
    if (opt.has("--csv")) csv = openCsv(opt.text("--csv"), "seed,quality,class,partial,width,height,method,rmsd_deg,blocks,within10,within20,ms");

    struct Row {  // one print: the engine and the tensor at every window
        std::uint64_t seed;
        const char* printClass;
        bool partial;
        int width, height;
        FieldComparison engine;
        double engineMs;
        std::vector<FieldComparison> tensor;
        std::vector<double> tensorMs;
    };
    std::vector<Row> rows[2];
    for (const PrintQuality q : {PrintQuality::Good, PrintQuality::Degraded})
        for (int i = 0; i < count; ++i) {
            const std::uint64_t s = static_cast<std::uint64_t>(seed + i);
            const SyntheticPrint p = makePrint(generator, s, q);
            if (!writeDir.empty())
                writePrint(writeDir, std::string("print_") + (generator == PrintGenerator::Phase ? "phase_" : "") +
                                         std::to_string(s) + "_" + printQualityName(q), p, index);
            const BlockField truth = truthBlocks(p.orientation, block);
            const std::vector<unsigned char> fg = foregroundBlocks(p.mask, block);
            Row row{s, printClassName(p.printClass), p.partial, p.image.cols, p.image.rows, {}, 0, {}, {}};
            const Stopwatch engineClock;
            const BlockField engine = engineOrientationField(p.image, block, engineParams);
            row.engineMs = engineClock.milliseconds();
            row.engine = compareFields(engine, truth, fg);
            for (const double w : windows) {
                StructureTensorParams sp;
                sp.blockSize = block;
                sp.windowSigma = w;
                const Stopwatch peerClock;
                const BlockField tensor = structureTensorField(p.image, sp);
                row.tensorMs.push_back(peerClock.milliseconds());
                row.tensor.push_back(compareFields(tensor, truth, fg));
            }
            rows[q == PrintQuality::Good ? 0 : 1].push_back(std::move(row));
        }

    // The tensor's window per quality: the lowest mean RMSD over these prints.
    int chosen[2] = {0, 0};
    for (int qi = 0; qi < 2; ++qi) {
        double best = 1e300;
        for (int wi = 0; wi < static_cast<int>(windows.size()); ++wi) {
            double sum = 0;
            for (const Row& r : rows[qi]) sum += r.tensor[static_cast<std::size_t>(wi)].rmsd;
            if (sum < best) {
                best = sum;
                chosen[qi] = wi;
            }
        }
    }

    Tally tallies[2][2];  // [quality][0 engine, 1 structure tensor]
    for (int qi = 0; qi < 2; ++qi)
        for (const Row& r : rows[qi]) {
            const std::size_t wi = static_cast<std::size_t>(chosen[qi]);
            tallies[qi][0].add(r.engine, r.engineMs);
            tallies[qi][1].add(r.tensor[wi], r.tensorMs[wi]);
            if (csv.is_open())
                for (int m = 0; m < 2; ++m) {
                    const FieldComparison& c = m == 0 ? r.engine : r.tensor[wi];
                    csv << r.seed << ',' << (qi == 0 ? "good" : "degraded") << ',' << r.printClass << ','
                        << (r.partial ? 1 : 0) << ',' << r.width << ',' << r.height << ','
                        << (m == 0 ? "linescope" : "structure_tensor") << ',' << c.rmsd << ',' << c.blocks << ','
                        << c.within10 << ',' << c.within20 << ',' << (m == 0 ? r.engineMs : r.tensorMs[wi]) << '\n';
                }
        }

    const StructureTensorParams peer;
    std::printf("### Fingerprint orientation fields\n\n");
    std::printf("`linescope-task-eval orientation --count %d --seed %lld --block %d --generator %s --engine %s "
                "--tensor-window %s`:\n%d good and %d degraded synthetic prints (tests/tasks/prints/%s), blocks of %d px,\n"
                "RMSD against the known field on the foreground blocks (≥ 75 %% of the block on the finger).\n"
                "LineScope: estimateOrientationField, %s parameters. Peer: gradient structure tensor (Gaussian σ %.1f,\n"
                "Scharr, Gaussian window σ %.0f on good prints, %.0f on degraded ones%s, summed over the block).\n\n",
                count, seed, block, generatorName.c_str(), engineName.c_str(), windowText.c_str(), count, count,
                generator == PrintGenerator::Gabor ? "fingerprint_synth.h" : "phase_print_synth.h", block,
                engineName == "default" ? "default" : "pre-issue-21", peer.gradientSigma,
                windows[static_cast<std::size_t>(chosen[0])], windows[static_cast<std::size_t>(chosen[1])],
                windowText == "tuned" ? ": the best of 6, 8, … 20 on these prints" : "");
    std::printf("| method | quality | prints | RMSD mean (°) | RMSD median (°) | blocks ≤ 10° | blocks ≤ 20° | ms / print |\n");
    std::printf("|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (int m = 0; m < 2; ++m)
        for (int qi = 0; qi < 2; ++qi) {
            const Tally& t = tallies[qi][m];
            double mean = 0;
            for (double r : t.rmsd) mean += r;
            mean /= static_cast<double>(t.rmsd.size());
            std::printf("| %s | %s | %zu | %.2f | %.2f | %.1f %% | %.1f %% | %.1f |\n",
                        m == 0 ? "LineScope" : "structure tensor", qi == 0 ? "good" : "degraded", t.rmsd.size(),
                        mean, median(t.rmsd), 100.0 * t.within10 / std::max(1.0, t.blocks),
                        100.0 * t.within20 / std::max(1.0, t.blocks), t.ms / static_cast<double>(t.rmsd.size()));
        }
    if (windows.size() > 1) {
        std::printf("\nStructure tensor, mean RMSD (°) by window σ (good / degraded):");
        for (std::size_t wi = 0; wi < windows.size(); ++wi) {
            double sum[2] = {0, 0};
            for (int qi = 0; qi < 2; ++qi)
                for (const Row& r : rows[qi]) sum[qi] += r.tensor[wi].rmsd;
            std::printf("%s σ %.0f: %.2f / %.2f", wi == 0 ? "" : ",", windows[wi], sum[0] / count, sum[1] / count);
        }
        std::printf(".\n");
    }
    std::printf("\nMachine: %s.\n", machineDescription().c_str());
    return 0;
}

}  // namespace linescope::tasks
