// Host side of the band kernel: how many lines a band holds, how long a zone is, where the
// arrays live, and the launch itself. Shared by the single operators and the sweeps.
#pragma once

#include "compute/cuda/cuda_check.h"
#include "compute/cuda/cuda_context.h"
#include "compute/cuda/line_band_kernel.cuh"
#include "compute/image.h"
#include "compute/line_geometry.h"
#include "compute/line_morph.h"

#include <algorithm>
#include <cstddef>
#include <type_traits>

namespace linescope::cuda::band {

using Stages = LineStages;

// The stages of `op` on a width × height image (line_stages.h).
inline Stages stagesOf(MorphOp op, Segment seg, int width, int height) {
    return lineStagesOf(op, seg, std::max(width, height));
}

struct Plan {
    Params params;                 // everything but the jobs
    std::size_t sharedBytes = 0;   // dynamic shared memory a block (0: arrays in device memory)
    int reachLeft = 0, reachRight = 0;

    int lanes() const { return 1 << params.laneShift; }
    bool global() const { return params.globalArrays != nullptr || sharedBytes == 0; }
    // Output positions a zone of a line family with major length n.
    int zoneLength(int n) const {
        return n <= params.capacity ? n : params.capacity - reachLeft - reachRight;
    }
};

// Positions a thread scans in one stage: whole windows when the (lane, window) pairs of a
// block already give every thread work, else chunks sized for about two pairs a thread.
inline int chunkFor(int positions, int lanes, int window) {
    const long long wholeWindows = (static_cast<long long>(positions) + window - 1) / window * lanes;
    if (wholeWindows >= kBandThreads) return window;
    const long long c = std::max<long long>(16, (static_cast<long long>(positions) * lanes + 2 * kBandThreads - 1) /
                                                    (2 * kBandThreads));
    return c >= window ? window : static_cast<int>(c);
}

// Chunk-table entries a lane needs for `positions` positions (0 without chunks).
inline int tableEntriesFor(int positions, int maxRight, int window, int chunk) {
    if (chunk >= window) return 0;
    const long long blocks = (static_cast<long long>(positions) + maxRight + window - 1) / window;
    return static_cast<int>(blocks * ((window + chunk - 1) / chunk));
}

// The lines of a plan run down the columns of a width × height image (y-major families).
// Picks the widest band (32 bytes of pixels a row: one memory sector) whose zones keep at
// least half of each block's positions as outputs, first within the shared memory that lets
// two blocks share a multiprocessor, then within all of it; failing both (λ in the
// thousands on very large images), the arrays go to device memory.
template <class T>
Plan makePlan(int width, int height, const Stages& st, const CudaContext& ctx) {
    Plan plan;
    plan.params.width = width;
    plan.params.height = height;
    plan.params.stage1 = st.first;
    plan.params.stage2 = st.twoStage ? st.second : Window{};
    plan.reachLeft = st.reachLeft();
    plan.reachRight = st.reachRight();
    const int reach = plan.reachLeft + plan.reachRight;
    const int window = st.first.left + st.first.right + 1;  // both stages have the segment's length
    const int maxRight = std::max(st.first.right, st.twoStage ? st.second.right : 0);
    const int longest = height;  // the lines run down the columns
#ifndef LINESCOPE_BAND_ROW_BYTES
#define LINESCOPE_BAND_ROW_BYTES 32
#endif
#ifndef LINESCOPE_BAND_SHARED_KB
#define LINESCOPE_BAND_SHARED_KB 112
#endif
    const int widest = static_cast<int>(LINESCOPE_BAND_ROW_BYTES / sizeof(T));
    // The kernel's own static shared memory (a few bytes) comes on top of the dynamic part.
    const std::size_t all = ctx.sharedMemoryPerBlock() - 1024;
    const std::size_t budgets[2] = {std::min<std::size_t>(all, LINESCOPE_BAND_SHARED_KB * 1024), all};
    auto settle = [&](int lanes, int pitch, int capacity) {
        plan.params.laneShift = __builtin_ctz(static_cast<unsigned>(lanes));
        plan.params.pitch = pitch;
        plan.params.capacity = capacity;
        plan.params.chunk = chunkFor(capacity, lanes, window);
        plan.params.tableEntries = tableEntriesFor(capacity, maxRight, window, plan.params.chunk);
        return arrayBytes<T>(capacity, pitch, lanes, plan.params.tableEntries);
    };
    for (const std::size_t budget : budgets) {
        for (int lanes = widest; lanes * static_cast<int>(sizeof(T)) >= 4; lanes /= 2) {
            const int pitch = lanes + static_cast<int>(4 / sizeof(T));  // odd words: conflict-free columns
            int capacity = std::min(longest, static_cast<int>(budget / (sizeof(int) + 3 * pitch * sizeof(T))));
            while (capacity > 0 && settle(lanes, pitch, capacity) > budget) capacity -= std::max(1, capacity / 64);
            const int zone = longest <= capacity ? longest : capacity - reach;
            if (capacity > 0 && (longest <= capacity || (zone >= reach && zone >= 64))) {
                plan.sharedBytes = settle(lanes, pitch, capacity);
                return plan;
            }
        }
    }
    plan.params.arrayBytesPerBlock = settle(widest, widest + static_cast<int>(4 / sizeof(T)), longest);
    plan.sharedBytes = 0;
    return plan;
}

// The family as the band kernel sees it: y-major. An x-major family of a W×H image is the
// y-major family with the same slope on the transposed H×W image: its line c, the pixels
// (t, c + off(t)), are the transposed image's pixels (c + off(t), t).
inline LineFamily asYMajor(const LineFamily& fam) {
    if (fam.yMajor) return fam;
    LineFamily t = fam;
    t.yMajor = true;
    t.width = fam.height;
    t.height = fam.width;
    return t;
}

// `fam` must be y-major (see asYMajor).
inline Job makeJob(const LineFamily& fam, const Plan& plan, int angleIndex, int slot, bool firstInSlot) {
    Job j;
    j.slope = fam.slope;
    j.phase = fam.phase;
    const std::int64_t first = fam.firstLine(), last = fam.lastLine();
    j.firstLine = static_cast<std::int32_t>(first);
    j.bands = static_cast<std::int32_t>((last - first + plan.lanes()) / plan.lanes());
    const int n = fam.majorLength();
    j.zoneLength = plan.zoneLength(n);
    j.zones = (n + j.zoneLength - 1) / j.zoneLength;
    j.angleIndex = angleIndex;
    j.slot = slot;
    j.firstInSlot = firstInSlot ? 1 : 0;
    return j;
}

inline int itemsOf(const Job& j) { return j.bands * j.zones; }

// Launches jobs [0, jobCount) of `prm` (the plan's parameters with the jobs filled in).
template <class T, bool MinFirst, bool TwoStage, Output Out>
void launch(const Plan& plan, Params prm, int jobCount, DeviceImageView<const T> src, DeviceImageView<T> dst,
            const FoldTargets<T>& fold, CudaContext& ctx) {
    auto* kernel = &lineBandKernel<T, MinFirst, TwoStage, Out>;
    int items = 0;
    for (int i = 0; i < jobCount; ++i) items = std::max(items, itemsOf(prm.jobs[i]));
    if (items == 0) return;
    unsigned gridX = static_cast<unsigned>(items);
    if (plan.sharedBytes > 0) {
        ctx.allowDynamicShared(kernel, plan.sharedBytes);
    } else {
        gridX = static_cast<unsigned>(std::min(items, 2 * ctx.multiprocessors()));
        const std::size_t bytes = static_cast<std::size_t>(gridX) * jobCount * prm.arrayBytesPerBlock;
        ctx.requireDeviceMemory(bytes, "the line operator's working arrays");
        prm.globalArrays = static_cast<unsigned char*>(ctx.buffer(BufferSlot::Scratch).reserve(bytes));
    }
    const dim3 grid(gridX, static_cast<unsigned>(jobCount));
    kernel<<<grid, kBandThreads, plan.sharedBytes, ctx.stream()>>>(src, dst, prm, fold);
    LS_CUDA_CHECK_LAUNCH("lineBandKernel");
}

// Calls f(minFirst, twoStage) with the operator's stage order as compile-time constants.
template <class F>
void withStageOrder(MorphOp op, F&& f) {
    switch (op) {
    case MorphOp::Erode: f(std::true_type{}, std::false_type{}); return;
    case MorphOp::Dilate: f(std::false_type{}, std::false_type{}); return;
    case MorphOp::Open:
    case MorphOp::TopHat: f(std::true_type{}, std::true_type{}); return;
    case MorphOp::Close: f(std::false_type{}, std::true_type{}); return;
    }
}

}  // namespace linescope::cuda::band
