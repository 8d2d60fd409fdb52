#include "compute/cuda/line_spectrum_warps.h"

#include "compute/cuda/classic_vhgw.h"
#include "compute/cuda/cuda_check.h"
#include "compute/cuda/sweep_results.cuh"
#include "compute/line_geometry.h"
#include "compute/line_stages.h"
#include "compute/pixel_rules.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

namespace linescope::cuda {
namespace {

constexpr int kMaxWarpsPerBlock = 8;
constexpr int kMaxJobs = 32;
constexpr int kMinWindow = 128;    // shorter windows leave most of a tile's lanes idle
constexpr int kMaxLine = 4096;     // positions a warp holds (three arrays of them)

// A warp takes P neighbouring lines of one angle at once, one line a byte (u8) or half-word
// (u16) of each 32-bit word: every line has the same length and block boundaries, so each
// stage's min and max run as one SIMD instruction on P lines (__vminu4, __vmaxu2, …) and the
// warp's scans and barriers are shared by the P lines.
template <class T>
struct Lanes;
template <>
struct Lanes<std::uint8_t> {
    static constexpr int P = 4, bits = 8;
    __device__ static unsigned minOf(unsigned x, unsigned y) { return __vminu4(x, y); }
    __device__ static unsigned maxOf(unsigned x, unsigned y) { return __vmaxu4(x, y); }
    __device__ static unsigned sum(unsigned x) { return __vsadu4(x, 0u); }
};
template <>
struct Lanes<std::uint16_t> {
    static constexpr int P = 2, bits = 16;
    __device__ static unsigned minOf(unsigned x, unsigned y) { return __vminu2(x, y); }
    __device__ static unsigned maxOf(unsigned x, unsigned y) { return __vmaxu2(x, y); }
    __device__ static unsigned sum(unsigned x) { return (x & 0xFFFFu) + (x >> 16); }
};

// A stage's operation on packed lines; its neutral element is all ones (min) or zero (max)
// in every field, as for the unpacked type.
template <class T, bool IsMin>
struct PackedOp {
    __device__ static unsigned apply(unsigned x, unsigned y) {
        return IsMin ? Lanes<T>::minOf(x, y) : Lanes<T>::maxOf(x, y);
    }
    static constexpr unsigned neutral = IsMin ? 0xFFFFFFFFu : 0u;
};

// Segmented warp scans of (extreme since the last block boundary, boundary seen): lane 0
// first (Forward) or lane 31 first.
template <class Op, bool Forward>
__device__ __forceinline__ unsigned carryInto(unsigned v, bool boundary, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const unsigned ov = Forward ? __shfl_up_sync(0xffffffffu, v, d) : __shfl_down_sync(0xffffffffu, v, d);
        const bool ob = Forward ? __shfl_up_sync(0xffffffffu, boundary, d) : __shfl_down_sync(0xffffffffu, boundary, d);
        if (Forward ? lane >= d : lane + d < 32) {
            if (!boundary) v = Op::apply(v, ov);
            boundary = boundary || ob;
        }
    }
    // Exclusive: what the lanes before this one (after it, backwards) carry into it.
    const unsigned ex = Forward ? __shfl_up_sync(0xffffffffu, v, 1) : __shfl_down_sync(0xffffffffu, v, 1);
    return (Forward ? lane == 0 : lane == 31) ? Op::neutral : ex;
}

// One stage over a[0, n) in place: out(t) = op over [t − L, t + R] ∩ [0, n). g and h: the
// prefix and suffix extremes within blocks of w = L + R + 1 positions from 0, each lane
// scanning a contiguous run of positions and taking the lanes before it (after it) as a
// carry up to its first block boundary; a whole window meets two neighbouring blocks (or is
// one), a clipped one is a prefix of block 0 or a suffix of the array.
template <class Op>
__device__ void stage(unsigned* a, unsigned* g, unsigned* h, int n, int L, int R, int lane) {
    const int w = L + R + 1;
    const int per = (n + 31) / 32 | 1;  // odd: the 32 lanes' runs start in 32 different banks
    const int i0 = min(lane * per, n), i1 = min(i0 + per, n);
    // Prefixes: reset at block starts (i % w == 0).
    {
        unsigned run = Op::neutral;
        bool boundary = false;
        int firstStart = i1;  // the lane's first block start
        int r = i0 % w;
        for (int i = i0; i < i1; ++i) {
            if (r == 0) {
                run = Op::neutral;
                if (!boundary) firstStart = i;
                boundary = true;
            }
            run = Op::apply(run, a[i]);
            g[i] = run;
            if (++r == w) r = 0;
        }
        const unsigned carry = carryInto<Op, true>(run, boundary, lane);
        for (int i = i0; i < firstStart; ++i) g[i] = Op::apply(g[i], carry);
    }
    // Suffixes: reset at block ends (the last position of a block, or n − 1).
    {
        unsigned run = Op::neutral;
        bool boundary = false;
        int firstEnd = i0 - 1;  // the lane's last block end, scanning down
        int r = i1 % w;          // (i + 1) mod w
        for (int i = i1 - 1; i >= i0; --i) {
            if (i == n - 1 || r == 0) {
                run = Op::neutral;
                if (!boundary) firstEnd = i;
                boundary = true;
            }
            run = Op::apply(run, a[i]);
            h[i] = run;
            r = r == 0 ? w - 1 : r - 1;
        }
        const unsigned carry = carryInto<Op, false>(run, boundary, lane);
        for (int i = i1 - 1; i > firstEnd; --i) h[i] = Op::apply(h[i], carry);
    }
    __syncwarp();
    const int lastBlock = (n - 1) / w;
    for (int t = lane; t < n; t += 32) {
        const int lo = t - L, hi = t + R;
        unsigned r;
        if (lo <= 0) r = g[min(hi, n - 1)];  // then hi < w: block 0
        else if (hi >= n - 1) r = lo / w == lastBlock ? h[lo] : Op::apply(h[lo], g[n - 1]);
        else r = Op::apply(h[lo], g[hi]);
        a[t] = r;
    }
    __syncwarp();
}

// One angle: its lines c ∈ [firstLine, firstLine + lines) read view.at(t, c + off(t)).
struct Job {
    std::int32_t slope, phase, firstLine, lines, angleIndex, layout;
};
struct Jobs {
    Job job[kMaxJobs];
    int count = 0;
    int firstItem[kMaxJobs + 1] = {};  // the warp items (P lines each) of job j: [firstItem[j], firstItem[j + 1])
};

template <class T, bool MinFirst, bool TwoStage>
__global__ void __launch_bounds__(kMaxWarpsPerBlock * 32)
    lineSpectrumKernel(DeviceImageView<const T> image0, DeviceImageView<const T> image1, const __grid_constant__ Jobs jobs,
                       StageWindow first, StageWindow second, int stride, unsigned long long* sums) {
    constexpr int P = Lanes<T>::P, bits = Lanes<T>::bits;
    extern __shared__ __align__(16) unsigned char shared[];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int item = blockIdx.x * (blockDim.x >> 5) + warp;
    if (item >= jobs.firstItem[jobs.count]) return;
    int j = 0;
    while (item >= jobs.firstItem[j + 1]) ++j;
    const Job job = jobs.job[j];
    const DeviceImageView<const T> view = job.layout == 0 ? image0 : image1;
    const int n = view.width, m = view.height;
    unsigned* a = reinterpret_cast<unsigned*>(shared) + static_cast<std::size_t>(warp) * 3 * stride;
    unsigned* g = a + stride;
    unsigned* h = g + stride;
    const int c = job.firstLine + P * (item - jobs.firstItem[j]);
    const int linesHere = min(P, job.firstLine + job.lines - c);
    // lineOffset in 32 bits: |t·slope| < 2^12 · 2^16 and phase < 2^16 cannot overflow.
    auto minorAt = [&](int t) { return c + ((t * job.slope + job.phase) >> 16); };
    // The fields of the lines this warp owns whose pixel at t lies in the image.
    auto inside = [&](int t) {
        const int u = minorAt(t);
        const int lo = max(0, -u), hi = min(linesHere, m - u);
        if (hi <= lo) return 0u;
        return static_cast<unsigned>(((1ull << (hi * bits)) - 1) ^ ((1ull << (lo * bits)) - 1));
    };

    using First = PackedOp<T, MinFirst>;
    using Second = PackedOp<T, !MinFirst>;
    // Outside the image each stage sees its own neutral value.
    for (int t = lane; t < n; t += 32) {
        const int u = minorAt(t);
        unsigned word = First::neutral;
#pragma unroll
        for (int k = 0; k < P; ++k)
            if (k < linesHere && u + k >= 0 && u + k < m) {
                const unsigned field = ((1ull << bits) - 1) << (k * bits);
                word = (word & ~field) | (static_cast<unsigned>(view.at(t, u + k)) << (k * bits));
            }
        a[t] = word;
    }
    __syncwarp();
    stage<First>(a, g, h, n, first.left, first.right, lane);
    if constexpr (TwoStage) {
        for (int t = lane; t < n; t += 32) {
            const unsigned keep = inside(t);
            a[t] = (a[t] & keep) | (Second::neutral & ~keep);
        }
        __syncwarp();
        stage<Second>(a, g, h, n, second.left, second.right, lane);
    }
    unsigned long long sum = 0;
    for (int t = lane; t < n; t += 32) sum += Lanes<T>::sum(a[t] & inside(t));
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, d);
    if (lane == 0) atomicAdd(&sums[job.angleIndex], sum);
}

