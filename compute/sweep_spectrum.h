// The angular spectrum of a sweep without its images, for callers that need nothing else (the
// skew estimate's stages, the spectrum command): on the GPU the images stay on the device, so
// none is brought back or allocated on the host; elsewhere it is sweep()'s. Equal to
// sweep(src, req, opt).spectrum and .spectrumExact bit for bit (both in sweep.cpp, one dispatch).
#pragma once

#include "compute/backend.h"
#include "compute/image.h"
#include "compute/sweep.h"

#include <cstdint>
#include <vector>

namespace linescope {

struct SweepSpectrum {
    std::vector<double> spectrum;
    std::vector<std::int64_t> spectrumExact;  // integer images only
};

template <class T>
SweepSpectrum sweepSpectrum(ImageView<const T> src, const SweepRequest& req, const EngineOptions& opt = {});

}  // namespace linescope
