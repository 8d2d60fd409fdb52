// The sweep plan: sizes in, stages out.
#include "app/session/sweep_plan.h"

#include <algorithm>

namespace linescope::session {

SweepPlan planSweep(int width, int height, int count, const ProgressiveOptions& o, int maxChunkAngles) {
    SweepPlan plan;
    const long long pixels = static_cast<long long>(std::max(width, 1)) * std::max(height, 1);
    // The coarse preview: the smallest power-of-two reduction that fits previewPixels, and as
    // many angles as the work of previewPixels × 90 allows (every 2nd of 180 on 16 Mpx: about
    // 0.1 s on 2 cores, so that the preview is on screen well within a second).
    if (o.previewPixels > 0 && pixels > o.previewPixels) {
        int r = 2;
        while (pixels / (static_cast<long long>(r) * r) > o.previewPixels && r < 64) r *= 2;
        plan.reduction = r;
        const long long reduced = pixels / (static_cast<long long>(r) * r);
        const long long budget = o.previewPixels * 90;
        plan.coarseStride = static_cast<int>(std::clamp<long long>((reduced * count + budget - 1) / budget, 1, count));
    }
    // Interleaved passes while the exact sweep is long enough to want previews between them.
    if (static_cast<long long>(count) * pixels > o.passWork && count >= 8)
        plan.passes = {{0, 4}, {2, 4}, {1, 2}};
    else
        plan.passes = {{0, 1}};
    const long long perChunk = std::max<long long>(1, o.chunkWork / pixels);
    plan.chunkAngles = static_cast<int>(std::min<long long>(perChunk, maxChunkAngles < 1 ? count : maxChunkAngles));
    return plan;
}

AngleSet anglesAfterPasses(const AngleSet& set, const SweepPlan& plan, int passesDone, std::vector<int>* indices) {
    std::vector<bool> in(static_cast<std::size_t>(set.count), false);
    for (int p = 0; p < passesDone && p < static_cast<int>(plan.passes.size()); ++p)
        for (int k = plan.passes[static_cast<std::size_t>(p)].first; k < set.count; k += plan.passes[static_cast<std::size_t>(p)].stride)
            in[static_cast<std::size_t>(k)] = true;
    std::vector<int> ks;
    for (int k = 0; k < set.count; ++k)
        if (in[static_cast<std::size_t>(k)]) ks.push_back(k);
    // The passes are built so that what they cover is evenly spaced from index 0.
    const int stride = ks.size() > 1 ? ks[1] - ks[0] : 1;
    if (indices) *indices = ks;
    return AngleSet{set.angle(ks.empty() ? 0 : ks.front()), set.step * stride, static_cast<int>(ks.size())};
}

}  // namespace linescope::session
