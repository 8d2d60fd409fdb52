// Ranking a float image's values: each pixel's value as an unsigned key in the same order,
// the keys sorted and made unique (CUB), then each pixel's rank by binary search in the
// unique keys.
#include "compute/cuda/float_ranks.h"

#include "compute/cuda/classic_pixel.cuh"
#include "compute/cuda/cuda_check.h"
#include "compute/pixel_rules.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>

namespace linescope::cuda {

namespace {

// A pixel's key: its value as read by every kernel (−0 as +0), in float order.
__device__ inline unsigned keyOf(float v) { return classic::orderedKey(canonical(v)); }

__global__ void keysOf(DeviceImageView<const float> src, unsigned* keys) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < src.width) keys[static_cast<std::size_t>(y) * src.width + x] = keyOf(src.at(x, y));
}

// values[r] for every rank; `distinct` read on the device, so that no launch waits for it.
__global__ void valuesOf(const unsigned* unique, const int* distinct, float* values) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < *distinct) values[r] = classic::fromOrderedKey<float>(unique[r]);
}

__global__ void ranksOf(DeviceImageView<const float> src, const unsigned* __restrict__ unique, int distinct,
                        DeviceImageView<std::uint16_t> ranks) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= src.width) return;
    const unsigned k = keyOf(src.at(x, y));
    int lo = 0, hi = distinct - 1;  // unique[lo] ≤ k ≤ unique[hi]: k is one of them
    while (lo < hi) {
        const int mid = (lo + hi) >> 1;
        if (__ldg(unique + mid) < k) lo = mid + 1;
        else hi = mid;
    }
    ranks.at(x, y) = static_cast<std::uint16_t>(lo);
}

// The working memory of one ranking, laid out in the Temp2 and Scratch buffers.
struct RankLayout {
    std::size_t keysBytes = 0, cubBytes = 0;
    std::size_t temp2 = 0, scratch = 0;
};

std::size_t alignUp(std::size_t v) { return (v + 255) / 256 * 256; }

RankLayout rankLayout(std::size_t n) {
    RankLayout l;
    l.keysBytes = alignUp(n * sizeof(unsigned));
    std::size_t sortTemp = 0, uniqueTemp = 0;
    const auto count = static_cast<int>(n);
    LS_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, sortTemp, static_cast<const unsigned*>(nullptr),
                                                 static_cast<unsigned*>(nullptr), count));
    LS_CUDA_CHECK(cub::DeviceSelect::Unique(nullptr, uniqueTemp, static_cast<const unsigned*>(nullptr),
                                            static_cast<unsigned*>(nullptr), static_cast<int*>(nullptr), count));
    l.cubBytes = alignUp(std::max(sortTemp, uniqueTemp));
    // Temp2: the table of values, then the unique keys. Scratch: the keys, the sorted keys,
    // the count, CUB's storage.
    l.temp2 = alignUp(kMaxFloatRanks * sizeof(float)) + l.keysBytes;
    l.scratch = 2 * l.keysBytes + 256 + l.cubBytes;
    return l;
}

}  // namespace

std::size_t floatRanksBytes(int width, int height) {
    const RankLayout l = rankLayout(static_cast<std::size_t>(width) * height);
    return l.temp2 + l.scratch + devicePitch(width, sizeof(std::uint16_t)) * height;
}

bool rankFloats(DeviceImageView<const float> src, CudaContext& ctx, FloatRanks& out) {
    const int W = src.width, H = src.height;
    const std::size_t n = static_cast<std::size_t>(W) * H;
    if (n == 0 || n > static_cast<std::size_t>(INT32_MAX)) return false;  // CUB counts in int here
    const RankLayout l = rankLayout(n);
    const cudaStream_t stream = ctx.stream();
    auto* t2 = static_cast<unsigned char*>(ctx.buffer(BufferSlot::Temp2).reserve(l.temp2));
    auto* values = reinterpret_cast<float*>(t2);
    auto* unique = reinterpret_cast<unsigned*>(t2 + alignUp(kMaxFloatRanks * sizeof(float)));
    auto* s = static_cast<unsigned char*>(ctx.buffer(BufferSlot::Scratch).reserve(l.scratch));
    auto* keys = reinterpret_cast<unsigned*>(s);
    auto* sorted = reinterpret_cast<unsigned*>(s + l.keysBytes);
    auto* distinct = reinterpret_cast<int*>(s + 2 * l.keysBytes);
    void* cubStorage = s + 2 * l.keysBytes + 256;

    const dim3 block(256), grid(static_cast<unsigned>((W + 255) / 256), static_cast<unsigned>(H));
    keysOf<<<grid, block, 0, stream>>>(src, keys);
    LS_CUDA_CHECK_LAUNCH("keysOf");
    const auto count = static_cast<int>(n);
    std::size_t bytes = l.cubBytes;
    LS_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(cubStorage, bytes, keys, sorted, count, 0, 32, stream));
    bytes = l.cubBytes;
    LS_CUDA_CHECK(cub::DeviceSelect::Unique(cubStorage, bytes, sorted, unique, distinct, count, stream));
    int d = 0;
    CudaContext::countHostTraffic(sizeof d);
    LS_CUDA_CHECK(cudaMemcpyAsync(&d, distinct, sizeof d, cudaMemcpyDeviceToHost, stream));
    LS_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (d < 1 || d > kMaxFloatRanks) return false;

    valuesOf<<<(d + 255) / 256, 256, 0, stream>>>(unique, distinct, values);
    LS_CUDA_CHECK_LAUNCH("valuesOf");
    const DeviceImageView<std::uint16_t> ranks = ctx.image<std::uint16_t>(BufferSlot::Temp, W, H);
    ranksOf<<<grid, block, 0, stream>>>(src, unique, d, ranks);
    LS_CUDA_CHECK_LAUNCH("ranksOf");
    out.ranks = ranks;
    out.values = values;
    out.distinct = d;
    return true;
}

}  // namespace linescope::cuda
