// The device executor of ContourPipeline: each step a kernel on the context's stream, CUB's
// radix sort and scan, transfers through the pinned staging buffer, and CUDA events at the
// phase boundaries. Included by contours_cuda.cu only.
#pragma once

#include "compute/cuda/contours_pipeline.h"
#include "compute/cuda/contours_tracker.cuh"
#include "compute/cuda/cuda_check.h"
#include "compute/cuda/cuda_context.h"

#include <cub/cub.cuh>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace linescope::contours::gpu {

inline constexpr unsigned kForEachThreads = 256;

template <class Body>
__global__ void __launch_bounds__(kForEachThreads) forEachKernel(std::uint32_t n, const typename Body::Params p) {
    const std::uint32_t i = blockIdx.x * kForEachThreads + threadIdx.x;
    if (i < n) Body::run(i, p);
}

// One thread per rectangle; its tile and labels in dynamic shared memory, the tiles of the
// block first, then the labels (labelBytes is a multiple of 8).
__global__ void trackKernel(const TrackParams p, int rects, int tileWords, int labelBytes) {
    extern __shared__ std::uint64_t shared[];
    const int r = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (r >= rects) return;
    std::uint64_t* tile = shared + static_cast<std::size_t>(threadIdx.x) * static_cast<std::size_t>(tileWords);
    std::uint64_t* labels = shared + static_cast<std::size_t>(blockDim.x) * static_cast<std::size_t>(tileWords) +
                            static_cast<std::size_t>(threadIdx.x) * static_cast<std::size_t>(labelBytes / 8);
    RectTracker(p, r, tile, labels).run();
}

// CUDA events that live as long as their owner.
template <int N>
class Events {
public:
    explicit Events(unsigned flags) {
        for (auto& e : events_) LS_CUDA_CHECK(cudaEventCreateWithFlags(&e, flags));
    }
    ~Events() {
        for (auto& e : events_)
            if (e) (void)cudaEventDestroy(e);
    }
    Events(const Events&) = delete;
    Events& operator=(const Events&) = delete;
    cudaEvent_t operator[](std::size_t i) const { return events_[i]; }

private:
    cudaEvent_t events_[N] = {};
};

// What the executor keeps between calls: its events (creating eight a call would cost
// microseconds) and whether trackKernel's carveout was set.
struct ExecState {
    static constexpr int kPhases = 6;
    Events<kPhases> phases{cudaEventDefault};  // the phase boundaries
    Events<2> landed{cudaEventDisableTiming};  // the staging halves
    bool carveoutSet = false;
};

class DeviceExec {
public:
    DeviceExec(cuda::CudaContext& ctx, ExecState& state)
        : ctx_(ctx), stream_(ctx.stream()), state_(state), events_(state.phases), landed_(state.landed) {}

    char* reserve(ContourSlot s, std::size_t bytes) { return static_cast<char*>(ctx_.buffer(slotOf(s)).reserve(bytes)); }

    template <class Body>
    void forEach(std::uint32_t n, const typename Body::Params& p) {
        if (n == 0) return;
        forEachKernel<Body><<<(n + kForEachThreads - 1) / kForEachThreads, kForEachThreads, 0, stream_>>>(n, p);
        LS_CUDA_CHECK_LAUNCH("forEachKernel");
    }

    void track(const TrackParams& p) {
        const int rects = p.grid.count();
        if (rects == 0) return;
        const auto perThread = trackSharedBytes(p.grid.rectWidth, p.grid.rectHeight);
        // A warp a block: shared memory, not threads, limits how many rectangles a
        // multiprocessor tracks at once, and small blocks fill it to the last warp that fits
        // (32×32 rectangles: 5 blocks on an H100, 621 of them cover 4928×4112 in one wave).
        std::size_t threads = std::min<std::size_t>(32, ctx_.sharedMemoryPerBlock() / perThread);
        if (threads == 0)
            throw Error("GPU contour rectangles of " + std::to_string(p.grid.rectWidth) + "x" +
                        std::to_string(p.grid.rectHeight) + " pixels need more shared memory than this GPU has");
        const std::size_t bytes = threads * perThread;
        ctx_.allowDynamicShared(trackKernel, bytes);
        if (!state_.carveoutSet) {
            // The tracker reads global memory once (its tile) and only writes afterwards:
            // give the unified L1/shared storage to shared memory.
            LS_CUDA_CHECK(cudaFuncSetAttribute(trackKernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                               cudaSharedmemCarveoutMaxShared));
            state_.carveoutSet = true;
        }
        const auto blocks = static_cast<unsigned>((static_cast<std::size_t>(rects) + threads - 1) / threads);
        trackKernel<<<blocks, static_cast<unsigned>(threads), bytes, stream_>>>(
            p, rects, static_cast<int>(trackTileWords(p.grid.rectHeight)),
            static_cast<int>(trackLabelBytes(p.grid.rectWidth, p.grid.rectHeight)));
        LS_CUDA_CHECK_LAUNCH("trackKernel");
    }

