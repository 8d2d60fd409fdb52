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

constexpr int kWarpsPerBlock = 4;
constexpr int kMaxJobs = 32;
constexpr int kMinWindow = 128;    // shorter windows leave most of a tile's lanes idle
constexpr int kMaxLine = 4096;     // positions a warp holds (three arrays of them)

// One angle: its lines c ∈ [firstLine, firstLine + lines) read view.at(t, c + off(t)).
struct Job {
    std::int32_t slope, phase, firstLine, lines, angleIndex, layout;
};
struct Jobs {
    Job job[kMaxJobs];
    int count = 0;
    int firstItem[kMaxJobs + 1] = {};  // the warp items of job j: [firstItem[j], firstItem[j + 1])
};

// Segmented warp scans of (extreme since the last block boundary, boundary seen): lane 0
// first (Forward) or lane 31 first.
template <class T, bool IsMin, bool Forward>
__device__ __forceinline__ T carryInto(T v, bool boundary, int lane) {
    using Op = ExtremeOp<T, IsMin>;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const T ov = static_cast<T>(Forward ? __shfl_up_sync(0xffffffffu, static_cast<unsigned>(v), d)
                                            : __shfl_down_sync(0xffffffffu, static_cast<unsigned>(v), d));
        const bool ob = Forward ? __shfl_up_sync(0xffffffffu, boundary, d) : __shfl_down_sync(0xffffffffu, boundary, d);
        if (Forward ? lane >= d : lane + d < 32) {
            if (!boundary) v = Op::apply(v, ov);
            boundary = boundary || ob;
        }
    }
    // Exclusive: what the lanes before this one (after it, backwards) carry into it.
    const T ex = static_cast<T>(Forward ? __shfl_up_sync(0xffffffffu, static_cast<unsigned>(v), 1)
                                        : __shfl_down_sync(0xffffffffu, static_cast<unsigned>(v), 1));
    return (Forward ? lane == 0 : lane == 31) ? Op::neutral() : ex;
}

// One stage over a[0, n) in place: out(t) = op over [t − L, t + R] ∩ [0, n). g and h: the
// prefix and suffix extremes within blocks of w = L + R + 1 positions from 0, each lane
// scanning a contiguous run of positions and taking the lanes before it (after it) as a
// carry up to its first block boundary; a whole window meets two neighbouring blocks (or is
// one), a clipped one is a prefix of block 0 or a suffix of the array.
template <class T, bool IsMin>
__device__ void stage(T* a, T* g, T* h, int n, int L, int R, int lane) {
    using Op = ExtremeOp<T, IsMin>;
    const int w = L + R + 1;
    const int per = (n + 31) / 32;
    const int i0 = min(lane * per, n), i1 = min(i0 + per, n);
    // Prefixes: reset at block starts (i % w == 0).
    {
        T run = Op::neutral();
        bool boundary = false;
        int firstStart = i1;  // the lane's first block start
        int r = i0 % w;
        for (int i = i0; i < i1; ++i) {
            if (r == 0) {
                run = Op::neutral();
                if (!boundary) firstStart = i;
                boundary = true;
            }
            run = Op::apply(run, a[i]);
            g[i] = run;
            if (++r == w) r = 0;
        }
        const T carry = carryInto<T, IsMin, true>(run, boundary, lane);
        for (int i = i0; i < firstStart; ++i) g[i] = Op::apply(g[i], carry);
    }
    // Suffixes: reset at block ends (the last position of a block, or n − 1).
    {
        T run = Op::neutral();
        bool boundary = false;
        int firstEnd = i0 - 1;  // the lane's last block end, scanning down
        int r = i1 % w;          // (i + 1) mod w
        for (int i = i1 - 1; i >= i0; --i) {
            if (i == n - 1 || r == 0) {
                run = Op::neutral();
                if (!boundary) firstEnd = i;
                boundary = true;
            }
            run = Op::apply(run, a[i]);
            h[i] = run;
            r = r == 0 ? w - 1 : r - 1;
        }
        const T carry = carryInto<T, IsMin, false>(run, boundary, lane);
        for (int i = i1 - 1; i > firstEnd; --i) h[i] = Op::apply(h[i], carry);
    }
    __syncwarp();
    const int lastBlock = (n - 1) / w;
    for (int t = lane; t < n; t += 32) {
        const int lo = t - L, hi = t + R;
        T r;
        if (lo <= 0) r = g[min(hi, n - 1)];  // then hi < w: block 0
        else if (hi >= n - 1) r = lo / w == lastBlock ? h[lo] : Op::apply(h[lo], g[n - 1]);
        else r = Op::apply(h[lo], g[hi]);
        a[t] = r;
    }
    __syncwarp();
}

