#include "compute/cuda/granulometry_cuda.h"

#include "compute/cuda/cuda_check.h"
#include "compute/cuda/cuda_context.h"
#include "compute/granulometry_line.h"
#include "compute/pixel_rules.h"

#include <algorithm>
#include <cstdlib>

namespace linescope::cuda {

namespace {

using u64 = unsigned long long;
constexpr int kBlock = 128;
constexpr std::size_t kSharedBucketBytes = 40 * 1024;  // within the default 48 KiB a block

// One line's pixel range on the image and the range of positions inside the region rectangle.
struct LineJob {
    std::int64_t line;       // c
    std::int32_t t0;         // first major position inside the image
    std::int32_t n;          // pixels
    std::int32_t r0, r1;     // positions [r0, r1) lie in the region (r0 = r1: none)
};

struct Params {
    std::int32_t slope, phase;
    bool yMajor;
    int maxLength;
    long long jobs;
    long long stackStride;  // cords between one depth and the next of a thread's stack
};

// The stack of thread `k`, interleaved with its neighbours' so that a warp's pushes at the same
// depth are adjacent.
template <class T>
struct StridedStack {
    GranulometryCord<T>* base;
    long long stride;
    __device__ GranulometryCord<T>& operator[](int depth) const { return base[static_cast<long long>(depth) * stride]; }
};

// Adds each cord's term; whole numbers, so the order of the atomics does not matter (two's
// complement wraps back to the exact sum, which fits 64 bits).
struct AtomicSink {
    u64* bucket;
    template <class T>
    __device__ void operator()(int b, T level, T parent, std::int32_t count) const {
        const long long term = static_cast<long long>(count) * (static_cast<long long>(level) - static_cast<long long>(parent));
        atomicAdd(bucket + b, static_cast<u64>(term));
    }
};

template <class T, bool SharedBuckets>
__global__ void __launch_bounds__(kBlock)
    granulometryKernel(Params p, const unsigned char* src, std::size_t pitch, const LineJob* jobs,
                       GranulometryCord<T>* stacks, u64* buckets) {
    extern __shared__ u64 shared[];
    const int cap = p.maxLength + 1;
    if constexpr (SharedBuckets) {
        for (int b = threadIdx.x; b <= cap; b += blockDim.x) shared[b] = 0;
        __syncthreads();
    }
    const long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (k < p.jobs) {
        const LineJob job = jobs[k];
        const auto value = [&](std::int32_t j) {
            const std::int64_t t = job.t0 + j;
            const std::int64_t minor = job.line + lineOffset(t, p.slope, p.phase);
            const std::int64_t x = p.yMajor ? minor : t, y = p.yMajor ? t : minor;
            return canonical(reinterpret_cast<const T*>(src + static_cast<std::size_t>(y) * pitch)[x]);
        };
        const auto regionBefore = [&](std::int32_t j) { return min(max(j, job.r0), job.r1) - job.r0; };
        StridedStack<T> stack{stacks + k, p.stackStride};
        AtomicSink sink{SharedBuckets ? shared : buckets};
        if (job.r1 > job.r0) granulometryLine<T>(job.n, value, regionBefore, p.maxLength, stack, sink);
    }
    if constexpr (SharedBuckets) {
        __syncthreads();
        for (int b = threadIdx.x; b <= cap; b += blockDim.x)
            if (shared[b]) atomicAdd(buckets + b, shared[b]);
    }
}

// A block a line, every pixel in parallel: the cords are the line's max-tree nodes, and each
// node has one pixel that names it, the leftmost at its level. Pixel p names the node
// [s, e] at level f(p) when no pixel of [s, p) has f ≤ f(p): s − 1 is p's previous smaller-
// or-equal pixel (PSE) and e + 1 its next strictly smaller one (NSE); the parent's level is
// the higher of f(s − 1) and f(e + 1) (0 for the whole line). That is the node, bucket,
// parent and count that granulometryLine's stack walk hands to its sink for the same cord,
// and the sums are whole numbers, so the buckets equal the walk's bit for bit.
// PSE and NSE are found in shared memory through the minima of chunks of 8 pixels and of
// superchunks of 64: a few steps a pixel on natural images, at most n/64 + 32 on a ramp.
constexpr int kLineBlock = 256;
constexpr int kChunk = 8, kSuper = 64;

template <class T>
struct LinePixels {
    const T* f;      // n values
    const T* chunk;  // minimum of each chunk of kChunk
    const T* super;  // minimum of each superchunk of kSuper
    int n;

