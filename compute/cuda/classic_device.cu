// The classic operators on device images: the CPU's sequence of line factors
// (compute/classic_morph.cpp, whose header comment gives the sets and why the sequence is
// exact) step for step, so that the two backends give the same bits: the same factors in
// the same order, the same unpadded ping-pong for one factor or axis-only factors, the same
// image padded with the neutral value for every other sequence, the same raw copy for the
// single-pixel SE, the same f − γ(f) for the top-hat.
#include "compute/cuda/classic_device.h"
#include "compute/cuda/classic_launch.cuh"
#include "compute/cuda/classic_pixel.cuh"
#include "compute/cuda/classic_plan.h"
#include "compute/cuda/classic_square.h"
#include "compute/cuda/classic_vhgw.h"
#include "compute/cuda/cuda_check.h"
#include "compute/line_geometry.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

namespace linescope::cuda {
namespace classic {
namespace {

template <class T>
__global__ void fillKernel(DeviceImageView<T> img, T value) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= img.width) return;
    for (int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y); y < img.height;
         y += static_cast<int>(gridDim.y * blockDim.y))
        img.at(x, y) = value;
}

// g ← f − g, with f the raw input (its −0 included, as on the CPU).
template <class T>
__global__ void topHatKernel(DeviceImageView<const T> f, DeviceImageView<T> g, std::uint32_t nanBits) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= g.width) return;
    for (int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y); y < g.height;
         y += static_cast<int>(gridDim.y * blockDim.y))
        g.at(x, y) = topHatPixel(f.at(x, y), g.at(x, y), nanBits);
}

// The NaN this processor's float subtraction makes of ∞ − ∞: the CPU backend's top-hat
// yields it, so the GPU's top-hat writes it too (classic_pixel.cuh). volatile: computed
// here at run time, not folded by the compiler.
std::uint32_t hostNaNBits() {
    volatile float inf = std::numeric_limits<float>::infinity();
    const float nan = inf - inf;
    std::uint32_t bits;
    std::memcpy(&bits, &nan, sizeof bits);
    return bits;
}

template <class T>
void fillImage(DeviceImageView<T> img, T value, cudaStream_t stream) {
    fillKernel<T><<<pixelGrid(img.width, img.height), kPixelBlock, 0, stream>>>(img, value);
    LS_CUDA_CHECK_LAUNCH(fillKernel);
}

template <class T>
void copyImage(DeviceImageView<const T> src, DeviceImageView<T> dst, cudaStream_t stream) {
    LS_CUDA_CHECK(cudaMemcpy2DAsync(dst.data, dst.pitch, src.data, src.pitch,
                                    sizeof(T) * static_cast<std::size_t>(src.width),
                                    static_cast<std::size_t>(src.height), cudaMemcpyDeviceToDevice, stream));
}

template <class T>
DeviceImageView<T> subView(DeviceImageView<T> img, int x, int y, int w, int h) {
    return {img.row(y) + x, w, h, img.pitch};
}

// A pitched image at the start of a raw region.
template <class T>
DeviceImageView<T> imageAt(unsigned char* region, int w, int h) {
    return {reinterpret_cast<T*>(region), w, h, devicePitch(w, sizeof(T))};
}

template <class T>
struct Workspace {
    DeviceImageView<T> mid;      // the first half of an opening or closing
    DeviceImageView<T> work[2];  // ping-pong images of the factors
    unsigned char* prefix = nullptr;
    unsigned char* suffix = nullptr;
    unsigned char* transIn = nullptr;
    unsigned char* transOut = nullptr;
    DeviceImageView<std::uint32_t> keys;
};

bool needsMid(MorphOp op) { return op == MorphOp::Open || op == MorphOp::Close || op == MorphOp::TopHat; }

template <class T>
Workspace<T> reserveWorkspace(MorphOp op, int width, int height, const Plan& p, CudaContext& ctx) {
    const std::size_t midBytes = needsMid(op) ? imageBytes(width, height, sizeof(T)) : 0;
    const std::size_t workBytes = static_cast<std::size_t>(p.workImages) * imageBytes(p.workW, p.workH, sizeof(T));
    const std::size_t scratchBytes = p.keys ? imageBytes(width, height, sizeof(std::uint32_t))
                                            : 2 * p.scanRegion + 2 * p.transposeRegion;
    ctx.requireDeviceMemory(midBytes + workBytes + scratchBytes, "this classic operator");

    Workspace<T> ws;
    if (midBytes) ws.mid = ctx.image<T>(BufferSlot::Temp, width, height);
    if (workBytes) {
        auto* base = static_cast<unsigned char*>(ctx.buffer(BufferSlot::Temp2).reserve(workBytes));
        const std::size_t one = imageBytes(p.workW, p.workH, sizeof(T));
        for (int i = 0; i < p.workImages; ++i) ws.work[i] = imageAt<T>(base + i * one, p.workW, p.workH);
    }
    if (scratchBytes) {
        auto* base = static_cast<unsigned char*>(ctx.buffer(BufferSlot::Scratch).reserve(scratchBytes));
        if (p.keys) {
            ws.keys = imageAt<std::uint32_t>(base, width, height);
        } else {
            ws.prefix = base;
            ws.suffix = base + p.scanRegion;
            if (p.transposeRegion) {
                ws.transIn = base + 2 * p.scanRegion;
                ws.transOut = ws.transIn + p.transposeRegion;
            }
        }
    }
    return ws;
}

