// The band kernel: the GPU's default line operator, and the body of its sweeps.
//
// A thread block takes a band of L adjacent lines of one family (one angle) and a zone of
// positions along them. The kernel sees only y-major families (lines advance down the rows,
// t = y): adjacent lines are then adjacent pixels of a row, and the band is read row by row
// with coalesced loads into shared memory, laid out [position][lane]. x-major families run
// on the transposed image, where they are y-major with the same slope (see the launchers).
// There each stage (erosion, dilation) is van Herk/Gil-Werman: the positions are cut into
// blocks of w = window length, one thread per (lane, block) runs a suffix pass and then a
// prefix pass, and every output is one comparison of a suffix and a prefix: 3 comparisons
// a pixel for any λ. Both stages of an opening stay in shared memory; the result goes
// straight to the output image, or is folded into a sweep's accumulators.
//
// Lines longer than the shared arrays are cut into zones that overlap by the operator's
// reach (λ−1 on each side for openings: Karas et al.'s Eq. 5); when even that does not fit
// (very long λ on very large images), the same code runs on arrays in device memory.
#pragma once

#include "compute/cuda/device_image.h"
#include "compute/line_band_extent.h"
#include "compute/line_stages.h"
#include "compute/pixel_rules.h"

#include <climits>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace linescope::cuda::band {

// Store/TopHat write the operator's image; Fold folds each angle into a sweep's accumulators
// and sums it; Sum only sums it (a sweep asked for its spectrum alone: no accumulators).
enum class Output { Store, TopHat, Fold, Sum };

// Tuning knobs, overridable at build time for experiments (tests/bench/run-band-variants.sh).
#ifndef LINESCOPE_BAND_THREADS
#define LINESCOPE_BAND_THREADS 512
#endif
#ifndef LINESCOPE_BAND_BATCH
#define LINESCOPE_BAND_BATCH 4
#endif
inline constexpr int kBandThreads = LINESCOPE_BAND_THREADS;

// One angle of a launch.
struct Job {
    std::int32_t slope = 0;      // S, 16.16 fixed point; line c is {(c + off(t), t)}
    std::int32_t firstLine = 0;  // line index of band 0, lane 0
    std::int32_t bands = 0;
    std::int32_t zones = 0;
    std::int32_t zoneLength = 0;  // output positions per zone
    std::int32_t angleIndex = 0;  // k of the sweep
    std::int32_t slot = 0;        // accumulator set this angle folds into
    std::int32_t firstInSlot = 0; // 1: initialise the slot instead of comparing
    std::int32_t phase = static_cast<std::int32_t>(kLinePhase);  // off's rounding constant (zones: pixel_rules.h)
};

// The window of one stage: out(c) = op of in over [c - left, c + right].
using Window = StageWindow;

// A launch takes at most this many angles (blockIdx.y), passed by value with the parameters
// so that no job table travels to the device.
inline constexpr int kMaxJobsPerLaunch = 32;

struct Params {
    int width = 0;
    int height = 0;
    Window stage1, stage2;
    int laneShift = 5;      // L = 1 << laneShift lines a band
    int capacity = 0;       // positions the arrays hold
    int pitch = 0;          // elements from one position to the next in the arrays
    int chunk = 1;          // positions a thread scans in a stage (the window length when that suffices)
    int tableEntries = 0;   // chunk carries a lane (0 when chunk = window length)
    unsigned char* globalArrays = nullptr;  // null: the arrays are in shared memory
    std::size_t arrayBytesPerBlock = 0;
    // A sweep's spectrum counts only the pixels (t, u) of this rectangle, in the kernel's
    // major/minor coordinates: the rows an image zone keeps (compute/cuda/zones.h).
    int keepT0 = INT_MIN, keepT1 = INT_MAX, keepU0 = INT_MIN, keepU1 = INT_MAX;
    Job jobs[kMaxJobsPerLaunch];
};

template <class T>
using SumOf = std::conditional_t<std::is_floating_point_v<T>, double, long long>;

// Where a sweep's angles are folded: per slot, dense W×H planes.
template <class T>
struct FoldTargets {
    T* best = nullptr;          // slot planes of the extreme that the orientation follows
    T* other = nullptr;         // slot planes of the opposite extreme
    std::uint16_t* arg = nullptr;
    std::size_t slotPixels = 0;
    SumOf<T>* partials = nullptr;  // [angleIndex][partialsPerAngle]
    int partialsPerAngle = 0;
};

