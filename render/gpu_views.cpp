#include "render/gpu_views.h"

#if defined(LINESCOPE_HAVE_CUDA)

#include "compute/cuda/cuda_backend.h"
#include "compute/cuda/cuda_context.h"
#include "compute/cuda/cuda_line_api.h"
#include "compute/line_geometry.h"
#include "render/gpu_view_kernels.h"

#include <type_traits>

namespace linescope::render {
namespace {

template <class T>
cuda::DeviceImageView<T> viewOf(cuda::DeviceBuffer& b, int width, int height, std::size_t pitch) {
    return {static_cast<T*>(b.reserve(pitch * static_cast<std::size_t>(height))), width, height, pitch};
}

// The reductions' device scratch, in floats: per-block partials, then the results they leave
// for the kernels that normalise (a float view's min and max, the sweep's strength maximum).
constexpr std::size_t kMinMaxAt = 2 * gpu::kReduceBlocks;
constexpr std::size_t kStrengthMaxAt = kMinMaxAt + 2;
constexpr std::size_t kScratchFloats = kStrengthMaxAt + 1;

bool sameSweep(const SweepRequest& a, const SweepRequest& b) {
    return a.op == b.op && a.length == b.length && a.angles.start == b.angles.start &&
           a.angles.step == b.angles.step && a.angles.count == b.angles.count;
}

// Calls f(std::type_identity<T>{}) for the pixel type.
template <class F>
void visitType(PixelType t, F&& f) {
    switch (t) {
    case PixelType::U8: f(std::type_identity<std::uint8_t>{}); return;
    case PixelType::U16: f(std::type_identity<std::uint16_t>{}); return;
    case PixelType::F32: f(std::type_identity<float>{}); return;
    }
}

}  // namespace

GpuViews::~GpuViews() = default;

float* GpuViews::reduceScratch() { return static_cast<float*>(reduce_.reserve(sizeof(float) * kScratchFloats)); }

bool GpuViews::available(std::string* why) { return cuda::CudaContext::usable(why); }

void GpuViews::clear() {
    for (cuda::DeviceBuffer* b : {&source_, &result_, &sup_, &inf_, &strength_, &arg_, &reduce_}) b->release();
    width_ = height_ = 0;
    sweptFor_.reset();
}

template <class T>
void GpuViews::setSource(ImageView<const T> image) {
    if (image.width <= 0 || image.height <= 0) throw Error("the image is empty");
    cuda::CudaContext& ctx = cuda::CudaContext::get();
    auto lock = ctx.lock();
    const std::size_t pitch = cuda::devicePitch(image.width, sizeof(T));
    const std::size_t plane = pitch * static_cast<std::size_t>(image.height);
    // Source, result, sweep planes (three of T, one of uint16) and the engine's own slots.
    ctx.requireDeviceMemory(8 * plane, "showing this image on the GPU");
    type_ = pixelTypeOf<T>();
    width_ = image.width;
    height_ = image.height;
    pitch_ = pitch;
    sweptFor_.reset();
    const auto src = viewOf<T>(source_, width_, height_, pitch_);
    ctx.upload(image.data, image.stride * static_cast<std::ptrdiff_t>(sizeof(T)), src.data, src.pitch,
               sizeof(T) * static_cast<std::size_t>(width_), height_);
}

template void GpuViews::setSource<std::uint8_t>(ImageView<const std::uint8_t>);
template void GpuViews::setSource<std::uint16_t>(ImageView<const std::uint16_t>);
template void GpuViews::setSource<float>(ImageView<const float>);

template <class T>
void GpuViews::writeGrey(ViewportRenderer& renderer, const void* device, std::size_t pitch) {
    cuda::CudaContext& ctx = cuda::CudaContext::get();
    renderer.allocateImage(pixelTypeOf<T>(), width_, height_);
    interop_.sync(renderer);
    const cuda::DeviceImageView<const T> src{static_cast<const T*>(device), width_, height_, pitch};
    const cudaSurfaceObject_t surface = interop_.map(ViewTexture::Image, ctx.stream());
    if constexpr (std::is_same_v<T, float>) {
        // Float views have no fixed range: normalise by their extremes, found on the device.
        float* scratch = reduceScratch();
        gpu::minMaxFloat(src, scratch, scratch + kMinMaxAt, ctx.stream());
        gpu::writeNormalisedFloat(src, scratch + kMinMaxAt, surface, ctx.stream());
        renderer.setDisplayRange(0, 1);
    } else {
        gpu::writeCopy<T>(src, surface, ctx.stream());
        renderer.setDisplayRange(0, std::is_same_v<T, std::uint8_t> ? 255 : 65535);
    }
    interop_.unmap(ViewTexture::Image, ctx.stream());
}

void GpuViews::showSource(ViewportRenderer& renderer) {
    if (!hasSource()) throw Error("GpuViews: no source image");
    auto lock = cuda::CudaContext::get().lock();
    visitType(type_, [&](auto tag) {
        using T = typename decltype(tag)::type;
        writeGrey<T>(renderer, source_.reserve(pitch_ * static_cast<std::size_t>(height_)), pitch_);
    });
}

template <class T>
void GpuViews::showResultT(ViewportRenderer& renderer, MorphOp op, const LineParams& line, LineAlgorithm algorithm) {
    cuda::CudaContext& ctx = cuda::CudaContext::get();
    const LineFamily family = lineFamily(line.angle, width_, height_);
    const Segment seg = segmentOf(line.length);
    const auto src = viewOf<T>(source_, width_, height_, pitch_);
    const auto dst = viewOf<T>(result_, width_, height_, pitch_);
    cuda::lineMorphDevice<T>(op, src, dst, family, seg, algorithm, ctx);
    writeGrey<T>(renderer, dst.data, dst.pitch);
}

void GpuViews::showResult(ViewportRenderer& renderer, MorphOp op, const LineParams& line, LineAlgorithm algorithm) {
    if (!hasSource()) throw Error("GpuViews: no source image");
    auto lock = cuda::CudaContext::get().lock();
    visitType(type_, [&](auto tag) { showResultT<typename decltype(tag)::type>(renderer, op, line, algorithm); });
}

template <class T>
void GpuViews::sweepT(const SweepRequest& request) {
    cuda::CudaContext& ctx = cuda::CudaContext::get();
    const auto src = viewOf<T>(source_, width_, height_, pitch_);
    const cuda::DeviceSweepResult<T> d = cuda::sweepDevice<T>(src, request, ctx);
    // The engine's sweep buffers are shared with the session's engine thread: keep copies.
    const std::size_t argPitch = cuda::devicePitch(width_, sizeof(std::uint16_t));
    auto copy = [&](cuda::DeviceBuffer& to, const void* from, std::size_t pitch, std::size_t rowBytes) {
        LS_CUDA_CHECK(cudaMemcpy2DAsync(to.reserve(pitch * static_cast<std::size_t>(height_)), pitch, from, pitch,
                                        rowBytes, static_cast<std::size_t>(height_), cudaMemcpyDeviceToDevice,
                                        ctx.stream()));
    };
    const std::size_t rowBytes = sizeof(T) * static_cast<std::size_t>(width_);
    copy(sup_, d.sup.data, d.sup.pitch, rowBytes);
    copy(inf_, d.inf.data, d.inf.pitch, rowBytes);
    copy(strength_, d.strength.data, d.strength.pitch, rowBytes);
    copy(arg_, d.argIndex.data, argPitch, sizeof(std::uint16_t) * static_cast<std::size_t>(width_));
    // The strength's maximum, for the orientation map's value channel.
    float* scratch = reduceScratch();
    gpu::maxOf<T>(viewOf<const T>(strength_, width_, height_, pitch_), scratch, scratch + kStrengthMaxAt,
                  ctx.stream());
}

template <class T>
void GpuViews::showSweepT(ViewportRenderer& renderer, SweepPlane plane) {
    cuda::CudaContext& ctx = cuda::CudaContext::get();
    switch (plane) {
    case SweepPlane::Supremum: writeGrey<T>(renderer, sup_.reserve(0), pitch_); return;
    case SweepPlane::Infimum: writeGrey<T>(renderer, inf_.reserve(0), pitch_); return;
    case SweepPlane::Strength: writeGrey<T>(renderer, strength_.reserve(0), pitch_); return;
    case SweepPlane::Orientation: break;
    }
    renderer.allocateOrientation(width_, height_);
    interop_.sync(renderer);
    const std::size_t argPitch = cuda::devicePitch(width_, sizeof(std::uint16_t));
    const cuda::DeviceImageView<const std::uint16_t> arg{static_cast<const std::uint16_t*>(arg_.reserve(0)), width_,
                                                         height_, argPitch};
    const cudaSurfaceObject_t angle = interop_.map(ViewTexture::Angle, ctx.stream());
    const cudaSurfaceObject_t strength = interop_.map(ViewTexture::Strength, ctx.stream());
    const float* max = reduceScratch() + kStrengthMaxAt;
    gpu::writeOrientation<T>(arg, sweptFor_->angles.start, sweptFor_->angles.step,
                             viewOf<const T>(strength_, width_, height_, pitch_), max, angle, strength, ctx.stream());
    interop_.unmap(ViewTexture::Strength, ctx.stream());
    interop_.unmap(ViewTexture::Angle, ctx.stream());
    renderer.setMaxStrength(1);  // the kernel wrote strength / max
}

void GpuViews::showSweep(ViewportRenderer& renderer, const SweepRequest& request, SweepPlane plane) {
    if (!hasSource()) throw Error("GpuViews: no source image");
    auto lock = cuda::CudaContext::get().lock();
    visitType(type_, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (!sweptFor_ || !sameSweep(*sweptFor_, request)) {
            sweptFor_.reset();  // set only once the sweep is queued: a throw leaves none
            sweepT<T>(request);
            sweptFor_ = request;
        }
        showSweepT<T>(renderer, plane);
    });
}

}  // namespace linescope::render

#endif  // LINESCOPE_HAVE_CUDA
