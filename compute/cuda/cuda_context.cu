#include "compute/cuda/cuda_context.h"

#include "compute/byte_size.h"
#include "compute/image.h"
#include "compute/thread_pool.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace linescope::cuda {

[[noreturn]] void throwCudaError(cudaError_t status, const char* call, const char* file, int line) {
    const char* base = std::strrchr(file, '/');
    throw Error(std::string("CUDA error ") + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) +
                ") in " + call + " at " + (base ? base + 1 : file) + ":" + std::to_string(line));
}

void* DeviceBuffer::reserve(std::size_t bytes) {
    if (bytes <= bytes_ && ptr_) return ptr_;
    release();
    const std::size_t rounded = std::max<std::size_t>((bytes + (1u << 20) - 1) & ~std::size_t((1u << 20) - 1), 1u << 20);
    void* p = nullptr;
    const cudaError_t status = cudaMalloc(&p, rounded);
    if (status == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();  // clear the sticky-free allocation error
        std::size_t freeBytes = 0, total = 0;
        (void)cudaMemGetInfo(&freeBytes, &total);
        throw Error("the GPU has too little free memory: " + std::to_string(rounded >> 20) + " MiB needed, " +
                    std::to_string(freeBytes >> 20) + " MiB free");
    }
    LS_CUDA_CHECK(status);
    ptr_ = p;
    bytes_ = rounded;
    return ptr_;
}

void DeviceBuffer::release() noexcept {
    if (ptr_) (void)cudaFree(ptr_);
    ptr_ = nullptr;
    bytes_ = 0;
}

void* PinnedBuffer::reserve(std::size_t bytes) {
    if (bytes <= bytes_ && ptr_) return ptr_;
    release();
    void* p = nullptr;
    LS_CUDA_CHECK(cudaMallocHost(&p, bytes));
    ptr_ = p;
    bytes_ = bytes;
    return ptr_;
}

void PinnedBuffer::release() noexcept {
    if (ptr_) (void)cudaFreeHost(ptr_);
    ptr_ = nullptr;
    bytes_ = 0;
}

namespace {

struct Probe {
    bool ok = false;
    std::string why;
};

const Probe& probeOnce() {
    static const Probe probe = [] {
        Probe p;
        int count = 0;
        const cudaError_t status = cudaGetDeviceCount(&count);
        if (status != cudaSuccess) {
            // The static CUDA runtime reports a missing driver as "insufficient"; name the
            // usual cause, a machine without the NVIDIA driver, plainly.
            if (void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL))
                dlclose(driver);
            else
                p.why = "no NVIDIA driver (libcuda.so.1 is not installed)";
            if (p.why.empty())
                p.why = std::string("no usable CUDA driver or device (") + cudaGetErrorString(status) + ")";
            (void)cudaGetLastError();
            return p;
        }
        if (count == 0) {
            p.why = "no CUDA device found";
            return p;
        }
        cudaDeviceProp props{};
        if (cudaGetDeviceProperties(&props, 0) != cudaSuccess || props.major < 7 ||
            (props.major == 7 && props.minor < 5)) {
            p.why = std::string("the GPU ") + props.name + " (compute capability " + std::to_string(props.major) +
                    "." + std::to_string(props.minor) + ") is older than the oldest this build supports (7.5)";
            return p;
        }
        // A context that cannot even be created (a failing driver) counts as no GPU.
        void* test = nullptr;
        const cudaError_t alloc = cudaMalloc(&test, 256);
        if (alloc != cudaSuccess) {
            p.why = std::string("the CUDA device cannot be used (") + cudaGetErrorString(alloc) + ")";
            (void)cudaGetLastError();
            return p;
        }
        (void)cudaFree(test);
        p.ok = true;
        return p;
    }();
    return probe;
}

constexpr std::size_t kStagingChunk = 4u << 20;  // bytes per half of the double-buffered staging area

// The CPU's share of a transfer is copying rows between the caller's pageable memory and the
// pinned staging area; one core copies about 10 GB/s, slower than the link, so a chunk's
// rows are copied by several workers (LINESCOPE_STAGING_THREADS, default 8, caps them; 1
// copies on the calling thread).
int stagingThreads() {
    static const int threads = [] {
        const char* v = std::getenv("LINESCOPE_STAGING_THREADS");
        const int wanted = v ? std::atoi(v) : 8;
        return std::clamp(std::min(wanted, resolveThreads(0)), 1, 64);
    }();
    return threads;
}