template <class T, bool IsMin>
using Op = ExtremeOp<T, IsMin>;


struct BandGeometry {
    int c0;         // line of lane 0
    int loadStart;  // major position of array position 0
    int count;      // positions held
    int outBegin;   // array positions [outBegin, outEnd) are this block's outputs
    int outEnd;
    int n, m;       // major and minor lengths: the image's height and width
};

// One stage of van Herk/Gil-Werman over the arrays: out[c] = op of in over
// [c - w.left, c + w.right] ∩ [0, count). Blocks of the window length start at position 0;
// each output is op(suffix of its window's first block, prefix of its last block).
// Long windows leave too few (lane, block) pairs to occupy the block's threads, so blocks
// are cut into chunks of `chunk` positions: chunk aggregates and their carries within the
// block come first, then every chunk scans its own positions from its carry.
// When maskOut, positions outside the image get `mask` (the next stage's neutral value).
template <class T, bool IsMin>
__device__ void vhgwStage(const T* __restrict__ in, T* __restrict__ suffix, T* __restrict__ out,
                          T* __restrict__ tables, const BandGeometry& g, int laneShift, int pitch, Window w, int chunk,
                          const int* __restrict__ offTab, bool maskOut, T mask) {
    using O = Op<T, IsMin>;
    const T neutral = O::neutral();
    const int lanes = 1 << laneShift;
    const int len = w.left + w.right + 1;
    const int P = g.count;
    const int E = P + w.right;  // prefixes run past the arrays so that the last outputs see their blocks
    const int perBlock = (len + chunk - 1) / chunk;
    const int chunks = (E + len - 1) / len * perBlock;
    T* aggregate = tables;
    T* suffixCarry = tables + chunks * lanes;
    T* prefixCarry = suffixCarry + chunks * lanes;
    auto bounds = [&](int ci, int& s, int& e) {
        const int b = ci / perBlock;
        s = b * len + (ci - b * perBlock) * chunk;
        e = min(s + chunk, b * len + len);
    };
    if (perBlock > 1) {
        for (int item = threadIdx.x; item < (chunks << laneShift); item += blockDim.x) {
            const int l = item & (lanes - 1), ci = item >> laneShift;
            int s, e;
            bounds(ci, s, e);
            e = min(e, P);
            T a = neutral;
            for (int q = s; q < e; ++q) a = O::apply(a, in[q * pitch + l]);
            aggregate[ci * lanes + l] = a;
        }
        __syncthreads();
        for (int item = threadIdx.x; item < ((chunks / perBlock) << laneShift); item += blockDim.x) {
            const int l = item & (lanes - 1), first = (item >> laneShift) * perBlock;
            T run = neutral;
            for (int j = perBlock - 1; j >= 0; --j) {
                suffixCarry[(first + j) * lanes + l] = run;
                run = O::apply(run, aggregate[(first + j) * lanes + l]);
            }
            run = neutral;
            for (int j = 0; j < perBlock; ++j) {
                prefixCarry[(first + j) * lanes + l] = run;
                run = O::apply(run, aggregate[(first + j) * lanes + l]);
            }
        }
        __syncthreads();
    }
    for (int item = threadIdx.x; item < (chunks << laneShift); item += blockDim.x) {
        const int l = item & (lanes - 1), ci = item >> laneShift;
        int s, e;
        bounds(ci, s, e);
        e = min(e, P);
        if (s >= e) continue;
        const T* __restrict__ src = in + l;
        T* __restrict__ dst = suffix + l;
        T run = perBlock > 1 ? suffixCarry[ci * lanes + l] : neutral;
        int q = e - 1;
        for (; q - 3 >= s; q -= 4) {  // four independent loads in flight before the chain uses them
            const T v0 = src[q * pitch], v1 = src[(q - 1) * pitch], v2 = src[(q - 2) * pitch], v3 = src[(q - 3) * pitch];
            run = O::apply(run, v0);
            dst[q * pitch] = run;
            run = O::apply(run, v1);
            dst[(q - 1) * pitch] = run;
            run = O::apply(run, v2);
            dst[(q - 2) * pitch] = run;
            run = O::apply(run, v3);
            dst[(q - 3) * pitch] = run;
        }
        for (; q >= s; --q) {
            run = O::apply(run, src[q * pitch]);
            dst[q * pitch] = run;
        }
    }
    __syncthreads();
    for (int item = threadIdx.x; item < (chunks << laneShift); item += blockDim.x) {
        const int l = item & (lanes - 1), ci = item >> laneShift;
        int s, e;
        bounds(ci, s, e);
        e = min(e, E);
        if (s >= e) continue;
        const T* __restrict__ src = in + l;
        const T* __restrict__ suf = suffix + l;
        T* __restrict__ dst = out + l;
        const int minor0 = g.c0 + l;
        T prefix = perBlock > 1 ? prefixCarry[ci * lanes + l] : neutral;
        // Outputs c = q - right; the window's first position c - left = q - (len - 1).
        auto emit = [&](int q, T x, T h) {
            prefix = O::apply(prefix, x);
            const int c = q - w.right;
            if (c < 0) return;
            T v = O::apply(h, prefix);
            if (maskOut) {
                const int u = minor0 + offTab[c];
                if (u < 0 || u >= g.m) v = mask;
            }
            dst[c * pitch] = v;
        };
        auto input = [&](int q) { return q < P ? src[q * pitch] : neutral; };
        auto head = [&](int q) { return q >= len - 1 ? suf[(q - len + 1) * pitch] : neutral; };
        int q = s;
        for (; q + 3 < e; q += 4) {
            const T x0 = input(q), x1 = input(q + 1), x2 = input(q + 2), x3 = input(q + 3);
            const T h0 = head(q), h1 = head(q + 1), h2 = head(q + 2), h3 = head(q + 3);
            emit(q, x0, h0);
            emit(q + 1, x1, h1);
            emit(q + 2, x2, h2);
            emit(q + 3, x3, h3);
        }
        for (; q < e; ++q) emit(q, input(q), head(q));
    }
    __syncthreads();
}

