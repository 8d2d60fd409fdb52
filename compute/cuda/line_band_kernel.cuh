// The band kernel: the GPU's default line operator, and the body of its sweeps.
//
// A thread block takes a band of L adjacent lines of one family (one angle) and a zone of
// positions along them. Adjacent lines are adjacent pixels across the major axis, so the
// band is read row by row with coalesced loads into shared memory, laid out [position][lane].
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

#include <cstdint>
#include <limits>
#include <type_traits>

namespace linescope::cuda::band {

enum class Output { Store, TopHat, Fold };

inline constexpr int kBandThreads = 256;

// One angle of a launch.
struct Job {
    std::int32_t slope = 0;      // S, 16.16 fixed point
    std::int32_t yMajor = 0;
    std::int32_t firstLine = 0;  // line index of band 0, lane 0
    std::int32_t bands = 0;
    std::int32_t zones = 0;
    std::int32_t zoneLength = 0;  // output positions per zone
    std::int32_t angleIndex = 0;  // k of the sweep
    std::int32_t slot = 0;        // accumulator set this angle folds into
    std::int32_t firstInSlot = 0; // 1: initialise the slot instead of comparing
};

// The window of one stage: out(c) = op of in over [c - left, c + right].
struct Window {
    int left = 0;
    int right = 0;
};

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
    unsigned char* globalArrays = nullptr;  // null: the arrays are in shared memory
    std::size_t arrayBytesPerBlock = 0;
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

template <class T>
__host__ __device__ constexpr T highest() {
    if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
}
template <class T>
__host__ __device__ constexpr T lowest() {
    if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
}

template <class T, bool IsMin>
struct Op {
    __device__ static T apply(T x, T y) {
        if constexpr (IsMin) return y < x ? y : x;
        else return x < y ? y : x;
    }
    __device__ static constexpr T neutral() { return IsMin ? highest<T>() : lowest<T>(); }
};

// Float −0 is read as +0 (as on the CPU) so that every extreme is one bit pattern.
template <class T>
__device__ inline T canonical(T v) {
    if constexpr (std::is_floating_point_v<T>) return v + T(0);
    else return v;
}

__device__ inline int offAt(std::int32_t slope, int t) {
    return static_cast<int>((static_cast<long long>(t) * slope + 32768) >> 16);
}

// First t in [lo, hi) with pred(t), for a predicate that is false then true; hi if none.
template <class Pred>
__device__ inline int lowerBound(int lo, int hi, Pred pred) {
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (pred(mid)) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

// Positions [lo, hi] where some line of the band [c0, c0 + L - 1] is inside the image:
// off(t) ∈ [-(c0 + L - 1), m - 1 - c0], an interval because off is monotone.
__device__ inline void bandHull(std::int32_t slope, int c0, int lanes, int n, int m, int& lo, int& hi) {
    const int A = -(c0 + lanes - 1), B = m - 1 - c0;
    if (slope >= 0) {
        lo = lowerBound(0, n, [&](int t) { return offAt(slope, t) >= A; });
        hi = lowerBound(0, n, [&](int t) { return offAt(slope, t) > B; }) - 1;
    } else {
        lo = lowerBound(0, n, [&](int t) { return offAt(slope, t) <= B; });
        hi = lowerBound(0, n, [&](int t) { return offAt(slope, t) < A; }) - 1;
    }
}

struct BandGeometry {
    int c0;         // line of lane 0
    int loadStart;  // major position of array position 0
    int count;      // positions held
    int outBegin;   // array positions [outBegin, outEnd) are this block's outputs
    int outEnd;
    int n, m;       // major and minor lengths
    bool yMajor;
};

// One stage of van Herk/Gil-Werman over the arrays: out[c] = op of in over
// [c - w.left, c + w.right] ∩ [0, count). Blocks of the window length start at position 0.
// When maskOut, positions outside the image get `mask` (the next stage's neutral value).
template <class T, bool IsMin>
__device__ void vhgwStage(const T* in, T* suffix, T* out, const BandGeometry& g, int laneShift, int pitch, Window w,
                          const int* offTab, bool maskOut, T mask) {
    using O = Op<T, IsMin>;
    const int lanes = 1 << laneShift;
    const int len = w.left + w.right + 1;
    const int P = g.count;
    const int blocksA = (P + len - 1) / len;
    for (int item = threadIdx.x; item < (blocksA << laneShift); item += blockDim.x) {
        const int l = item & (lanes - 1);
        const int s = (item >> laneShift) * len;
        const int e = min(s + len, P);
        T run = O::neutral();
        for (int q = e - 1; q >= s; --q) {
            run = O::apply(run, in[q * pitch + l]);
            suffix[q * pitch + l] = run;
        }
    }
    __syncthreads();
    const int end = P + w.right;  // prefixes run past the arrays so that the last outputs see their blocks
    const int blocksB = (end + len - 1) / len;
    for (int item = threadIdx.x; item < (blocksB << laneShift); item += blockDim.x) {
        const int l = item & (lanes - 1);
        const int s = (item >> laneShift) * len;
        const int e = min(s + len, end);
        const int minor0 = g.c0 + l;
        T prefix = O::neutral();
        for (int q = s; q < e; ++q) {
            if (q < P) prefix = O::apply(prefix, in[q * pitch + l]);
            const int c = q - w.right;
            if (c < 0) continue;
            const int first = c - w.left;
            T v = first >= 0 ? O::apply(suffix[first * pitch + l], prefix) : prefix;
            if (maskOut) {
                const int u = minor0 + offTab[c];
                if (u < 0 || u >= g.m) v = mask;
            }
            out[c * pitch + l] = v;
        }
    }
    __syncthreads();
}

template <class T>
__device__ inline T pixelAt(DeviceImageView<const T> img, bool yMajor, int t, int u) {
    return yMajor ? img.row(t)[u] : img.row(u)[t];
}

// Visits the array positions [p0, p1) × lanes, with the threads of a warp on consecutive
// pixels of one image row: consecutive lanes for y-major families (their pixels are side by
// side in a row), consecutive positions for x-major ones. body(p, lane, t, u, inside).
template <class Body>
__device__ inline void forEachPosition(const BandGeometry& g, int laneShift, const int* offTab, int p0, int p1,
                                       Body&& body) {
    const int lanes = 1 << laneShift;
    if (g.yMajor) {
        const int total = (p1 - p0) << laneShift;
        for (int i = threadIdx.x; i < total; i += blockDim.x) {
            const int l = i & (lanes - 1);
            const int p = p0 + (i >> laneShift);
            const int u = g.c0 + l + offTab[p];
            body(p, l, g.loadStart + p, u, u >= 0 && u < g.m);
        }
    } else {
        const int span = p1 - p0;
        for (int l = 0; l < lanes; ++l)
            for (int i = threadIdx.x; i < span; i += blockDim.x) {
                const int p = p0 + i;
                const int u = g.c0 + l + offTab[p];
                body(p, l, g.loadStart + p, u, u >= 0 && u < g.m);
            }
    }
}

// The same over the pixels inside the image only: body(p, lane, t, u).
template <class Body>
__device__ inline void forEachInImage(const BandGeometry& g, int laneShift, const int* offTab, int p0, int p1,
                                      Body&& body) {
    forEachPosition(g, laneShift, offTab, p0, p1, [&](int p, int l, int t, int u, bool inside) {
        if (inside) body(p, l, t, u);
    });
}

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

// Bytes of the per-block arrays: the offsets table and three [position][lane] arrays.
template <class T>
__host__ __device__ inline std::size_t arrayBytes(int capacity, int pitch) {
    const std::size_t table = (static_cast<std::size_t>(capacity) * sizeof(int) + 15) / 16 * 16;
    const std::size_t one = (static_cast<std::size_t>(capacity) * pitch * sizeof(T) + 15) / 16 * 16;
    return table + 3 * one + 64;  // + the block-sum scratch
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
    auto* sumScratch = reinterpret_cast<SumOf<T>*>(base + table + 3 * one);
    __shared__ int hull[2];

    const int lanes = 1 << prm.laneShift;
    const bool yMajor = job.yMajor != 0;
    const int n = yMajor ? prm.height : prm.width;
    const int m = yMajor ? prm.width : prm.height;
    const Window w1 = prm.stage1, w2 = prm.stage2;
    const int reachLeft = w1.left + (TwoStage ? w2.left : 0);
    const int reachRight = w1.right + (TwoStage ? w2.right : 0);
    using First = Op<T, MinFirst>;
    using Second = Op<T, !MinFirst>;

    const int items = job.bands * job.zones;
    for (int item = blockIdx.x; item < items; item += gridDim.x) {
        const int band = item / job.zones, zone = item % job.zones;
        const int c0 = job.firstLine + band * lanes;
        if (threadIdx.x == 0) {
            int lo, hi;
            bandHull(job.slope, c0, lanes, n, m, lo, hi);
            hull[0] = lo;
            hull[1] = hi;
        }
        __syncthreads();
        const int t0 = max(zone * job.zoneLength, hull[0]);
        const int t1 = min(min(zone * job.zoneLength + job.zoneLength, n), hull[1] + 1);
        BandGeometry g;
        g.c0 = c0;
        g.n = n;
        g.m = m;
        g.yMajor = yMajor;
        g.loadStart = max(hull[0], t0 - reachLeft);
        const int loadEnd = min(hull[1] + 1, t1 + reachRight);
        g.count = loadEnd - g.loadStart;
        g.outBegin = t0 - g.loadStart;
        g.outEnd = t1 - g.loadStart;
        __syncthreads();  // hull[] is rewritten by the next item
        if (t0 >= t1) {  // uniform across the block: the band misses this zone
            if constexpr (Out == Output::Fold)
                if (threadIdx.x == 0)
                    fold.partials[static_cast<std::size_t>(job.angleIndex) * fold.partialsPerAngle + item] = 0;
            continue;
        }

        for (int p = threadIdx.x; p < g.count; p += blockDim.x) offTab[p] = offAt(job.slope, g.loadStart + p);
        __syncthreads();
        // Everything outside the image is the first stage's neutral value.
        forEachPosition(g, prm.laneShift, offTab, 0, g.count, [&](int p, int l, int t, int u, bool inside) {
            F[p * prm.pitch + l] = inside ? canonical(pixelAt(src, yMajor, t, u)) : First::neutral();
        });
        __syncthreads();

        vhgwStage<T, MinFirst>(F, H, E, g, prm.laneShift, prm.pitch, w1, offTab, TwoStage, Second::neutral());
        const T* result = E;
        if constexpr (TwoStage) {
            vhgwStage<T, !MinFirst>(E, H, F, g, prm.laneShift, prm.pitch, w2, offTab, false, T{});
            result = F;
        }

        if constexpr (Out == Output::Fold) {
            SumOf<T> sum = 0;
            T* best = fold.best + static_cast<std::size_t>(job.slot) * fold.slotPixels;
            T* other = fold.other + static_cast<std::size_t>(job.slot) * fold.slotPixels;
            std::uint16_t* arg = fold.arg + static_cast<std::size_t>(job.slot) * fold.slotPixels;
            const auto k = static_cast<std::uint16_t>(job.angleIndex);
            const bool first = job.firstInSlot != 0;
            forEachInImage(g, prm.laneShift, offTab, g.outBegin, g.outEnd, [&](int p, int l, int t, int u) {
                const T v = result[p * prm.pitch + l];
                sum += static_cast<SumOf<T>>(v);
                const std::size_t i = yMajor ? static_cast<std::size_t>(t) * prm.width + u
                                             : static_cast<std::size_t>(u) * prm.width + t;
                if (first) {
                    best[i] = v;
                    other[i] = v;
                    arg[i] = k;
                } else {
                    // The orientation follows the first stage's extreme over angles: the
                    // supremum for openings and erosions, the infimum for closings and dilations.
                    const T b = best[i];
                    if (Second::apply(b, v) != b) {  // strictly better: the smallest k keeps ties
                        best[i] = v;
                        arg[i] = k;
                    }
                    other[i] = First::apply(other[i], v);
                }
            });
            const SumOf<T> total = blockSum<T>(sum, sumScratch);
            if (threadIdx.x == 0)
                fold.partials[static_cast<std::size_t>(job.angleIndex) * fold.partialsPerAngle + item] = total;
        } else {
            forEachInImage(g, prm.laneShift, offTab, g.outBegin, g.outEnd, [&](int p, int l, int t, int u) {
                const T v = result[p * prm.pitch + l];
                T* d = yMajor ? dst.row(t) + u : dst.row(u) + t;
                if constexpr (Out == Output::TopHat) *d = static_cast<T>(pixelAt(src, yMajor, t, u) - v);
                else *d = v;
            });
        }
        __syncthreads();  // the arrays are reused by the next item
    }
}

}  // namespace linescope::cuda::band
