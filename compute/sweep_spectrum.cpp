#include "compute/sweep_spectrum.h"

#include "compute/line_geometry.h"

#if LINESCOPE_HAVE_CUDA
#include "compute/cuda/cuda_backend.h"
#endif

#include <utility>

namespace linescope {

template <class T>
SweepSpectrum sweepSpectrum(ImageView<const T> src, const SweepRequest& req, const EngineOptions& opt) {
#if LINESCOPE_HAVE_CUDA
    // The cases sweep() sends to the device's host sweep, checked as sweep() checks them.
    const bool bandKernel = opt.algorithm == LineAlgorithm::Auto || opt.algorithm == LineAlgorithm::Sheared ||
                            opt.algorithm == LineAlgorithm::VanHerk;
    if (bandKernel && req.kind == LineKind::Paths) {
        validateSweepRequest(req);
        if (src.empty()) throw Error("the image is empty");
        segmentOf(req.length);  // validates λ
        requireNoNaN(src);
        if (resolveBackend(opt.backend) == Backend::Cuda) {
            SweepResult<T> r = cuda::sweepSpectrum<T>(src, req);
            return {std::move(r.spectrum), std::move(r.spectrumExact)};
        }
    }
#endif
    SweepResult<T> r = sweep<T>(src, req, opt);
    return {std::move(r.spectrum), std::move(r.spectrumExact)};
}

template SweepSpectrum sweepSpectrum<std::uint8_t>(ImageView<const std::uint8_t>, const SweepRequest&,
                                                   const EngineOptions&);
template SweepSpectrum sweepSpectrum<std::uint16_t>(ImageView<const std::uint16_t>, const SweepRequest&,
                                                    const EngineOptions&);
template SweepSpectrum sweepSpectrum<float>(ImageView<const float>, const SweepRequest&, const EngineOptions&);

}  // namespace linescope
