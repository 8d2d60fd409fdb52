// linescope-task-eval texture: the dominant orientations of synthetic oriented textures from
// the peaks of LineScope's angular spectrum (openings over 180 angles), against the truth and
// against the Fourier power spectrum's peaks.
#include "app/io/image_io.h"
#include "tests/tasks/eval_common.h"
#include "tests/tasks/prints/texture_scoring.h"
#include "tests/tasks/task_eval.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace linescope::tasks {

namespace {

constexpr const char* kHelp =
    "usage: linescope-task-eval texture [--count N] [--seed S] [--length L] [--write DIR] [--csv FILE]\n"
    "  Generates N synthetic oriented textures (seeds S … S+N-1; default 40 and 1) with one or two\n"
    "  known dominant orientations, sweeps openings of length L (default 121) over 0°, 1°, … 179°,\n"
    "  takes the spectrum's strongest peaks and counts the textures whose orientations all come\n"
    "  back within one step (1°). The Fourier power spectrum summed by angle is the peer.\n"
    "  --write DIR  also writes each texture as NAME.png and the truth in textures.csv.\n"
    "  --csv FILE   writes one row per texture and method.\n";

struct Tally {
    int textures = 0, recovered = 0, orientations = 0;
    double errorSum = 0, worst = 0, ms = 0;
    void add(const TextureScore& s) {
        ++textures;
        recovered += s.recovered;
        for (double e : s.errors) {
            ++orientations;
            errorSum += e;
            worst = std::max(worst, e);
        }
        ms += s.ms;
    }
};

std::string joined(const std::vector<double>& v) {
    std::string s;
    char buf[32];
    for (double a : v) {
        std::snprintf(buf, sizeof buf, s.empty() ? "%.3f" : " %.3f", a);
        s += buf;
    }
    return s;
}

}  // namespace

int runTextureEval(const ArgList& args) {
    const EvalOptions opt(args, {"--count", "--seed", "--length", "--write", "--csv"});
    if (opt.helpRequested()) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const int count = static_cast<int>(opt.integer("--count", 40, 1, 100000));
    const long long seed = opt.integer("--seed", 1, 0, 1LL << 40);
    TextureSweepParams params;
    params.length = static_cast<int>(opt.integer("--length", params.length, 2, 1000));
    const std::string writeDir = opt.text("--write");
    std::ofstream index = openDataIndex(writeDir, "textures.csv", "name,kind,orientations_deg,contrast,noise_sigma");
    std::ofstream csv;
    if (opt.has("--csv")) csv = openCsv(opt.text("--csv"), "seed,kind,width,height,contrast,noise_sigma,truth_deg,method,found_deg,max_error_deg,recovered,ms");

    // Rows: (method, kind, number of orientations).
    std::map<std::tuple<int, int, std::size_t>, Tally> tallies;
    Tally totals[2];
    for (int i = 0; i < count; ++i) {
        const std::uint64_t s = static_cast<std::uint64_t>(seed + i);
        const SyntheticTexture t = makeSyntheticTexture(s);
        if (!writeDir.empty()) {
            const std::string name = "texture_" + std::to_string(s);
            io::writeImage((std::filesystem::path(writeDir) / (name + ".png")).string(), t.image);
            index << name << ',' << textureKindName(t.kind) << ',' << joined(t.orientations) << ',' << t.contrast
                  << ',' << t.noiseSigma << '\n';
        }
        for (int m = 0; m < 2; ++m) {
            const TextureScore score = m == 0 ? scoreTextureEngine(t, params) : scoreTextureFourier(t, params);
            tallies[{m, static_cast<int>(t.kind), t.orientations.size()}].add(score);
            totals[m].add(score);
            if (csv.is_open())
                csv << s << ',' << textureKindName(t.kind) << ',' << t.image.cols << ',' << t.image.rows << ','
                    << t.contrast << ',' << t.noiseSigma << ',' << joined(t.orientations) << ','
                    << (m == 0 ? "linescope" : "fourier") << ',' << joined(score.found) << ','
                    << *std::max_element(score.errors.begin(), score.errors.end()) << ',' << score.recovered << ','
                    << score.ms << '\n';
        }
    }

    std::printf("### Texture spectra: dominant orientations\n\n");
    std::printf("`linescope-task-eval texture --count %d --seed %lld --length %d`: %d synthetic textures\n"
                "(tests/tasks/prints/texture_synth.h: bright strokes or band-pass wedge noise, 256–512 px,\n"
                "contrast 40/90/160, noise σ 3/10/25). LineScope: sweep of openings, λ = %d, 0°…179° in 1° steps,\n"
                "strongest peaks of the angular spectrum (spectrumPeaks). Peer: Fourier power spectrum\n"
                "(Hann window) summed into the same 1° bins, same peak finder. Recovered: every dominant\n"
                "orientation within one step (1°).\n\n",
                count, seed, params.length, count, params.length);
    std::printf("| method | texture | orientations | textures | recovered | mean error (°) | max error (°) | ms / texture |\n");
    std::printf("|---|---|---:|---:|---:|---:|---:|---:|\n");
    auto row = [](const char* method, const std::string& kind, const std::string& n, const Tally& t) {
        std::printf("| %s | %s | %s | %d | %.1f %% | %.2f | %.2f | %.1f |\n", method, kind.c_str(), n.c_str(), t.textures,
                    100.0 * t.recovered / std::max(1, t.textures), t.errorSum / std::max(1, t.orientations), t.worst,
                    t.ms / std::max(1, t.textures));
    };
    for (int m = 0; m < 2; ++m) {
        const char* method = m == 0 ? "LineScope" : "Fourier spectrum";
        for (const auto& [key, t] : tallies)
            if (std::get<0>(key) == m)
                row(method, textureKindName(static_cast<TextureKind>(std::get<1>(key))), std::to_string(std::get<2>(key)), t);
        row(method, "all", "1–2", totals[m]);
    }
    std::printf("\nMachine: %s.\n", machineDescription().c_str());
    return 0;
}

}  // namespace linescope::tasks
