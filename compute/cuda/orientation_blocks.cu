#include "compute/cuda/orientation_blocks.h"

#include "compute/cuda/cuda_check.h"
#include "compute/cuda/cuda_line_api.h"
#include "compute/cuda/kernel_line_morph.h"
#include "compute/cuda/pool_array.h"
#include "compute/cuda/resident.h"
#include "compute/line_kernel.h"

#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

namespace linescope::cuda {

namespace {

constexpr int kThreads = 256;

// One CUDA block an image block: each thread owns some of its pixels (no two threads write a
// pixel's vector), the block's sum of d is reduced exactly in 64-bit integers. The per-pixel
// updates are the CPU's `v -= d * c` in float, without contraction into an FMA.
template <class T>
__global__ void __launch_bounds__(kThreads)
    foldAngle(DeviceImageView<const T> opened, DeviceImageView<const T> closed, float c, float s, float* pc, float* ps,
              std::int64_t* spectra, int k, int n, int blockSize, int blocksX) {
    using Reduce = cub::BlockReduce<long long, kThreads>;
    __shared__ typename Reduce::TempStorage temp;
    const int bx = blockIdx.x % blocksX, by = blockIdx.x / blocksX;
    const int x0 = bx * blockSize, y0 = by * blockSize;
    const int w = min(blockSize, opened.width - x0), h = min(blockSize, opened.height - y0);
    long long sum = 0;
    for (int i = threadIdx.x; i < w * h; i += kThreads) {
        const int x = x0 + i % w, y = y0 + i / w;
        const long long di = static_cast<long long>(closed.at(x, y)) - static_cast<long long>(opened.at(x, y));
        sum += di;
        const float d = __fsub_rn(static_cast<float>(closed.at(x, y)), static_cast<float>(opened.at(x, y)));
        const std::size_t p = static_cast<std::size_t>(y) * static_cast<std::size_t>(opened.width) + static_cast<std::size_t>(x);
        pc[p] = __fsub_rn(pc[p], __fmul_rn(d, c));
        ps[p] = __fsub_rn(ps[p], __fmul_rn(d, s));
    }
    const long long total = Reduce(temp).Sum(sum);
    if (threadIdx.x == 0) spectra[static_cast<std::size_t>(blockIdx.x) * static_cast<std::size_t>(n) + k] = total;
}

// Σ over each block of √(pc² + ps²) in double, row by row as the CPU adds them: one thread a
// block (a few hundred terms), each product and sum rounded on its own.
__global__ void blockMagnitudes(const float* pc, const float* ps, int width, int height, int blockSize, int blocksX,
                                int blocks, double* magnitude) {
    const int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= blocks) return;
    const int x0 = (b % blocksX) * blockSize, y0 = (b / blocksX) * blockSize;
    double m = 0;
    for (int y = y0; y < min(height, y0 + blockSize); ++y)
        for (int x = x0; x < min(width, x0 + blockSize); ++x) {
            const std::size_t p = static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
            const double c = pc[p], s = ps[p];
            m = __dadd_rn(m, __dsqrt_rn(__dadd_rn(__dmul_rn(c, c), __dmul_rn(s, s))));
        }
    magnitude[b] = m;
}

}  // namespace

