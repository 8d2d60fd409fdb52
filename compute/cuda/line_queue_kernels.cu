// The GPU kernels of Karas et al. (2015), "GPU implementation of linear morphological openings
// with arbitrary angle", kept for comparison with the engine's own kernels.
//
// Thread mapping (the paper's Fig. 4 and §5.1): one thread per work item, an item being one zone
// of one line; lines vary fastest, so a warp walks 32 neighbouring lines in step. Small images are
// cut into zones along the major axis (Eq. 5): a zone owns the outputs of [zs, ze] and reads λ−1
// extra samples on each side for an opening or closing (2(λ−1) overlap between zones; a or b for
// an erosion or dilation), which makes its outputs exact.
//
// Memory (§5.2): the input is read through the read-only cache (__ldg). Each thread's queue or
// stack keeps its newest entries in a ring in shared memory, interleaved by thread so that any
// pattern of slots is free of bank conflicts, and spills its oldest entries to a per-thread ring
// in global memory (BufferSlot::Scratch) when it grows past the shared ring. x-major families
// (§5.3) write their output transposed into BufferSlot::Temp, where a warp's 32 lines land in
// consecutive addresses, and a tiled transpose (which also forms the top-hat) puts it in place.
//
// Algorithms, on the padded line P = top×padL, f, top×padR of line_algorithms_1d.h:
//  - erosion/dilation: the streaming monotone min/max queue (van Herk-like, O(1) per sample);
//  - Fifo (Bartovsky et al.): the one-pass streaming opening, an inner min queue feeding an outer
//    max queue, the output following the input with a latency of w−1 samples;
//  - Stack (Morard et al.): the stack of cords. A cord known to be at least w long writes its
//    samples at once, so only the last w−1 samples ever wait for their value, and only the
//    highest such cord can still matter, so the cords below it are dropped: the stack never holds
//    more than w+1 cords (the paper's GPU version kept them all, up to the line length).
// All queues and stacks are strictly monotone, so they also hold at most one entry per grey
// level (256 for uint8), which bounds the global rings.
#include "compute/cuda/line_queue_kernels.h"

#include "compute/cuda/cuda_check.h"
#include "compute/image.h"
#include "compute/pixel_rules.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