// Each warp holds three arrays of the longest line of the launch: the kernel waits on
// shared-memory latency, so the warps a multiprocessor keeps resident set its speed.
std::size_t warpStride(int longestLine) { return static_cast<std::size_t>((longestLine + 3) / 4 * 4); }
std::size_t warpBytes(int longestLine) { return 3 * warpStride(longestLine) * sizeof(unsigned); }

bool forcedBand() {
    const char* v = std::getenv("LINESCOPE_SPECTRUM_KERNEL");
    return v && std::strcmp(v, "band") == 0;
}

}  // namespace

template <class T>
bool lineSpectrumWarpsTake(int width, int height, const SweepRequest& req, const ZoneFrame& frame,
                           const CudaContext& ctx) {
    if constexpr (std::is_floating_point_v<T>) {
        return false;
    } else {
        // A zone's spectrum counts only its kept rows: the band kernel's business.
        if (forcedBand() || frame.originY != 0 || frame.keepBegin > 0 || frame.keepEnd < height) return false;
        if (std::max(width, height) > kMaxLine) return false;
        const LineStages st = lineStagesOf(req.op, segmentOf(req.length), std::max(width, height));
        if (st.first.left + st.first.right + 1 < kMinWindow) return false;
        return warpBytes(std::max(width, height)) <= ctx.sharedMemoryPerBlock();
    }
}

