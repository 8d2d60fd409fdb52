#include "compute/cuda/digital_line_device.h"

#include "compute/cuda/cuda_check.h"
#include "compute/cuda/lattice_table.cuh"
#include "compute/cuda/pool_array.h"
#include "compute/digital_line_decomposition.h"
#include "compute/pixel_rules.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

namespace linescope::cuda {

namespace {

constexpr int kBlockX = 32, kBlockY = 8;
// Shifts a fold launch takes as a kernel parameter (a fold with more makes several launches):
// a launch costs about two shifts' reads (H200, ncu), and the recursion's folds have up to 18.
constexpr int kFoldShifts = 32;
// Windows of at most this many points are folded point by point rather than by a sparse
// table (at 41 points the table is faster: 0.57 against 0.79 ms an opening at 0°, H200).
constexpr int kDirectWindow = 32;

// Planes a fold launch reads: a stage's folds are queued and made together, a few launches
// for the whole stage instead of one a fold (each launch reads and writes the output once).
constexpr int kFoldPlanes = 8;

template <class T>
struct FoldBatch {
    DeviceImageView<const T> planes[kFoldPlanes];
    int2 s[kFoldShifts];
    unsigned char plane[kFoldShifts];  // the plane each shift reads
    int n;
};

// A thread takes a 32-bit word of u8 or u16 pixels (lattice_table.cuh's runs): a warp moves
// 128 bytes an instruction rather than 32.
using lattice::kPeriodicRun;
using lattice::storeRun;

template <class T>
dim3 gridFor(int w, int h) {
    constexpr int N = kPeriodicRun<T>;
    return dim3((w + kBlockX * N - 1) / (kBlockX * N), (h + kBlockY - 1) / kBlockY);
}

// F = the source, canonical, in the middle of a plane padded by (padX, padY) of the neutral value.
template <class T, bool IsMin>
__global__ void padCopy(DeviceImageView<const T> src, DeviceImageView<T> F, int padX, int padY) {
    constexpr int N = kPeriodicRun<T>;
    const int x0 = (blockIdx.x * kBlockX + threadIdx.x) * N, y = blockIdx.y * kBlockY + threadIdx.y;
    if (x0 >= F.width || y >= F.height) return;
    const int sy = y - padY;
    T v[N];
#pragma unroll
    for (int i = 0; i < N; ++i) {
        const int sx = x0 + i - padX;
        v[i] = sx >= 0 && sx < src.width && sy >= 0 && sy < src.height ? canonical(__ldg(&src.at(sx, sy)))
                                                                       : ExtremeOp<T, IsMin>::neutral();
    }
    storeRun(F, x0, y, v);
}

template <class T, bool IsMin>
__global__ void fillNeutral(DeviceImageView<T> out) {
    constexpr int N = kPeriodicRun<T>;
    const int x0 = (blockIdx.x * kBlockX + threadIdx.x) * N, y = blockIdx.y * kBlockY + threadIdx.y;
    if (x0 >= out.width || y >= out.height) return;
    T v[N];
#pragma unroll
    for (int i = 0; i < N; ++i) v[i] = ExtremeOp<T, IsMin>::neutral();
    storeRun(out, x0, y, v);
}

// out(p) = inner(R(p + u), R(p + v)), the positions outside R ignored.
template <class T, bool IsMin>
__global__ void cornerOf(DeviceImageView<const T> R, DeviceImageView<T> out, int2 u, int2 v) {
    using Op = ExtremeOp<T, IsMin>;
    constexpr int N = kPeriodicRun<T>;
    const int x0 = (blockIdx.x * kBlockX + threadIdx.x) * N, y = blockIdx.y * kBlockY + threadIdx.y;
    if (x0 >= out.width || y >= out.height) return;
    const auto read = [&](int x, int2 s) {
        const int sx = x + s.x, sy = y + s.y;
        return sx >= 0 && sx < R.width && sy >= 0 && sy < R.height ? __ldg(&R.at(sx, sy)) : Op::neutral();
    };
    T o[N];
#pragma unroll
    for (int i = 0; i < N; ++i) o[i] = Op::apply(read(x0 + i, u), read(x0 + i, v));
    storeRun(out, x0, y, o);
}

// acc(p) = inner(acc(p), the window [lo, hi] along step at p + shift of the levels' source):
// a long window's query folded straight into the output, without a plane of its own.
// `fresh`: acc holds nothing yet (the stage's first fold starts from the neutral value).
template <class T, bool IsMin>
__global__ void foldRange(lattice::PeriodicLevels<T> levels, int width, int height, DeviceImageView<T> acc, int2 shift,
                          int2 step, int lo, int hi, bool fresh) {
    using Op = ExtremeOp<T, IsMin>;
    constexpr int N = kPeriodicRun<T>;
    const int x0 = (blockIdx.x * kBlockX + threadIdx.x) * N, y = blockIdx.y * kBlockY + threadIdx.y;
    if (x0 >= acc.width || y >= acc.height) return;
    T a[N];
    const int qy = y + shift.y;
#pragma unroll
    for (int i = 0; i < N; ++i) {
        a[i] = fresh ? Op::neutral() : acc.at(min(x0 + i, acc.width - 1), y);
        const int qx = x0 + i + shift.x;
        if (qx >= 0 && qx < width && qy >= 0 && qy < height)
            a[i] = Op::apply(a[i], lattice::rangeExtreme<T, IsMin>(levels, qx, qy, width, height, step.x, step.y, lo, hi));
    }
    storeRun(acc, x0, y, a);
}

// v[i] = inner(v[i], F(sx0 + i, sy)) for the N pixels of a thread's run, those outside F ignored.
// For u8 runs whose two aligned words lie in the row: two 32-bit loads, a funnel shift and one
// SIMD minimum (or maximum) of four bytes, instead of four byte loads, tests and comparisons.
template <class T, bool IsMin, int N>
__device__ void foldPixels(const DeviceImageView<const T>& F, int sx0, int sy, T (&v)[N]) {
    if (sy < 0 || sy >= F.height) return;
    const T* row = F.row(sy);
    if constexpr (std::is_same_v<T, std::uint8_t> && N == 4) {
        const int aligned = sx0 & ~3;
        if (sx0 >= 0 && aligned + 8 <= F.width) {  // rows start 4-aligned (devicePitch)
            const auto* words = reinterpret_cast<const std::uint32_t*>(row + aligned);
            const std::uint32_t got = __funnelshift_r(__ldg(words), __ldg(words + 1), 8 * (sx0 & 3));
            const std::uint32_t mine = static_cast<std::uint32_t>(v[0]) | static_cast<std::uint32_t>(v[1]) << 8 |
                                       static_cast<std::uint32_t>(v[2]) << 16 | static_cast<std::uint32_t>(v[3]) << 24;
            const std::uint32_t out = IsMin ? __vminu4(mine, got) : __vmaxu4(mine, got);
#pragma unroll
            for (int i = 0; i < 4; ++i) v[i] = static_cast<T>(out >> (8 * i));
            return;
        }
    }
#pragma unroll
    for (int i = 0; i < N; ++i)
        if (sx0 + i >= 0 && sx0 + i < F.width) v[i] = ExtremeOp<T, IsMin>::apply(v[i], __ldg(row + sx0 + i));
}

// out(p) = inner of F(p + i·step), i = lo … hi, the positions outside F ignored: a short
// window in one pass (a sparse table takes a pass a level and one for the query).
constexpr int kShortWindow = 8;

template <class T, bool IsMin>
__global__ void shortWindow(DeviceImageView<const T> F, DeviceImageView<T> out, int2 step, int lo, int hi) {
    using Op = ExtremeOp<T, IsMin>;
    constexpr int N = kPeriodicRun<T>;
    const int x0 = (blockIdx.x * kBlockX + threadIdx.x) * N, y = blockIdx.y * kBlockY + threadIdx.y;
    if (x0 >= out.width || y >= out.height) return;
    T o[N];
#pragma unroll
    for (int i = 0; i < N; ++i) o[i] = Op::neutral();
    for (int k = lo; k <= hi; ++k) foldPixels<T, IsMin>(F, x0 + k * step.x, y + k * step.y, o);
    storeRun(out, x0, y, o);
}

// acc(p) = inner(acc(p), P(p + pad + s)) for the batch's shifts s and their planes P, the
// positions outside a plane ignored (`fresh`: as foldRange).
template <class T, bool IsMin>
__global__ void foldShifts(FoldBatch<T> batch, DeviceImageView<T> acc, int padX, int padY, bool fresh) {
    using Op = ExtremeOp<T, IsMin>;
    constexpr int N = kPeriodicRun<T>;
    const int x0 = (blockIdx.x * kBlockX + threadIdx.x) * N, y = blockIdx.y * kBlockY + threadIdx.y;
    if (x0 >= acc.width || y >= acc.height) return;
    T a[N];
#pragma unroll
    for (int i = 0; i < N; ++i)  // past the row's end: not stored
        a[i] = fresh ? Op::neutral() : acc.at(min(x0 + i, acc.width - 1), y);
    for (int k = 0; k < batch.n; ++k)
        foldPixels<T, IsMin>(batch.planes[batch.plane[k]], x0 + padX + batch.s[k].x, y + padY + batch.s[k].y, a);
    storeRun(acc, x0, y, a);
}

// Planes are told apart by a serial number, not their address: the pool hands a freed
// plane's memory to the next one.
inline std::atomic<std::uint64_t> planeSerial{0};

// The memory is shared with the executor's queued folds, which may read a plane after the
// recursion has let it go.
template <class T>
struct DevicePlane {
    std::shared_ptr<const PoolArray> memory;
    DeviceImageView<T> view;
    std::uint64_t serial = 0;
    DevicePlane() = default;
    DevicePlane(int w, int h, cudaStream_t s)
        : memory(std::make_shared<const PoolArray>(devicePitch(w, sizeof(T)) * static_cast<std::size_t>(h), s)),
          serial(++planeSerial) {
        view = {memory->as<T>(), w, h, devicePitch(w, sizeof(T))};
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
        if (hi - lo + 1 <= kShortWindow) {
            shortWindow<T, IsMin><<<gridFor<T>(out.view.width, out.view.height), dim3(kBlockX, kBlockY), 0, s_>>>(
                F.view, out.view, int2{step.dx, step.dy}, static_cast<int>(lo), static_cast<int>(hi));
            LS_CUDA_CHECK_LAUNCH("shortWindow");
            return out;
        }
        const int top = lattice::periodicTopLevel(step, static_cast<int>(hi - lo + 1), F.view.width, F.view.height);
        const PoolArray levels(static_cast<std::size_t>(top) * F.bytes(), s_);
        latticeRange<T>(IsMin, F.view, out.view, step, static_cast<int>(lo), static_cast<int>(hi), top, levels.as<T>(),
                        F.bytes(), s_);
        return out;
    }

