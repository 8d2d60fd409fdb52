// Sweeps on the GPU: every angle's operator computed by the band kernel and folded at once
// into a few accumulator sets ("slots"), so that no image per angle ever reaches device
// memory. A launch runs up to 32 angles side by side, one slot each (angles of one launch
// cover the same pixels, so they cannot share a set); launches follow each other on the
// stream, so each slot sees its angles in increasing order and keeps the smallest k on ties.
// A last pass merges the slots, and one block per angle sums the spectrum's partial sums
// in a fixed order (exact 64-bit integers for integer images).
#include "compute/cuda/cuda_line_api.h"
#include "compute/cuda/line_band_launch.cuh"

#include <algorithm>
#include <vector>

namespace linescope::cuda {

namespace {

using band::SumOf;

// Merges the slots into the results; ties between slots go to the smaller angle index.
template <class T, bool BestIsMax>
__global__ void mergeSlots(const T* __restrict__ best, const T* __restrict__ other, const std::uint16_t* __restrict__ arg,
                           std::size_t slotPixels, int slots, int width, int height, DeviceImageView<T> sup,
                           DeviceImageView<T> inf, DeviceImageView<T> strength, DeviceImageView<std::uint16_t> argOut) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= width) return;
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
    const std::size_t i = static_cast<std::size_t>(y) * width + x;
    T b = best[i], o = other[i];
    std::uint16_t a = arg[i];
    for (int s = 1; s < slots; ++s) {
        const std::size_t j = static_cast<std::size_t>(s) * slotPixels + i;
        const T bs = best[j];
        const std::uint16_t as = arg[j];
        const bool better = BestIsMax ? b < bs : bs < b;
        if (better || (bs == b && as < a)) {
            b = bs;
            a = as;
        }
        const T os = other[j];
        o = BestIsMax ? (os < o ? os : o) : (o < os ? os : o);
    }
    const T hi = BestIsMax ? b : o, lo = BestIsMax ? o : b;
    sup.at(x, y) = hi;
    inf.at(x, y) = lo;
    strength.at(x, y) = static_cast<T>(hi - lo);
    argOut.at(x, y) = a;
    }
}

