// The public line operators: validation, then dispatch to a backend and algorithm.
#include "compute/line_morph.h"

#include "compute/cpu/digital_line_morph.h"
#include "compute/cpu/per_line_morph.h"
#include "compute/cpu/sheared_line_morph.h"
#include "compute/line_geometry.h"
#include "compute/line_kernel.h"
#include "compute/reference/reference_kernel_morph.h"
#include "compute/reference/reference_line_morph.h"

#if LINESCOPE_HAVE_CUDA
#include "compute/cuda/cuda_backend.h"
#include "compute/cuda/kernel_line_morph.h"
#endif

#include <algorithm>
#include <cstring>

namespace linescope {

const char* morphOpName(MorphOp op) {
    switch (op) {
    case MorphOp::Erode: return "erode";
    case MorphOp::Dilate: return "dilate";
    case MorphOp::Open: return "open";
    case MorphOp::Close: return "close";
    case MorphOp::TopHat: return "tophat";
    }
    return "?";
}

MorphOp parseMorphOp(const std::string& s) {
    for (auto op : {MorphOp::Erode, MorphOp::Dilate, MorphOp::Open, MorphOp::Close, MorphOp::TopHat})
        if (s == morphOpName(op)) return op;
    throw Error("unknown operator '" + s + "' (expected erode, dilate, open, close or tophat)");
}

namespace {

template <class T>
bool overlaps(ImageView<const T> a, ImageView<T> b) {
    const auto* a0 = reinterpret_cast<const unsigned char*>(a.row(0));
    const auto* a1 = reinterpret_cast<const unsigned char*>(a.row(a.height - 1) + a.width);
    const auto* b0 = reinterpret_cast<const unsigned char*>(b.row(0));
    const auto* b1 = reinterpret_cast<const unsigned char*>(b.row(b.height - 1) + b.width);
    return std::less<>()(a0, b1) && std::less<>()(b0, a1);
}

// op by a translation-invariant kernel: ε and δ by the digital line engine, composed.
template <class T>
void kernelLineMorph(MorphOp op, ImageView<const T> src, ImageView<T> dst, const LineKernel& kernel,
                     LineAlgorithm algorithm, int threads) {
    if (algorithm == LineAlgorithm::Reference) {
        const Image<T> r = reference::referenceKernelMorph<T>(op, src, kernel.offsets());
        for (int y = 0; y < dst.height; ++y) std::copy(r.view().row(y), r.view().row(y) + dst.width, dst.row(y));
        return;
    }
    // Along an axis or a diagonal the kernel is every pixel's line path: the paths engine.
    double pathsAngle = 0;
    if (cpu::straightAsPaths(kernel, &pathsAngle)) {
        cpu::shearedLineMorph<T>(op, src, dst, lineFamily(pathsAngle, src.width, src.height), segmentOf(kernel.length),
                                 threads);
        return;
    }
    switch (op) {
    case MorphOp::Erode: cpu::digitalLineErodeDilate<T>(true, src, dst, kernel, threads); return;
    case MorphOp::Dilate: cpu::digitalLineErodeDilate<T>(false, src, dst, kernel, threads); return;
    case MorphOp::Open:
    case MorphOp::Close:
    case MorphOp::TopHat: {
        const bool erodeFirst = op != MorphOp::Close;
        Image<T> mid(src.width, src.height);
        cpu::digitalLineErodeDilate<T>(erodeFirst, src, mid.view(), kernel, threads);
        cpu::digitalLineErodeDilate<T>(!erodeFirst, mid.cview(), dst, kernel, threads);
        if (op == MorphOp::TopHat)  // f − γ(f) ≥ 0: the opening is anti-extensive
            for (int y = 0; y < src.height; ++y)
                for (int x = 0; x < src.width; ++x)
                    dst.at(x, y) = static_cast<T>(canonical(src.at(x, y)) - dst.at(x, y));
        return;
    }
    }
}

}  // namespace

template <class T>
void lineMorph(MorphOp op, ImageView<const T> src, ImageView<T> dst, const LineParams& p, const EngineOptions& opt) {
    requireSameSize(src, dst);
    if (overlaps(src, dst)) throw Error("the output image must not overlap the input image");
    const Segment seg = segmentOf(p.length);
    const LineFamily family = lineFamily(p.angle, src.width, src.height);
    requireNoNaN(src);
    const Backend backend = resolveBackend(opt.backend);  // throws when CUDA is asked for and missing
    if (p.kind != LineKind::Paths) {  // a translation-invariant kernel: the same set at every pixel
        const LineKernel kernel = lineKernel(p.kind, p.angle, p.length);
#if LINESCOPE_HAVE_CUDA
        if (backend == Backend::Cuda && opt.algorithm != LineAlgorithm::Reference) {
            cuda::kernelLineMorph<T>(op, src, dst, kernel);
            return;
        }
#endif
        kernelLineMorph<T>(op, src, dst, kernel, opt.algorithm, opt.threads);
        return;
    }
#if LINESCOPE_HAVE_CUDA
    if (backend == Backend::Cuda && opt.algorithm != LineAlgorithm::Reference) {
        cuda::lineMorph<T>(op, src, dst, family, seg, opt.algorithm);
        return;
    }
#else
    (void)backend;
#endif

    switch (opt.algorithm) {
    case LineAlgorithm::Auto:
    case LineAlgorithm::Sheared:
        cpu::shearedLineMorph<T>(op, src, dst, family, seg, opt.threads);
        return;
    case LineAlgorithm::VanHerk:
    case LineAlgorithm::Fifo:
    case LineAlgorithm::Stack:
        cpu::perLineMorph<T>(op, opt.algorithm, src, dst, family, seg, opt.threads);
        return;
    case LineAlgorithm::Reference: {
        const Image<T> r = reference::referenceLineMorph<T>(op, src, p.angle, p.length);
        for (int y = 0; y < dst.height; ++y)
            std::memcpy(dst.row(y), r.view().row(y), sizeof(T) * static_cast<std::size_t>(dst.width));
        return;
    }
    }
}

template void lineMorph<std::uint8_t>(MorphOp, ImageView<const std::uint8_t>, ImageView<std::uint8_t>,
                                      const LineParams&, const EngineOptions&);
template void lineMorph<std::uint16_t>(MorphOp, ImageView<const std::uint16_t>, ImageView<std::uint16_t>,
                                       const LineParams&, const EngineOptions&);
template void lineMorph<float>(MorphOp, ImageView<const float>, ImageView<float>, const LineParams&,
                               const EngineOptions&);

}  // namespace linescope