    Plane corner(const Plane& R, Offset u, Offset v) {
        Plane out(R.view.width, R.view.height, s_);
        cornerOf<T, IsMin><<<gridFor<T>(out.view.width, out.view.height), dim3(kBlockX, kBlockY), 0, s_>>>(
            R.view, out.view, int2{u.dx, u.dy}, int2{v.dx, v.dy});
        LS_CUDA_CHECK_LAUNCH("cornerOf");
        return out;
    }

    void foldWindow(const Plane& F, Offset step, std::int64_t lo, std::int64_t hi, bool /*exact*/, Offset shift) {
        if (hi - lo + 1 <= kDirectWindow) {  // its points, folded straight from F
            std::vector<Offset> points;
            for (std::int64_t i = lo; i <= hi; ++i)
                points.push_back({static_cast<int>(shift.dx + i * step.dx), static_cast<int>(shift.dy + i * step.dy)});
            fold(F, points);
            return;
        }
        const int top = lattice::periodicTopLevel(step, static_cast<int>(hi - lo + 1), F.view.width, F.view.height);
        // The two end runs of a level read the same plane along the same step: one table.
        if (!(table_.plane == F.serial && table_.step == step && table_.top >= top)) {
            table_.levels = PoolArray(static_cast<std::size_t>(top) * F.bytes(), s_);
            lattice::buildLevels<T>(IsMin, F.view, step, top, table_.levels.template as<T>(), F.bytes(), s_);
            table_.plane = F.serial;
            table_.step = step;
            table_.top = top;
        }
        const lattice::PeriodicLevels<T> table{F.view, table_.levels.template as<const unsigned char>(), F.bytes(), F.view.pitch};
        foldRange<T, IsMin><<<gridFor<T>(acc_.width, acc_.height), dim3(kBlockX, kBlockY), 0, s_>>>(
            table, F.view.width, F.view.height, acc_, int2{padX_ + shift.dx, padY_ + shift.dy}, int2{step.dx, step.dy},
            static_cast<int>(lo), static_cast<int>(hi), fresh_);
        LS_CUDA_CHECK_LAUNCH("foldRange");
        fresh_ = false;
    }