namespace linescope::cuda {
namespace queue {

// Host and device: the index logic below can be run and checked on the CPU as well.
#define LS_QUEUE_HD __host__ __device__ __forceinline__

using u64 = unsigned long long;

constexpr int kBlock = 128;                            // threads per block: a multiple of the warp
constexpr unsigned kSharedEntriesPerThread = 16;       // 128 bytes of shared memory per thread
constexpr std::size_t kSpillBudget = std::size_t(256) << 20;  // global rings of all threads in flight (at most)
constexpr int kMaxZones = 32;
// Positions along a padded line are ints: up to 5 line lengths are formed (padding and latency).
constexpr int kMaxMajorLength = 1 << 28;

// ---- pixel values ---------------------------------------------------------------------------

template <class T>
LS_QUEUE_HD std::uint32_t toBits(T v) {
    if constexpr (std::is_same_v<T, float>) {
#ifdef __CUDA_ARCH__
        return __float_as_uint(v);
#else
        std::uint32_t u;
        std::memcpy(&u, &v, sizeof u);
        return u;
#endif
    } else {
        return static_cast<std::uint32_t>(v);
    }
}

template <class T>
LS_QUEUE_HD T fromBits(std::uint32_t u) {
    if constexpr (std::is_same_v<T, float>) {
#ifdef __CUDA_ARCH__
        return __uint_as_float(u);
#else
        float v;
        std::memcpy(&v, &u, sizeof v);
        return v;
#endif
    } else {
        return static_cast<T>(u);
    }
}

template <class T>
LS_QUEUE_HD T loadCached(const T* p) {
#ifdef __CUDA_ARCH__
    return __ldg(p);
#else
    return *p;
#endif
}

// The top-hat as the CPU forms it: the raw input (not canonicalized) minus the opening.
template <class T>
LS_QUEUE_HD T difference(T f, T g) {
    if constexpr (std::is_same_v<T, float>) return f - g;
    else return static_cast<T>(f - g);
}

// inner = min for Ascending (openings, erosions); `top` is the neutral element of inner.
template <class T, bool Ascending>
struct Ord {
    static LS_QUEUE_HD bool below(T x, T y) { return Ascending ? x < y : y < x; }
    static LS_QUEUE_HD T top() { return Ascending ? highestValue<T>() : lowestValue<T>(); }
};

// ---- the queue of one thread: shared ring + global spill ------------------------------------

// (value, position) in one 64-bit word: one shared-memory access per entry, conflict-free.
template <class T>
LS_QUEUE_HD u64 pack(T v, int pos) {
    return (static_cast<u64>(static_cast<std::uint32_t>(pos)) << 32) | toBits(v);
}
template <class T>
LS_QUEUE_HD T valueOf(u64 e) { return fromBits<T>(static_cast<std::uint32_t>(e)); }
LS_QUEUE_HD int positionOf(u64 e) { return static_cast<int>(static_cast<std::uint32_t>(e >> 32)); }

// A deque of entries numbered by ever-growing counters: the live ones are [head, tail); the
// newest, [sb, tail), sit in shared memory at slot k & smask (at most smask+1 of them), the older
// ones, [head, sb), in global memory at slot k & gmask. Its size never exceeds gmask+1 (the caller
// sizes the global ring by the bound of its algorithm), so slots are never shared by live entries.
// Front and back are cached in registers (the paper's Fig. 7 does the same).
template <class T>
class SpillDeque {
public:
    LS_QUEUE_HD void init(u64* shared, unsigned stride, unsigned sharedSlots, u64* global, unsigned globalSlots) {
        sh_ = shared;
        stride_ = stride;
        smask_ = sharedSlots - 1;
        gl_ = global;
        gmask_ = globalSlots - 1;
    }
    LS_QUEUE_HD void clear() { head_ = tail_ = sb_ = 0; }
    LS_QUEUE_HD bool empty() const { return head_ == tail_; }
    LS_QUEUE_HD unsigned size() const { return tail_ - head_; }
    LS_QUEUE_HD T frontValue() const { return valueOf<T>(front_); }
    LS_QUEUE_HD int frontPosition() const { return positionOf(front_); }
    LS_QUEUE_HD T backValue() const { return valueOf<T>(back_); }
    LS_QUEUE_HD int backPosition() const { return positionOf(back_); }
    // The i-th entry from the front.
    LS_QUEUE_HD u64 at(unsigned i) const { return load(head_ + i); }

    LS_QUEUE_HD void pushBack(T v, int pos) {
        const u64 e = pack(v, pos);
        if (tail_ - sb_ > smask_) {  // the shared ring is full: its oldest entry moves out
            gl_[sb_ & gmask_] = sh_[(sb_ & smask_) * stride_];
            ++sb_;
        }
        sh_[(tail_ & smask_) * stride_] = e;
        if (head_ == tail_) front_ = e;
        back_ = e;
        ++tail_;
    }
    LS_QUEUE_HD void popBack() {
        --tail_;
        if (sb_ > tail_) sb_ = tail_;
        if (head_ != tail_) back_ = load(tail_ - 1);
    }
    LS_QUEUE_HD void popFront() {
        ++head_;
        if (sb_ < head_) sb_ = head_;
        if (head_ != tail_) front_ = load(head_);
    }

private:
    LS_QUEUE_HD u64 load(unsigned k) const { return k < sb_ ? gl_[k & gmask_] : sh_[(k & smask_) * stride_]; }

