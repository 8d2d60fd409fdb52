// Sweeps on the GPU: every angle's operator computed by the band kernel and folded at once
// into a few accumulator sets ("slots"), so that no image per angle ever reaches device
// memory. A launch runs up to 32 angles side by side, one slot each (angles of one launch
// cover the same pixels, so they cannot share a set); launches follow each other on the
// stream, so each slot sees its angles in increasing order and keeps the smallest k on ties.
// y-major angles fold into slots laid out like the image; x-major angles run on the
// transposed image (one transpose for the whole sweep) and fold into transposed slots.
// A last pass merges all slots through shared-memory tiles, and one block per angle sums
// the spectrum's partial sums in a fixed order (exact 64-bit integers for integer images).
#include "compute/cuda/classic_vhgw.h"
#include "compute/cuda/cuda_line_api.h"
#include "compute/cuda/line_band_launch.cuh"
#include "compute/cuda/line_spectrum_warps.h"
#include "compute/cuda/line_tile_sweep.h"
#include "compute/cuda/sweep_results.cuh"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>

namespace linescope::cuda {

namespace {

using band::SumOf;

// Merges the slots into the results; ties between slots go to the smaller angle index.
// A block takes a 32×32 tile; transposed slots are read row-wise into shared memory and
// read back column-wise, so that every global access is coalesced.
template <class T, bool BestIsMax>
__global__ void __launch_bounds__(256) mergeSlots(const T* __restrict__ best, const T* __restrict__ other,
                                                   const std::uint16_t* __restrict__ arg, std::size_t slotPixels,
                                                   int normalSlots, int transposedSlots, int width, int height,
                                                   DeviceImageView<T> sup, DeviceImageView<T> inf,
                                                   DeviceImageView<T> strength, DeviceImageView<std::uint16_t> argOut) {
    __shared__ T tileBest[32][33], tileOther[32][33];
    __shared__ std::uint16_t tileArg[32][33];
    const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;  // 32 × 8 threads
    const int x0 = blockIdx.x * 32, y0 = blockIdx.y * 32;
    T b[4], o[4];
    std::uint16_t a[4];
    bool any = false;
    auto fold = [&](int i, T bs, T os, std::uint16_t as) {
        if (!any) {
            b[i] = bs;
            o[i] = os;
            a[i] = as;
            return;
        }
        const bool better = BestIsMax ? b[i] < bs : bs < b[i];
        if (better || (bs == b[i] && as < a[i])) {
            b[i] = bs;
            a[i] = as;
        }
        o[i] = BestIsMax ? (os < o[i] ? os : o[i]) : (o[i] < os ? os : o[i]);
    };
    for (int s = 0; s < normalSlots; ++s) {
        const std::size_t plane = static_cast<std::size_t>(s) * slotPixels;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int x = x0 + tx, y = y0 + ty + 8 * i;
            if (x < width && y < height) {
                const std::size_t j = plane + static_cast<std::size_t>(y) * width + x;
                fold(i, best[j], other[j], arg[j]);
            }
        }
        any = true;
    }
    for (int s = 0; s < transposedSlots; ++s) {
        // Transposed planes are height wide and width tall: pixel (x, y) sits at row x, column y.
        const std::size_t plane = static_cast<std::size_t>(normalSlots + s) * slotPixels;
        __syncthreads();
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int row = x0 + ty + 8 * i, col = y0 + tx;
            if (row < width && col < height) {
                const std::size_t j = plane + static_cast<std::size_t>(row) * height + col;
                tileBest[ty + 8 * i][tx] = best[j];
                tileOther[ty + 8 * i][tx] = other[j];
                tileArg[ty + 8 * i][tx] = arg[j];
            }
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int x = x0 + tx, y = y0 + ty + 8 * i;
            if (x < width && y < height) fold(i, tileBest[tx][ty + 8 * i], tileOther[tx][ty + 8 * i], tileArg[tx][ty + 8 * i]);
        }
        any = true;
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int x = x0 + tx, y = y0 + ty + 8 * i;
        if (x >= width || y >= height) continue;
        const T hi = BestIsMax ? b[i] : o[i], lo = BestIsMax ? o[i] : b[i];
        sup.at(x, y) = hi;
        inf.at(x, y) = lo;
        strength.at(x, y) = static_cast<T>(hi - lo);
        argOut.at(x, y) = a[i];
    }
}

