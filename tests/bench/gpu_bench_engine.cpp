#include "tests/bench/gpu_bench_engine.h"

#include "compute/cuda/contours_device.h"
#include "compute/cuda/cuda_backend.h"
#include "compute/cuda/cuda_context.h"
#include "compute/cuda/cuda_line_api.h"
#include "compute/cuda/kernel_line_morph.h"
#include "compute/line_geometry.h"

namespace lsbench {

using linescope::cuda::CudaContext;
using linescope::cuda::DeviceImageView;

namespace {

DeviceImageView<const std::uint8_t> viewOf(const DeviceImage<std::uint8_t>& img) {
    return {img.data(), img.width(), img.height(), img.pitch()};
}

DeviceImageView<std::uint8_t> mutableViewOf(DeviceImage<std::uint8_t>& img) {
    return {img.data(), img.width(), img.height(), img.pitch()};
}

template <class T>
std::vector<T> downloadView(DeviceImageView<T> v) {
    std::vector<T> host(static_cast<std::size_t>(v.width) * static_cast<std::size_t>(v.height));
    const std::size_t row = sizeof(T) * static_cast<std::size_t>(v.width);
    LSB_CHECK(cudaMemcpy2DAsync(host.data(), row, v.data, v.pitch, row, static_cast<std::size_t>(v.height),
                                cudaMemcpyDeviceToHost, engineStream()));
    LSB_CHECK(cudaStreamSynchronize(engineStream()));
    return host;
}

}  // namespace

bool engineDeviceAvailable(std::string* why) { return CudaContext::usable(why); }

std::string engineDeviceDescription() { return linescope::cuda::deviceDescription(); }

cudaStream_t engineStream() { return CudaContext::get().stream(); }

std::unique_lock<std::mutex> lockEngine() { return CudaContext::get().lock(); }

void engineMorph(linescope::MorphOp op, const DeviceImage<std::uint8_t>& src, DeviceImage<std::uint8_t>& dst,
                 double angle, int length, linescope::LineAlgorithm algorithm) {
    linescope::cuda::lineMorphDevice<std::uint8_t>(op, viewOf(src), mutableViewOf(dst),
                                                   linescope::lineFamily(angle, src.width(), src.height()),
                                                   linescope::segmentOf(length), algorithm, CudaContext::get());
}

void engineKernelMorph(linescope::MorphOp op, const DeviceImage<std::uint8_t>& src, DeviceImage<std::uint8_t>& tmp,
                       DeviceImage<std::uint8_t>& dst, double angle, int length, linescope::LineKind kind) {
    linescope::cuda::kernelLineMorphDevice<std::uint8_t>(op, viewOf(src), mutableViewOf(dst), mutableViewOf(tmp),
                                                         linescope::lineKernel(kind, angle, length), CudaContext::get());
}

void engineContours(const DeviceImage<std::uint8_t>& src, linescope::ContourMode mode, linescope::ContourApprox approx,
                    const linescope::ContourTuning& tuning, linescope::Contours& out, linescope::ContourTimings* timings) {
    linescope::cuda::findContoursDevice(viewOf(src), mode, approx, tuning, out, timings, CudaContext::get());
}

Stats timeTypedSweep(int type, const std::vector<std::uint8_t>& host, int width, int height,
                     const linescope::SweepRequest& req, int warmup, int reps) {
    auto time = [&](auto scale) {
        using T = decltype(scale);
        std::vector<T> pixels(host.size());
        for (std::size_t i = 0; i < host.size(); ++i) pixels[i] = static_cast<T>(host[i] * scale);
        // Type 3: floats of more than 65,536 distinct values (no 16-bit ranks).
        if constexpr (std::is_floating_point_v<T>)
            if (type == 3)
                for (std::size_t i = 0; i < host.size(); ++i) pixels[i] += static_cast<float>(i % 4096) * 1e-6f;
        DeviceImage<T> img(width, height);
        img.upload(pixels);
        const DeviceImageView<const T> view{img.data(), width, height, img.pitch()};
        auto lock = lockEngine();
        return timeDevice(engineStream(), warmup, reps,
                          [&](int) { linescope::cuda::sweepDevice<T>(view, req, CudaContext::get()); });
    };
    return type == 1 ? time(std::uint16_t{257}) : time(1.0f / 255.0f);
}

struct EngineSweep::Impl {
    linescope::cuda::DeviceSweepResult<std::uint8_t> last;
};

EngineSweep::EngineSweep() : impl_(std::make_unique<Impl>()) {}
EngineSweep::~EngineSweep() = default;

void EngineSweep::run(const DeviceImage<std::uint8_t>& src, const linescope::SweepRequest& req) {
    impl_->last = linescope::cuda::sweepDevice<std::uint8_t>(viewOf(src), req, CudaContext::get());
}

void EngineSweep::poison(unsigned char byte) const {
    const auto& d = impl_->last;
    auto fill = [&](auto v) {
        if (v.data)
            LSB_CHECK(cudaMemset2DAsync(v.data, v.pitch, byte, sizeof(*v.data) * static_cast<std::size_t>(v.width),
                                        static_cast<std::size_t>(v.height), engineStream()));
    };
    fill(d.sup);
    fill(d.inf);
    fill(d.strength);
    fill(d.argIndex);
    if (d.spectrumExact) LSB_CHECK(cudaMemsetAsync(d.spectrumExact, byte, sizeof(std::int64_t) * static_cast<std::size_t>(d.count), engineStream()));
    if (d.spectrum) LSB_CHECK(cudaMemsetAsync(d.spectrum, byte, sizeof(double) * static_cast<std::size_t>(d.count), engineStream()));
}

SweepOnHost EngineSweep::download() const {
    const auto& d = impl_->last;
    SweepOnHost h;
    h.sup = downloadView(d.sup);
    h.inf = downloadView(d.inf);
    h.strength = downloadView(d.strength);
    h.arg = downloadView(d.argIndex);
    if (d.spectrumExact && d.count > 0) {
        h.spectrum.resize(static_cast<std::size_t>(d.count));
        LSB_CHECK(cudaMemcpyAsync(h.spectrum.data(), d.spectrumExact, sizeof(std::int64_t) * h.spectrum.size(),
                                  cudaMemcpyDeviceToHost, engineStream()));
        LSB_CHECK(cudaStreamSynchronize(engineStream()));
    }
    return h;
}

}  // namespace lsbench
