// The granulometry of line paths at one angle: every line of the family walked once
// (granulometry_line.h), the lines shared among the worker threads.
#pragma once

#include "compute/granulometry_sums.h"
#include "compute/line_geometry.h"

namespace linescope::cpu {

// The buckets of S over every line of `family` (bucket[μ], μ = 1 … maxLength + 1, index 0
// unused): S(λ) = Σ_{μ ≥ λ} bucket[μ]. Exact, so independent of the thread count.
template <class T>
detail::GranulometryBuckets<T> granulometryPaths(ImageView<const T> src, const LineFamily& family, int maxLength,
                                                 const detail::SummedPixels& region, int threads);

}  // namespace linescope::cpu
