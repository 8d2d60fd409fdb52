// The stages of a progressive sweep. Previews are copies (a snapshot never changes after it
// is published, and the exact sweep goes on folding into its own planes).
#include "app/session/progressive_sweep.h"

#include "app/session/planes.h"
#include "compute/box_reduce.h"
#include "compute/sweep_in_progress.h"
#include "compute/thread_pool.h"

#include <algorithm>
#include <cmath>
#include <span>

namespace linescope::session {

namespace {

// Nearest-neighbour upscaling of a reduced plane to w × h (the last row and column of the
// reduced plane also cover the edge pixels the reduction dropped).
template <class T>
Image<T> upscaled(const Image<T>& small, int w, int h, int r, int threads) {
    Image<T> big(w, h);
    const int sw = small.width(), sh = small.height();
    parallelFor(static_cast<std::size_t>(h), threads, [&](std::size_t y0, std::size_t y1) {
        for (int y = static_cast<int>(y0); y < static_cast<int>(y1); ++y) {
            const T* s = small.view().row(std::min(y / r, sh - 1));
            T* d = big.view().row(y);
            for (int x = 0; x < w; ++x) d[x] = s[std::min(x / r, sw - 1)];
        }
    });
    return big;
}

// The spectrum of the angles `indices` of `sweep` (a pass preview, a SweepResult<T>).
template <class T>
std::shared_ptr<const SweepSpectrum> subsetSpectrum(const AnySweep& sweep, const AngleSet& covered,
                                                    const std::vector<int>& indices) {
    const auto& r = std::get<SweepResult<T>>(sweep);
    auto s = std::make_shared<SweepSpectrum>(*spectrumOf(sweep));
    s->angles = covered;
    s->values.clear();
    s->exact.clear();
    for (int k : indices) {
        s->values.push_back(r.spectrum[static_cast<std::size_t>(k)]);
        if (!r.spectrumExact.empty()) s->exact.push_back(r.spectrumExact[static_cast<std::size_t>(k)]);
    }
    return s;
}

}  // namespace

template <class T>
SweepResult<T> coarseSweep(ImageView<const T> src, const SweepRequest& req, const EngineOptions& opt, int reduction,
                           int stride, std::shared_ptr<const SweepSpectrum>* spectrum, int chunkAngles,
                           const std::function<void()>& between) {
    const Image<T> small = boxReduce<T>(src, reduction, opt);
    SweepRequest sr = req;
    // λ in reduced pixels: the same length on the page.
    sr.length = std::max(1, static_cast<int>(std::lround(req.length / static_cast<double>(reduction))));
    sr.angles = AngleSet{req.angles.start, req.angles.step * stride, (req.angles.count + stride - 1) / stride};
    // A few angles at a time, so that a newer request or a more urgent kind is heard within a
    // chunk here too (`between` runs between chunks, not after the last).
    SweepInProgress<T> run(small.cview(), sr, opt);
    for (int k = 0; k < sr.angles.count; ++k) {
        if (k > 0 && chunkAngles > 0 && k % chunkAngles == 0 && between) between();
        run.add(k);
    }
    SweepResult<T> s = run.takeResult();
    for (std::uint16_t& k : std::span(s.argIndex.data(), s.argIndex.pixels().size()))
        k = static_cast<std::uint16_t>(k * stride);  // an index of the whole set
    SweepResult<T> up;
    up.sup = upscaled(s.sup, src.width, src.height, reduction, opt.threads);
    up.inf = upscaled(s.inf, src.width, src.height, reduction, opt.threads);
    up.strength = upscaled(s.strength, src.width, src.height, reduction, opt.threads);
    up.argIndex = upscaled(s.argIndex, src.width, src.height, reduction, opt.threads);
    up.angles = req.angles;
    up.op = req.op;
    if (spectrum) {
        auto sp = std::make_shared<SweepSpectrum>(*spectrumOf(AnySweep(std::move(s))));  // the reduced sweep's
        sp->angles = sr.angles;
        sp->pixels = static_cast<long long>(src.width) * src.height;
        // Sums over the whole image's pixels (the reduced ones' are estimates, not exact sums),
        // so that the per-pixel plot reads the same levels.
        const double perPixel = static_cast<double>(sp->pixels) / (static_cast<double>(small.width()) * small.height());
        for (double& v : sp->values) v *= perPixel;
        sp->exact.clear();
        *spectrum = std::move(sp);
    }
    return up;
}

// Thrown out of the coarse stage when `step` asks to stop.
struct Stopped {};

template <class T>
bool progressiveSweep(ImageView<const T> src, const SweepRequest& req, const EngineOptions& opt, const SweepPlan& plan,
                      const SweepStepFn& step, const PreviewFn& preview, SweepResult<T>& out) {
    const int total = req.angles.count;
    SweepInProgress<T> run(src, req, opt);  // validates the request before any work
    if (step && !step(0, total)) return false;
    if (plan.reduction > 1 && preview) try {
        std::shared_ptr<const SweepSpectrum> spectrum;
        auto coarse = std::make_shared<const AnySweep>(
            coarseSweep<T>(src, req, opt, plan.reduction, plan.coarseStride, &spectrum,
                           plan.coarseChunkAngles, [&] {
                               if (step && !step(0, total)) throw Stopped{};
                           }));
        preview(std::move(coarse), std::move(spectrum),
                SweepPreview{(total + plan.coarseStride - 1) / plan.coarseStride, total, plan.reduction});
    } catch (const Stopped&) {
        return false;
    }
    int sinceCheck = 0;
    const int passes = static_cast<int>(plan.strides.size());
    for (int p = 0; p < passes; ++p) {
        for (int k : passAngles(plan, p, total)) {
            run.add(k);
            if (++sinceCheck >= plan.chunkAngles) {
                sinceCheck = 0;
                if (step && !step(run.done(), total)) return false;
            }
        }
        if (p + 1 < passes && preview) {
            std::vector<int> indices;
            const AngleSet covered = anglesAfterPasses(req.angles, plan, p + 1, &indices);
            auto part = std::make_shared<const AnySweep>(run.result());
            auto spectrum = subsetSpectrum<T>(*part, covered, indices);
            preview(std::move(part), std::move(spectrum), SweepPreview{covered.count, total, 1});
        }
    }
    if (sinceCheck > 0 && step && !step(run.done(), total)) return false;
    out = run.takeResult();
    return true;
}

#define LS_PROGRESSIVE(T)                                                                                          \
    template bool progressiveSweep<T>(ImageView<const T>, const SweepRequest&, const EngineOptions&, const SweepPlan&, \
                                      const SweepStepFn&, const PreviewFn&, SweepResult<T>&);                      \
    template SweepResult<T> coarseSweep<T>(ImageView<const T>, const SweepRequest&, const EngineOptions&, int, int,  \
                                           std::shared_ptr<const SweepSpectrum>*, int, const std::function<void()>&);
LS_PROGRESSIVE(std::uint8_t)
LS_PROGRESSIVE(std::uint16_t)
LS_PROGRESSIVE(float)
#undef LS_PROGRESSIVE

}  // namespace linescope::session