template <class T>
DeviceSpectrum lineSpectrumWarps(DeviceImageView<const T> src, const SweepRequest& req, CudaContext& ctx) {
    const int W = src.width, H = src.height, N = req.angles.count;
    const LineStages st = lineStagesOf(req.op, segmentOf(req.length), std::max(W, H));
    // Layout 0: x-major angles, whose lines run along the rows of src; layout 1: y-major ones,
    // along the rows of the transposed image.
    std::vector<Job> all;
    bool anyYMajor = false;
    for (int k = 0; k < N; ++k) {
        const LineFamily fam = lineFamily(req.angles.angle(k), W, H);
        const std::int64_t first = fam.firstLine(), last = fam.lastLine();
        all.push_back({fam.slope, fam.phase, static_cast<std::int32_t>(first), static_cast<std::int32_t>(last - first + 1),
                       k, fam.yMajor ? 1 : 0});
        anyYMajor = anyYMajor || fam.yMajor;
    }
    ctx.requireDeviceMemory(N * (sizeof(unsigned long long) + sizeof(double) + sizeof(std::int64_t)) +
                                (anyYMajor ? devicePitch(H, sizeof(T)) * W : 0),
                            "this sweep");
    auto* sums = ctx.buffer(BufferSlot::Partials).as<unsigned long long>(static_cast<std::size_t>(N));
    LS_CUDA_CHECK(cudaMemsetAsync(sums, 0, N * sizeof(unsigned long long), ctx.stream()));
    DeviceImageView<const T> transposed{};
    if (anyYMajor) {
        const DeviceImageView<T> t = ctx.image<T>(BufferSlot::Temp, H, W);
        transposeImage<T>(src, t, ctx.stream());
        transposed = t;
    }
    const int longest = anyYMajor ? std::max(W, H) : W;
    const std::size_t stride = warpStride(longest), perWarp = warpBytes(longest);
    // About four blocks a multiprocessor, so that one block's tail leaves the others running.
    const int warpsPerSM = static_cast<int>(ctx.sharedMemoryPerMultiprocessor() / perWarp);
    const int warpsPerBlock = static_cast<int>(std::clamp<std::size_t>(
        std::min<std::size_t>(warpsPerSM / 4, ctx.sharedMemoryPerBlock() / perWarp), 1, kMaxWarpsPerBlock));
    const std::size_t sharedBytes = perWarp * static_cast<std::size_t>(warpsPerBlock);
    constexpr int P = Lanes<T>::P;
    for (std::size_t j0 = 0; j0 < all.size(); j0 += kMaxJobs) {
        Jobs jobs;
        jobs.count = static_cast<int>(std::min<std::size_t>(kMaxJobs, all.size() - j0));
        for (int j = 0; j < jobs.count; ++j) {
            jobs.job[j] = all[j0 + static_cast<std::size_t>(j)];
            jobs.firstItem[j + 1] = jobs.firstItem[j] + (jobs.job[j].lines + P - 1) / P;
        }
        const unsigned blocks = static_cast<unsigned>((jobs.firstItem[jobs.count] + warpsPerBlock - 1) / warpsPerBlock);
        if (blocks == 0) continue;
        auto launch = [&](auto kernel) {
            ctx.allowDynamicShared(kernel, sharedBytes);
            kernel<<<blocks, warpsPerBlock * 32, sharedBytes, ctx.stream()>>>(src, transposed, jobs, st.first,
                                                                                 st.second, static_cast<int>(stride), sums);
            LS_CUDA_CHECK_LAUNCH("lineSpectrumKernel");
        };
        if (st.twoStage) {
            if (st.minFirst) launch(&lineSpectrumKernel<T, true, true>);
            else launch(&lineSpectrumKernel<T, false, true>);
        } else {
            if (st.minFirst) launch(&lineSpectrumKernel<T, true, false>);
            else launch(&lineSpectrumKernel<T, false, false>);
        }
    }
    // One exact sum an angle (non-negative, so the same bits as a signed 64-bit sum).
    const DeviceSpectrum r = spectrumBuffers<T>(N, ctx);
    sumSpectrum<T><<<N, 256, 0, ctx.stream()>>>(reinterpret_cast<const SpectrumSum<T>*>(sums), 1, r.exact, r.values);
    LS_CUDA_CHECK_LAUNCH("sumSpectrum");
    return r;
}

template bool lineSpectrumWarpsTake<std::uint8_t>(int, int, const SweepRequest&, const ZoneFrame&, const CudaContext&);
template bool lineSpectrumWarpsTake<std::uint16_t>(int, int, const SweepRequest&, const ZoneFrame&, const CudaContext&);
template bool lineSpectrumWarpsTake<float>(int, int, const SweepRequest&, const ZoneFrame&, const CudaContext&);
template DeviceSpectrum lineSpectrumWarps<std::uint8_t>(DeviceImageView<const std::uint8_t>, const SweepRequest&,
                                                        CudaContext&);
template DeviceSpectrum lineSpectrumWarps<std::uint16_t>(DeviceImageView<const std::uint16_t>, const SweepRequest&,
                                                         CudaContext&);

}  // namespace linescope::cuda
