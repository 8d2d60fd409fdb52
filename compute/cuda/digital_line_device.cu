#include "compute/cuda/digital_line_device.h"

#include "compute/cuda/cuda_check.h"
#include "compute/cuda/lattice_table.cuh"
#include "compute/cuda/pool_array.h"
#include "compute/digital_line_decomposition.h"
#include "compute/pixel_rules.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace linescope::cuda {

namespace {

constexpr int kBlockX = 32, kBlockY = 8;
// Shifts a fold launch takes as a kernel parameter (a fold with more makes several launches).
constexpr int kFoldShifts = 16;

struct FoldShifts {
    int2 s[kFoldShifts];
    int n;
};

dim3 gridFor(int w, int h) { return dim3((w + kBlockX - 1) / kBlockX, (h + kBlockY - 1) / kBlockY); }

// F = the source, canonical, in the middle of a plane padded by (padX, padY) of the neutral value.
template <class T, bool IsMin>
__global__ void padCopy(DeviceImageView<const T> src, DeviceImageView<T> F, int padX, int padY) {
    const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
    if (x >= F.width || y >= F.height) return;
    const int sx = x - padX, sy = y - padY;
    F.at(x, y) = sx >= 0 && sx < src.width && sy >= 0 && sy < src.height ? canonical(src.at(sx, sy))
                                                                         : ExtremeOp<T, IsMin>::neutral();
}

template <class T, bool IsMin>
__global__ void fillNeutral(DeviceImageView<T> out) {
    const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
    if (x < out.width && y < out.height) out.at(x, y) = ExtremeOp<T, IsMin>::neutral();
}

// out(p) = inner(R(p + u), R(p + v)), the positions outside R ignored.
template <class T, bool IsMin>
__global__ void cornerOf(DeviceImageView<const T> R, DeviceImageView<T> out, int2 u, int2 v) {
    using Op = ExtremeOp<T, IsMin>;
    const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
    if (x >= out.width || y >= out.height) return;
    const auto read = [&](int2 s) {
        const int sx = x + s.x, sy = y + s.y;
        return sx >= 0 && sx < R.width && sy >= 0 && sy < R.height ? __ldg(&R.at(sx, sy)) : Op::neutral();
    };
    out.at(x, y) = Op::apply(read(u), read(v));
}

// acc(p) = inner(acc(p), F(p + pad + s)) for the shifts, the positions outside F ignored.
template <class T, bool IsMin>
__global__ void foldShifts(DeviceImageView<const T> F, DeviceImageView<T> acc, int padX, int padY, FoldShifts shifts) {
    using Op = ExtremeOp<T, IsMin>;
    const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
    if (x >= acc.width || y >= acc.height) return;
    T a = acc.at(x, y);
    for (int i = 0; i < shifts.n; ++i) {
        const int sx = x + padX + shifts.s[i].x, sy = y + padY + shifts.s[i].y;
        if (sx >= 0 && sx < F.width && sy >= 0 && sy < F.height) a = Op::apply(a, __ldg(&F.at(sx, sy)));
    }
    acc.at(x, y) = a;
}

template <class T>
struct DevicePlane {
    PoolArray memory;
    DeviceImageView<T> view;
    DevicePlane() = default;
    DevicePlane(int w, int h, cudaStream_t s) : memory(devicePitch(w, sizeof(T)) * static_cast<std::size_t>(h), s) {
        view = {memory.as<T>(), w, h, devicePitch(w, sizeof(T))};
    }
    std::size_t bytes() const { return view.pitch * static_cast<std::size_t>(view.height); }
};

// The passes of digital_line::accumulate on the device, into acc (the stage's output).
template <class T, bool IsMin>
class DeviceExecutor {
public:
    using Plane = DevicePlane<T>;

    DeviceExecutor(DeviceImageView<T> acc, int padX, int padY, cudaStream_t s) : acc_(acc), padX_(padX), padY_(padY), s_(s) {}

    // Sparse-table windows are exact at the border whether asked or not.
    Plane window(const Plane& F, Offset step, std::int64_t lo, std::int64_t hi, bool /*exact*/) {
        Plane out(F.view.width, F.view.height, s_);
        const int top = lattice::periodicTopLevel(step, static_cast<int>(hi - lo + 1), F.view.width, F.view.height);
        const PoolArray levels(static_cast<std::size_t>(top) * F.bytes(), s_);
        latticeRange<T>(IsMin, F.view, out.view, step, static_cast<int>(lo), static_cast<int>(hi), top, levels.as<T>(),
                        F.bytes(), s_);
        return out;
    }