    // The nearest q < p with f(q) ≤ v (Strict: f(q) < v), or −1.
    template <bool Strict>
    __device__ int previous(int p, T v) const {
        const auto hit = [v](T x) { return Strict ? x < v : x <= v; };
        for (int q = p - 1; q >= 0 && q >= p / kChunk * kChunk; --q)
            if (hit(f[q])) return q;
        for (int c = p / kChunk - 1; c >= 0; --c) {
            if (c % (kSuper / kChunk) == kSuper / kChunk - 1) {  // at a superchunk's end: skip whole ones
                int sc = c / (kSuper / kChunk);
                while (sc >= 0 && !hit(super[sc])) --sc;
                if (sc < 0) return -1;
                c = sc * (kSuper / kChunk) + kSuper / kChunk - 1;
                while (!hit(chunk[c])) --c;
            }
            if (hit(chunk[c]))
                for (int q = c * kChunk + kChunk - 1;; --q)
                    if (hit(f[q])) return q;
        }
        return -1;
    }
    // The nearest q > p with f(q) < v, or n.
    __device__ int nextSmaller(int p, T v) const {
        const auto hit = [v](T x) { return x < v; };
        const int chunks = (n + kChunk - 1) / kChunk, supers = (n + kSuper - 1) / kSuper;
        for (int q = p + 1; q < n && q < (p / kChunk + 1) * kChunk; ++q)
            if (hit(f[q])) return q;
        for (int c = p / kChunk + 1; c < chunks; ++c) {
            if (c % (kSuper / kChunk) == 0) {  // at a superchunk's start: skip whole ones
                int sc = c / (kSuper / kChunk);
                while (sc < supers && !hit(super[sc])) ++sc;
                if (sc >= supers) return n;
                c = sc * (kSuper / kChunk);
                while (!hit(chunk[c])) ++c;
            }
            if (hit(chunk[c]))
                for (int q = c * kChunk;; ++q)
                    if (hit(f[q])) return q;
        }
        return n;
    }
};

// The shared memory of a line of n pixels: values, chunk and superchunk minima, buckets.
template <class T>
std::size_t lineBlockShared(int n, int cap) {
    const auto values = [](std::size_t count) { return (count * sizeof(T) + 7) / 8 * 8; };
    const auto un = static_cast<std::size_t>(n);
    return values(un) + values((un + kChunk - 1) / kChunk) + values((un + kSuper - 1) / kSuper) +
           (static_cast<std::size_t>(cap) + 1) * sizeof(u64);
}

template <class T>
__global__ void __launch_bounds__(kLineBlock)
    granulometryLineBlockKernel(Params p, int maxLine, const unsigned char* src, std::size_t pitch,
                                const LineJob* jobs, u64* buckets) {
    extern __shared__ u64 shared[];
    const int cap = p.maxLength + 1;
    const auto aligned = [](std::size_t count) { return (count * sizeof(T) + 7) / 8; };  // in u64
    const auto um = static_cast<std::size_t>(maxLine);
    T* f = reinterpret_cast<T*>(shared);
    T* chunk = reinterpret_cast<T*>(shared + aligned(um));
    T* super = reinterpret_cast<T*>(shared + aligned(um) + aligned((um + kChunk - 1) / kChunk));
    u64* bucket = shared + aligned(um) + aligned((um + kChunk - 1) / kChunk) + aligned((um + kSuper - 1) / kSuper);
    for (int b = threadIdx.x; b <= cap; b += blockDim.x) bucket[b] = 0;

    const LineJob job = jobs[blockIdx.x];
    const int n = job.n;
    for (int j = threadIdx.x; j < n; j += blockDim.x) {
        const std::int64_t t = job.t0 + j;
        const std::int64_t minor = job.line + lineOffset(t, p.slope, p.phase);
        const std::int64_t x = p.yMajor ? minor : t, y = p.yMajor ? t : minor;
        f[j] = canonical(reinterpret_cast<const T*>(src + static_cast<std::size_t>(y) * pitch)[x]);
    }
    __syncthreads();
    const int chunks = (n + kChunk - 1) / kChunk, supers = (n + kSuper - 1) / kSuper;
    for (int c = threadIdx.x; c < chunks; c += blockDim.x) {
        T m = f[c * kChunk];
        for (int q = c * kChunk + 1; q < min(n, (c + 1) * kChunk); ++q) m = min(m, f[q]);
        chunk[c] = m;
    }
    __syncthreads();
    for (int c = threadIdx.x; c < supers; c += blockDim.x) {
        T m = chunk[c * (kSuper / kChunk)];
        for (int q = c * (kSuper / kChunk) + 1; q < min(chunks, (c + 1) * (kSuper / kChunk)); ++q) m = min(m, chunk[q]);
        super[c] = m;
    }
    __syncthreads();

    if (job.r1 > job.r0) {
        const LinePixels<T> line{f, chunk, super, n};
        const auto regionBefore = [&](std::int32_t j) { return min(max(j, job.r0), job.r1) - job.r0; };
        for (int q = threadIdx.x; q < n; q += blockDim.x) {
            const T v = f[q];
            const int before = line.template previous<false>(q, v);
            if (before >= 0 && !(f[before] < v)) continue;  // an equal pixel to the left names this node
            const int s = before + 1, e = line.nextSmaller(q, v) - 1;
            const std::int32_t count = regionBefore(e + 1) - regionBefore(s);
            if (count <= 0) continue;
            T parent{};
            if (s > 0 && e < n - 1) parent = max(f[s - 1], f[e + 1]);
            else if (s > 0) parent = f[s - 1];
            else if (e < n - 1) parent = f[e + 1];
            const long long term = static_cast<long long>(count) * (static_cast<long long>(v) - static_cast<long long>(parent));
            atomicAdd(bucket + granulometryBucket(s, e, n, cap), static_cast<u64>(term));
        }
    }
    __syncthreads();
    for (int b = threadIdx.x; b <= cap; b += blockDim.x)
        if (bucket[b]) atomicAdd(buckets + b, bucket[b]);
}

// [first, last] of the positions t in [t0, t1] where pred holds, pred being true on one
// interval (the line's minor coordinate is monotone in t); empty: first > last.
template <class Pred>
void intervalOf(std::int64_t t0, std::int64_t t1, std::int64_t probe, const Pred& pred, std::int64_t& first,
                std::int64_t& last) {
    first = 1, last = 0;
    if (!pred(probe)) return;
    std::int64_t lo = t0, hi = probe;  // first true in [t0, probe]
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (pred(mid)) hi = mid; else lo = mid + 1;
    }
    first = lo;
    lo = probe, hi = t1;  // last true in [probe, t1]
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (pred(mid)) lo = mid; else hi = mid - 1;
    }
    last = lo;
}