void copyRows(unsigned char* dst, std::ptrdiff_t dstStride, const unsigned char* src, std::ptrdiff_t srcStride,
              std::size_t rowBytes, int rows) {
    auto copy = [&](std::size_t begin, std::size_t end) {
        for (std::size_t r = begin; r < end; ++r)
            std::memcpy(dst + static_cast<std::ptrdiff_t>(r) * dstStride, src + static_cast<std::ptrdiff_t>(r) * srcStride,
                        rowBytes);
    };
    const std::size_t bytes = rowBytes * static_cast<std::size_t>(rows);
    const int threads = stagingThreads();
    if (threads == 1 || bytes < (std::size_t(1) << 20)) copy(0, static_cast<std::size_t>(rows));
    else parallelFor(static_cast<std::size_t>(rows), threads, copy);
}

}  // namespace

bool CudaContext::usable(std::string* why) {
    const Probe& p = probeOnce();
    if (!p.ok && why) *why = p.why;
    return p.ok;
}

namespace {

thread_local DeviceChoice scoped;  // the thread's device and context (useDevice)

int probedDeviceCount() {
    static const int count = [] {
        int n = 0;
        if (!CudaContext::usable(nullptr) || cudaGetDeviceCount(&n) != cudaSuccess) n = 0;
        (void)cudaGetLastError();
        return n;
    }();
    return count;
}

void requireDevice(int device) {
    std::string why;
    if (!CudaContext::usable(&why)) throw Error("the CUDA backend is not available: " + why);
    const int count = probedDeviceCount();
    if (device < 0 || device >= count)
        throw Error("there is no CUDA device " + std::to_string(device) + ": this machine has " + std::to_string(count) +
                    (count == 1 ? ", device 0" : ", 0 to " + std::to_string(count - 1)));
}

}  // namespace

int deviceCount() { return probedDeviceCount(); }

DeviceChoice useDevice(int device, int context) {
    requireDevice(device);
    if (context < 0) throw Error("a CUDA context number cannot be negative, got " + std::to_string(context));
    const DeviceChoice previous = scoped;
    scoped = {device, context % kContextsPerDevice};
    return previous;
}

void restoreDevice(DeviceChoice previous) noexcept { scoped = previous; }

CudaContext& CudaContext::get() {
    const int device = scoped.device;
    requireDevice(device);
    // Made on first use and kept to the end of the process, kContextsPerDevice a device.
    static std::mutex made;
    static std::vector<std::unique_ptr<CudaContext>> contexts(static_cast<std::size_t>(probedDeviceCount()) *
                                                              kContextsPerDevice);
    CudaContext* ctx = nullptr;
    {
        std::lock_guard<std::mutex> lock(made);
        auto& slot = contexts[static_cast<std::size_t>(device) * kContextsPerDevice + static_cast<std::size_t>(scoped.context)];
        if (!slot) slot.reset(new CudaContext(device));
        ctx = slot.get();
    }
    // Launches are checked by reading the thread's last error, which an earlier failed call
    // (ours, already reported, or the caller's own) may have left set: start clean.
    (void)cudaGetLastError();
    // The runtime's current device is per thread, and kernels launch on the current one.
    int current = -1;
    LS_CUDA_CHECK(cudaGetDevice(&current));
    if (current != device) LS_CUDA_CHECK(cudaSetDevice(device));
    return *ctx;
}

CudaContext::CudaContext(int device) : device_(device) {
    LS_CUDA_CHECK(cudaSetDevice(device));
    LS_CUDA_CHECK(cudaGetDeviceProperties(&props_, device));
    if (props_.major < 7 || (props_.major == 7 && props_.minor < 5))
        throw Error(std::string("the GPU ") + props_.name + " (CUDA device " + std::to_string(device) +
                    ", compute capability " + std::to_string(props_.major) + "." + std::to_string(props_.minor) +
                    ") is older than the oldest this build supports (7.5)");
    LS_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    int least = 0, greatest = 0;
    LS_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    LS_CUDA_CHECK(cudaStreamCreateWithPriority(&readerStream_, cudaStreamNonBlocking, greatest));
    for (auto& e : stagingDone_) LS_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    // Resident results (resident.h) come from the device's stream-ordered pool: let it keep
    // what it has, so that a slider drag reuses memory instead of allocating each frame.
    cudaMemPool_t pool = nullptr;
    LS_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
    std::uint64_t keep = ~std::uint64_t(0);
    LS_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
}

CudaContext::~CudaContext() {
    // At process exit the driver may already be shutting down: release quietly.
    for (auto& b : buffers_) b.release();
    staging_.release();
    for (auto& e : stagingDone_)
        if (e) (void)cudaEventDestroy(e);
    if (stream_) (void)cudaStreamDestroy(stream_);
    if (readerStream_) (void)cudaStreamDestroy(readerStream_);
}