void checkRequest(const SweepRequest& req) {
    if (req.op != MorphOp::Erode && req.op != MorphOp::Dilate && req.op != MorphOp::Open && req.op != MorphOp::Close)
        throw Error(std::string("a sweep takes erode, dilate, open or close, not ") + morphOpName(req.op));
    if (req.angles.count < 1 || req.angles.count > kMaxSweepAngles)
        throw Error("a sweep takes 1 to " + std::to_string(kMaxSweepAngles) + " angles (got " +
                    std::to_string(req.angles.count) + ")");
    if (req.length < 1)
        throw Error("the segment length must be at least 1 pixel (got " + std::to_string(req.length) + ")");
}

}  // namespace

namespace {

#ifndef LINESCOPE_SWEEP_BLOCKS_PER_SM
#define LINESCOPE_SWEEP_BLOCKS_PER_SM 16
#endif
// Blocks a launch aims to give each multiprocessor (angles side by side × their items).
constexpr long long kSweepBlocksPerSM = LINESCOPE_SWEEP_BLOCKS_PER_SM;
#ifndef LINESCOPE_SWEEP_MAX_SLOTS
#define LINESCOPE_SWEEP_MAX_SLOTS 32
#endif
// At most this many angles side by side (each is a set of accumulators: fewer keep them in L2).
constexpr long long kSweepMaxSlots = LINESCOPE_SWEEP_MAX_SLOTS < band::kMaxJobsPerLaunch ? LINESCOPE_SWEEP_MAX_SLOTS
                                                                                         : band::kMaxJobsPerLaunch;

// The angles of one layout (as the image, or transposed) and how they run.
struct LayoutAngles {
    std::vector<band::Job> jobs;  // in increasing k
    band::Plan plan;
    int slots = 0;
    int maxItems = 0;
};

// How a sweep of a width × height image runs, and the device memory it reserves.
struct SweepPlan {
    band::Stages st;
    LayoutAngles sets[2];
    int maxItems = 0;
    std::size_t slotPixels = 0, bestBytes = 0, argBytes = 0, partialCount = 0;
    std::size_t bytes = 0;  // every buffer sweepDevice reserves (the source is the caller's)
};

template <class T>
SweepPlan planSweep(int W, int H, const SweepRequest& req, const ZoneFrame& frame, CudaContext& ctx) {
    SweepPlan p;
    const int N = req.angles.count;
    p.st = band::stagesOf(req.op, segmentOf(req.length), W, H);

    // [0]: y-major angles on the image; [1]: x-major angles on the transposed image.
    LayoutAngles(&sets)[2] = p.sets;
    sets[0].plan = band::makePlan<T>(W, H, p.st, ctx);
    sets[1].plan = band::makePlan<T>(H, W, p.st, ctx);
    int itemsBound = 0;  // one band more than any phase of a zone can make (the memory estimate)
    for (int k = 0; k < N; ++k) {
        const LineFamily fam = stripFamily(lineFamily(req.angles.angle(k), W, H), frame.originY, H);
        LayoutAngles& set = sets[fam.yMajor ? 0 : 1];
        set.jobs.push_back(band::makeJob(band::asYMajor(fam), set.plan, k, 0, false));
        set.maxItems = std::max(set.maxItems, band::itemsOf(set.jobs.back()));
        itemsBound = std::max(itemsBound, (set.jobs.back().bands + 1) * set.jobs.back().zones);
    }
    p.maxItems = std::max(sets[0].maxItems, sets[1].maxItems);

    // Enough angles side by side to give every multiprocessor several blocks, as far as
    // memory (and the device memory cap) allows: each slot is a full set of accumulators.
    p.slotPixels = static_cast<std::size_t>(W) * H;
    const std::size_t slotBytes = p.slotPixels * (2 * sizeof(T) + sizeof(std::uint16_t));
    std::size_t freeBytes = 0, totalBytes = 0;
    LS_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    const std::size_t room = std::min(freeBytes, ctx.capLeft());
    for (LayoutAngles& set : sets) {
        const int count = static_cast<int>(set.jobs.size());
        if (count == 0) continue;
        long long items = 0;
        for (const band::Job& j : set.jobs) items += band::itemsOf(j);
        const long long perAngle = std::max<long long>(1, items / count);
        set.slots = static_cast<int>(
            std::min<long long>(kSweepMaxSlots, (kSweepBlocksPerSM * ctx.multiprocessors() + perAngle - 1) / perAngle));
        set.slots = std::clamp(set.slots, 1, count);
        while (set.slots > 1 && set.slots * slotBytes > room / 8) --set.slots;
    }
    const std::size_t planes = p.slotPixels * static_cast<std::size_t>(sets[0].slots + sets[1].slots);
    p.bestBytes = band::alignUp(planes * sizeof(T), 256);
    p.argBytes = band::alignUp(planes * sizeof(std::uint16_t), 256);
    p.partialCount = static_cast<std::size_t>(N) * p.maxItems;

    p.bytes = 2 * p.bestBytes + p.argBytes + static_cast<std::size_t>(N) * itemsBound * sizeof(SumOf<T>) +
              3 * devicePitch(W, sizeof(T)) * H + devicePitch(W, sizeof(std::uint16_t)) * H +
              N * (sizeof(double) + sizeof(std::int64_t));
    if (!sets[1].jobs.empty()) p.bytes += devicePitch(H, sizeof(T)) * W;  // the transposed image
    for (const LayoutAngles& set : sets)
        if (!set.jobs.empty() && set.plan.global())  // the launch's bound on its working arrays
            p.bytes += 2 * static_cast<std::size_t>(ctx.multiprocessors()) * set.slots * set.plan.params.arrayBytesPerBlock;
    return p;
}

// Short segments go to the tile sweep unless LINESCOPE_SWEEP_KERNEL=band (the tests run
// both kernels; the benchmarks compare them).
template <class T>
TileShape tileShape(const SweepRequest& req, int W, int H, const CudaContext& ctx) {
    const char* kernelChoice = std::getenv("LINESCOPE_SWEEP_KERNEL");
    if (kernelChoice && std::strcmp(kernelChoice, "band") == 0) return {};
    return tileShapeFor<T>(req, W, H, ctx);
}

// A float image with at most 65,536 distinct values whose segment suits the tile sweep runs
// as 16-bit ranks (float_ranks.h) when the memory allows: the float tile sweep needs 64-bit
// keys and small squares (H200, 640² λ 41: 1.32 ms against 0.68 through ranks).
template <class T>
std::optional<DeviceSweepResult<float>> rankedSweep(DeviceImageView<const T> src, const SweepRequest& req,
                                                    CudaContext& ctx, const ZoneFrame& frame) {
    if constexpr (!std::is_same_v<T, float>) {
        return std::nullopt;
    } else {
        const TileShape shape = tileShape<std::uint16_t>(req, src.width, src.height, ctx);
        if (shape.side == 0 ||
            rankedTileSweepBytes(req, src.width, src.height, shape, ctx) > ctx.availableDeviceMemory(false))
            return std::nullopt;
        FloatRanks ranks;
        if (!rankFloats(src, ctx, ranks)) return std::nullopt;
        return rankedTileSweep(ranks, req, shape, ctx, frame);
    }
}

// A sweep's partial sums, zeroed: bands that miss a zone leave theirs untouched.
template <class T>
SumOf<T>* zeroedPartials(std::size_t count, CudaContext& ctx) {
    auto* p = ctx.buffer(BufferSlot::Partials).as<SumOf<T>>(count);
    LS_CUDA_CHECK(cudaMemsetAsync(p, 0, count * sizeof(SumOf<T>), ctx.stream()));
    return p;
}

// The image each layout's angles run on: y-major on src, x-major on its transpose (made in
// the Temp slot when some angle needs it).
template <class T>
struct LayoutImages {
    DeviceImageView<const T> of[2];
    LayoutImages(DeviceImageView<const T> src, bool transposed, CudaContext& ctx) : of{src, {}} {
        if (!transposed) return;
        const DeviceImageView<T> srcT = ctx.image<T>(BufferSlot::Temp, src.height, src.width);
        transposeImage<T>(src, srcT, ctx.stream());
        of[1] = srcT;
    }
};

// Slot planes are indexed with 32 bits in the kernel.
bool fitsSlotIndex(int W, int H) { return static_cast<std::size_t>(W) * H < (std::size_t(1) << 31); }

}  // namespace

