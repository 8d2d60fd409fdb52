#include "compute/cuda/skew_device.h"

#include "compute/cuda/classic_device.h"
#include "compute/cuda/cuda_check.h"
#include "compute/cuda/cuda_line_api.h"
#include "compute/cuda/plane_extremes.cuh"
#include "compute/cuda/resident.h"
#include "compute/line_geometry.h"
#include "compute/skew_stages.h"

#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

namespace linescope::cuda {
namespace {

constexpr dim3 kBlock(32, 8);
dim3 gridFor(int w, int h) { return dim3((w + 31) / 32, (h + 7) / 8); }

// boxReduce's integer rule: each fx × fy block's exact sum n·mean rounded to nearest, ties up.
template <class T>
__global__ void boxReduceKernel(DeviceImageView<const T> src, DeviceImageView<T> out, int fx, int fy) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= out.width || y >= out.height) return;
    std::uint64_t s = 0;
    for (int dy = 0; dy < fy; ++dy) {
        const T* row = src.row(y * fy + dy) + static_cast<std::size_t>(x) * fx;
        for (int dx = 0; dx < fx; ++dx) s += row[dx];
    }
    const std::uint64_t n = static_cast<std::uint64_t>(fx) * static_cast<std::uint64_t>(fy);
    out.at(x, y) = static_cast<T>((2 * s + n) / (2 * n));
}

// flattenBackground's dark-lines rule: out = M − (φ(f) − f), φ(f) in `out` already; M is f's
// largest pixel, *top (an integer's key is its value: plane_extremes.cuh).
template <class T>
__global__ void flattenKernel(DeviceImageView<const T> f, DeviceImageView<T> out, const unsigned* top) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= f.width || y >= f.height) return;
    const int closed = out.at(x, y), v = f.at(x, y);
    out.at(x, y) = static_cast<T>(static_cast<int>(*top) - (closed - v));
}

// The stages' images in the device's memory pool (skew_stages.h's Pages); the caller holds the
// context's lock. Every stage is queued on the context's stream; only spectra wait.
template <class T>
class DevicePages {
public:
    using Page = std::shared_ptr<const ResidentImage>;
    explicit DevicePages(CudaContext& ctx) : ctx_(ctx) {}

    static int width(const Page& p) { return p->width(); }
    static int height(const Page& p) { return p->height(); }

    Page reduce(const Page& p, int factor) {
        const int w = std::max(1, p->width() / factor), h = std::max(1, p->height() / factor);
        const int fx = std::min(factor, p->width()), fy = std::min(factor, p->height());
        auto out = make(w, h);
        boxReduceKernel<T><<<gridFor(w, h), kBlock, 0, ctx_.stream()>>>(p->view<T>(), out->template view<T>(), fx, fy);
        LS_CUDA_CHECK_LAUNCH("boxReduceKernel");
        return out;
    }

    Page flatten(const Page& p, int side, bool darkLines) {
        auto out = make(p->width(), p->height());
        const DeviceImageView<const T> f = p->view<T>();
        const DeviceImageView<T> o = out->template view<T>();
        if (side == 1) {
            LS_CUDA_CHECK(cudaMemcpy2DAsync(o.data, o.pitch, f.data, f.pitch, sizeof(T) * f.width, f.height,
                                            cudaMemcpyDeviceToDevice, ctx_.stream()));
            return out;
        }
        const ClassicSE square{ClassicShape::Rect, side, side};
        if (!darkLines) {
            classicMorphDevice<T>(MorphOp::TopHat, f, o, square, ctx_);
            return out;
        }
        // The Jobs slot is free here: no stage of the estimate launches jobs from it.
        auto* keys = ctx_.buffer(BufferSlot::Jobs).as<unsigned>(2);
        minMaxKeys<T>(f, keys, 4 * ctx_.multiprocessors(), ctx_.stream());
        classicMorphDevice<T>(MorphOp::Close, f, o, square, ctx_);
        flattenKernel<T><<<gridFor(f.width, f.height), kBlock, 0, ctx_.stream()>>>(f, o, keys + 1);
        LS_CUDA_CHECK_LAUNCH("flattenKernel");
        return out;
    }

    Page lineMorph(MorphOp op, const Page& p, const LineParams& line) {
        auto out = make(p->width(), p->height());
        lineMorphDevice<T>(op, p->view<T>(), out->template view<T>(), lineFamily(line.angle, p->width(), p->height()),
                           segmentOf(line.length), LineAlgorithm::Auto, ctx_);
        return out;
    }

    Page squareMorph(MorphOp op, const Page& p, int side) {
        auto out = make(p->width(), p->height());
        classicMorphDevice<T>(op, p->view<T>(), out->template view<T>(), ClassicSE{ClassicShape::Rect, side, side},
                              ctx_);
        return out;
    }

    std::vector<double> spectrum(const Page& p, MorphOp op, int length, const AngleSet& angles, LineKind kind) {
        const SweepRequest req{op, length, angles, kind};
        validateSweepRequest(req);
        const DeviceSpectrum d = sweepSpectrumDevice<T>(p->view<T>(), req, ctx_);
        std::vector<double> values(static_cast<std::size_t>(d.count));
        CudaContext::countHostTraffic(values.size() * sizeof(double));
        LS_CUDA_CHECK(cudaMemcpyAsync(values.data(), d.values, values.size() * sizeof(double), cudaMemcpyDeviceToHost,
                                      ctx_.stream()));
        ctx_.synchronize();
        return values;
    }

private:
    std::shared_ptr<ResidentImage> make(int w, int h) {
        return std::make_shared<ResidentImage>(pixelTypeOf<T>(), w, h, ctx_);
    }
    CudaContext& ctx_;
};

// Device memory the stages may hold at once: the page, about eight working pages (reduced,
// flattened with the closing's temporaries, smeared both ways, the coarse page) and a sweep's
// partial sums and transposed page, with room to spare.
std::size_t stagesBytes(int width, int height, int reduction, std::size_t pixelBytes) {
    const std::size_t page = static_cast<std::size_t>(width) * height * pixelBytes;
    const std::size_t working = page / (static_cast<std::size_t>(reduction) * reduction);
    return page + 12 * working + (64u << 20);
}

}  // namespace

template <class T>
std::optional<SkewEstimate> estimateSkewOnDevice(ImageView<const T> page, const SkewParams& p,
                                                 const SkewEstimate& checked) {
    static_assert(!std::is_floating_point_v<T>, "float pages are estimated on the host path");
    CudaContext& ctx = CudaContext::get();
    auto lock = ctx.lock();
    std::size_t freeBytes = 0, totalBytes = 0;
    LS_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    if (stagesBytes(page.width, page.height, std::max(1, checked.reduction), sizeof(T)) >
        std::min(freeBytes, ctx.capLeft()))
        return std::nullopt;
    DevicePages<T> pages(ctx);
    const std::shared_ptr<const ResidentImage> uploaded = uploadResident<T>(page, ctx);
    return skew_detail::estimateStages(pages, uploaded, p, checked);
}

template std::optional<SkewEstimate> estimateSkewOnDevice<std::uint8_t>(ImageView<const std::uint8_t>,
                                                                        const SkewParams&, const SkewEstimate&);
template std::optional<SkewEstimate> estimateSkewOnDevice<std::uint16_t>(ImageView<const std::uint16_t>,
                                                                         const SkewParams&, const SkewEstimate&);

}  // namespace linescope::cuda
