// The skew estimate of an integer page with every stage in device memory: the page uploaded
// once, then reduced, flattened, smeared and swept on the device; only the spectra (one number
// an angle) come back. The same stages as on the host (compute/skew_stages.h) on the same
// pixels, so the same estimate bit for bit; what it saves is each stage's upload, download and
// host arithmetic, and the sweeps' accumulators (the spectra are summed alone).
#pragma once

#include "compute/image.h"
#include "compute/skew.h"

#include <optional>

namespace linescope::cuda {

// `checked`: estimateSkew's estimate after its checks (the reduction set). nullopt when the
// stages do not fit the device's free memory (or the cap) at once: the host path then runs
// them, each engine call in zones as it needs. Holds the calling thread's device for the call.
template <class T>
std::optional<SkewEstimate> estimateSkewOnDevice(ImageView<const T> page, const SkewParams& p,
                                                 const SkewEstimate& checked);

}  // namespace linescope::cuda