    Plane corner(const Plane& R, Offset u, Offset v) {
        Plane out(R.view.width, R.view.height, s_);
        cornerOf<T, IsMin><<<gridFor(out.view.width, out.view.height), dim3(kBlockX, kBlockY), 0, s_>>>(
            R.view, out.view, int2{u.dx, u.dy}, int2{v.dx, v.dy});
        LS_CUDA_CHECK_LAUNCH("cornerOf");
        return out;
    }

    void fold(const Plane& F, const std::vector<Offset>& shifts) {
        for (std::size_t first = 0; first < shifts.size(); first += kFoldShifts) {
            FoldShifts batch{};
            batch.n = static_cast<int>(std::min<std::size_t>(kFoldShifts, shifts.size() - first));
            for (int i = 0; i < batch.n; ++i) batch.s[i] = int2{shifts[first + i].dx, shifts[first + i].dy};
            foldShifts<T, IsMin><<<gridFor(acc_.width, acc_.height), dim3(kBlockX, kBlockY), 0, s_>>>(F.view, acc_, padX_,
                                                                                                       padY_, batch);
            LS_CUDA_CHECK_LAUNCH("foldShifts");
        }
    }

private:
    DeviceImageView<T> acc_;
    int padX_, padY_;
    cudaStream_t s_;
};

// The recursion's depth bound: Euclid's algorithm on (num, den) halves the count at least
// every two levels, and a level ends below the leaf size.
int maxLevels(const LineKernel& kernel) {
    int levels = 2;
    for (std::int64_t n = kernel.length; n > digital_line::leafSize(); n /= 2) levels += 2;
    return levels;
}

template <class T, bool IsMin>
void runStage(DeviceImageView<const T> src, DeviceImageView<T> dst, const std::vector<DigitalLinePiece>& pieces,
              cudaStream_t s) {
    const digital_line::Padding pad = digital_line::paddingOf(pieces);
    DevicePlane<T> F(src.width + 2 * pad.x, src.height + 2 * pad.y, s);
    padCopy<T, IsMin><<<gridFor(F.view.width, F.view.height), dim3(kBlockX, kBlockY), 0, s>>>(src, F.view, pad.x, pad.y);
    LS_CUDA_CHECK_LAUNCH("padCopy");
    fillNeutral<T, IsMin><<<gridFor(dst.width, dst.height), dim3(kBlockX, kBlockY), 0, s>>>(dst);
    LS_CUDA_CHECK_LAUNCH("fillNeutral");
    DeviceExecutor<T, IsMin> ex(dst, pad.x, pad.y, s);
    for (const DigitalLinePiece& p : pieces) digital_line::accumulate(ex, F, p);
}

}  // namespace

template <class T>
std::size_t digitalLineStageBytes(const LineKernel& kernel, int width, int height) {
    // The padded source, and at each level of the recursion its corner plane, the run window
    // and the window's sparse-table levels (⌊log2⌋ of the longest window, at most λ).
    const digital_line::Padding pad = digital_line::paddingOf(digital_line::stagePieces(true, kernel, width, height));
    const std::size_t plane = devicePitch(width + 2 * pad.x, sizeof(T)) * static_cast<std::size_t>(height + 2 * pad.y);
    int log2Length = 0;
    while ((2LL << log2Length) <= kernel.length) ++log2Length;
    return plane * static_cast<std::size_t>(1 + 2 * maxLevels(kernel) + log2Length + 1);
}

template <class T>
void digitalLineStageDevice(bool erode, DeviceImageView<const T> src, DeviceImageView<T> dst, const LineKernel& kernel,
                            CudaContext& ctx) {
    const std::vector<DigitalLinePiece> pieces = digital_line::stagePieces(erode, kernel, src.width, src.height);
    if (erode) runStage<T, true>(src, dst, pieces, ctx.stream());
    else runStage<T, false>(src, dst, pieces, ctx.stream());
}

#define LS_INSTANTIATE(T)                                                                                      \
    template std::size_t digitalLineStageBytes<T>(const LineKernel&, int, int);                                \
    template void digitalLineStageDevice<T>(bool, DeviceImageView<const T>, DeviceImageView<T>, const LineKernel&, \
                                            CudaContext&);
LS_INSTANTIATE(std::uint8_t)
LS_INSTANTIATE(std::uint16_t)
LS_INSTANTIATE(float)
#undef LS_INSTANTIATE

}  // namespace linescope::cuda