// spectrum[k] = Σ partials[k][0 … count): one block per angle, a fixed summation order.
template <class T>
__global__ void sumSpectrum(const SumOf<T>* __restrict__ partials, int count, std::int64_t* exact, double* spectrum) {
    __shared__ SumOf<T> warpSums[32];
    const SumOf<T>* row = partials + static_cast<std::size_t>(blockIdx.x) * count;
    SumOf<T> s = 0;
    for (int i = threadIdx.x; i < count; i += blockDim.x) s += row[i];
    for (int d = 16; d > 0; d >>= 1) s += __shfl_down_sync(0xffffffffu, s, d);
    if ((threadIdx.x & 31) == 0) warpSums[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        SumOf<T> total = 0;
        for (int w = 0; w < static_cast<int>(blockDim.x >> 5); ++w) total += warpSums[w];
        if constexpr (std::is_floating_point_v<T>) {
            spectrum[blockIdx.x] = total;
        } else {
            exact[blockIdx.x] = total;
            spectrum[blockIdx.x] = static_cast<double>(total);
        }
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

template <class T>
DeviceSweepResult<T> sweepDevice(DeviceImageView<const T> src, const SweepRequest& req, CudaContext& ctx) {
    checkRequest(req);
    const int W = src.width, H = src.height, N = req.angles.count;
    const band::Stages st = band::stagesOf(req.op, segmentOf(req.length), W, H);
    const band::Plan plan = band::makePlan<T>(W, H, st, ctx);

    std::vector<band::Job> jobs(static_cast<std::size_t>(N));
    int maxItems = 0;
    long long allItems = 0;
    for (int k = 0; k < N; ++k) {
        jobs[k] = band::makeJob(lineFamily(req.angles.angle(k), W, H), plan, k, 0, false);
        maxItems = std::max(maxItems, band::itemsOf(jobs[k]));
        allItems += band::itemsOf(jobs[k]);
    }

    // Enough angles side by side to give every multiprocessor several blocks, as far as
    // memory allows: each slot is a full set of accumulators.
    const std::size_t slotPixels = static_cast<std::size_t>(W) * H;
    const std::size_t slotBytes = slotPixels * (2 * sizeof(T) + sizeof(std::uint16_t));
    std::size_t freeBytes = 0, totalBytes = 0;
    LS_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    const long long perAngle = std::max<long long>(1, allItems / N);
    int slots = static_cast<int>(std::min<long long>(band::kMaxJobsPerLaunch, (8LL * ctx.multiprocessors() + perAngle - 1) / perAngle));
    slots = std::clamp(slots, 1, N);
    while (slots > 1 && slots * slotBytes > freeBytes / 4) --slots;

    const std::size_t planes = slotPixels * static_cast<std::size_t>(slots);
    const std::size_t bestBytes = band::alignUp(planes * sizeof(T), 256);
    const std::size_t argBytes = band::alignUp(planes * sizeof(std::uint16_t), 256);
    const std::size_t partialCount = static_cast<std::size_t>(N) * maxItems;
    const std::size_t imageBytes = devicePitch(W, sizeof(T)) * H;
    ctx.requireDeviceMemory(2 * bestBytes + argBytes + partialCount * sizeof(SumOf<T>) + 3 * imageBytes +
                                devicePitch(W, 2) * H + 2 * imageBytes,
                            "this sweep");

    auto* acc = static_cast<unsigned char*>(ctx.buffer(BufferSlot::Accumulators).reserve(2 * bestBytes + argBytes));
    band::FoldTargets<T> fold;
    fold.best = reinterpret_cast<T*>(acc);
    fold.other = reinterpret_cast<T*>(acc + bestBytes);
    fold.arg = reinterpret_cast<std::uint16_t*>(acc + 2 * bestBytes);
    fold.slotPixels = slotPixels;
    fold.partials = ctx.buffer(BufferSlot::Partials).as<SumOf<T>>(partialCount);
    fold.partialsPerAngle = maxItems;
    LS_CUDA_CHECK(cudaMemsetAsync(fold.partials, 0, partialCount * sizeof(SumOf<T>), ctx.stream()));

    band::withStageOrder(req.op, [&](auto minFirst, auto twoStage) {
        constexpr bool kMin = decltype(minFirst)::value, kTwo = decltype(twoStage)::value;
        for (int k0 = 0; k0 < N; k0 += slots) {
            band::Params prm = plan.params;
            const int count = std::min(slots, N - k0);
            for (int s = 0; s < count; ++s) {
                prm.jobs[s] = jobs[k0 + s];
                prm.jobs[s].slot = s;
                prm.jobs[s].firstInSlot = k0 == 0 ? 1 : 0;
            }
            band::launch<T, kMin, kTwo, band::Output::Fold>(plan, prm, count, src, DeviceImageView<T>{}, fold, ctx);
        }
    });

    DeviceSweepResult<T> r;
    r.count = N;
    r.sup = ctx.image<T>(BufferSlot::SweepSup, W, H);
    r.inf = ctx.image<T>(BufferSlot::SweepInf, W, H);
    r.strength = ctx.image<T>(BufferSlot::SweepStrength, W, H);
    r.argIndex = ctx.image<std::uint16_t>(BufferSlot::SweepArg, W, H);
    const dim3 block(256), grid(static_cast<unsigned>((W + 255) / 256), static_cast<unsigned>(std::min(H, 65535)));
    const int used = std::min(slots, N);
    if (st.minFirst)
        mergeSlots<T, true><<<grid, block, 0, ctx.stream()>>>(fold.best, fold.other, fold.arg, slotPixels, used, W, H,
                                                              r.sup, r.inf, r.strength, r.argIndex);
    else
        mergeSlots<T, false><<<grid, block, 0, ctx.stream()>>>(fold.best, fold.other, fold.arg, slotPixels, used, W,
                                                               H, r.sup, r.inf, r.strength, r.argIndex);
    LS_CUDA_CHECK_LAUNCH("mergeSlots");

    auto* spectra = static_cast<unsigned char*>(ctx.buffer(BufferSlot::Spectrum).reserve(N * (sizeof(double) + sizeof(std::int64_t))));
    r.spectrum = reinterpret_cast<double*>(spectra);
    r.spectrumExact = std::is_floating_point_v<T> ? nullptr : reinterpret_cast<std::int64_t*>(spectra + N * sizeof(double));
    sumSpectrum<T><<<N, 256, 0, ctx.stream()>>>(fold.partials, maxItems, r.spectrumExact, r.spectrum);
    LS_CUDA_CHECK_LAUNCH("sumSpectrum");
    return r;
}

#define LS_INSTANTIATE(T) \
    template DeviceSweepResult<T> sweepDevice<T>(DeviceImageView<const T>, const SweepRequest&, CudaContext&);
LS_INSTANTIATE(std::uint8_t)
LS_INSTANTIATE(std::uint16_t)
LS_INSTANTIATE(float)
#undef LS_INSTANTIATE

}  // namespace linescope::cuda
