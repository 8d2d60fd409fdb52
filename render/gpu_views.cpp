#include "render/gpu_views.h"

#if defined(LINESCOPE_HAVE_CUDA)

#include "compute/cuda/cuda_context.h"
#include "render/gpu_view_kernels.h"

#include <type_traits>

namespace linescope::render {
namespace {

// The float views' reduction scratch, in floats: per-block partials, then the min and max
// the normalising kernel reads.
constexpr std::size_t kMinMaxAt = 2 * gpu::kReduceBlocks;
constexpr std::size_t kScratchFloats = kMinMaxAt + 2;

}  // namespace

GpuViews::GpuViews() {
    int least = 0, greatest = 0;
    LS_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    LS_CUDA_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, greatest));
}

GpuViews::~GpuViews() {
    if (stream_) (void)cudaStreamSynchronize(stream_);
    for (InFlight& f : inFlight_) (void)cudaEventDestroy(f.done);
    for (cudaEvent_t e : spareEvents_) (void)cudaEventDestroy(e);
    reduce_.release();
    if (stream_) (void)cudaStreamDestroy(stream_);
}

bool GpuViews::available(std::string* why) { return cuda::CudaContext::usable(why); }

float* GpuViews::reduceScratch() { return static_cast<float*>(reduce_.reserve(sizeof(float) * kScratchFloats)); }

void GpuViews::dropFinished() {
    // Calls finish in order on the one stream: stop at the first one still running.
    std::size_t n = 0;
    while (n < inFlight_.size()) {
        const cudaError_t s = cudaEventQuery(inFlight_[n].done);
        if (s == cudaErrorNotReady) break;
        LS_CUDA_CHECK(s);
        ++n;
    }
    for (std::size_t i = 0; i < n; ++i) spareEvents_.push_back(inFlight_[i].done);
    inFlight_.erase(inFlight_.begin(), inFlight_.begin() + static_cast<std::ptrdiff_t>(n));
}

void GpuViews::retain(std::shared_ptr<const void> owner) {
    dropFinished();
    cudaEvent_t e = nullptr;
    if (spareEvents_.empty()) {
        LS_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    } else {
        e = spareEvents_.back();
        spareEvents_.pop_back();
    }
    LS_CUDA_CHECK(cudaEventRecord(e, stream_));
    inFlight_.push_back({std::move(owner), e});
}

template <class T>
void GpuViews::writeGrey(ViewportRenderer& renderer, cuda::DeviceImageView<const T> src) {
    renderer.allocateImage(pixelTypeOf<T>(), src.width, src.height);
    interop_.sync(renderer);
    const cudaSurfaceObject_t surface = interop_.map(ViewTexture::Image, stream_);
    if constexpr (std::is_same_v<T, float>) {
        // Float views have no fixed range: normalise by their extremes, found on the device.
        float* scratch = reduceScratch();
        gpu::minMaxFloat(src, scratch, scratch + kMinMaxAt, stream_);
        gpu::writeNormalisedFloat(src, scratch + kMinMaxAt, surface, stream_);
        renderer.setDisplayRange(0, 1);
    } else {
        gpu::writeCopy<T>(src, surface, stream_);
        renderer.setDisplayRange(0, std::is_same_v<T, std::uint8_t> ? 255 : 65535);
    }
    interop_.unmap(ViewTexture::Image, stream_);
}

void GpuViews::showPlane(ViewportRenderer& renderer, const cuda::ResidentImage& plane,
                         std::shared_ptr<const void> owner) {
    visitPixelType(plane.type(), [&](auto tag) { writeGrey(renderer, plane.view<decltype(tag)>()); });
    retain(std::move(owner));
}

void GpuViews::showOrientation(ViewportRenderer& renderer, const cuda::ResidentSweep& sweep,
                               std::shared_ptr<const void> owner) {
    const int w = sweep.argIndex->width(), h = sweep.argIndex->height();
    renderer.allocateOrientation(w, h);
    interop_.sync(renderer);
    const cudaSurfaceObject_t angle = interop_.map(ViewTexture::Angle, stream_);
    const cudaSurfaceObject_t strength = interop_.map(ViewTexture::Strength, stream_);
    visitPixelType(sweep.strength->type(), [&](auto tag) {
        using T = decltype(tag);
        // The engine's maximum of the strength, already on the device.
        gpu::writeOrientation<T>(sweep.argIndex->view<std::uint16_t>(), sweep.angles.start, sweep.angles.step,
                                 sweep.strength->view<T>(), sweep.maxStrengthOnDevice->view<float>().data, angle,
                                 strength, stream_);
    });
    interop_.unmap(ViewTexture::Strength, stream_);
    interop_.unmap(ViewTexture::Angle, stream_);
    renderer.setMaxStrength(1);  // the kernel wrote strength / max
    retain(std::move(owner));
}

}  // namespace linescope::render

#endif  // LINESCOPE_HAVE_CUDA
