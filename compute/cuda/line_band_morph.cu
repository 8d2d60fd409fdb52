// One line operator on device images: the band kernel, or the kernels of Karas et al.
#include "compute/cuda/cuda_line_api.h"
#include "compute/cuda/line_band_launch.cuh"
#include "compute/cuda/paper_line_kernels.h"

namespace linescope::cuda {

template <class T>
void lineMorphDevice(MorphOp op, DeviceImageView<const T> src, DeviceImageView<T> dst, const LineFamily& family,
                     Segment seg, LineAlgorithm algorithm, CudaContext& ctx) {
    if (algorithm == LineAlgorithm::Fifo || algorithm == LineAlgorithm::Stack) {
        paperLineMorph<T>(algorithm, op, src, dst, family, seg, ctx);
        return;
    }
    if (algorithm == LineAlgorithm::Reference)
        throw Error("the reference algorithm runs on the CPU only (use --backend cpu)");
    const band::Stages st = band::stagesOf(op, seg, src.width, src.height);
    const band::Plan plan = band::makePlan<T>(src.width, src.height, st, ctx);
    band::Params prm = plan.params;
    prm.jobs[0] = band::makeJob(family, plan, 0, 0, true);
    band::withStageOrder(op, [&](auto minFirst, auto twoStage) {
        constexpr bool kMin = decltype(minFirst)::value, kTwo = decltype(twoStage)::value;
        if (op == MorphOp::TopHat) {
            if constexpr (kMin && kTwo)
                band::launch<T, true, true, band::Output::TopHat>(plan, prm, 1, src, dst, {}, ctx);
        } else {
            band::launch<T, kMin, kTwo, band::Output::Store>(plan, prm, 1, src, dst, {}, ctx);
        }
    });
}

#define LS_INSTANTIATE(T)                                                                                   \
    template void lineMorphDevice<T>(MorphOp, DeviceImageView<const T>, DeviceImageView<T>, const LineFamily&, \
                                     Segment, LineAlgorithm, CudaContext&);
LS_INSTANTIATE(std::uint8_t)
LS_INSTANTIATE(std::uint16_t)
LS_INSTANTIATE(float)
#undef LS_INSTANTIATE

}  // namespace linescope::cuda