// The lines of the family with their extents and region ranges (host side: binary searches,
// O(log n) a line).
std::vector<LineJob> lineJobs(const LineFamily& fam, int W, int H, const std::optional<PixelRect>& rect) {
    int x0 = 0, y0 = 0, x1 = W, y1 = H;
    if (rect) {
        x0 = std::clamp(rect->x, 0, W), y0 = std::clamp(rect->y, 0, H);
        x1 = static_cast<int>(std::clamp<long long>(static_cast<long long>(rect->x) + rect->width, 0, W));
        y1 = static_cast<int>(std::clamp<long long>(static_cast<long long>(rect->y) + rect->height, 0, H));
    }
    std::vector<LineJob> jobs;
    for (std::int64_t c = fam.firstLine(); c <= fam.lastLine(); ++c) {
        std::int64_t t0, t1;
        fam.extent(c, t0, t1);
        if (t0 > t1) continue;
        // In the rectangle: the major coordinate in its range (an interval of t) and the minor
        // one too (monotone in t, so another interval).
        const std::int64_t lo = std::max(t0, static_cast<std::int64_t>(fam.yMajor ? y0 : x0));
        const std::int64_t hi = std::min(t1, static_cast<std::int64_t>((fam.yMajor ? y1 : x1) - 1));
        std::int64_t first = 1, last = 0;
        if (lo <= hi) {
            const std::int64_t mlo = fam.yMajor ? x0 : y0, mhi = fam.yMajor ? x1 : y1;
            const auto inside = [&](std::int64_t t) { const std::int64_t m = c + fam.off(t); return m >= mlo && m < mhi; };
            // A probe inside the minor range, if any: the minor coordinate is monotone, so the
            // interval is found by a binary search for where it enters the range.
            const bool rising = fam.slope >= 0;
            std::int64_t a = lo, b = hi;  // the first t with minor ≥ mlo (rising) or < mhi (falling)
            while (a < b) {
                const std::int64_t mid = a + (b - a) / 2;
                const std::int64_t m = c + fam.off(mid);
                if (rising ? m >= mlo : m < mhi) b = mid; else a = mid + 1;
            }
            intervalOf(lo, hi, a, inside, first, last);
        }
        const std::int64_t r0 = first <= last ? first - t0 : 0, r1 = first <= last ? last + 1 - t0 : 0;
        jobs.push_back({c, static_cast<std::int32_t>(t0), static_cast<std::int32_t>(t1 - t0 + 1),
                        static_cast<std::int32_t>(r0), static_cast<std::int32_t>(r1)});
    }
    return jobs;
}

}  // namespace