template <class T>
std::size_t sweepDeviceBytes(int width, int height, const SweepRequest& req, CudaContext& ctx) {
    checkRequest(req);
    if (const TileShape shape = tileShape<T>(req, width, height, ctx); shape.side > 0)
        return tileSweepBytes<T>(req, width, height, shape, ctx);
    if (!fitsSlotIndex(width, height)) return SIZE_MAX;  // zones make it fit
    return planSweep<T>(width, height, req, ZoneFrame{}, ctx).bytes;
}

template <class T>
DeviceSweepResult<T> sweepDevice(DeviceImageView<const T> src, const SweepRequest& req, CudaContext& ctx,
                                 const ZoneFrame& frame) {
    checkRequest(req);
    const int W = src.width, H = src.height, N = req.angles.count;
    if constexpr (std::is_same_v<T, float>)
        if (auto r = rankedSweep(src, req, ctx, frame)) return *r;
    if (const TileShape shape = tileShape<T>(req, W, H, ctx); shape.side > 0) return tileSweep<T>(src, req, shape, ctx, frame);
    if (!fitsSlotIndex(W, H))
        throw Error("the GPU sweep takes images of fewer than 2^31 pixels at once (this one has " +
                    std::to_string(static_cast<std::size_t>(W) * H) + "): use the CPU backend");
    const SweepPlan p = planSweep<T>(W, H, req, frame, ctx);
    const band::Stages& st = p.st;
    const LayoutAngles(&sets)[2] = p.sets;
    const int maxItems = p.maxItems;
    const std::size_t slotPixels = p.slotPixels, bestBytes = p.bestBytes, argBytes = p.argBytes;
    const std::size_t partialCount = p.partialCount;
    ctx.requireDeviceMemory(p.bytes, "this sweep");

    auto* acc = static_cast<unsigned char*>(ctx.buffer(BufferSlot::Accumulators).reserve(2 * bestBytes + argBytes));
    band::FoldTargets<T> fold;
    fold.best = reinterpret_cast<T*>(acc);
    fold.other = reinterpret_cast<T*>(acc + bestBytes);
    fold.arg = reinterpret_cast<std::uint16_t*>(acc + 2 * bestBytes);
    fold.slotPixels = slotPixels;
    fold.partials = zeroedPartials<T>(partialCount, ctx);
    fold.partialsPerAngle = maxItems;
    const LayoutImages<T> images(src, !sets[1].jobs.empty(), ctx);
    band::withStageOrder(req.op, [&](auto minFirst, auto twoStage) {
        constexpr bool kMin = decltype(minFirst)::value, kTwo = decltype(twoStage)::value;
        for (int layout = 0; layout < 2; ++layout) {
            const LayoutAngles& set = sets[layout];
            const int count = static_cast<int>(set.jobs.size());
            const int firstSlot = layout == 0 ? 0 : sets[0].slots;
            for (int k0 = 0; k0 < count; k0 += set.slots) {
                band::Params prm = set.plan.params;
                // A zone's spectrum counts its kept rows: t on the image, u on the transposed image.
                (layout == 0 ? prm.keepT0 : prm.keepU0) = frame.keepBegin;
                (layout == 0 ? prm.keepT1 : prm.keepU1) = frame.keepEnd;
                const int n = std::min(set.slots, count - k0);
                for (int s = 0; s < n; ++s) {
                    prm.jobs[s] = set.jobs[k0 + s];
                    prm.jobs[s].slot = firstSlot + s;
                    prm.jobs[s].firstInSlot = k0 == 0 ? 1 : 0;
                }
                band::launch<T, kMin, kTwo, band::Output::Fold>(set.plan, prm, n, images.of[layout], DeviceImageView<T>{},
                                                                  fold, ctx);
            }
        }
    });

    DeviceSweepResult<T> r = sweepResultBuffers<T>(W, H, N, ctx);
    const dim3 block(256), grid(static_cast<unsigned>((W + 31) / 32), static_cast<unsigned>((H + 31) / 32));
    if (st.minFirst)
        mergeSlots<T, true><<<grid, block, 0, ctx.stream()>>>(fold.best, fold.other, fold.arg, slotPixels,
                                                              sets[0].slots, sets[1].slots, W, H, r.sup, r.inf,
                                                              r.strength, r.argIndex);
    else
        mergeSlots<T, false><<<grid, block, 0, ctx.stream()>>>(fold.best, fold.other, fold.arg, slotPixels,
                                                               sets[0].slots, sets[1].slots, W, H, r.sup, r.inf,
                                                               r.strength, r.argIndex);
    LS_CUDA_CHECK_LAUNCH("mergeSlots");

    sumSpectrum<T><<<N, 256, 0, ctx.stream()>>>(fold.partials, maxItems, r.spectrumExact, r.spectrum);
    LS_CUDA_CHECK_LAUNCH("sumSpectrum");
    return r;
}

