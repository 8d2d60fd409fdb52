// The tile sweep's schedule. The image is cut into squares of `side` pixels; block (s, g)
// loads square s with a margin of the operator's reach into shared memory once, and folds the
// angles of group g into sup/inf/arg accumulators that stay in shared memory: per angle the
// image is read from shared memory only and no accumulator goes through L2 (the band kernel
// reads a band from L2 and folds into L2 once per angle, which bounds it; band-kernel-notes.md).
// Groups of angles give small images enough blocks; their planes are merged at the end, in
// increasing angle order, so that ties still go to the smallest angle index.
#include "compute/cuda/line_tile_sweep.h"

#include "compute/cuda/cuda_check.h"
#include "compute/cuda/sweep_results.cuh"
#include "compute/cuda/tile_sweep_lines.h"
#include "compute/line_geometry.h"
#include "compute/line_morph.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <string>

namespace linescope::cuda {

namespace {

using tile::LineSpan;
using tile::TileFrame;
using tile::Window;

// Angles a launch takes, passed by value with the parameters (12 bytes each).
constexpr int kMaxTileAngles = 256;

struct TileAngle {
    std::int32_t slope = 0;
    std::int32_t phase = 32768;
    std::int32_t yMajor = 0;
};

struct TileParams {
    int width = 0, height = 0;
    int side = 0, margin = 0, squaresX = 0;
    int inPitch = 0, accPitch = 0;  // elements (keys and other share one pitch)
    int offKeys = 0, offOther = 0, offScratch = 0;  // bytes into shared memory
    Window w1, w2;
    int anglesPerGroup = 0, angleCount = 0;
    int batches = 0;     // warps of lines an angle has at most over a square
    int keepBegin = 0, keepEnd = INT_MAX;  // rows whose pixels count in the spectrum (a zone's kept rows)
    int firstAngle = 0;  // the sweep's index of angles[0]
    int firstGroup = 0;  // the plane set of blockIdx.y = 0
    int partialsPerAngle = 0;
    TileAngle angles[kMaxTileAngles];
};

// What the kernel's pixels stand for: themselves, or (float images run as 16-bit ranks,
// float_ranks.h) the float values at those ranks, which the spectrum and the results read.
template <class T>
struct OwnValues {
    using Out = T;
    // A lane folds at most `side` outputs an item: 32 bits hold an integer image's sum.
    using LaneSum = std::conditional_t<std::is_floating_point_v<T>, double, unsigned>;
    __device__ LaneSum sumTerm(tile::Work<T> v) const { return static_cast<LaneSum>(v); }
    __device__ Out value(T v) const { return v; }
};
struct RankedValues {
    using Out = float;
    using LaneSum = double;
    const float* table = nullptr;  // table[r]: the value of rank r
    __device__ double sumTerm(unsigned r) const { return __ldg(table + r); }  // a Work word of a rank
    __device__ float value(std::uint16_t r) const { return __ldg(table + r); }
};

template <class T, class Values>
struct GroupPlanes {
    T* best = nullptr;  // [group][y][x]: the extreme that the orientation follows
    T* other = nullptr;
    std::uint16_t* arg = nullptr;
    std::size_t planePixels = 0;
    SpectrumSum<typename Values::Out>* partials = nullptr;  // [angle][square · batches + batch], zeroed before the launch
};

// The warp's extremes by shuffles (__reduce_min_sync needs sm_80; the release build also
// targets sm_75).
__device__ inline int warpMin(int v) {
    for (int d = 16; d > 0; d >>= 1) v = min(v, __shfl_xor_sync(0xffffffffu, v, d));
    return v;
}
__device__ inline int warpMax(int v) {
    for (int d = 16; d > 0; d >>= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, d));
    return v;
}

// Folds into an accumulator at a 32-bit shared-memory address (red: an atomic whose old
// value nobody reads). The kernel keeps each line's two accumulator addresses in registers and
// adds an element's offset: written as pointers, the compiler rebuilt both from the shared
// window's base and the layout's offsets at every output (a tenth of a step's instructions).
__device__ inline void foldMax(unsigned a, unsigned v) {
    asm volatile("red.shared.max.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
}
__device__ inline void foldMin(unsigned a, unsigned v) {
    asm volatile("red.shared.min.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
}
__device__ inline void foldMax(unsigned a, unsigned long long v) {
    asm volatile("red.shared.max.u64 [%0], %1;" ::"r"(a), "l"(v) : "memory");
}
__device__ inline void foldMin(unsigned a, unsigned long long v) {
    asm volatile("red.shared.min.u64 [%0], %1;" ::"r"(a), "l"(v) : "memory");
}
// v itself, as a value the compiler cannot recompute from its inputs (a shuffle from the
// thread's own lane): what is computed once an item then stays in a register for its walk.
__device__ inline unsigned pinned(unsigned v) { return __shfl_sync(0xffffffffu, v, threadIdx.x & 31); }

template <class T, class Values, bool MinFirst, bool TwoStage, int kTileThreads>
__global__ void __launch_bounds__(kTileThreads) tileSweepKernel(DeviceImageView<const T> src,
                                                                const __grid_constant__ TileParams prm,
                                                                GroupPlanes<T, Values> out, Values values) {
    extern __shared__ __align__(16) unsigned char smem[];
    using First = tile::Op<T, MinFirst>;
    // Openings and erosions follow the supremum over angles, closings and dilations the infimum.
    using Keys = tile::SweepKeys<T, MinFirst>;
    using Key = typename Keys::Key;
    const int W = prm.width, H = prm.height, side = prm.side, R = prm.margin;
    const int square = blockIdx.x, group = blockIdx.y;
    const int X0 = (square % prm.squaresX) * side, Y0 = (square / prm.squaresX) * side;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, warps = kTileThreads / 32;
    T* in = reinterpret_cast<T*>(smem);
    Key* keys = reinterpret_cast<Key*>(smem + prm.offKeys);
    unsigned* other = reinterpret_cast<unsigned*>(smem + prm.offOther);
    T* scratch = reinterpret_cast<T*>(smem + prm.offScratch) + threadIdx.x;

    // The square and its margin; outside the image, the first stage's neutral value.
    const int span = side + 2 * R;
    for (int r = warp; r < span; r += warps) {
        const int y = Y0 - R + r;
        const bool rowIn = y >= 0 && y < H;
        const T* row = rowIn ? src.row(y) : nullptr;
        for (int q = lane; q < span; q += 32) {
            const int x = X0 - R + q;
            in[r * prm.inPitch + q] = rowIn && x >= 0 && x < W ? canonical(__ldg(row + x)) : First::neutral();
        }
    }
    for (int i = threadIdx.x; i < side * side; i += kTileThreads) {
        const int r = i / side, q = i - r * side;
        keys[r * prm.accPitch + q] = Keys::kFirstKey;
        other[r * prm.accPitch + q] = Keys::kFirstOther;
    }
    __syncthreads();

    // Work items are (angle, warp of lines); the folds are atomic, so warps take them in any
    // order and no barrier separates the angles.
    const int kBegin = group * prm.anglesPerGroup;
    const int kEnd = min(kBegin + prm.anglesPerGroup, prm.angleCount);
    const int reachLeft = prm.w1.left + (TwoStage ? prm.w2.left : 0);
    const int reachRight = prm.w1.right + (TwoStage ? prm.w2.right : 0);
    for (int item = warp; item < (kEnd - kBegin) * prm.batches; item += warps) {
        const int j = kBegin + item / prm.batches, batch = item % prm.batches;
        const TileAngle a = prm.angles[j];
        const int k = prm.firstAngle + j;
        TileFrame f;
        f.slope = a.slope;
        f.phase = a.phase;
        f.tn = f.un = side;
        int accT, accU;  // keys and other share one pitch
        if (a.yMajor) {  // t = y: a warp's lines read along a row of the square
            f.n = H, f.m = W, f.t0 = Y0, f.u0 = X0;
            f.inT = prm.inPitch, f.inU = 1, accT = prm.accPitch, accU = 1;
        } else {  // t = x: down a column, conflict-free as the pitches are odd numbers of words
            f.n = W, f.m = H, f.t0 = X0, f.u0 = Y0;
            f.inT = 1, f.inU = prm.inPitch, accT = 1, accU = prm.accPitch;
        }
        f.tBase = f.t0 - R;
        f.uBase = f.u0 - R;
        int first, last;
        f.lines(first, last);
        const int c = first + batch * 32 + lane;
        if (batch * 32 > last - first) continue;  // uniform across the warp
        LineSpan s;
        if (c <= last) s = tile::lineSpan(f, c, reachLeft, reachRight);
        const int ta = warpMin(s.active() ? s.ta : INT_MAX);
        const int tb = warpMax(s.active() ? s.tb : INT_MIN);
        if (ta > tb) continue;
        typename Values::LaneSum sum = 0;
        // The line's accumulators from the output square's corner: an output at (t, off) is
        // element t · accT + off · accU of both.
        const int corner = -f.t0 * accT + (s.c - f.u0) * accU;
        constexpr unsigned kKeyBytes = sizeof(Key), kOtherBytes = sizeof(unsigned);
        const unsigned lineKeys = pinned(static_cast<unsigned>(__cvta_generic_to_shared(keys)) + corner * kKeyBytes);
        const unsigned lineOther = pinned(static_cast<unsigned>(__cvta_generic_to_shared(other)) + corner * kOtherBytes);
        const auto angleBits = static_cast<Key>(pinned(static_cast<unsigned>(Keys::angleBits(k))));
        using Work = tile::Work<T>;
        auto fold = [&](int t, int off, Work v) {
            const unsigned i = t * accT + off * accU;
            const Key key = Keys::keyOfWork(v, angleBits);
            if constexpr (MinFirst) {
                foldMax(lineKeys + i * kKeyBytes, key);
                foldMin(lineOther + i * kOtherBytes, Keys::orderedWork(v));
            } else {
                foldMin(lineKeys + i * kKeyBytes, key);
                foldMax(lineOther + i * kOtherBytes, Keys::orderedWork(v));
            }
        };
        // Outside zones every row counts in the spectrum: no row test a step.
        if (prm.keepBegin <= 0 && prm.keepEnd >= H) {
            tile::walkLine<T, MinFirst, TwoStage, kTileThreads>(
                in, f, s, ta - reachLeft, tb + reachRight, prm.w1, prm.w2, scratch, [&](int t, int off, Work v) {
                    fold(t, off, v);
                    sum += values.sumTerm(v);
                });
        } else {
            tile::walkLine<T, MinFirst, TwoStage, kTileThreads>(
                in, f, s, ta - reachLeft, tb + reachRight, prm.w1, prm.w2, scratch, [&](int t, int off, Work v) {
                    fold(t, off, v);
                    const int y = a.yMajor ? t : s.c + off;
                    if (y >= prm.keepBegin && y < prm.keepEnd) sum += values.sumTerm(v);
                });
        }
        SpectrumSum<typename Values::Out> total = sum;
        for (int d = 16; d > 0; d >>= 1) total += __shfl_down_sync(0xffffffffu, total, d);
        if (lane == 0)
            out.partials[static_cast<std::size_t>(k) * prm.partialsPerAngle + square * prm.batches + batch] = total;
    }
    __syncthreads();

    const std::size_t plane = static_cast<std::size_t>(prm.firstGroup + group) * out.planePixels;
    for (int i = threadIdx.x; i < side * side; i += kTileThreads) {
        const int r = i / side, q = i - r * side;
        const int x = X0 + q, y = Y0 + r;
        if (x >= W || y >= H) continue;
        const std::size_t p = plane + static_cast<std::size_t>(y) * W + x;
        const Key key = keys[r * prm.accPitch + q];
        out.best[p] = Keys::keyValue(key);
        out.arg[p] = Keys::keyAngle(key);
        out.other[p] = Keys::value(other[r * prm.accPitch + q]);
    }
}

// Folds the groups' planes in increasing angle order into the sweep's results.
template <class T, class Values, bool BestIsMax>
__global__ void mergeGroups(GroupPlanes<T, Values> in, Values values, int groups, int width, int height,
                            DeviceImageView<typename Values::Out> sup, DeviceImageView<typename Values::Out> inf,
                            DeviceImageView<typename Values::Out> strength, DeviceImageView<std::uint16_t> argOut) {
    using Out = typename Values::Out;
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= width || y >= height) return;
    std::size_t p = static_cast<std::size_t>(y) * width + x;
    T b = in.best[p], o = in.other[p];
    std::uint16_t a = in.arg[p];
    for (int g = 1; g < groups; ++g) {
        p += in.planePixels;
        const T bg = in.best[p], og = in.other[p];
        if (BestIsMax ? b < bg : bg < b) {
            b = bg;
            a = in.arg[p];
        }
        o = BestIsMax ? (og < o ? og : o) : (o < og ? og : o);
    }
    const Out hi = values.value(BestIsMax ? b : o), lo = values.value(BestIsMax ? o : b);
    sup.at(x, y) = hi;
    inf.at(x, y) = lo;
    strength.at(x, y) = static_cast<Out>(hi - lo);
    argOut.at(x, y) = a;
}

// The smallest pitch ≥ n elements that is an odd number of 32-bit words: a warp's 32
// accesses down a column then fall in 32 different banks.
template <class T>
int oddWordPitch(int n) {
    constexpr int perWord = sizeof(T) >= 4 ? 1 : static_cast<int>(4 / sizeof(T));
    int words = (n + perWord - 1) / perWord;
    if (words % 2 == 0) ++words;
    return words * perWord;
}

struct Layout {
    int inPitch, accPitch;
    std::size_t offKeys, offOther, offScratch, total;
};

template <class T>
Layout layoutOf(int side, int margin, int scratchValues, int threads) {
    using Key = typename tile::SweepKeys<T, true>::Key;
    auto align16 = [](std::size_t v) { return (v + 15) / 16 * 16; };
    Layout l;
    const int span = side + 2 * margin;
    l.inPitch = oddWordPitch<T>(span);
    l.accPitch = oddWordPitch<unsigned>(side);  // 64-bit keys: odd pairs of words, two phases a warp
    l.offKeys = align16(static_cast<std::size_t>(span) * l.inPitch * sizeof(T));
    l.offOther = l.offKeys + align16(static_cast<std::size_t>(side) * l.accPitch * sizeof(Key));
    l.offScratch = l.offOther + align16(static_cast<std::size_t>(side) * l.accPitch * sizeof(unsigned));
    l.total = l.offScratch + static_cast<std::size_t>(scratchValues) * threads * sizeof(T);
    return l;
}

// Developer overrides for tests and benchmarks: LINESCOPE_TILE_SIDE fixes the square's side,
// LINESCOPE_TILE_THREADS the block size (256, 512 or 1024).
int forcedSetting(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::atoi(v) : 0;
}

// Blocks of `threads` threads and `sharedBytes` of shared memory that a multiprocessor holds.
int blocksPerMultiprocessor(std::size_t sharedBytes, int threads, const CudaContext& ctx) {
    const auto bySharedMemory = static_cast<int>(ctx.sharedMemoryPerMultiprocessor() / (sharedBytes + 1024));
    return std::max(1, std::min(bySharedMemory, 2048 / threads));
}

}  // namespace

template <class T>
TileShape tileShapeFor(const SweepRequest& req, int width, int height, const CudaContext& ctx) {
    TileShape shape;
    const LineStages st = lineStagesOf(req.op, segmentOf(req.length), std::max(width, height));
    const int margin = std::max(st.reachLeft(), st.reachRight());
    if (std::max(width, height) + margin >= 32767) return shape;  // the offsets are stepped in 32 bits
    const int scratch = st.first.length() + (st.twoStage ? st.second.length() : 1);
    const std::size_t all = ctx.sharedMemoryPerBlock() - 1024;
    const int forcedSide = forcedSetting("LINESCOPE_TILE_SIDE");
    const int forcedThreads = forcedSetting("LINESCOPE_TILE_THREADS");
    // A cost fitted to measurements (tests/bench/band-kernel-notes.md, 2026-11-28): the steps
    // walked for each output, 1 + 1.44 · 2 · margin / side (the lines crossing a square, on
    // average over the angles, times the margin walked at both ends), weigh more than their
    // count says (the blocks' tails, the square's load); fewer than 32 resident warps hide
    // less latency.
    double bestCost = 0;
    for (int threads : {1024, 512, 256}) {
        if (forcedThreads > 0 && threads != forcedThreads) continue;
        for (int side : {128, 96, 64, 48, 32}) {
            if (forcedSide > 0 && side != forcedSide) continue;
            // Below this, the margin's reads outweigh the square's: the band kernel is faster.
            if (forcedSide == 0 && margin > side) continue;
            // float32: 64-bit keys and 4-byte pixels leave small squares (64 at λ 41, on 8
            // warps), which still beat the band kernel (H200, λ 41: 640² 1.32 against 2.04 ms,
            // 3840×2160 21.8 against 36.6) but not with wider margins.
            if (std::is_floating_point_v<T> && forcedSide == 0 && 4 * margin > 3 * side) continue;
            const Layout l = layoutOf<T>(side, margin, scratch, threads);
            if (l.total > all) continue;
            const int warps = blocksPerMultiprocessor(l.total, threads, ctx) * threads / 32;
            const double cost = std::pow(1.0 + 1.44 * 2.0 * margin / side, 2.2) /
                                std::pow(std::min(warps, 32) / 32.0, 0.33);
            if (shape.side > 0 && cost >= bestCost) continue;
            bestCost = cost;
            shape.side = side;
            shape.threads = threads;
            shape.sharedBytes = l.total;
        }
    }
    return shape;
}

namespace {

// How a tile sweep of a width × height image runs, and the device memory it reserves.
struct TilePlan {
    LineStages st;
    Layout layout{};
    int squaresX = 0, squares = 0, batches = 0, anglesPerGroup = 0, groups = 0, partialsPerAngle = 0;
    std::size_t planePixels = 0, bestBytes = 0, argBytes = 0, partialBytes = 0;
    std::size_t bytes = 0;
};

template <class T>
TilePlan planTileSweep(const SweepRequest& req, int W, int H, const TileShape& shape, const CudaContext& ctx) {
    TilePlan p;
    const int N = req.angles.count;
    p.st = lineStagesOf(req.op, segmentOf(req.length), std::max(W, H));
    const int side = shape.side, threads = shape.threads;
    const int scratch = p.st.first.length() + (p.st.twoStage ? p.st.second.length() : 1);
    p.layout = layoutOf<T>(side, std::max(p.st.reachLeft(), p.st.reachRight()), scratch, threads);
    p.squaresX = (W + side - 1) / side;
    p.squares = p.squaresX * ((H + side - 1) / side);
    p.batches = (2 * side + 2 + 31) / 32;  // lines crossing a square: at most side · (1 + |slope|) + 2
    // Groups of angles: a block's time grows with its angles, plus about three angles' worth
    // for loading its square and writing its planes, so the sweep takes about
    // (waves of blocks) × (angles a group + 3); pick the count of groups that makes this least.
    const long long slots =
        static_cast<long long>(blocksPerMultiprocessor(p.layout.total, threads, ctx)) * ctx.multiprocessors();
    const int launchAngles = std::min(N, kMaxTileAngles);
    int groupsPerLaunch = 1;
    long long bestCost = -1;
    for (int g = 1; g <= std::min(launchAngles, 64); ++g) {
        const long long waves = (static_cast<long long>(p.squares) * g + slots - 1) / slots;
        const long long cost = waves * ((launchAngles + g - 1) / g + 3);
        if (bestCost < 0 || cost < bestCost) {
            bestCost = cost;
            groupsPerLaunch = g;
        }
    }
    p.anglesPerGroup = (launchAngles + groupsPerLaunch - 1) / groupsPerLaunch;
    for (int k0 = 0; k0 < N; k0 += kMaxTileAngles)
        p.groups += (std::min(kMaxTileAngles, N - k0) + p.anglesPerGroup - 1) / p.anglesPerGroup;

    p.planePixels = static_cast<std::size_t>(W) * H;
    const std::size_t planes = p.planePixels * p.groups;
    auto alignUp = [](std::size_t v) { return (v + 255) / 256 * 256; };
    p.bestBytes = alignUp(planes * sizeof(T));
    p.argBytes = alignUp(planes * sizeof(std::uint16_t));
    p.partialsPerAngle = p.squares * p.batches;
    p.partialBytes = static_cast<std::size_t>(N) * p.partialsPerAngle * sizeof(SpectrumSum<T>);
    p.bytes = 2 * p.bestBytes + p.argBytes + p.partialBytes + 3 * devicePitch(W, sizeof(T)) * H +
              devicePitch(W, sizeof(std::uint16_t)) * H + N * (sizeof(double) + sizeof(std::int64_t));
    return p;
}

}  // namespace

template <class T>
std::size_t tileSweepBytes(const SweepRequest& req, int width, int height, const TileShape& shape,
                           const CudaContext& ctx) {
    return planTileSweep<T>(req, width, height, shape, ctx).bytes;
}

namespace {

template <class T, class Values>
DeviceSweepResult<typename Values::Out> tileSweepOf(DeviceImageView<const T> src, const Values& values,
                                                    const SweepRequest& req, const TileShape& shape, CudaContext& ctx,
                                                    const ZoneFrame& frame) {
    using Out = typename Values::Out;
    const int W = src.width, H = src.height, N = req.angles.count;
    const TilePlan p = planTileSweep<T>(req, W, H, shape, ctx);
    const LineStages& st = p.st;
    const Layout& l = p.layout;
    const int side = shape.side, threads = shape.threads, squares = p.squares, groups = p.groups;
    const int anglesPerGroup = p.anglesPerGroup, partialsPerAngle = p.partialsPerAngle;
    const std::size_t bestBytes = p.bestBytes, argBytes = p.argBytes, partialBytes = p.partialBytes;
    ctx.requireDeviceMemory(p.bytes, "this sweep");

    GroupPlanes<T, Values> gp;
    auto* acc = static_cast<unsigned char*>(ctx.buffer(BufferSlot::Accumulators).reserve(2 * bestBytes + argBytes));
    gp.best = reinterpret_cast<T*>(acc);
    gp.other = reinterpret_cast<T*>(acc + bestBytes);
    gp.arg = reinterpret_cast<std::uint16_t*>(acc + 2 * bestBytes);
    gp.planePixels = p.planePixels;
    gp.partials = ctx.buffer(BufferSlot::Partials).as<SpectrumSum<Out>>(static_cast<std::size_t>(N) * partialsPerAngle);
    LS_CUDA_CHECK(cudaMemsetAsync(gp.partials, 0, partialBytes, ctx.stream()));

    TileParams prm;
    prm.width = W;
    prm.height = H;
    prm.side = side;
    prm.margin = std::max(st.reachLeft(), st.reachRight());
    prm.squaresX = p.squaresX;
    prm.inPitch = l.inPitch;
    prm.accPitch = l.accPitch;
    prm.offKeys = static_cast<int>(l.offKeys);
    prm.offOther = static_cast<int>(l.offOther);
    prm.offScratch = static_cast<int>(l.offScratch);
    prm.batches = p.batches;
    prm.keepBegin = frame.keepBegin;
    prm.keepEnd = frame.keepEnd;
    prm.w1 = st.first;
    prm.w2 = st.twoStage ? st.second : Window{};
    prm.anglesPerGroup = anglesPerGroup;
    prm.partialsPerAngle = partialsPerAngle;

    auto run = [&](auto minFirst, auto twoStage) {
        constexpr bool kMin = decltype(minFirst)::value, kTwo = decltype(twoStage)::value;
        auto* kernel = threads == 1024  ? &tileSweepKernel<T, Values, kMin, kTwo, 1024>
                       : threads == 512 ? &tileSweepKernel<T, Values, kMin, kTwo, 512>
                                        : &tileSweepKernel<T, Values, kMin, kTwo, 256>;
        ctx.allowDynamicShared(kernel, l.total);
        int firstGroup = 0;
        for (int k0 = 0; k0 < N; k0 += kMaxTileAngles) {
            prm.angleCount = std::min(kMaxTileAngles, N - k0);
            prm.firstAngle = k0;
            prm.firstGroup = firstGroup;
            for (int j = 0; j < prm.angleCount; ++j) {
                // A zone draws the whole image's lines (stripFamily: the phase of its first row).
                const LineFamily fam = stripFamily(lineFamily(req.angles.angle(k0 + j), W, H), frame.originY, H);
                prm.angles[j] = TileAngle{fam.slope, static_cast<std::int32_t>(fam.phase), fam.yMajor ? 1 : 0};
            }
            const int launchGroups = (prm.angleCount + anglesPerGroup - 1) / anglesPerGroup;
            const dim3 grid(static_cast<unsigned>(squares), static_cast<unsigned>(launchGroups));
            kernel<<<grid, threads, l.total, ctx.stream()>>>(src, prm, gp, values);
            LS_CUDA_CHECK_LAUNCH("tileSweepKernel");
            firstGroup += launchGroups;
        }
    };
    if (st.minFirst) {
        if (st.twoStage) run(std::true_type{}, std::true_type{});
        else run(std::true_type{}, std::false_type{});
    } else {
        if (st.twoStage) run(std::false_type{}, std::true_type{});
        else run(std::false_type{}, std::false_type{});
    }

    DeviceSweepResult<Out> r = sweepResultBuffers<Out>(W, H, N, ctx);
    const dim3 block(256), grid(static_cast<unsigned>((W + 255) / 256), static_cast<unsigned>(H));
    if (st.minFirst)
        mergeGroups<T, Values, true><<<grid, block, 0, ctx.stream()>>>(gp, values, groups, W, H, r.sup, r.inf,
                                                                        r.strength, r.argIndex);
    else
        mergeGroups<T, Values, false><<<grid, block, 0, ctx.stream()>>>(gp, values, groups, W, H, r.sup, r.inf,
                                                                         r.strength, r.argIndex);
    LS_CUDA_CHECK_LAUNCH("mergeGroups");

    sumSpectrum<Out><<<N, 256, 0, ctx.stream()>>>(gp.partials, partialsPerAngle, r.spectrumExact, r.spectrum);
    LS_CUDA_CHECK_LAUNCH("sumSpectrum");
    return r;
}

}  // namespace

template <class T>
DeviceSweepResult<T> tileSweep(DeviceImageView<const T> src, const SweepRequest& req, const TileShape& shape,
                               CudaContext& ctx, const ZoneFrame& frame) {
    return tileSweepOf(src, OwnValues<T>{}, req, shape, ctx, frame);
}

DeviceSweepResult<float> rankedTileSweep(const FloatRanks& ranks, const SweepRequest& req, const TileShape& shape,
                                         CudaContext& ctx, const ZoneFrame& frame) {
    return tileSweepOf(ranks.ranks, RankedValues{ranks.values}, req, shape, ctx, frame);
}

std::size_t rankedTileSweepBytes(const SweepRequest& req, int width, int height, const TileShape& shape,
                                 const CudaContext& ctx) {
    // The 16-bit sweep's memory, with float result images instead of 16-bit ones.
    return tileSweepBytes<std::uint16_t>(req, width, height, shape, ctx) +
           3 * (devicePitch(width, sizeof(float)) - devicePitch(width, sizeof(std::uint16_t))) * height +
           floatRanksBytes(width, height);
}

#define LS_INSTANTIATE(T)                                                                                          \
    template TileShape tileShapeFor<T>(const SweepRequest&, int, int, const CudaContext&);                         \
    template std::size_t tileSweepBytes<T>(const SweepRequest&, int, int, const TileShape&, const CudaContext&);  \
    template DeviceSweepResult<T> tileSweep<T>(DeviceImageView<const T>, const SweepRequest&, const TileShape&,  \
                                               CudaContext&, const ZoneFrame&);
LS_INSTANTIATE(std::uint8_t)
LS_INSTANTIATE(std::uint16_t)
LS_INSTANTIATE(float)
#undef LS_INSTANTIATE

}  // namespace linescope::cuda
