// The sweep plan: sizes in, stages out.
#include "app/session/sweep_plan.h"

#include <algorithm>

namespace linescope::session {

SweepPlan planSweep(int width, int height, int count, const ProgressiveOptions& o, int maxChunkAngles) {
    SweepPlan plan;
    const long long pixels = static_cast<long long>(std::max(width, 1)) * std::max(height, 1);
    // Interleaved passes while the exact sweep is long enough to want previews between them:
    // the first pass's stride a multiple of 4 that keeps its work within firstPassWork.
    if (static_cast<long long>(count) * pixels > o.passWork && count >= 8) {
        const long long perAngle = std::max<long long>(1, o.firstPassWork / pixels);  // angles it may take
        int first = static_cast<int>((count + perAngle - 1) / perAngle);
        first = std::min((first + 3) / 4 * 4, count / 2 / 4 * 4);  // a multiple of 4, at least 2 angles
        plan.strides = first > 4 ? std::vector<int>{first, 4, 2, 1} : std::vector<int>{4, 2, 1};
    }
    // The reduced preview: the smallest power-of-two reduction that fits previewPixels, and as
    // many angles as the work of previewPixels × 90 allows.
    if (o.previewPixels > 0 && pixels > o.previewPixels && pixels > o.reducedAbovePixels) {
        int r = 2;
        while (pixels / (static_cast<long long>(r) * r) > o.previewPixels && r < 64) r *= 2;
        plan.reduction = r;
        const long long reduced = pixels / (static_cast<long long>(r) * r);
        const long long budget = o.previewPixels * 90;
        plan.coarseStride = static_cast<int>(std::clamp<long long>((reduced * count + budget - 1) / budget, 1, count));
        plan.coarseChunkAngles = static_cast<int>(std::clamp<long long>(o.chunkWork / reduced, 1, count));
    }
    const long long perChunk = std::max<long long>(1, o.chunkWork / pixels);
    plan.chunkAngles = static_cast<int>(std::min<long long>(perChunk, maxChunkAngles < 1 ? count : maxChunkAngles));
    return plan;
}

std::vector<int> passAngles(const SweepPlan& plan, int pass, int count) {
    const auto p = static_cast<std::size_t>(pass);
    std::vector<int> ks;
    for (int k = 0; k < count; ++k)
        if (k % plan.strides[p] == 0 && (p == 0 || k % plan.strides[p - 1] != 0)) ks.push_back(k);
    return ks;
}

AngleSet anglesAfterPasses(const AngleSet& set, const SweepPlan& plan, int passesDone, std::vector<int>* indices) {
    // The passes so far cover every s-th angle, s the last one's stride.
    const int s = plan.strides[static_cast<std::size_t>(std::clamp(passesDone, 1, static_cast<int>(plan.strides.size())) - 1)];
    std::vector<int> ks;
    for (int k = 0; k < set.count; k += s) ks.push_back(k);
    if (indices) *indices = ks;
    return AngleSet{set.start, set.step * s, static_cast<int>(ks.size())};
}

}  // namespace linescope::session