    // Queued: min and max commute, so the stage's folds may be made in any order, together.
    void fold(const Plane& F, const std::vector<Offset>& shifts) {
        if (!shifts.empty()) queued_.push_back({F.memory, F.view, shifts});
    }

    // Makes the queued folds: batches of at most kFoldShifts shifts over kFoldPlanes planes.
    void flush() {
        FoldBatch<T> batch{};
        int planes = 0;
        auto launch = [&] {
            if (batch.n == 0) return;
            foldShifts<T, IsMin><<<gridFor<T>(acc_.width, acc_.height), dim3(kBlockX, kBlockY), 0, s_>>>(
                batch, acc_, padX_, padY_, fresh_);
            LS_CUDA_CHECK_LAUNCH("foldShifts");
            fresh_ = false;
            batch = FoldBatch<T>{};
            planes = 0;
        };
        for (const QueuedFold& q : queued_) {
            int index = -1;
            for (const Offset& o : q.shifts) {
                if (batch.n == kFoldShifts) launch();
                if (index < 0 || planes == 0) {  // the plane's slot in this batch
                    if (planes == kFoldPlanes) launch();
                    index = planes;
                    batch.planes[planes++] = q.view;
                }
                batch.s[batch.n] = int2{o.dx, o.dy};
                batch.plane[batch.n++] = static_cast<unsigned char>(index);
            }
        }
        launch();
        queued_.clear();
    }