// One array position of one lane, and its pixel (t, u) in major/minor coordinates.
struct Site {
    int p, l, t, u;
    bool inside;  // the pixel is in the image
    bool valid;   // the site exists (batches may run past the end)
};

// Visits the array positions [p0, p1) × lanes in batches of K per thread: fetch(site) for
// all K first, so that their global loads are in flight together, then consume(site, value).
// Consecutive threads take consecutive lanes: side-by-side pixels of one image row.
template <int K, class Fetch, class Consume>
__device__ inline void forEachSite(const BandGeometry& g, int laneShift, const int* __restrict__ offTab, int p0,
                                   int p1, Fetch&& fetch, Consume&& consume) {
    using V = decltype(fetch(Site{}));
    const int lanes = 1 << laneShift;
    const int total = (p1 - p0) << laneShift;
    for (int base = threadIdx.x; base < total; base += K * blockDim.x) {
        Site st[K];
        V v[K];
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const int i = base + k * blockDim.x;
            const int p = p0 + (i >> laneShift), l = i & (lanes - 1);
            st[k] = Site{p, l, 0, 0, false, i < total};
            if (st[k].valid) {
                st[k].t = g.loadStart + p;
                st[k].u = g.c0 + l + offTab[p];
                st[k].inside = st[k].u >= 0 && st[k].u < g.m;
            }
            v[k] = fetch(st[k]);
        }
#pragma unroll
        for (int k = 0; k < K; ++k)
            if (st[k].valid) consume(st[k], v[k]);
    }
}

template <class T>
__device__ inline T loadPixel(DeviceImageView<const T> img, const Site& s) {
    return __ldg(img.row(s.t) + s.u);
}

inline constexpr int kBatch = LINESCOPE_BAND_BATCH;

template <class T>
__device__ inline SumOf<T> blockSum(SumOf<T> v, SumOf<T>* scratch) {
    for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    SumOf<T> total = 0;
    if (threadIdx.x == 0)
        for (int i = 0; i < (blockDim.x >> 5); ++i) total += scratch[i];  // a fixed order: reproducible sums
    __syncthreads();
    return total;
}

inline std::size_t alignUp(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }

// Bytes of the per-block arrays: the offsets table, three [position][lane] arrays, the
// chunk tables (aggregates, suffix and prefix carries) and the block-sum scratch.
template <class T>
__host__ __device__ inline std::size_t arrayBytes(int capacity, int pitch, int lanes, int tableEntries) {
    const std::size_t table = (static_cast<std::size_t>(capacity) * sizeof(int) + 15) / 16 * 16;
    const std::size_t one = (static_cast<std::size_t>(capacity) * pitch * sizeof(T) + 15) / 16 * 16;
    const std::size_t chunkTables = (3 * static_cast<std::size_t>(tableEntries) * lanes * sizeof(T) + 15) / 16 * 16;
    return table + 3 * one + chunkTables + kBandThreads / 32 * sizeof(SumOf<double>);  // + one partial sum a warp
}

template <class T, bool MinFirst, bool TwoStage, Output Out>
__global__ void __launch_bounds__(kBandThreads) lineBandKernel(DeviceImageView<const T> src, DeviceImageView<T> dst,
                                                               const __grid_constant__ Params prm, FoldTargets<T> fold) {
    extern __shared__ __align__(16) unsigned char sharedArrays[];
    const Job job = prm.jobs[blockIdx.y];
    unsigned char* base = prm.globalArrays
                              ? prm.globalArrays + (static_cast<std::size_t>(blockIdx.y) * gridDim.x + blockIdx.x) *
                                                       prm.arrayBytesPerBlock
                              : sharedArrays;
    const std::size_t table = (static_cast<std::size_t>(prm.capacity) * sizeof(int) + 15) / 16 * 16;
    const std::size_t one = (static_cast<std::size_t>(prm.capacity) * prm.pitch * sizeof(T) + 15) / 16 * 16;
    int* offTab = reinterpret_cast<int*>(base);
    T* F = reinterpret_cast<T*>(base + table);
    T* H = reinterpret_cast<T*>(base + table + one);
    T* E = reinterpret_cast<T*>(base + table + 2 * one);
    T* chunkTables = reinterpret_cast<T*>(base + table + 3 * one);
    auto* sumScratch = reinterpret_cast<SumOf<T>*>(
        base + table + 3 * one +
        (3 * static_cast<std::size_t>(prm.tableEntries) * (1u << prm.laneShift) * sizeof(T) + 15) / 16 * 16);

    const int lanes = 1 << prm.laneShift;
    const int n = prm.height, m = prm.width;
    const Window w1 = prm.stage1, w2 = prm.stage2;
    const int reachLeft = w1.left + (TwoStage ? w2.left : 0);
    const int reachRight = w1.right + (TwoStage ? w2.right : 0);
    using First = Op<T, MinFirst>;
    using Second = Op<T, !MinFirst>;

    const int items = job.bands * job.zones;
    for (int item = blockIdx.x; item < items; item += gridDim.x) {
        const int band = item / job.zones, zone = item % job.zones;
        const int c0 = job.firstLine + band * lanes;
        int hullLo, hullHi;  // every thread computes the same closed form: no barrier needed
        bandExtent(job.slope, c0, lanes, n, m, hullLo, hullHi, job.phase);
        const int t0 = max(zone * job.zoneLength, hullLo);
        const int t1 = min(min(zone * job.zoneLength + job.zoneLength, n), hullHi + 1);
        BandGeometry g;
        g.c0 = c0;
        g.n = n;
        g.m = m;
        g.loadStart = max(hullLo, t0 - reachLeft);
        const int loadEnd = min(hullHi + 1, t1 + reachRight);
        g.count = loadEnd - g.loadStart;
        g.outBegin = t0 - g.loadStart;
        g.outEnd = t1 - g.loadStart;
        if (t0 >= t1) {  // uniform across the block: the band misses this zone
            if constexpr (Out == Output::Fold || Out == Output::Sum)
                if (threadIdx.x == 0)
                    fold.partials[static_cast<std::size_t>(job.angleIndex) * fold.partialsPerAngle + item] = 0;
            continue;
        }

        for (int p = threadIdx.x; p < g.count; p += blockDim.x)
            offTab[p] = static_cast<int>(lineOffset(g.loadStart + p, job.slope, job.phase));
        __syncthreads();
        // Everything outside the image is the first stage's neutral value.
        forEachSite<kBatch>(
            g, prm.laneShift, offTab, 0, g.count,
            [&](const Site& st) { return st.inside ? canonical(loadPixel(src, st)) : First::neutral(); },
            [&](const Site& st, T v) { F[st.p * prm.pitch + st.l] = v; });
        __syncthreads();

        vhgwStage<T, MinFirst>(F, H, E, chunkTables, g, prm.laneShift, prm.pitch, w1, prm.chunk, offTab, TwoStage,
                               Second::neutral());
        const T* result = E;
        if constexpr (TwoStage) {
            vhgwStage<T, !MinFirst>(E, H, F, chunkTables, g, prm.laneShift, prm.pitch, w2, prm.chunk, offTab, false,
                                    T{});
            result = F;
        }

        if constexpr (Out == Output::Sum) {
            SumOf<T> sum = 0;
            forEachSite<kBatch>(
                g, prm.laneShift, offTab, g.outBegin, g.outEnd,
                [&](const Site& st) { return st.inside ? result[st.p * prm.pitch + st.l] : T{}; },
                [&](const Site& st, T v) {
                    // The rows a zone discards belong to another zone's spectrum.
                    if (st.inside && st.t >= prm.keepT0 && st.t < prm.keepT1 && st.u >= prm.keepU0 && st.u < prm.keepU1)
                        sum += static_cast<SumOf<T>>(v);
                });
            const SumOf<T> total = blockSum<T>(sum, sumScratch);
            if (threadIdx.x == 0)
                fold.partials[static_cast<std::size_t>(job.angleIndex) * fold.partialsPerAngle + item] = total;
        } else if constexpr (Out == Output::Fold) {
            SumOf<T> sum = 0;
            T* best = fold.best + static_cast<std::size_t>(job.slot) * fold.slotPixels;
            T* other = fold.other + static_cast<std::size_t>(job.slot) * fold.slotPixels;
            std::uint16_t* arg = fold.arg + static_cast<std::size_t>(job.slot) * fold.slotPixels;
            const auto k = static_cast<std::uint16_t>(job.angleIndex);
            const bool first = job.firstInSlot != 0;
            struct Seen {
                T v, best, other;
            };
            // Slot planes hold at most 2^31 pixels (checked by the launcher): 32-bit indices.
            auto index = [&](const Site& st) { return static_cast<unsigned>(st.t) * static_cast<unsigned>(prm.width) + st.u; };
            forEachSite<kBatch>(
                g, prm.laneShift, offTab, g.outBegin, g.outEnd,
                [&](const Site& st) {
                    Seen s{};
                    if (st.inside) {
                        s.v = result[st.p * prm.pitch + st.l];
                        if (!first) {
                            s.best = best[index(st)];
                            s.other = other[index(st)];
                        }
                    }
                    return s;
                },
                [&](const Site& st, const Seen& s) {
                    if (!st.inside) return;
                    // The rows a zone discards belong to another zone's spectrum.
                    if (st.t >= prm.keepT0 && st.t < prm.keepT1 && st.u >= prm.keepU0 && st.u < prm.keepU1)
                        sum += static_cast<SumOf<T>>(s.v);
                    const unsigned i = index(st);
                    if (first) {
                        best[i] = s.v;
                        other[i] = s.v;
                        arg[i] = k;
                        return;
                    }
                    // The orientation follows the first stage's extreme over angles: the
                    // supremum for openings and erosions, the infimum for closings and dilations.
                    if (Second::apply(s.best, s.v) != s.best) {  // strictly better: the smallest k keeps ties
                        best[i] = s.v;
                        arg[i] = k;
                    }
                    // Written only when it moves: after a few angles most pixels keep their extremes.
                    if (First::apply(s.other, s.v) != s.other) other[i] = s.v;
                });
            const SumOf<T> total = blockSum<T>(sum, sumScratch);
            if (threadIdx.x == 0)
                fold.partials[static_cast<std::size_t>(job.angleIndex) * fold.partialsPerAngle + item] = total;
        } else {
            struct Seen {
                T v, f;
            };
            forEachSite<kBatch>(
                g, prm.laneShift, offTab, g.outBegin, g.outEnd,
                [&](const Site& st) {
                    Seen s{};
                    if (st.inside) {
                        s.v = result[st.p * prm.pitch + st.l];
                        if constexpr (Out == Output::TopHat) s.f = loadPixel(src, st);
                    }
                    return s;
                },
                [&](const Site& st, const Seen& s) {
                    if (!st.inside) return;
                    T* d = dst.row(st.t) + st.u;
                    if constexpr (Out == Output::TopHat) *d = static_cast<T>(s.f - s.v);
                    else *d = s.v;
                });
        }
        __syncthreads();  // the arrays are reused by the next item
    }
}

}  // namespace linescope::cuda::band