template <class T, bool MinFirst, bool TwoStage>
__global__ void __launch_bounds__(kWarpsPerBlock * 32)
    lineSpectrumKernel(DeviceImageView<const T> image0, DeviceImageView<const T> image1, const __grid_constant__ Jobs jobs,
                       StageWindow first, StageWindow second, unsigned long long* sums) {
    extern __shared__ __align__(16) unsigned char shared[];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int item = blockIdx.x * kWarpsPerBlock + warp;
    if (item >= jobs.firstItem[jobs.count]) return;
    int j = 0;
    while (item >= jobs.firstItem[j + 1]) ++j;
    const Job job = jobs.job[j];
    const DeviceImageView<const T> view = job.layout == 0 ? image0 : image1;
    const int n = view.width, m = view.height;
    T* a = reinterpret_cast<T*>(shared) + static_cast<std::size_t>(warp) * 3 * kMaxLine;
    T* g = a + kMaxLine;
    T* h = g + kMaxLine;
    const int c = job.firstLine + (item - jobs.firstItem[j]);
    auto minorAt = [&](int t) { return c + static_cast<int>(lineOffset(t, job.slope, job.phase)); };

    using First = ExtremeOp<T, MinFirst>;
    using Second = ExtremeOp<T, !MinFirst>;
    // Outside the image each stage sees its own neutral value.
    for (int t = lane; t < n; t += 32) {
        const int u = minorAt(t);
        a[t] = u >= 0 && u < m ? view.at(t, u) : First::neutral();
    }
    __syncwarp();
    stage<T, MinFirst>(a, g, h, n, first.left, first.right, lane);
    if constexpr (TwoStage) {
        for (int t = lane; t < n; t += 32) {
            const int u = minorAt(t);
            if (u < 0 || u >= m) a[t] = Second::neutral();
        }
        __syncwarp();
        stage<T, !MinFirst>(a, g, h, n, second.left, second.right, lane);
    }
    unsigned long long sum = 0;
    for (int t = lane; t < n; t += 32) {
        const int u = minorAt(t);
        if (u >= 0 && u < m) sum += a[t];
    }
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, d);
    if (lane == 0) atomicAdd(&sums[job.angleIndex], sum);
}

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
        return static_cast<std::size_t>(kWarpsPerBlock) * 3 * kMaxLine * sizeof(T) <= ctx.sharedMemoryPerBlock();
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
    const std::size_t sharedBytes = static_cast<std::size_t>(kWarpsPerBlock) * 3 * kMaxLine * sizeof(T);
    for (std::size_t j0 = 0; j0 < all.size(); j0 += kMaxJobs) {
        Jobs jobs;
        jobs.count = static_cast<int>(std::min<std::size_t>(kMaxJobs, all.size() - j0));
        for (int j = 0; j < jobs.count; ++j) {
            jobs.job[j] = all[j0 + static_cast<std::size_t>(j)];
            jobs.firstItem[j + 1] = jobs.firstItem[j] + jobs.job[j].lines;
        }
        const unsigned blocks = static_cast<unsigned>((jobs.firstItem[jobs.count] + kWarpsPerBlock - 1) / kWarpsPerBlock);
        if (blocks == 0) continue;
        auto launch = [&](auto kernel) {
            LS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(sharedBytes)));
            kernel<<<blocks, kWarpsPerBlock * 32, sharedBytes, ctx.stream()>>>(src, transposed, jobs, st.first,
                                                                                 st.second, sums);
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
