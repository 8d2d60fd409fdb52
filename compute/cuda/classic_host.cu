// cuda::classicMorph over host images: upload, the device-resident operator, download.
#include "compute/cuda/classic_device.h"
#include "compute/cuda/cuda_backend.h"
#include "compute/cuda/cuda_context.h"

#include <cstddef>

namespace linescope::cuda {

template <class T>
void classicMorph(MorphOp op, ImageView<const T> src, ImageView<T> dst, const ClassicSE& se) {
    requireSameSize(src, dst);
    requireNoNaN(src);  // callers of the engine's API have checked; direct callers too
    CudaContext& ctx = CudaContext::get();
    auto lock = ctx.lock();
    ctx.requireDeviceMemory(2 * devicePitch(src.width, sizeof(T)) * static_cast<std::size_t>(src.height),
                            "this image");
    const std::size_t rowBytes = sizeof(T) * static_cast<std::size_t>(src.width);
    const DeviceImageView<T> in = ctx.image<T>(BufferSlot::Source, src.width, src.height);
    ctx.upload(src.data, src.stride * static_cast<std::ptrdiff_t>(sizeof(T)), in.data, in.pitch, rowBytes,
               src.height);
    const DeviceImageView<T> out = ctx.image<T>(BufferSlot::Result, src.width, src.height);
    classicMorphDevice<T>(op, in, out, se, ctx);
    ctx.download(out.data, out.pitch, dst.data, dst.stride * static_cast<std::ptrdiff_t>(sizeof(T)), rowBytes,
                 dst.height);
    ctx.synchronize();  // a kernel fault surfaces here, inside this call
}

template void classicMorph<std::uint8_t>(MorphOp, ImageView<const std::uint8_t>, ImageView<std::uint8_t>,
                                         const ClassicSE&);
template void classicMorph<std::uint16_t>(MorphOp, ImageView<const std::uint16_t>, ImageView<std::uint16_t>,
                                          const ClassicSE&);
template void classicMorph<float>(MorphOp, ImageView<const float>, ImageView<float>, const ClassicSE&);

}  // namespace linescope::cuda
