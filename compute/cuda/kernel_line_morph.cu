#include "compute/cuda/kernel_line_morph.h"

#include "compute/cuda/cuda_check.h"
#include "compute/cuda/digital_line_device.h"
#include "compute/cuda/lattice_table.cuh"
#include "compute/digital_line_decomposition.h"
#include "compute/line_stages.h"
#include "compute/pixel_rules.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace linescope::cuda {

namespace {

constexpr int kBlockX = 32, kBlockY = 8;
using lattice::kMaxPeriodicLevels;
using lattice::periodicTopLevel;


// One stage: dst(p) = extreme over k of src(p + sign·k). A block whose reads all fall in the
// image (the offsets' bounding box around its outputs) skips the per-offset test.
template <class T, bool IsMin>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    kernelStage(DeviceImageView<const T> src, DeviceImageView<T> dst, const int2* __restrict__ offsets, int n, int sign,
                OffsetBox box) {
    using Op = ExtremeOp<T, IsMin>;
    const int bx = blockIdx.x * kBlockX, by = blockIdx.y * kBlockY;
    const int x = bx + threadIdx.x, y = by + threadIdx.y;
    if (x >= dst.width || y >= dst.height) return;
    const bool interior = bx + box.minX >= 0 && bx + kBlockX - 1 + box.maxX < src.width && by + box.minY >= 0 &&
                          by + kBlockY - 1 + box.maxY < src.height;
    T acc = Op::neutral();
    if (interior) {
#pragma unroll 4
        for (int k = 0; k < n; ++k) {
            const int2 o = __ldg(offsets + k);
            acc = Op::apply(acc, canonical(__ldg(&src.at(x + sign * o.x, y + sign * o.y))));
        }
    } else {
        for (int k = 0; k < n; ++k) {
            const int2 o = __ldg(offsets + k);
            const int sx = x + sign * o.x, sy = y + sign * o.y;
            if (sx >= 0 && sx < src.width && sy >= 0 && sy < src.height)
                acc = Op::apply(acc, canonical(__ldg(&src.at(sx, sy))));
        }
    }
    dst.at(x, y) = acc;
}

// dst = canonical(src) − dst: the top-hat, f − γ(f) ≥ 0.
template <class T>
__global__ void topHatOf(DeviceImageView<const T> src, DeviceImageView<T> dst) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dst.width || y >= dst.height) return;
    dst.at(x, y) = static_cast<T>(canonical(src.at(x, y)) - dst.at(x, y));
}

template <class T>
void stage(bool erode, DeviceImageView<const T> src, DeviceImageView<T> dst, const int2* offsets, int n,
           const OffsetBox& box, cudaStream_t s) {
    const dim3 grid((dst.width + kBlockX - 1) / kBlockX, (dst.height + kBlockY - 1) / kBlockY);
    const dim3 block(kBlockX, kBlockY);
    if (erode) {  // ε(f)(p) = min f(p + k)
        kernelStage<T, true><<<grid, block, 0, s>>>(src, dst, offsets, n, 1, box);
    } else {  // δ(f)(p) = max f(p − k): the offsets' box mirrored
        const OffsetBox mirrored{-box.maxX, -box.minX, -box.maxY, -box.minY};
        kernelStage<T, false><<<grid, block, 0, s>>>(src, dst, offsets, n, -1, mirrored);
    }
    LS_CUDA_CHECK_LAUNCH("kernelStage");
}

// One stage of a periodic line through the sparse table (lattice_table.cuh): ε(f)(p) = min
// f(p + k·v), k ∈ [−a, b]; δ(f)(p) = max f(p − k·v) = max over k ∈ [−b, a].
template <class T>
void periodicStage(bool erode, DeviceImageView<const T> src, DeviceImageView<T> dst, Offset v, Segment seg,
                   int top, T* scratch, std::size_t plane, cudaStream_t s) {
    if (erode) latticeRange<T>(true, src, dst, v, -seg.a, seg.b, top, scratch, plane, s);
    else latticeRange<T>(false, src, dst, v, -seg.b, seg.a, top, scratch, plane, s);
}

}  // namespace

// op from its stages: run(erode, in, out) computes one (an erosion or a dilation).
template <class T, class Stage>
void byStages(MorphOp op, DeviceImageView<const T> src, DeviceImageView<T> dst, DeviceImageView<T> mid, const Stage& run,
              cudaStream_t s) {
    switch (op) {
    case MorphOp::Erode: run(true, src, dst); break;
    case MorphOp::Dilate: run(false, src, dst); break;
    case MorphOp::Open:
    case MorphOp::Close:
    case MorphOp::TopHat: {
        const bool erodeFirst = op != MorphOp::Close;
        run(erodeFirst, src, mid);
        run(!erodeFirst, mid, dst);
        if (op == MorphOp::TopHat) {
            const dim3 block(32, 8), grid((dst.width + 31) / 32, (dst.height + 7) / 8);
            topHatOf<T><<<grid, block, 0, s>>>(src, dst);
            LS_CUDA_CHECK_LAUNCH("topHatOf");
        }
        break;
    }
    }
}

