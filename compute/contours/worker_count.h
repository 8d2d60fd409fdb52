// How many workers a phase of border tracking should wake. Waking a sleeping worker costs
// tens of microseconds, more than a small phase takes (a merge stage of a few hundred
// borders, the hierarchy of a few hundred contours), so a phase gets one worker per
// `grain` units of its work, at least one and at most the engine's thread count.
#pragma once

#include "compute/thread_pool.h"

#include <algorithm>
#include <cstddef>

namespace linescope::contours {

inline int workersFor(std::size_t work, std::size_t grain, int threads) {
    const std::size_t wanted = std::max<std::size_t>(1, work / grain);
    return static_cast<int>(std::min<std::size_t>(wanted, static_cast<std::size_t>(resolveThreads(threads))));
}

// Units of work per worker, by the kind of work.
inline constexpr std::size_t kPixelsPerWorker = 1 << 20;     // scanning pixels
inline constexpr std::size_t kPointsPerWorker = 1 << 16;     // following or copying border points
inline constexpr std::size_t kRecordsPerWorker = 1 << 13;    // handling pieces, chains or borders

}  // namespace linescope::contours