template <class T>
std::vector<std::int64_t> granulometryPathsBuckets(ImageView<const T> src, const LineFamily& family, int maxLength,
                                                   const std::optional<PixelRect>& rect) {
    static_assert(std::is_integral_v<T>, "float32 granulometries are exact sums: the CPU computes them");
    CudaContext& ctx = CudaContext::get();
    auto lock = ctx.lock();
    const std::vector<LineJob> jobs = lineJobs(family, src.width, src.height, rect);
    const auto cap = static_cast<std::size_t>(maxLength) + 1;
    std::vector<std::int64_t> out(cap + 1, 0);
    if (jobs.empty()) return out;
    const long long count = static_cast<long long>(jobs.size());
    int maxLine = 0;
    for (const LineJob& j : jobs) maxLine = std::max(maxLine, static_cast<int>(j.n));
    const std::size_t lineShared = lineBlockShared<T>(maxLine, static_cast<int>(cap));
    // Every line whole in shared memory: a block a line, all its pixels in parallel. Longer
    // lines (or LINESCOPE_GRANULOMETRY_WALK, to compare): one thread walks each line.
    const bool lineBlocks = lineShared <= kSharedBucketBytes && !std::getenv("LINESCOPE_GRANULOMETRY_WALK");
    const std::size_t stackCords =
        lineBlocks ? 0 : static_cast<std::size_t>(family.majorLength()) * static_cast<std::size_t>(count);
    const std::size_t pitch = devicePitch(src.width, sizeof(T));
    ctx.requireDeviceMemory(pitch * static_cast<std::size_t>(src.height) + jobs.size() * sizeof(LineJob) +
                                stackCords * sizeof(GranulometryCord<T>) + (cap + 1) * sizeof(u64),
                            "this granulometry");
    const DeviceImageView<T> image = ctx.image<T>(BufferSlot::Source, src.width, src.height);
    ctx.upload(src.data, src.stride * static_cast<std::ptrdiff_t>(sizeof(T)), image.data, image.pitch,
               static_cast<std::size_t>(src.width) * sizeof(T), src.height);
    auto* dJobs = ctx.buffer(BufferSlot::Jobs).as<LineJob>(jobs.size());
    auto* dBuckets = ctx.buffer(BufferSlot::Partials).as<u64>(cap + 1);
    const cudaStream_t stream = ctx.stream();
    LS_CUDA_CHECK(cudaMemcpyAsync(dJobs, jobs.data(), jobs.size() * sizeof(LineJob), cudaMemcpyHostToDevice, stream));
    LS_CUDA_CHECK(cudaMemsetAsync(dBuckets, 0, (cap + 1) * sizeof(u64), stream));
    CudaContext::countHostTraffic(jobs.size() * sizeof(LineJob));

    const Params p{family.slope, family.phase, family.yMajor, maxLength, count, count};
    const auto* s = reinterpret_cast<const unsigned char*>(image.data);
    if (lineBlocks) {
        granulometryLineBlockKernel<T><<<static_cast<unsigned>(count), kLineBlock, lineShared, stream>>>(
            p, maxLine, s, image.pitch, dJobs, dBuckets);
    } else {
        auto* dStacks = ctx.buffer(BufferSlot::Scratch).as<GranulometryCord<T>>(stackCords);
        const auto blocks = static_cast<unsigned>((count + kBlock - 1) / kBlock);
        const std::size_t shared = (cap + 1) * sizeof(u64);
        if (shared <= kSharedBucketBytes)
            granulometryKernel<T, true><<<blocks, kBlock, shared, stream>>>(p, s, image.pitch, dJobs, dStacks, dBuckets);
        else  // very long ranges: the buckets stay in global memory
            granulometryKernel<T, false><<<blocks, kBlock, 0, stream>>>(p, s, image.pitch, dJobs, dStacks, dBuckets);
    }
    LS_CUDA_CHECK_LAUNCH(granulometryKernel);
    std::vector<u64> raw(cap + 1);
    LS_CUDA_CHECK(cudaMemcpyAsync(raw.data(), dBuckets, (cap + 1) * sizeof(u64), cudaMemcpyDeviceToHost, stream));
    LS_CUDA_CHECK(cudaStreamSynchronize(stream));
    CudaContext::countHostTraffic((cap + 1) * sizeof(u64));
    for (std::size_t b = 0; b <= cap; ++b) out[b] = static_cast<std::int64_t>(raw[b]);
    return out;
}

template std::vector<std::int64_t> granulometryPathsBuckets<std::uint8_t>(ImageView<const std::uint8_t>, const LineFamily&,
                                                                          int, const std::optional<PixelRect>&);
template std::vector<std::int64_t> granulometryPathsBuckets<std::uint16_t>(ImageView<const std::uint16_t>,
                                                                           const LineFamily&, int,
                                                                           const std::optional<PixelRect>&);

}  // namespace linescope::cuda