    u64* sh_ = nullptr;
    u64* gl_ = nullptr;
    unsigned stride_ = 1, smask_ = 0, gmask_ = 0;
    unsigned head_ = 0, tail_ = 0, sb_ = 0;
    u64 front_ = 0, back_ = 0;
};

// ---- work items -----------------------------------------------------------------------------

enum class Kind { Erode, Dilate, FifoOpen, FifoClose, StackOpen, StackClose };

constexpr bool ascendingKind(Kind k) { return k == Kind::Erode || k == Kind::FifoOpen || k == Kind::StackOpen; }
constexpr bool slidingKind(Kind k) { return k == Kind::Erode || k == Kind::Dilate; }
constexpr int dequesOf(Kind k) { return k == Kind::FifoOpen || k == Kind::FifoClose ? 2 : 1; }

struct KernelParams {
    long long firstLine = 0;
    long long lines = 0;   // lines of the family
    long long items = 0;   // lines × zones
    int slope = 0;         // S
    int phase = static_cast<int>(kLinePhase);  // off's rounding constant (zones: pixel_rules.h)
    int major = 0;         // M: the length of the major axis
    int minor = 0;         // m
    int segA = 0, segB = 0;
    int zoneLen = 1;
    unsigned sharedSlots = 1, globalSlots = 1;  // per deque, powers of two
    long long threads = 0;  // threads that work (each owns global rings when they spill); the rest return
};

// LineFamily::extent, step for step: the in-image range [t0, t1] of line c (t0 > t1: none).
LS_QUEUE_HD void lineExtent(long long c, int slope, int phase, int n, int m, int& t0, int& t1) {
    t0 = 0;
    t1 = -1;
    if (n <= 0 || m <= 0) return;
    if (slope == 0) {
        if (c >= 0 && c < m) t1 = n - 1;
        return;
    }
    // off() is monotone, so "c + off(t) has reached the bound" is false then true along t.
    const bool rising = slope > 0;
    long long lo = 0, hi = n;
    while (lo < hi) {
        const long long mid = lo + (hi - lo) / 2;
        const long long u = c + lineOffset(mid, slope, phase);
        if (rising ? u >= 0 : u < m) hi = mid; else lo = mid + 1;
    }
    const long long first = lo;
    lo = 0;
    hi = n;
    while (lo < hi) {
        const long long mid = lo + (hi - lo) / 2;
        const long long u = c + lineOffset(mid, slope, phase);
        if (rising ? u >= m : u < 0) hi = mid; else lo = mid + 1;
    }
    const long long last = lo - 1;
    if (first > last) return;
    const long long u0 = c + lineOffset(first, slope, phase);
    if (u0 < 0 || u0 >= m) return;
    t0 = static_cast<int>(first);
    t1 = static_cast<int>(last);
}

// One zone of one line as a padded 1-D signal: P[j] is the line's sample at t = base + j for
// padL ≤ j < padL + len, `top` elsewhere. Padding is added only where the read range meets the
// line's true end; at a zone cut the extra λ−1 samples stand in for it. Outputs [sFirst, sLast]
// are window starts (sliding kinds, output at t = base + s + shift) or samples (openings, shift 0).
struct Span {
    long long line = 0;
    int base = 0, n = 0, padL = 0, len = 0, w = 1;
    int sFirst = 0, sLast = -1, shift = 0;
    LS_QUEUE_HD bool inLine(int j) const { return static_cast<unsigned>(j - padL) < static_cast<unsigned>(len); }
};

template <Kind K>
LS_QUEUE_HD bool makeSpan(const KernelParams& p, long long item, Span& sp) {
    sp.line = p.firstLine + item % p.lines;
    const int zone = static_cast<int>(item / p.lines);
    int t0, t1;
    lineExtent(sp.line, p.slope, p.phase, p.major, p.minor, t0, t1);
    if (t0 > t1) return false;
    // A window longer than the line covers all of it: clamping changes nothing (as on the CPU).
    const int n = t1 - t0 + 1;
    const int a = p.segA < n - 1 ? p.segA : n - 1;
    const int b = p.segB < n - 1 ? p.segB : n - 1;
    const int zs = zone * p.zoneLen;
    const int ze = (zs + p.zoneLen < p.major ? zs + p.zoneLen : p.major) - 1;
    const int os = zs > t0 ? zs : t0;
    const int oe = ze < t1 ? ze : t1;
    if (os > oe) return false;
    // Pads of the window (erosion: [c−a, c+b]; dilation: [c−b, c+a]; closing: the dilation first)
    // and the halo a zone reads beyond its outputs (openings: a whole window on each side).
    const int padLeft = ascendingKind(K) ? a : b;
    const int padRight = ascendingKind(K) ? b : a;
    const int haloL = slidingKind(K) ? padLeft : a + b;
    const int haloR = slidingKind(K) ? padRight : a + b;
    const int rlo = os - haloL > t0 ? os - haloL : t0;
    const int rhi = oe + haloR < t1 ? oe + haloR : t1;
    sp.padL = rlo == t0 ? padLeft : 0;
    const int padR = rhi == t1 ? padRight : 0;
    sp.base = rlo - sp.padL;
    sp.len = rhi - rlo + 1;
    sp.n = sp.len + sp.padL + padR;
    sp.w = a + b + 1;
    sp.shift = slidingKind(K) ? padLeft : 0;
    sp.sFirst = os - sp.base - sp.shift;
    sp.sLast = oe - sp.base - sp.shift;
    return true;
}

// Reads and writes of one line. Rows of `out` are indexed by the major coordinate t and columns by
// the minor one: for y-major lines that is the image itself, for x-major ones its transpose.
template <class T, bool YMajor, bool TopHat>
struct LineIO {
    const unsigned char* src;
    std::size_t srcPitch;
    unsigned char* out;
    std::size_t outPitch;
    long long line;
    int slope;
    int phase;