template <class T>
BlockSpectrumOutput blockSpectrumDevice(ImageView<const T> image, const BlockSpectrumInput& in) {
    static_assert(std::is_integral_v<T>, "float images: the CPU's block sums depend on its order");
    CudaContext& ctx = CudaContext::get();
    auto lock = ctx.lock();
    const cudaStream_t s = ctx.stream();
    const int blocksX = (image.width + in.blockSize - 1) / in.blockSize;
    const int blocksY = (image.height + in.blockSize - 1) / in.blockSize;
    const int blocks = blocksX * blocksY, n = static_cast<int>(in.lines.size());
    const std::size_t pixels = static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height);
    const auto src = uploadResident<T>(image, ctx);
    const PoolArray pc(pixels * sizeof(float), s, true), ps(pixels * sizeof(float), s, true);
    const PoolArray spectra(static_cast<std::size_t>(blocks) * static_cast<std::size_t>(n) * sizeof(std::int64_t), s, true);
    const PoolArray magnitude(static_cast<std::size_t>(blocks) * sizeof(double), s, true);
    const auto fold = [&](int k, const ResidentImage& opened, const ResidentImage& closed) {
        foldAngle<T><<<blocks, kThreads, 0, s>>>(opened.view<T>(), closed.view<T>(), in.cos2[static_cast<std::size_t>(k)],
                                                 in.sin2[static_cast<std::size_t>(k)], pc.as<float>(), ps.as<float>(),
                                                 spectra.as<std::int64_t>(), k, n, in.blockSize, blocksX);
        LS_CUDA_CHECK_LAUNCH("foldAngle");
    };
    const int W = image.width, H = image.height;
    const std::size_t plane = devicePitch(W, sizeof(T)) * static_cast<std::size_t>(H);
    std::size_t working = 0;  // the line operators' own buffers (transposes, working arrays)
    bool kinds = false;       // segment or periodic lines: their two stages need a middle plane
    for (const LineParams& lp : in.lines)
        if (lp.kind != LineKind::Paths) kinds = true;
        else
            working = std::max(working, lineMorphDeviceBytes<T>(MorphOp::Open, lineFamily(lp.angle, W, H),
                                                                segmentOf(lp.length), in.algorithm, ctx));
    if ((kinds ? 3 : 2) * plane + working <= ctx.availableDeviceMemory(false)) {
        // Every angle into the same two planes, queued without a wait: one synchronisation in all.
        ResidentImage opened(pixelTypeOf<T>(), W, H, ctx), closed(pixelTypeOf<T>(), W, H, ctx);
        const std::unique_ptr<ResidentImage> mid = kinds ? std::make_unique<ResidentImage>(pixelTypeOf<T>(), W, H, ctx) : nullptr;
        const DeviceImageView<const T> source = std::as_const(*src).template view<T>();
        for (int k = 0; k < n; ++k) {
            const LineParams& lp = in.lines[static_cast<std::size_t>(k)];
            for (const MorphOp op : {MorphOp::Open, MorphOp::Close}) {
                const DeviceImageView<T> out = (op == MorphOp::Open ? opened : closed).template view<T>();
                if (lp.kind == LineKind::Paths)
                    lineMorphDevice<T>(op, source, out, lineFamily(lp.angle, W, H), segmentOf(lp.length), in.algorithm, ctx);
                else
                    kernelLineMorphDevice<T>(op, source, out, mid->template view<T>(), lineKernel(lp.kind, lp.angle, lp.length), ctx);
            }
            fold(k, opened, closed);
        }
    } else {  // too large for the planes at once: the resident operators, in zones
        for (int k = 0; k < n; ++k) {
            const LineParams& lp = in.lines[static_cast<std::size_t>(k)];
            fold(k, *lineMorphResident(MorphOp::Open, *src, lp, in.algorithm, ctx),
                 *lineMorphResident(MorphOp::Close, *src, lp, in.algorithm, ctx));
        }  // each angle's planes go back to the pool on the stream, after the fold that reads them
    }
    blockMagnitudes<<<(blocks + 127) / 128, 128, 0, s>>>(pc.as<float>(), ps.as<float>(), image.width, image.height,
                                                         in.blockSize, blocksX, blocks, magnitude.as<double>());
    LS_CUDA_CHECK_LAUNCH("blockMagnitudes");
    std::vector<std::int64_t> sums(static_cast<std::size_t>(blocks) * static_cast<std::size_t>(n));
    BlockSpectrumOutput out;
    out.magnitude.resize(static_cast<std::size_t>(blocks));
    LS_CUDA_CHECK(cudaMemcpyAsync(sums.data(), spectra.as<std::int64_t>(), sums.size() * sizeof(std::int64_t),
                                  cudaMemcpyDeviceToHost, s));
    LS_CUDA_CHECK(cudaMemcpyAsync(out.magnitude.data(), magnitude.as<double>(), out.magnitude.size() * sizeof(double),
                                  cudaMemcpyDeviceToHost, s));
    LS_CUDA_CHECK(cudaStreamSynchronize(s));
    CudaContext::countHostTraffic(sums.size() * sizeof(std::int64_t) + out.magnitude.size() * sizeof(double));
    out.spectra.assign(sums.begin(), sums.end());
    return out;
}

template BlockSpectrumOutput blockSpectrumDevice<std::uint8_t>(ImageView<const std::uint8_t>, const BlockSpectrumInput&);
template BlockSpectrumOutput blockSpectrumDevice<std::uint16_t>(ImageView<const std::uint16_t>, const BlockSpectrumInput&);

}  // namespace linescope::cuda
