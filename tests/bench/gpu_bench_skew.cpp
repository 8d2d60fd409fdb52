#include "tests/bench/gpu_bench_skew.h"

#include "compute/backend.h"
#include "compute/box_reduce.h"
#include "compute/classic_morph.h"
#include "compute/image.h"
#include "compute/line_morph.h"
#include "compute/page_flatten.h"
#include "compute/skew.h"
#include "compute/sweep_spectrum.h"
#include "tests/bench/gpu_bench_support.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace lsbench {

namespace {

using linescope::Image;
using U8 = std::uint8_t;

// A page of 2480×3508 (A4 at 300 dpi): lines of "words" (dark bars of 20–120 pixels with gaps)
// every 50 rows, turned by 1.3°, on light paper; fixed pattern.
Image<U8> syntheticPage() {
    const int w = 2480, h = 3508;
    Image<U8> page(w, h, 235);
    const double t = std::tan(1.3 * 3.14159265358979 / 180);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const double v = y - x * t;  // rows of the turned page
            const double rowStart = std::floor(v / 50);
            const long row = static_cast<long>(rowStart);
            const double within = v - rowStart * 50.0;
            if (x < 200 || x > w - 200 || row < 4 || row > 64 || within > 14) continue;
            const long word = (x + row * 37) / 90, inWord = (x + row * 37) % 90;
            if (inWord < 20 + (word * 7919 + row * 104729) % 60) page.at(x, y) = 30;
        }
    return page;
}

}  // namespace

std::string skewStagesSection(int warmup, int reps) {
    using namespace linescope;
    const Image<U8> page = syntheticPage();
    const EngineOptions gpu{Backend::Cuda}, cpu{Backend::Cpu};
    const SkewParams p;
    // The sizes estimateSkew uses on this page (skew.h: reduction 2, flatten 0.009, smear 0.01,
    // coarse λ 0.3 of the coarse page, fine λ 3/5 of the working page, ±1° in 0.05° steps).
    const Image<U8> work = boxReduce<U8>(page.cview(), 2, gpu);
    const int flatSide = static_cast<int>(std::lround(p.flatten * work.width())) | 1;
    const Image<U8> flat = flattenBackground<U8>(work.cview(), flatSide, true, gpu);
    const int smear = static_cast<int>(std::lround(p.smear * work.width()));
    const double middle = p.angles.angle(0) + 0.5 * (p.angles.count - 1) * p.angles.step;
    const Image<U8> smeared = lineMorph<U8>(MorphOp::Erode, flat.cview(), LineParams{middle, smear}, gpu);
    const Image<U8> coarse = boxReduce<U8>(smeared.cview(), 2, gpu);
    const int coarseLength = std::max(3, static_cast<int>(kSkewCoarseLengthShare * coarse.width()));
    const int fineLength = defaultSkewLength(work.width(), work.height());
    const AngleSet fine{1.3 - 1.0, 0.05, 41};
    const int squareSide = static_cast<int>(std::lround(kSkewSquareSmearShare * work.width())) | 1;
    Image<U8> squared(work.width(), work.height());

    struct Stage {
        std::string what;
        std::function<void()> run;
    };
    const std::vector<Stage> stages = {
        {"reduce the page by 2 (CPU: box means)", [&] { (void)boxReduce<U8>(page.cview(), 2, gpu); }},
        {"flatten the background (closing by a " + std::to_string(flatSide) + "² square)",
         [&] { (void)flattenBackground<U8>(work.cview(), flatSide, true, gpu); }},
        {"smear along the range's middle (erosion, λ " + std::to_string(smear) + ")",
         [&] { (void)lineMorph<U8>(MorphOp::Erode, flat.cview(), LineParams{middle, smear}, gpu); }},
        {"reduce by 2 again (CPU)", [&] { (void)boxReduce<U8>(smeared.cview(), 2, gpu); }},
        {"coarse spectrum: " + std::to_string(p.angles.count) + " angles on " + std::to_string(coarse.width()) + "×" +
             std::to_string(coarse.height()) + ", λ " + std::to_string(coarseLength),
         [&] { (void)sweepSpectrum<U8>(coarse.cview(), {MorphOp::Close, coarseLength, p.angles}, gpu); }},
        {"square smear (erosion by a " + std::to_string(squareSide) + "² square)",
         [&] {
             classicMorph<U8>(MorphOp::Erode, flat.cview(), squared.view(),
                              ClassicSE{ClassicShape::Rect, squareSide, squareSide}, gpu);
         }},
        {"one fine spectrum: 41 angles on " + std::to_string(work.width()) + "×" + std::to_string(work.height()) +
             ", λ " + std::to_string(fineLength),
         [&] { (void)sweepSpectrum<U8>(smeared.cview(), {MorphOp::Close, fineLength, fine}, gpu); }},
    };
    std::string out = "## Skew of an A4 page at 300 dpi (2480×3508 u8, from host memory, wall clock)\n\n"
                      "| stage | CUDA ms (median) |\n|---|---:|\n";
    for (const Stage& s : stages) {
        const Stats st = timeHost(warmup, reps, [&](int) { s.run(); });
        out += "| " + s.what + " | " + fmtMs(st.medianMs) + " |\n";
    }
    SkewEstimate g, h, c;
    // The stages in device memory (the default for integer pages), then each through the host.
    const Stats whole = timeHost(warmup, reps, [&](int) { g = estimateSkew<U8>(page.cview(), p, gpu); });
    setenv("LINESCOPE_SKEW_STAGES", "host", 1);
    const Stats viaHost = timeHost(warmup, reps, [&](int) { h = estimateSkew<U8>(page.cview(), p, gpu); });
    unsetenv("LINESCOPE_SKEW_STAGES");
    const Stats onCpu = timeHost(1, std::max(3, reps / 5), [&](int) { c = estimateSkew<U8>(page.cview(), p, cpu); });
    out += "| **the whole estimate**, each stage through the host (the fine stage runs 2–3 fine spectra) | " +
           fmtMs(viaHost.medianMs) + " |\n";
    out += "| **the whole estimate**, the page uploaded once, every stage in device memory | **" +
           fmtMs(whole.medianMs) + "** |\n\n";
    out += "The CPU engine on all cores: " + fmtMs(onCpu.medianMs) + " ms. Angle " + fmtNum(g.angle, 4) +
           "° on the GPU's device stages, " + fmtNum(h.angle, 4) + "° through the host, " + fmtNum(c.angle, 4) +
           "° on the CPU (the page is turned by 1.3°): " +
           (g.angle == c.angle && h.angle == c.angle ? "the same" : "**they differ**") + ".\n\n";
    return out;
}

}  // namespace lsbench
