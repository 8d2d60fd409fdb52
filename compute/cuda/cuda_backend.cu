// The CUDA backend over host images: upload through pinned staging, the device-resident
// operator, download. One call at a time holds the device (CudaContext::lock).
#include "compute/cuda/cuda_backend.h"

#include "compute/cuda/cuda_context.h"
#include "compute/cuda/cuda_line_api.h"

#include <cstdio>
#include <string>

namespace linescope::cuda {

bool deviceUsable(std::string* why) { return CudaContext::usable(why); }

std::string deviceDescription() {
    const cudaDeviceProp& p = CudaContext::get().properties();
    char gib[32];
    std::snprintf(gib, sizeof gib, "%.1f", static_cast<double>(p.totalGlobalMem) / (1 << 30));
    return std::string(p.name) + ", compute capability " + std::to_string(p.major) + "." + std::to_string(p.minor) +
           ", " + std::to_string(p.multiProcessorCount) + " SMs, " + gib + " GiB";
}

namespace {

template <class T>
DeviceImageView<T> uploadImage(CudaContext& ctx, BufferSlot slot, ImageView<const T> img) {
    DeviceImageView<T> d = ctx.image<T>(slot, img.width, img.height);
    ctx.upload(img.data, img.stride * static_cast<std::ptrdiff_t>(sizeof(T)), d.data, d.pitch,
               sizeof(T) * static_cast<std::size_t>(img.width), img.height);
    return d;
}

template <class T>
void downloadImage(CudaContext& ctx, DeviceImageView<const T> d, ImageView<T> img) {
    ctx.download(d.data, d.pitch, img.data, img.stride * static_cast<std::ptrdiff_t>(sizeof(T)),
                 sizeof(T) * static_cast<std::size_t>(img.width), img.height);
}

}  // namespace

template <class T>
void lineMorph(MorphOp op, ImageView<const T> src, ImageView<T> dst, const LineFamily& family, Segment seg,
               LineAlgorithm algorithm) {
    CudaContext& ctx = CudaContext::get();
    auto lock = ctx.lock();
    ctx.requireDeviceMemory(2 * devicePitch(src.width, sizeof(T)) * static_cast<std::size_t>(src.height),
                            "this image");
    const DeviceImageView<T> in = uploadImage<T>(ctx, BufferSlot::Source, src);
    const DeviceImageView<T> out = ctx.image<T>(BufferSlot::Result, src.width, src.height);
    lineMorphDevice<T>(op, in, out, family, seg, algorithm, ctx);
    downloadImage<T>(ctx, out, dst);
}

template <class T>
SweepResult<T> sweep(ImageView<const T> src, const SweepRequest& req) {
    CudaContext& ctx = CudaContext::get();
    auto lock = ctx.lock();
    const DeviceImageView<T> in = uploadImage<T>(ctx, BufferSlot::Source, src);
    const DeviceSweepResult<T> d = sweepDevice<T>(in, req, ctx);

    SweepResult<T> r;
    r.angles = req.angles;
    r.op = req.op;
    r.sup = Image<T>(src.width, src.height);
    r.inf = Image<T>(src.width, src.height);
    r.strength = Image<T>(src.width, src.height);
    r.argIndex = Image<std::uint16_t>(src.width, src.height);
    downloadImage<T>(ctx, d.sup, r.sup.view());
    downloadImage<T>(ctx, d.inf, r.inf.view());
    downloadImage<T>(ctx, d.strength, r.strength.view());
    downloadImage<std::uint16_t>(ctx, d.argIndex, r.argIndex.view());
    r.spectrum.resize(static_cast<std::size_t>(d.count));
    LS_CUDA_CHECK(cudaMemcpyAsync(r.spectrum.data(), d.spectrum, sizeof(double) * d.count, cudaMemcpyDeviceToHost,
                                  ctx.stream()));
    if (d.spectrumExact) {
        r.spectrumExact.resize(static_cast<std::size_t>(d.count));
        LS_CUDA_CHECK(cudaMemcpyAsync(r.spectrumExact.data(), d.spectrumExact, sizeof(std::int64_t) * d.count,
                                      cudaMemcpyDeviceToHost, ctx.stream()));
    }
    ctx.synchronize();
    return r;
}

#define LS_INSTANTIATE(T)                                                                                    \
    template void lineMorph<T>(MorphOp, ImageView<const T>, ImageView<T>, const LineFamily&, Segment,         \
                               LineAlgorithm);                                                                \
    template SweepResult<T> sweep<T>(ImageView<const T>, const SweepRequest&);
LS_INSTANTIATE(std::uint8_t)
LS_INSTANTIATE(std::uint16_t)
LS_INSTANTIATE(float)
#undef LS_INSTANTIATE

}  // namespace linescope::cuda