    bool fresh() const { return fresh_; }

private:
    // The sparse table built last, kept for the next foldWindow on the same plane and step.
    struct Table {
        std::uint64_t plane = 0;  // the plane's serial (0: none)
        Offset step;
        int top = -1;
        PoolArray levels;
    } table_;
    struct QueuedFold {
        std::shared_ptr<const PoolArray> keep;
        DeviceImageView<const T> view;
        std::vector<Offset> shifts;
    };
    std::vector<QueuedFold> queued_;
    DeviceImageView<T> acc_;
    bool fresh_ = true;  // no fold has written acc yet: the first one writes without reading it
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
    padCopy<T, IsMin><<<gridFor<T>(F.view.width, F.view.height), dim3(kBlockX, kBlockY), 0, s>>>(src, F.view, pad.x, pad.y);
    LS_CUDA_CHECK_LAUNCH("padCopy");
    DeviceExecutor<T, IsMin> ex(dst, pad.x, pad.y, s);
    for (const DigitalLinePiece& p : pieces) digital_line::accumulate(ex, F, p);
    ex.flush();
    if (ex.fresh()) {  // no piece folded anything: the neutral value everywhere
        fillNeutral<T, IsMin><<<gridFor<T>(dst.width, dst.height), dim3(kBlockX, kBlockY), 0, s>>>(dst);
        LS_CUDA_CHECK_LAUNCH("fillNeutral");
    }
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
