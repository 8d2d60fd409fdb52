#include "compute/zone_plan.h"

#include "compute/line_geometry.h"
#include "compute/line_stages.h"

#include <algorithm>

namespace linescope {

int zoneReach(MorphOp op, int length) {
    const LineStages st = lineStagesOf(op, segmentOf(length));
    return std::max(st.reachLeft(), st.reachRight());
}

StripPlan planStrips(int height, int reach, std::size_t budget, const std::function<std::size_t(int rows)>& bytesForRows) {
    StripPlan plan;
    if (height <= 0) return plan;
    const int R = std::clamp(reach, 0, height);
    plan.smallestRows = static_cast<int>(std::min<long long>(height, 2LL * R + 1));
    plan.smallestBytes = bytesForRows(plan.smallestRows);
    if (bytesForRows(height) <= budget) {
        plan.strips.push_back({0, height, 0, height});
        return plan;
    }
    if (plan.smallestBytes > budget) return plan;
    // The tallest strip that fits: bytes(lo) fits, bytes(hi) does not.
    int lo = plan.smallestRows, hi = height;
    while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        (bytesForRows(mid) <= budget ? lo : hi) = mid;
    }
    const int tallest = lo;  // ≥ 2R + 1: every strip keeps at least one row
    for (int y0 = 0; y0 < height;) {
        const int loadBegin = std::max(0, y0 - R);
        const int y1 = height - loadBegin <= tallest ? height : loadBegin + tallest - R;
        plan.strips.push_back({loadBegin, std::min(height, y1 + R), y0, y1});
        y0 = y1;
    }
    return plan;
}

}  // namespace linescope
