// One line operator on device images: the band kernel, or the kernels of Karas et al.
#include "compute/cuda/classic_vhgw.h"
#include "compute/cuda/cuda_line_api.h"
#include "compute/cuda/line_band_launch.cuh"
#include "compute/cuda/line_queue_kernels.h"

namespace linescope::cuda {

template <class T>
void lineMorphDevice(MorphOp op, DeviceImageView<const T> src, DeviceImageView<T> dst, const LineFamily& family,
                     Segment seg, LineAlgorithm algorithm, CudaContext& ctx) {
    if (algorithm == LineAlgorithm::Fifo || algorithm == LineAlgorithm::Stack) {
        queueLineMorph<T>(algorithm, op, src, dst, family, seg, ctx);
        return;
    }
    if (algorithm == LineAlgorithm::Reference)
        throw Error("the reference algorithm runs on the CPU only (use --backend cpu)");
    const band::Stages st = band::stagesOf(op, seg, src.width, src.height);
    // x-major families run on the transposed image, where their lines are columns; the
    // two transposes cost far less than uncoalesced accesses along slanted rows.
    DeviceImageView<const T> in = src;
    DeviceImageView<T> out = dst;
    if (!family.yMajor) {
        const DeviceImageView<T> srcT = ctx.image<T>(BufferSlot::Temp, src.height, src.width);
        transposeImage<T>(src, srcT, ctx.stream());
        in = srcT;
        out = ctx.image<T>(BufferSlot::Temp2, src.height, src.width);
    }
    const band::Plan plan = band::makePlan<T>(in.width, in.height, st, ctx);
    band::Params prm = plan.params;
    prm.jobs[0] = band::makeJob(band::asYMajor(family), plan, 0, 0, true);
    band::withStageOrder(op, [&](auto minFirst, auto twoStage) {
        constexpr bool kMin = decltype(minFirst)::value, kTwo = decltype(twoStage)::value;
        if (op == MorphOp::TopHat) {
            if constexpr (kMin && kTwo)
                band::launch<T, true, true, band::Output::TopHat>(plan, prm, 1, in, out, {}, ctx);
        } else {
            band::launch<T, kMin, kTwo, band::Output::Store>(plan, prm, 1, in, out, {}, ctx);
        }
    });
    if (!family.yMajor) transposeImage<T>(out, dst, ctx.stream());
}

template <class T>
std::size_t lineMorphDeviceBytes(MorphOp op, const LineFamily& family, Segment seg, LineAlgorithm algorithm,
                                 CudaContext& ctx) {
    if (algorithm == LineAlgorithm::Fifo || algorithm == LineAlgorithm::Stack)
        return queueLineMorphBytes<T>(algorithm, op, family, seg, ctx);
    const int W = family.width, H = family.height;
    std::size_t bytes = 0;
    if (!family.yMajor) bytes += 2 * devicePitch(H, sizeof(T)) * static_cast<std::size_t>(W);  // Temp, Temp2
    const band::Plan plan =
        family.yMajor ? band::makePlan<T>(W, H, band::stagesOf(op, seg, W, H), ctx)
                      : band::makePlan<T>(H, W, band::stagesOf(op, seg, W, H), ctx);
    if (plan.global())  // the launch's bound on its working arrays
        bytes += 2 * static_cast<std::size_t>(ctx.multiprocessors()) * plan.params.arrayBytesPerBlock;
    return bytes;
}

#define LS_INSTANTIATE(T)                                                                                   \
    template void lineMorphDevice<T>(MorphOp, DeviceImageView<const T>, DeviceImageView<T>, const LineFamily&, \
                                     Segment, LineAlgorithm, CudaContext&);                                  \
    template std::size_t lineMorphDeviceBytes<T>(MorphOp, const LineFamily&, Segment, LineAlgorithm, CudaContext&);
LS_INSTANTIATE(std::uint8_t)
LS_INSTANTIATE(std::uint16_t)
LS_INSTANTIATE(float)
#undef LS_INSTANTIATE

}  // namespace linescope::cuda