    LS_QUEUE_HD int minorAt(int t) const { return static_cast<int>(line + lineOffset(t, slope, phase)); }
    LS_QUEUE_HD const T* srcPixel(int t, int u) const {
        if constexpr (YMajor) return reinterpret_cast<const T*>(src + static_cast<std::size_t>(t) * srcPitch) + u;
        else return reinterpret_cast<const T*>(src + static_cast<std::size_t>(u) * srcPitch) + t;
    }
    LS_QUEUE_HD T read(int t) const { return canonical(loadCached(srcPixel(t, minorAt(t)))); }
    LS_QUEUE_HD void write(int t, T v) const {
        const int u = minorAt(t);
        if constexpr (TopHat) v = difference(loadCached(srcPixel(t, u)), v);
        reinterpret_cast<T*>(out + static_cast<std::size_t>(t) * outPitch)[u] = v;
    }
};

// ---- the three one-dimensional algorithms ---------------------------------------------------

template <class T, class O, class IO>
LS_QUEUE_HD T sample(const Span& sp, const IO& io, int j) {
    return sp.inLine(j) ? io.read(sp.base + j) : O::top();
}

// Erosion (Ascending) or dilation (Descending): inner of P[s .. s+w−1] for every output window s.
template <class T, class O, class IO, class Q>
LS_QUEUE_HD void slidingLine(const Span& sp, const IO& io, Q& q) {
    const int w = sp.w;
    q.clear();
    for (int j = sp.sFirst; j <= sp.sLast + w - 1; ++j) {
        const T x = sample<T, O>(sp, io, j);
        while (!q.empty() && !O::below(q.backValue(), x)) q.popBack();
        q.pushBack(x, j);
        if (q.frontPosition() <= j - w) q.popFront();
        const int s = j - w + 1;
        if (s >= sp.sFirst) io.write(sp.base + s + sp.shift, q.frontValue());
    }
}

// Bartovsky et al.'s streaming opening (closing with Descending), as fifoOpening of
// line_algorithms_1d.h but started w−1 samples before the first output it owes.
template <class T, class O, class IO, class Q>
LS_QUEUE_HD void fifoLine(const Span& sp, const IO& io, Q& inner, Q& outer) {
    const int w = sp.w;
    const int last = sp.n - w;  // the last window start
    const int j0 = sp.sFirst - w + 1 > 0 ? sp.sFirst - w + 1 : 0;
    inner.clear();
    outer.clear();
    for (int j = j0; j <= sp.sLast + w - 1; ++j) {
        if (j < sp.n) {
            const T x = sample<T, O>(sp, io, j);
            while (!inner.empty() && !O::below(inner.backValue(), x)) inner.popBack();
            inner.pushBack(x, j);
            if (inner.frontPosition() <= j - w) inner.popFront();
        }
        const int s = j - w + 1;  // the window [s, j] is complete
        if (s < j0) continue;
        if (s <= last) {
            const T e = inner.frontValue();
            while (!outer.empty() && !O::below(e, outer.backValue())) outer.popBack();
            outer.pushBack(e, s);
        }
        // Sample s is covered by the windows starting in [s−w+1, s]: all are known now.
        if (outer.frontPosition() < s - w + 1) outer.popFront();
        if (s >= sp.sFirst) io.write(sp.base + s, outer.frontValue());
    }
}

template <class T, class IO>
LS_QUEUE_HD void writeRange(const Span& sp, const IO& io, int from, int to, T v) {
    if (from < sp.sFirst) from = sp.sFirst;
    if (to > sp.sLast) to = sp.sLast;
    for (int s = from; s <= to; ++s) io.write(sp.base + s, v);
}

// Morard et al.'s stack of cords (maximal runs at or above a level; bottom = front). A cord is
// long enough ("valid") once it spans w samples: start ≤ j−w+1 while it still contains j. A sample
// takes the level of the highest valid cord that contains it. Its owner (the highest cord holding
// it) only ever changes to a lower cord, when the owner closes, so the first valid owner is that
// cord: the sample is final then and written at once.
// Pending samples are therefore exactly [pending, j]: the parts of the cords that are not yet
// valid, all within the last w−1 samples. Only the bottom cord may be valid (the ones below the
// highest valid cord can no longer decide anything and are dropped), and when a cord becomes valid
// its start equals `pending`.
template <class T, class O, class IO, class Q>
LS_QUEUE_HD void stackLine(const Span& sp, const IO& io, Q& cords) {
    const int w = sp.w;
    const int j0 = sp.sFirst - w + 1 > 0 ? sp.sFirst - w + 1 : 0;
    const int jEnd = sp.sLast + w - 1 < sp.n - 1 ? sp.sLast + w - 1 : sp.n - 1;
    cords.clear();
    int pending = j0;
    for (int j = j0; j <= jEnd; ++j) {
        const T x = sample<T, O>(sp, io, j);
        int start = j;
        // Cords above x end at j−1. Only the bottom one can be valid: it decides the pending samples.
        while (!cords.empty() && O::below(x, cords.backValue())) {
            const T level = cords.backValue();
            const int cordStart = cords.backPosition();
            cords.popBack();
            if (cordStart <= j - w) {
                writeRange(sp, io, pending, j - 1, level);
                pending = j;
            }
            start = cordStart;
        }
        if (cords.empty() || O::below(cords.backValue(), x)) cords.pushBack(x, start);
        // Samples [pending, j] wait; see whether a cord has just become valid.
        const int bottomStart = cords.frontPosition();
        if (bottomStart > j - w + 1) continue;  // no valid cord yet
        if (pending == bottomStart) {
            // The bottom cord has just become valid: its own samples are final.
            const int end = cords.size() >= 2 ? positionOf(cords.at(1)) - 1 : j;
            writeRange(sp, io, pending, end, cords.frontValue());
            pending = end + 1;
        } else if (cords.size() == 1) {
            // Everything pending now belongs to the valid bottom cord.
            writeRange(sp, io, pending, j, cords.frontValue());
            pending = j + 1;
        } else if (pending <= j - w + 1) {
            // The cord above the bottom (it starts at `pending`) has just become valid.
            const u64 second = cords.at(1);
            const int end = cords.size() >= 3 ? positionOf(cords.at(2)) - 1 : j;
            writeRange(sp, io, pending, end, valueOf<T>(second));
            cords.popFront();
            pending = end + 1;
        }
    }
    // At the end of the padded line every cord closes; the bottom one is valid (it spans ≥ w).
    if (jEnd == sp.n - 1) writeRange(sp, io, pending, sp.n - 1, cords.frontValue());
}

template <class T, Kind K, class IO, class Q>
LS_QUEUE_HD void runSpan(const Span& sp, const IO& io, Q& q0, Q& q1) {
    using O = Ord<T, ascendingKind(K)>;
    if constexpr (slidingKind(K)) slidingLine<T, O>(sp, io, q0);
    else if constexpr (K == Kind::FifoOpen || K == Kind::FifoClose) fifoLine<T, O>(sp, io, q0, q1);
    else stackLine<T, O>(sp, io, q0);
    (void)q1;
}

// ---- kernels --------------------------------------------------------------------------------

extern __shared__ u64 paperQueues[];

template <class T, Kind K, bool YMajor, bool TopHat>
__global__ void __launch_bounds__(kBlock)
    paperLineKernel(KernelParams p, const unsigned char* src, std::size_t srcPitch, unsigned char* out,
                    std::size_t outPitch, u64* spill) {
    constexpr int deques = dequesOf(K);
    const long long gid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (gid >= p.threads) return;
    SpillDeque<T> q[2];
    for (int d = 0; d < deques; ++d)
        q[d].init(paperQueues + static_cast<std::size_t>(d) * p.sharedSlots * blockDim.x + threadIdx.x, blockDim.x,
                  p.sharedSlots, spill ? spill + (static_cast<std::size_t>(gid) * deques + d) * p.globalSlots : nullptr,
                  p.globalSlots);
    for (long long item = gid; item < p.items; item += p.threads) {
        Span sp;
        if (!makeSpan<K>(p, item, sp)) continue;
        const LineIO<T, YMajor, TopHat> io{src, srcPitch, out, outPitch, sp.line, p.slope, p.phase};
        runSpan<T, K>(sp, io, q[0], q[1]);
    }
}

// dst(x, y) = t(y, x), or src(x, y) − t(y, x) for the top-hat: 32×32 tiles through shared memory so
// that both the reads of t and the writes of dst are coalesced.
template <class T, bool TopHat>
__global__ void __launch_bounds__(256)
    transposeKernel(const unsigned char* t, std::size_t tPitch, const unsigned char* src, std::size_t srcPitch,
                    unsigned char* dst, std::size_t dstPitch, int width, int height) {
    __shared__ T tile[32][33];
    const int x0 = blockIdx.x * 32;
    for (int y0 = blockIdx.y * 32; y0 < height; y0 += gridDim.y * 32) {
        for (int k = threadIdx.y; k < 32; k += 8) {
            const int x = x0 + k, y = y0 + threadIdx.x;
            if (x < width && y < height)
                tile[k][threadIdx.x] = reinterpret_cast<const T*>(t + static_cast<std::size_t>(x) * tPitch)[y];
        }
        __syncthreads();
        for (int k = threadIdx.y; k < 32; k += 8) {
            const int x = x0 + threadIdx.x, y = y0 + k;
            if (x < width && y < height) {
                T v = tile[threadIdx.x][k];
                if constexpr (TopHat)
                    v = difference(loadCached(reinterpret_cast<const T*>(src + static_cast<std::size_t>(y) * srcPitch) + x), v);
                reinterpret_cast<T*>(dst + static_cast<std::size_t>(y) * dstPitch)[x] = v;
            }
        }
        __syncthreads();
    }
}

// ---- launch planning ------------------------------------------------------------------------

inline unsigned ceilPow2(unsigned long long v) {
    unsigned p = 1;
    while (p < v) p <<= 1;
    return p;
}

struct Plan {
    KernelParams params;
    int deques = 1;
    long long blocks = 0;
    std::size_t sharedBytes = 0;  // per block
    std::size_t spillBytes = 0;   // 0: the shared rings always suffice
};

// Zones (§5.1, rules 2 and 3 of §5.4): enough items to fill the GPU, but zones at least 2λ long
// so that the 2(λ−1) samples they re-read stay a fraction of their work.
template <class T>
Plan planLaunch(Kind kind, const LineFamily& fam, Segment seg, long long residentThreads, std::size_t spillBudget) {
    Plan plan;
    KernelParams& p = plan.params;
    p.slope = fam.slope;
    p.phase = fam.phase;
    p.major = fam.majorLength();
    p.minor = fam.minorLength();
    p.segA = seg.a;
    p.segB = seg.b;
    p.firstLine = fam.firstLine();
    p.lines = fam.lastLine() - p.firstLine + 1;

    const long long M = p.major;
    const long long w = std::min<long long>(seg.a, M - 1) + std::min<long long>(seg.b, M - 1) + 1;
    long long zones = 1;
    if (p.lines < residentThreads) {
        zones = (residentThreads + p.lines - 1) / p.lines;
        zones = std::min<long long>({zones, std::max<long long>(1, M / (2 * w)), kMaxZones});
    }
    p.zoneLen = static_cast<int>((M + zones - 1) / zones);
    zones = (M + p.zoneLen - 1) / p.zoneLen;
    p.items = p.lines * zones;

    // Queue bound: w+1 entries (a window's worth plus the one arriving), and one per grey level.
    long long cap = w + 1;
    if constexpr (std::is_same_v<T, std::uint8_t>) cap = std::min<long long>(cap, 256);
    if constexpr (std::is_same_v<T, std::uint16_t>) cap = std::min<long long>(cap, 65536);
    plan.deques = dequesOf(kind);
    p.globalSlots = ceilPow2(static_cast<unsigned long long>(cap));
    p.sharedSlots = std::min<unsigned>(p.globalSlots, kSharedEntriesPerThread / plan.deques);
    plan.sharedBytes = static_cast<std::size_t>(plan.deques) * p.sharedSlots * kBlock * sizeof(u64);

    // Items beyond the threads are taken in turn (a grid-stride loop): that bounds the global rings.
    p.threads = std::min<long long>(p.items, 1ll << 30);
    if (p.globalSlots > p.sharedSlots) {
        const std::size_t perThread = static_cast<std::size_t>(plan.deques) * p.globalSlots * sizeof(u64);
        p.threads = std::min<long long>(p.threads, std::max<std::size_t>(1, spillBudget / perThread));
        plan.spillBytes = static_cast<std::size_t>(p.threads) * perThread;
    }
    plan.blocks = (p.threads + kBlock - 1) / kBlock;
    return plan;
}

template <class T, Kind K, bool YMajor, bool TopHat>
void launchLines(const Plan& plan, DeviceImageView<const T> src, DeviceImageView<T> out, u64* spill,
                 cudaStream_t stream) {
    const auto blocks = static_cast<unsigned>(plan.blocks);
    paperLineKernel<T, K, YMajor, TopHat><<<blocks, kBlock, plan.sharedBytes, stream>>>(
        plan.params, reinterpret_cast<const unsigned char*>(src.data), src.pitch,
        reinterpret_cast<unsigned char*>(out.data), out.pitch, spill);
    LS_CUDA_CHECK_LAUNCH(paperLineKernel);
}

template <class T, Kind K>
void launchKind(const Plan& plan, bool yMajor, bool topHat, DeviceImageView<const T> src, DeviceImageView<T> out,
                u64* spill, cudaStream_t stream) {
    if (!yMajor) {
        launchLines<T, K, false, false>(plan, src, out, spill, stream);  // the top-hat is formed by the transpose
    } else if constexpr (K == Kind::FifoOpen || K == Kind::StackOpen) {
        if (topHat) launchLines<T, K, true, true>(plan, src, out, spill, stream);
        else launchLines<T, K, true, false>(plan, src, out, spill, stream);
    } else {
        launchLines<T, K, true, false>(plan, src, out, spill, stream);
    }
}

template <class T>
void launchTranspose(DeviceImageView<const T> t, DeviceImageView<const T> src, DeviceImageView<T> dst, bool topHat,
                     cudaStream_t stream) {
    const dim3 block(32, 8);
    const dim3 grid(static_cast<unsigned>((dst.width + 31) / 32), static_cast<unsigned>(std::min((dst.height + 31) / 32, 65535)));
    const auto* tp = reinterpret_cast<const unsigned char*>(t.data);
    const auto* sp = reinterpret_cast<const unsigned char*>(src.data);
    auto* dp = reinterpret_cast<unsigned char*>(dst.data);
    if (topHat) transposeKernel<T, true><<<grid, block, 0, stream>>>(tp, t.pitch, sp, src.pitch, dp, dst.pitch, dst.width, dst.height);
    else transposeKernel<T, false><<<grid, block, 0, stream>>>(tp, t.pitch, sp, src.pitch, dp, dst.pitch, dst.width, dst.height);
    LS_CUDA_CHECK_LAUNCH(transposeKernel);
}

// The kernel's work: erosion and dilation stream one queue; openings and closings two
// (FIFO) or a stack.
Kind kindOf(LineAlgorithm algorithm, MorphOp op) {
    const bool fifo = algorithm == LineAlgorithm::Fifo;
    switch (op) {
    case MorphOp::Erode: return Kind::Erode;
    case MorphOp::Dilate: return Kind::Dilate;
    case MorphOp::Open:
    case MorphOp::TopHat: return fifo ? Kind::FifoOpen : Kind::StackOpen;
    case MorphOp::Close: return fifo ? Kind::FifoClose : Kind::StackClose;
    }
    return Kind::Erode;
}

// Every thread the device holds at once; spilled queues within a quarter of the memory a
// call may use (the device memory cap included), and never more than kSpillBudget.
template <class T>
Plan planFor(Kind kind, const LineFamily& family, Segment seg, CudaContext& ctx) {
    const long long resident =
        static_cast<long long>(ctx.multiprocessors()) * ctx.properties().maxThreadsPerMultiProcessor;
    return planLaunch<T>(kind, family, seg, resident, std::min(kSpillBudget, ctx.availableDeviceMemory(false) / 4));
}

#undef LS_QUEUE_HD

}  // namespace queue

template <class T>
void queueLineMorph(LineAlgorithm algorithm, MorphOp op, DeviceImageView<const T> src, DeviceImageView<T> dst,
                    const LineFamily& family, Segment seg, CudaContext& ctx) {
    using namespace queue;
    if (algorithm != LineAlgorithm::Fifo && algorithm != LineAlgorithm::Stack)
        throw Error(std::string("the kernels of Karas et al. are fifo (Bartovsky) and stack (Morard), not ") +
                    algorithmName(algorithm));
    if (src.width != dst.width || src.height != dst.height || family.width != src.width ||
        family.height != src.height)
        throw Error("queueLineMorph: the images and the line family differ in size");
    if (seg.a < 0 || seg.b < 0) throw Error("queueLineMorph: the segment must not be empty");
    if (src.width <= 0 || src.height <= 0) return;
    if (family.majorLength() > kMaxMajorLength)
        throw Error("the kernels of Karas et al. take lines of at most " + std::to_string(kMaxMajorLength) +
                    " pixels (got " + std::to_string(family.majorLength()) + ")");

    const Kind kind = kindOf(algorithm, op);
    const bool topHat = op == MorphOp::TopHat;
    const Plan plan = planFor<T>(kind, family, seg, ctx);
    if (plan.params.items <= 0) return;
    if (plan.sharedBytes > std::min<std::size_t>(ctx.sharedMemoryPerBlock(), 48 * 1024))
        throw Error("queueLineMorph: the queues need more shared memory than a block has");
    u64* spill = plan.spillBytes ? static_cast<u64*>(ctx.buffer(BufferSlot::Scratch).reserve(plan.spillBytes)) : nullptr;

    // x-major lines are written transposed (rows: x, columns: y), then put in place.
    DeviceImageView<T> out = dst;
    if (!family.yMajor) out = ctx.image<T>(BufferSlot::Temp, src.height, src.width);

    cudaStream_t stream = ctx.stream();
    switch (kind) {
    case Kind::Erode: launchKind<T, Kind::Erode>(plan, family.yMajor, topHat, src, out, spill, stream); break;
    case Kind::Dilate: launchKind<T, Kind::Dilate>(plan, family.yMajor, topHat, src, out, spill, stream); break;
    case Kind::FifoOpen: launchKind<T, Kind::FifoOpen>(plan, family.yMajor, topHat, src, out, spill, stream); break;
    case Kind::FifoClose: launchKind<T, Kind::FifoClose>(plan, family.yMajor, topHat, src, out, spill, stream); break;
    case Kind::StackOpen: launchKind<T, Kind::StackOpen>(plan, family.yMajor, topHat, src, out, spill, stream); break;
    case Kind::StackClose: launchKind<T, Kind::StackClose>(plan, family.yMajor, topHat, src, out, spill, stream); break;
    }
    if (!family.yMajor) launchTranspose<T>(out, src, dst, topHat, stream);
}

template <class T>
std::size_t queueLineMorphBytes(LineAlgorithm algorithm, MorphOp op, const LineFamily& family, Segment seg,
                                CudaContext& ctx) {
    const queue::Plan plan = queue::planFor<T>(queue::kindOf(algorithm, op), family, seg, ctx);
    const std::size_t transposed =
        family.yMajor ? 0 : devicePitch(family.height, sizeof(T)) * static_cast<std::size_t>(family.width);
    return plan.spillBytes + transposed;
}

template std::size_t queueLineMorphBytes<std::uint8_t>(LineAlgorithm, MorphOp, const LineFamily&, Segment, CudaContext&);
template std::size_t queueLineMorphBytes<std::uint16_t>(LineAlgorithm, MorphOp, const LineFamily&, Segment, CudaContext&);
template std::size_t queueLineMorphBytes<float>(LineAlgorithm, MorphOp, const LineFamily&, Segment, CudaContext&);
template void queueLineMorph<std::uint8_t>(LineAlgorithm, MorphOp, DeviceImageView<const std::uint8_t>,
                                           DeviceImageView<std::uint8_t>, const LineFamily&, Segment, CudaContext&);
template void queueLineMorph<std::uint16_t>(LineAlgorithm, MorphOp, DeviceImageView<const std::uint16_t>,
                                            DeviceImageView<std::uint16_t>, const LineFamily&, Segment, CudaContext&);
template void queueLineMorph<float>(LineAlgorithm, MorphOp, DeviceImageView<const float>, DeviceImageView<float>,
                                    const LineFamily&, Segment, CudaContext&);

}  // namespace linescope::cuda