namespace {

constexpr std::size_t kCapUnread = SIZE_MAX;  // LINESCOPE_CUDA_MEMORY_CAP not read yet
std::atomic<std::size_t> capBytes{kCapUnread};

std::size_t capFromEnvironment() {
    const char* env = std::getenv("LINESCOPE_CUDA_MEMORY_CAP");
    if (!env || !*env) return 0;
    const auto bytes = parseByteSize(env);
    if (!bytes)
        throw Error(std::string("LINESCOPE_CUDA_MEMORY_CAP must be a size such as 512M or 16G (K, M, G, T: powers "
                                "of 1024), got '") + env + "'");
    return static_cast<std::size_t>(*bytes);
}

// Whole MiB for large sizes, tenths below 10 MiB (a cap for tests may be a fraction of one).
std::string mib(std::size_t bytes) {
    if (bytes >= (std::size_t(10) << 20)) return std::to_string(bytes >> 20) + " MiB";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
    return text;
}

}  // namespace

void CudaContext::setDeviceMemoryCap(std::size_t bytes) { capBytes.store(bytes); }

std::size_t CudaContext::deviceMemoryCap() {
    std::size_t cap = capBytes.load();
    if (cap != kCapUnread) return cap;
    std::size_t unread = kCapUnread;
    capBytes.compare_exchange_strong(unread, capFromEnvironment());  // a cap set meanwhile wins
    return capBytes.load();
}

std::size_t CudaContext::capLeft() const {
    const std::size_t cap = deviceMemoryCap();
    if (cap == 0) return SIZE_MAX;
    const auto resident = static_cast<std::size_t>(std::max(0LL, residentBytes_.load()));
    return cap > resident ? cap - resident : 0;
}

std::size_t CudaContext::availableDeviceMemory(bool releasePool) const {
    if (releasePool) {  // memory the pool keeps but no result holds is free for this work
        cudaMemPool_t pool = nullptr;
        LS_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device_));
        LS_CUDA_CHECK(cudaMemPoolTrimTo(pool, 0));
    }
    std::size_t freeBytes = 0, total = 0;
    LS_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &total));
    // Buffers already held are reused, so only the growth has to fit.
    return std::min(freeBytes + heldBufferBytes(), capLeft());
}

std::size_t CudaContext::heldBufferBytes() const {
    std::size_t held = 0;
    for (const auto& b : buffers_) held += b.capacity();
    return held;
}

void CudaContext::requireDeviceMemory(std::size_t bytes, const std::string& what) const {
    // Work that fits the buffers already held needs no growth, so no question to the driver
    // (availableDeviceMemory's answer is at least that much): a batch asks a dozen times a page.
    if (bytes <= std::min(heldBufferBytes(), capLeft())) return;
    if (bytes <= availableDeviceMemory(false) || bytes <= availableDeviceMemory(true)) return;
    refuseDeviceMemory(bytes, what);
}

void CudaContext::refuseDeviceMemory(std::size_t bytes, const std::string& what) const {
    const std::size_t room = availableDeviceMemory(true), cap = deviceMemoryCap();
    const std::string need = what + " needs " + mib(bytes) + " of GPU memory, but ";
    if (cap != 0 && room == capLeft()) {
        const bool residentHeld = capLeft() < cap;
        throw Error(need + "the device memory cap " + (residentHeld ? "leaves " : "is ") + mib(room) +
                    (residentHeld ? " beside the images kept on the GPU" : "") +
                    ": raise it (--device-memory-cap or LINESCOPE_CUDA_MEMORY_CAP) or use the CPU backend "
                    "(--backend cpu)");
    }
    throw Error(need + "the " + props_.name + " has only " + mib(room) +
                " free: use a smaller image or the CPU backend (--backend cpu)");
}