template <class T>
DeviceSpectrum sweepSpectrumDevice(DeviceImageView<const T> src, const SweepRequest& req, CudaContext& ctx,
                                   const ZoneFrame& frame) {
    checkRequest(req);
    const int W = src.width, H = src.height, N = req.angles.count;
    if constexpr (std::is_same_v<T, float>)
        if (auto r = rankedSweep(src, req, ctx, frame)) return {r->spectrumExact, r->spectrum, r->count};
    if (const TileShape shape = tileShape<T>(req, W, H, ctx); shape.side > 0) {
        const DeviceSweepResult<T> r = tileSweep<T>(src, req, shape, ctx, frame);
        return {r.spectrumExact, r.spectrum, r.count};
    }
    if constexpr (!std::is_floating_point_v<T>)
        if (lineSpectrumWarpsTake<T>(W, H, req, frame, ctx)) return lineSpectrumWarps<T>(src, req, ctx);
    // The jobs as sweepDevice makes them (its partial sums, in its order), but no slots: any
    // number of angles may run side by side, a launch's worth at a time.
    const band::Stages st = band::stagesOf(req.op, segmentOf(req.length), W, H);
    band::Plan plans[2] = {band::makePlan<T>(W, H, st, ctx), band::makePlan<T>(H, W, st, ctx)};
    std::vector<band::Job> jobs[2];
    int maxItems = 0;
    for (int k = 0; k < N; ++k) {
        const LineFamily fam = stripFamily(lineFamily(req.angles.angle(k), W, H), frame.originY, H);
        const int layout = fam.yMajor ? 0 : 1;
        jobs[layout].push_back(band::makeJob(band::asYMajor(fam), plans[layout], k, 0, false));
        maxItems = std::max(maxItems, band::itemsOf(jobs[layout].back()));
    }
    const std::size_t partialCount = static_cast<std::size_t>(N) * maxItems;
    std::size_t bytes = partialCount * sizeof(SumOf<T>) + N * (sizeof(double) + sizeof(std::int64_t));
    if (!jobs[1].empty()) bytes += devicePitch(H, sizeof(T)) * W;
    ctx.requireDeviceMemory(bytes, "this sweep");

    band::FoldTargets<T> sums;
    sums.partials = zeroedPartials<T>(partialCount, ctx);
    sums.partialsPerAngle = maxItems;
    const LayoutImages<T> images(src, !jobs[1].empty(), ctx);
    band::withStageOrder(req.op, [&](auto minFirst, auto twoStage) {
        constexpr bool kMin = decltype(minFirst)::value, kTwo = decltype(twoStage)::value;
        for (int layout = 0; layout < 2; ++layout) {
            const int count = static_cast<int>(jobs[layout].size());
            for (int k0 = 0; k0 < count; k0 += band::kMaxJobsPerLaunch) {
                band::Params prm = plans[layout].params;
                (layout == 0 ? prm.keepT0 : prm.keepU0) = frame.keepBegin;
                (layout == 0 ? prm.keepT1 : prm.keepU1) = frame.keepEnd;
                const int n = std::min(band::kMaxJobsPerLaunch, count - k0);
                for (int s = 0; s < n; ++s) prm.jobs[s] = jobs[layout][k0 + s];
                band::launch<T, kMin, kTwo, band::Output::Sum>(plans[layout], prm, n, images.of[layout],
                                                                 DeviceImageView<T>{}, sums, ctx);
            }
        }
    });
    const DeviceSpectrum r = spectrumBuffers<T>(N, ctx);
    sumSpectrum<T><<<N, 256, 0, ctx.stream()>>>(sums.partials, maxItems, r.exact, r.values);
    LS_CUDA_CHECK_LAUNCH("sumSpectrum");
    return r;
}

#define LS_INSTANTIATE(T)                                                                                   \
    template DeviceSweepResult<T> sweepDevice<T>(DeviceImageView<const T>, const SweepRequest&, CudaContext&, \
                                                 const ZoneFrame&);                                          \
    template std::size_t sweepDeviceBytes<T>(int, int, const SweepRequest&, CudaContext&);                   \
    template DeviceSpectrum sweepSpectrumDevice<T>(DeviceImageView<const T>, const SweepRequest&, CudaContext&,   \
                                                   const ZoneFrame&);
LS_INSTANTIATE(std::uint8_t)
LS_INSTANTIATE(std::uint16_t)
LS_INSTANTIATE(float)
#undef LS_INSTANTIATE

}  // namespace linescope::cuda
