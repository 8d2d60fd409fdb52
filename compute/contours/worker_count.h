// How many workers each phase of border tracking wakes. Waking a sleeping worker costs tens
// of microseconds, more than a small phase takes (a merge stage of a few hundred borders,
// the hierarchy of a few hundred contours), so a phase gets one worker per grain of its
// work, at least one and at most the engine's thread count. The grains come from
// ContourTuning; tests set them to 1 to run every parallel path on small images.
#pragma once

#include "compute/contours/contours.h"
#include "compute/thread_pool.h"

#include <algorithm>
#include <cstddef>

namespace linescope::contours {

struct WorkerBudget {
    int threads = 0;  // 0 = one per core
    std::size_t pixelsPerWorker = 1, pointsPerWorker = 1, recordsPerWorker = 1;

    WorkerBudget() = default;
    WorkerBudget(int t, const ContourTuning& tuning)
        : threads(t),
          pixelsPerWorker(std::max<std::size_t>(1, tuning.pixelsPerWorker)),
          pointsPerWorker(std::max<std::size_t>(1, tuning.pointsPerWorker)),
          recordsPerWorker(std::max<std::size_t>(1, tuning.recordsPerWorker)) {}

    int forPixels(std::size_t n) const { return workers(n, pixelsPerWorker); }    // scanning pixels
    int forPoints(std::size_t n) const { return workers(n, pointsPerWorker); }    // following or copying points
    int forRecords(std::size_t n) const { return workers(n, recordsPerWorker); }  // pieces, chains, borders

private:
    int workers(std::size_t work, std::size_t grain) const {
        const std::size_t wanted = std::max<std::size_t>(1, work / grain);
        return static_cast<int>(std::min<std::size_t>(wanted, static_cast<std::size_t>(resolveThreads(threads))));
    }
};

}  // namespace linescope::contours