    void zero(void* p, std::size_t bytes) { LS_CUDA_CHECK(cudaMemsetAsync(p, 0, bytes, stream_)); }

    template <class K>
    void sortPairs(const K* keysIn, K* keysOut, const std::uint32_t* valuesIn, std::uint32_t* valuesOut, std::uint32_t n,
                   int bits) {
        if (n == 0) return;
        std::size_t temp = 0;
        LS_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp, keysIn, keysOut, valuesIn, valuesOut, n, 0, bits, stream_));
        void* storage = ctx_.buffer(cuda::BufferSlot::ContourSort).reserve(temp);
        LS_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(storage, temp, keysIn, keysOut, valuesIn, valuesOut, n, 0, bits, stream_));
    }

    void exclusiveSum(const std::uint32_t* in, std::uint32_t* out, std::uint32_t n) {
        if (n == 0) return;
        std::size_t temp = 0;
        LS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp, in, out, n, stream_));
        void* storage = ctx_.buffer(cuda::BufferSlot::ContourSort).reserve(temp);
        LS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(storage, temp, in, out, n, stream_));
    }

    // Through the pinned staging buffer in two halves: the copy engine fills one while the
    // host empties the other.
    void download(void* host, const void* device, std::size_t bytes) {
        if (bytes == 0) return;
        cuda::CudaContext::countHostTraffic(bytes);
        constexpr std::size_t kChunk = 256u << 10;
        const std::size_t chunk = std::min(bytes, kChunk);
        auto* staging = static_cast<unsigned char*>(ctx_.staging().reserve(2 * chunk));
        const std::size_t chunks = (bytes + chunk - 1) / chunk;
        auto issue = [&](std::size_t k) {
            const std::size_t at = k * chunk, n = std::min(chunk, bytes - at);
            LS_CUDA_CHECK(cudaMemcpyAsync(staging + (k & 1) * chunk, static_cast<const unsigned char*>(device) + at, n,
                                          cudaMemcpyDeviceToHost, stream_));
            LS_CUDA_CHECK(cudaEventRecord(landed_[k & 1], stream_));
        };
        issue(0);
        for (std::size_t k = 0; k < chunks; ++k) {
            if (k + 1 < chunks) issue(k + 1);
            LS_CUDA_CHECK(cudaEventSynchronize(landed_[k & 1]));
            const std::size_t at = k * chunk, n = std::min(chunk, bytes - at);
            std::memcpy(static_cast<unsigned char*>(host) + at, staging + (k & 1) * chunk, n);
        }
    }

    // From pageable memory: the call returns once the driver has taken the bytes.
    void upload(void* device, const void* host, std::size_t bytes) {
        cuda::CudaContext::countHostTraffic(bytes);
        if (bytes) LS_CUDA_CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream_));
    }

    void mark(int k) { LS_CUDA_CHECK(cudaEventRecord(events_[k], stream_)); }

    // Milliseconds between two recorded marks (waits for the later one).
    double elapsed(int from, int to) const {
        LS_CUDA_CHECK(cudaEventSynchronize(events_[to]));
        float ms = 0;
        LS_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[from], events_[to]));
        return ms;
    }

private:
    static cuda::BufferSlot slotOf(ContourSlot s) {
        switch (s) {
        case ContourSlot::Bits: return cuda::BufferSlot::ContourBits;
        case ContourSlot::Track: return cuda::BufferSlot::ContourTrack;
        case ContourSlot::Connect: return cuda::BufferSlot::ContourConnect;
        case ContourSlot::Borders: return cuda::BufferSlot::ContourBorders;
        case ContourSlot::Output: return cuda::BufferSlot::ContourOutput;
        }
        return cuda::BufferSlot::ContourOutput;
    }

    cuda::CudaContext& ctx_;
    cudaStream_t stream_;
    ExecState& state_;
    const Events<ExecState::kPhases>& events_;
    const Events<2>& landed_;
};

}  // namespace linescope::contours::gpu
