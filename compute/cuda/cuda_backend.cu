// The CUDA backend over host images: upload through pinned staging, the device-resident
// operator, download; in zones when the image does not fit the device at once. One call at
// a time holds the device (CudaContext::lock).
#include "compute/cuda/cuda_backend.h"

#include "compute/cuda/cuda_context.h"
#include "compute/cuda/cuda_line_api.h"
#include "compute/cuda/zones.h"

#include <cstdio>
#include <string>

namespace linescope::cuda {

bool deviceUsable(std::string* why) { return CudaContext::usable(why); }
void setDeviceMemoryCap(std::size_t bytes) { CudaContext::setDeviceMemoryCap(bytes); }

std::string deviceDescription() {
    const cudaDeviceProp& p = CudaContext::get().properties();
    char gib[32];
    std::snprintf(gib, sizeof gib, "%.1f", static_cast<double>(p.totalGlobalMem) / (1 << 30));
    return std::string(p.name) + ", compute capability " + std::to_string(p.major) + "." + std::to_string(p.minor) +
           ", " + std::to_string(p.multiProcessorCount) + " SMs, " + gib + " GiB";
}

namespace {

// Rows [begin, end) of a host image, as a view of their own.
template <class T>
ImageView<T> hostRows(ImageView<T> img, int begin, int end) {
    return {img.row(begin), img.width, end - begin, img.stride};
}

// The strip's input rows into the Source slot.
template <class T>
DeviceImageView<const T> uploadRows(CudaContext& ctx, ImageView<const T> img, const Strip& s) {
    const ImageView<const T> rows = hostRows(img, s.loadBegin, s.loadEnd);
    DeviceImageView<T> d = ctx.image<T>(BufferSlot::Source, rows.width, rows.height);
    ctx.upload(rows.data, rows.stride * static_cast<std::ptrdiff_t>(sizeof(T)), d.data, d.pitch,
               sizeof(T) * static_cast<std::size_t>(rows.width), rows.height);
    return d;
}

template <class T>
void downloadImage(CudaContext& ctx, DeviceImageView<const T> d, ImageView<T> img) {
    ctx.download(d.data, d.pitch, img.data, img.stride * static_cast<std::ptrdiff_t>(sizeof(T)),
                 sizeof(T) * static_cast<std::size_t>(img.width), img.height);
}

}  // namespace

// Both run in zones (zones.h) when the image does not fit the device at once: each strip
// uploaded, computed, and its kept rows downloaded into place.
template <class T>
void lineMorph(MorphOp op, ImageView<const T> src, ImageView<T> dst, const LineFamily& family, Segment seg,
               LineAlgorithm algorithm) {
    CudaContext& ctx = CudaContext::get();
    auto lock = ctx.lock();
    const std::vector<Strip> strips = zones::lineMorphStrips<T>(op, family, seg, algorithm, zones::Input::Host, ctx);
    zones::lineMorph<T>(
        strips, op, family, seg, algorithm, [&](const Strip& s) { return uploadRows<T>(ctx, src, s); },
        [&](const Strip& s, DeviceImageView<const T> kept) {
            downloadImage<T>(ctx, kept, hostRows(dst, s.keepBegin, s.keepEnd));
        },
        ctx);
}

template <class T>
SweepResult<T> sweep(ImageView<const T> src, const SweepRequest& req, bool withImages) {
    CudaContext& ctx = CudaContext::get();
    auto lock = ctx.lock();
    const std::vector<Strip> strips = zones::sweepStrips<T>(src.width, src.height, req, zones::Input::Host, ctx);

    SweepResult<T> r;
    r.angles = req.angles;
    r.op = req.op;
    if (withImages) {
        r.sup = Image<T>(src.width, src.height);
        r.inf = Image<T>(src.width, src.height);
        r.strength = Image<T>(src.width, src.height);
        r.argIndex = Image<std::uint16_t>(src.width, src.height);
    }
    zones::KeptSweepRows<T> keep;
    if (withImages)
        keep = [&](const Strip& s, const zones::KeptSweep<T>& kept) {
            downloadImage<T>(ctx, kept.sup, hostRows(r.sup.view(), s.keepBegin, s.keepEnd));
            downloadImage<T>(ctx, kept.inf, hostRows(r.inf.view(), s.keepBegin, s.keepEnd));
            downloadImage<T>(ctx, kept.strength, hostRows(r.strength.view(), s.keepBegin, s.keepEnd));
            downloadImage<std::uint16_t>(ctx, kept.argIndex, hostRows(r.argIndex.view(), s.keepBegin, s.keepEnd));
        };
    zones::Spectrum spectrum =
        zones::sweep<T>(strips, req, [&](const Strip& s) { return uploadRows<T>(ctx, src, s); }, keep, ctx);
    r.spectrum = std::move(spectrum.values);
    r.spectrumExact = std::move(spectrum.exact);
    return r;
}

#define LS_INSTANTIATE(T)                                                                                    \
    template void lineMorph<T>(MorphOp, ImageView<const T>, ImageView<T>, const LineFamily&, Segment,         \
                               LineAlgorithm);                                                                \
    template SweepResult<T> sweep<T>(ImageView<const T>, const SweepRequest&, bool);
LS_INSTANTIATE(std::uint8_t)
LS_INSTANTIATE(std::uint16_t)
LS_INSTANTIATE(float)
#undef LS_INSTANTIATE

}  // namespace linescope::cuda