template <class T>
void kernelLineMorphDevice(MorphOp op, DeviceImageView<const T> src, DeviceImageView<T> dst, DeviceImageView<T> mid,
                           const LineKernel& kernel, CudaContext& ctx) {
    const cudaStream_t s = ctx.stream();
    if (kernel.kind == LineKind::Periodic && !kernel.pieces.empty()) {
        const Offset v = kernel.pieces.front().major;
        const Segment seg = segmentOf(kernel.length);
        const int top = periodicTopLevel(v, kernel.length, src.width, src.height);
        // Rows of the levels padded as the context's images are; the direct form below when
        // the levels do not fit beside what the call holds.
        const std::size_t plane = devicePitch(src.width, sizeof(T)) * static_cast<std::size_t>(src.height);
        const std::size_t levelBytes = static_cast<std::size_t>(top) * plane;
        if (top < kMaxPeriodicLevels && levelBytes <= ctx.availableDeviceMemory(false)) {
            T* scratch = top > 0 ? static_cast<T*>(ctx.buffer(BufferSlot::Scratch).reserve(levelBytes)) : nullptr;
            byStages<T>(op, src, dst, mid, [&](bool erode, DeviceImageView<const T> in, DeviceImageView<T> out) {
                periodicStage<T>(erode, in, out, v, seg, top, scratch, plane, s);
            }, s);
            return;
        }
    }
    // Segments longer than the decomposition's leaf: O(log λ) passes (digital_line_device.h)
    // rather than λ reads a pixel, when its planes fit.
    if (kernel.kind == LineKind::Segment && kernel.length > digital_line::leafSize() &&
        digitalLineStageBytes<T>(kernel, src.width, src.height) <= ctx.availableDeviceMemory(false)) {
        byStages<T>(op, src, dst, mid, [&](bool erode, DeviceImageView<const T> in, DeviceImageView<T> out) {
            digitalLineStageDevice<T>(erode, in, out, kernel, ctx);
        }, s);
        return;
    }
    const std::vector<Offset> offsets = kernel.offsets();
    const OffsetBox box = boundingBox(offsets);
    std::vector<int2> packed;
    packed.reserve(offsets.size());
    for (const Offset& o : offsets) packed.push_back(int2{o.dx, o.dy});
    auto* d = ctx.buffer(BufferSlot::Jobs).as<int2>(packed.size());
    LS_CUDA_CHECK(cudaMemcpyAsync(d, packed.data(), packed.size() * sizeof(int2), cudaMemcpyHostToDevice, s));
    CudaContext::countHostTraffic(packed.size() * sizeof(int2));
    const int n = static_cast<int>(packed.size());
    byStages<T>(op, src, dst, mid, [&](bool erode, DeviceImageView<const T> in, DeviceImageView<T> out) {
        stage<T>(erode, in, out, d, n, box, s);
    }, s);
    // No wait here: a copy from pageable memory has left `packed` when cudaMemcpyAsync returns.
}

template <class T>
void kernelLineMorph(MorphOp op, ImageView<const T> src, ImageView<T> dst, const LineKernel& kernel) {
    CudaContext& ctx = CudaContext::get();
    auto lock = ctx.lock();
    const std::size_t plane = devicePitch(src.width, sizeof(T)) * static_cast<std::size_t>(src.height);
    ctx.requireDeviceMemory(3 * plane + static_cast<std::size_t>(kernel.length) * sizeof(int2), "this operation");
    const DeviceImageView<T> in = ctx.image<T>(BufferSlot::Source, src.width, src.height);
    const DeviceImageView<T> out = ctx.image<T>(BufferSlot::Result, src.width, src.height);
    const DeviceImageView<T> mid = ctx.image<T>(BufferSlot::Temp, src.width, src.height);
    ctx.upload(src.data, src.stride * static_cast<std::ptrdiff_t>(sizeof(T)), in.data, in.pitch,
               sizeof(T) * static_cast<std::size_t>(src.width), src.height);
    kernelLineMorphDevice<T>(op, in, out, mid, kernel, ctx);
    ctx.download(out.data, out.pitch, dst.data, dst.stride * static_cast<std::ptrdiff_t>(sizeof(T)),
                 sizeof(T) * static_cast<std::size_t>(dst.width), dst.height);
}

#define LS_INSTANTIATE(T)                                                                                     \
    template void kernelLineMorphDevice<T>(MorphOp, DeviceImageView<const T>, DeviceImageView<T>,             \
                                           DeviceImageView<T>, const LineKernel&, CudaContext&);              \
    template void kernelLineMorph<T>(MorphOp, ImageView<const T>, ImageView<T>, const LineKernel&);
LS_INSTANTIATE(std::uint8_t)
LS_INSTANTIATE(std::uint16_t)
LS_INSTANTIATE(float)
#undef LS_INSTANTIATE

}  // namespace linescope::cuda