void CudaContext::upload(const void* host, std::ptrdiff_t hostStrideBytes, void* device, std::size_t pitch,
                         std::size_t rowBytes, int rows) {
    if (rows <= 0 || rowBytes == 0) return;
    countHostTraffic(rowBytes * static_cast<std::size_t>(rows));
    // Page-locked by the caller (HostMemoryPin): the copy engine reads it where it is.
    cudaPointerAttributes where{};
    if (cudaPointerGetAttributes(&where, host) != cudaSuccess) (void)cudaGetLastError();
    else if (where.type == cudaMemoryTypeHost && hostStrideBytes >= static_cast<std::ptrdiff_t>(rowBytes)) {
        LS_CUDA_CHECK(cudaMemcpy2DAsync(device, pitch, host, static_cast<std::size_t>(hostStrideBytes), rowBytes,
                                        static_cast<std::size_t>(rows), cudaMemcpyHostToDevice, stream_));
        synchronize();  // the caller may change its memory once this returns
        return;
    }
    const int rowsPerChunk = static_cast<int>(std::max<std::size_t>(1, kStagingChunk / rowBytes));
    const std::size_t half = static_cast<std::size_t>(rowsPerChunk) * rowBytes;
    auto* staging = static_cast<unsigned char*>(staging_.reserve(2 * half));
    // Two halves: the CPU fills one while the copy engine drains the other.
    cudaEvent_t* drained = stagingDone_;
    int chunk = 0;
    for (int y = 0; y < rows; y += rowsPerChunk, ++chunk) {
        const int n = std::min(rowsPerChunk, rows - y);
        unsigned char* buf = staging + (chunk & 1) * half;
        if (chunk >= 2) LS_CUDA_CHECK(cudaEventSynchronize(drained[chunk & 1]));
        copyRows(buf, static_cast<std::ptrdiff_t>(rowBytes),
                 static_cast<const unsigned char*>(host) + static_cast<std::ptrdiff_t>(y) * hostStrideBytes,
                 hostStrideBytes, rowBytes, n);
        LS_CUDA_CHECK(cudaMemcpy2DAsync(static_cast<unsigned char*>(device) + static_cast<std::size_t>(y) * pitch, pitch,
                                        buf, rowBytes, rowBytes, static_cast<std::size_t>(n),
                                        cudaMemcpyHostToDevice, stream_));
        LS_CUDA_CHECK(cudaEventRecord(drained[chunk & 1], stream_));
    }
    // The staging area must not be refilled by a later call before these copies ran.
    LS_CUDA_CHECK(cudaEventSynchronize(drained[(chunk - 1) & 1]));
}

void CudaContext::download(const void* device, std::size_t pitch, void* host, std::ptrdiff_t hostStrideBytes,
                           std::size_t rowBytes, int rows) {
    if (rows <= 0 || rowBytes == 0) return;
    countHostTraffic(rowBytes * static_cast<std::size_t>(rows));
    const int rowsPerChunk = static_cast<int>(std::max<std::size_t>(1, kStagingChunk / rowBytes));
    const std::size_t half = static_cast<std::size_t>(rowsPerChunk) * rowBytes;
    auto* staging = static_cast<unsigned char*>(staging_.reserve(2 * half));
    cudaEvent_t* landed = stagingDone_;
    const int chunks = (rows + rowsPerChunk - 1) / rowsPerChunk;
    auto issue = [&](int chunk) {
        const int y = chunk * rowsPerChunk;
        const int n = std::min(rowsPerChunk, rows - y);
        LS_CUDA_CHECK(cudaMemcpy2DAsync(staging + (chunk & 1) * half, rowBytes,
                                        static_cast<const unsigned char*>(device) + static_cast<std::size_t>(y) * pitch,
                                        pitch, rowBytes, static_cast<std::size_t>(n), cudaMemcpyDeviceToHost, stream_));
        LS_CUDA_CHECK(cudaEventRecord(landed[chunk & 1], stream_));
    };
    issue(0);
    for (int chunk = 0; chunk < chunks; ++chunk) {
        // The copy engine fills the next half while the CPU empties this one.
        if (chunk + 1 < chunks) issue(chunk + 1);
        LS_CUDA_CHECK(cudaEventSynchronize(landed[chunk & 1]));
        const int y = chunk * rowsPerChunk;
        const int n = std::min(rowsPerChunk, rows - y);
        const unsigned char* buf = staging + (chunk & 1) * half;
        copyRows(static_cast<unsigned char*>(host) + static_cast<std::ptrdiff_t>(y) * hostStrideBytes, hostStrideBytes,
                 buf, static_cast<std::ptrdiff_t>(rowBytes), rowBytes, n);
    }
}

namespace {
std::atomic<std::uint64_t> hostTrafficBytes{0};
}

std::uint64_t CudaContext::hostTraffic() { return hostTrafficBytes.load(); }
void CudaContext::countHostTraffic(std::size_t bytes) { hostTrafficBytes.fetch_add(bytes); }

void CudaContext::synchronize() { LS_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

void CudaContext::allowDynamicSharedBytes(const void* kernel, std::size_t bytes) const {
    static std::mutex mutex;
    static std::map<std::pair<int, const void*>, std::size_t> allowed;  // what each device's kernel may ask
    std::lock_guard<std::mutex> lock(mutex);
    std::size_t& limit = allowed[{device_, kernel}];
    if (bytes <= limit) return;
    LS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
    limit = bytes;
}

}  // namespace linescope::cuda
