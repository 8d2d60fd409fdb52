// linescope-task-eval orientation: block orientation fields of synthetic fingerprints with
// known truth, LineScope's estimateOrientationField against the gradient structure tensor,
// on good and degraded prints; RMSD on foreground blocks as FVC-onGoing reports it.
#include "app/io/image_io.h"
#include "tests/tasks/eval_common.h"
#include "tests/tasks/prints/print_scoring.h"
#include "tests/tasks/task_eval.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace linescope::tasks {

namespace {

constexpr const char* kHelp =
    "usage: linescope-task-eval orientation [--count N] [--seed S] [--block B] [--write DIR] [--csv FILE]\n"
    "  Generates N good and N degraded synthetic fingerprints (seeds S … S+N-1; default 20 and 1),\n"
    "  estimates their block orientation fields (blocks of B pixels, default 16) with LineScope and\n"
    "  with the gradient structure tensor, and prints a Markdown table of the RMSD against the\n"
    "  known field on the foreground blocks.\n"
    "  --write DIR  also writes each print: NAME.png (image), NAME_orientation.tif (float32 degrees\n"
    "               per pixel, design.md §1), NAME_mask.png (foreground) and prints.csv.\n"
    "  --csv FILE   writes one row per print and method.\n";

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
    const EvalOptions opt(args, {"--count", "--seed", "--block", "--write", "--csv"});
    if (opt.helpRequested()) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const int count = static_cast<int>(opt.integer("--count", 20, 1, 100000));
    const long long seed = opt.integer("--seed", 1, 0, 1LL << 40);
    const int block = static_cast<int>(opt.integer("--block", 16, 4, 128));
    const std::string writeDir = opt.text("--write");
    std::ofstream index = openDataIndex(writeDir, "prints.csv", "name,class,quality,partial,width,height");
    std::ofstream csv;
    if (opt.has("--csv")) csv = openCsv(opt.text("--csv"), "seed,quality,class,partial,width,height,method,rmsd_deg,blocks,within10,within20,ms");

    Tally tallies[2][2];  // [quality][0 engine, 1 structure tensor]
    for (const PrintQuality q : {PrintQuality::Good, PrintQuality::Degraded})
        for (int i = 0; i < count; ++i) {
            const std::uint64_t s = static_cast<std::uint64_t>(seed + i);
            const SyntheticPrint p = makeSyntheticPrint(s, q);
            if (!writeDir.empty())
                writePrint(writeDir, std::string("print_") + std::to_string(s) + "_" + printQualityName(q), p, index);
            const PrintScore score = scorePrint(p, block);
            const int qi = q == PrintQuality::Good ? 0 : 1;
            tallies[qi][0].add(score.engine, score.engineMs);
            tallies[qi][1].add(score.peer, score.peerMs);
            if (csv.is_open())
                for (int m = 0; m < 2; ++m) {
                    const FieldComparison& c = m == 0 ? score.engine : score.peer;
                    csv << s << ',' << printQualityName(q) << ',' << printClassName(p.printClass) << ','
                        << (p.partial ? 1 : 0) << ',' << p.image.cols << ',' << p.image.rows << ','
                        << (m == 0 ? "linescope" : "structure_tensor") << ',' << c.rmsd << ',' << c.blocks << ','
                        << c.within10 << ',' << c.within20 << ',' << (m == 0 ? score.engineMs : score.peerMs) << '\n';
                }
        }

    const StructureTensorParams peer;
    std::printf("### Fingerprint orientation fields\n\n");
    std::printf("`linescope-task-eval orientation --count %d --seed %lld --block %d`: %d good and %d degraded\n"
                "synthetic prints (tests/tasks/prints/fingerprint_synth.h), blocks of %d px, RMSD against the\n"
                "known field on the foreground blocks (≥ 75 %% of the block on the finger).\n"
                "Peer: gradient structure tensor (Gaussian σ %.1f, Scharr, Gaussian window σ %.1f, summed over the block).\n\n",
                count, seed, block, count, count, block, peer.gradientSigma, peer.windowSigma);
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
    std::printf("\nMachine: %s.\n", machineDescription().c_str());
    return 0;
}

}  // namespace linescope::tasks