// One factor on `in`'s domain; the prefix and suffix scratch take in's (or its transpose's) shape.
template <class T>
void runStage(bool erode, DeviceImageView<const T> in, DeviceImageView<T> out, LineStage s, const Plan& p,
              const Workspace<T>& ws, cudaStream_t stream) {
    if (p.transposeVertical && s.dx == 0) {
        // Thurley & Danell's THT: transpose, horizontal pass, transpose back.
        if (s.dy < 0) {
            s.dy = -s.dy;
            std::swap(s.a, s.b);
        }
        const int tw = in.height, th = in.width;
        const DeviceImageView<T> tIn = imageAt<T>(ws.transIn, tw, th), tOut = imageAt<T>(ws.transOut, tw, th);
        transposeImage<T>(in, tIn, stream);
        vhgwLineStage<T>(erode, tIn, tOut, LineStage{s.dy, 0, s.a, s.b}, imageAt<T>(ws.prefix, tw, th),
                         imageAt<T>(ws.suffix, tw, th), stream);
        transposeImage<T>(tOut, out, stream);
        return;
    }
    vhgwLineStage<T>(erode, in, out, s, imageAt<T>(ws.prefix, in.width, in.height),
                     imageAt<T>(ws.suffix, in.width, in.height), stream);
}

// ε (erode) or δ by the whole SE: in → out, both image-sized.
template <class T>
void runStages(bool erode, DeviceImageView<const T> in, DeviceImageView<T> out, const ClassicSE& se, const Plan& p,
               const Workspace<T>& ws, cudaStream_t stream) {
    switch (p.layout) {
    case Layout::Copy:
        copyImage<T>(in, out, stream);
        return;
    case Layout::Window:
        rectWindowMorph<T>(erode, p.method, in, out, segmentOf(se.width), segmentOf(se.height), ws.keys, stream);
        return;
    case Layout::Unpadded: {
        // Ping-pong so that the last factor writes `out`.
        const std::size_t n = p.stages.size();
        DeviceImageView<const T> cur = in;
        for (std::size_t i = 0; i < n; ++i) {
            const DeviceImageView<T> to = (n - 1 - i) % 2 == 0 ? out : ws.work[0];
            runStage<T>(erode, cur, to, p.stages[i], p, ws, stream);
            cur = to;
        }
        return;
    }
    case Layout::Padded: {
        DeviceImageView<T> a = ws.work[0], b = ws.work[1];
        fillImage<T>(a, erode ? highestValue<T>() : lowestValue<T>(), stream);
        copyImage<T>(in, subView(a, p.padX, p.padY, in.width, in.height), stream);
        for (const LineStage& s : p.stages) {
            runStage<T>(erode, a, b, s, p, ws, stream);
            std::swap(a, b);
        }
        copyImage<T>(subView(a, p.padX, p.padY, in.width, in.height), out, stream);
        return;
    }
    }
}

}  // namespace
}  // namespace classic

template <class T>
void classicMorphDevice(MorphOp op, DeviceImageView<const T> src, DeviceImageView<T> dst, const ClassicSE& se,
                        CudaContext& ctx) {
    using namespace classic;
    if (src.width <= 0 || src.height <= 0) throw Error("the image is empty");
    if (dst.width != src.width || dst.height != src.height) throw Error("internal: classic output of the wrong size");
    const Plan p = makePlan(op, src.width, src.height, se, sizeof(T));
    const Workspace<T> ws = reserveWorkspace<T>(op, src.width, src.height, p, ctx);
    const cudaStream_t stream = ctx.stream();
    switch (op) {
    case MorphOp::Erode:
    case MorphOp::Dilate:
        runStages<T>(op == MorphOp::Erode, src, dst, se, p, ws, stream);
        return;
    case MorphOp::Open:
    case MorphOp::Close:
    case MorphOp::TopHat: {
        const bool erodeFirst = op != MorphOp::Close;
        runStages<T>(erodeFirst, src, ws.mid, se, p, ws, stream);
        runStages<T>(!erodeFirst, ws.mid, dst, se, p, ws, stream);
        if (op == MorphOp::TopHat) {
            topHatKernel<T><<<pixelGrid(dst.width, dst.height), kPixelBlock, 0, stream>>>(src, dst, hostNaNBits());
            LS_CUDA_CHECK_LAUNCH(topHatKernel);
        }
        return;
    }
    }
    throw Error("unknown morphological operation");
}

#define LS_INSTANTIATE(T)                                                                                       \
    template void classicMorphDevice<T>(MorphOp, DeviceImageView<const T>, DeviceImageView<T>, const ClassicSE&, \
                                        CudaContext&);
LS_INSTANTIATE(std::uint8_t)
LS_INSTANTIATE(std::uint16_t)
LS_INSTANTIATE(float)
#undef LS_INSTANTIATE

}  // namespace linescope::cuda
