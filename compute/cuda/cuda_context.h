// The engine's CUDA devices, a context each: its stream, its properties and the buffers every
// call reuses. A thread's calls go to the device its CudaDeviceScope names (device 0 without one),
// so that a batch can run one engine thread a GPU. Calls into the CUDA backend hold lock() for
// their whole duration, so that two callers (a UI worker and a script, say) never share a
// buffer at the same time.
#pragma once

#include "compute/cuda/device_buffer.h"
#include "compute/cuda/device_image.h"

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

namespace linescope::cuda {

// Named so that the operations that run one after another in a call never share one.
enum class BufferSlot {
    Source,        // the uploaded input image
    Result,        // the output image
    Temp,          // an intermediate image (two-stage classic operators, top-hats)
    Temp2,
    Accumulators,  // sweep accumulators, one set per angle slot
    Partials,      // per-block partial sums (spectra)
    Spectrum,
    Jobs,          // per-launch job tables
    SweepSup,      // a sweep's results, kept on the device for GPU-resident callers
    SweepInf,
    SweepArg,
    SweepStrength,
    Scratch,       // kernel working memory in device memory (long segments, FIFO spills)
    ContourBits,   // contours (contours_pipeline.h): counters and the foreground bitmap
    ContourTrack,  // the point pool, the pieces, the open pieces' entries
    ContourConnect,  // pointer jumping and the whole borders
    ContourBorders,  // the hierarchy's per-border arrays and corner ranks
    ContourOutput,   // the listed points, before the download
    ContourSort,     // CUB's temporary storage for the contours' sorts and scans
    Count
};

class CudaContext {
public:
    // The context of the calling thread's device (useDevice; device 0 and its first context
    // without one), the device made the thread's current CUDA device; throws Error when no usable device is present.
    static CudaContext& get();
    // Whether a CUDA device can be used: probes the driver once and remembers the answer.
    static bool usable(std::string* why);
    // The device's ordinal.
    int device() const { return device_; }

    std::unique_lock<std::mutex> lock() { return std::unique_lock<std::mutex>(mutex_); }
    cudaStream_t stream() const { return stream_; }
    const cudaDeviceProp& properties() const { return props_; }
    int multiprocessors() const { return props_.multiProcessorCount; }
    // Largest dynamic shared memory one block may ask for (after cudaFuncSetAttribute).
    std::size_t sharedMemoryPerBlock() const { return props_.sharedMemPerBlockOptin; }
    std::size_t sharedMemoryPerMultiprocessor() const { return props_.sharedMemPerMultiprocessor; }
    // Lets `kernel` launch on this device with up to `bytes` of dynamic shared memory.
    // Function attributes belong to the device, not to a context or a stream, so the limit
    // only ever rises: threads on two contexts of one device cannot lower it under each
    // other's launch.
    template <class Kernel>
    void allowDynamicShared(Kernel* kernel, std::size_t bytes) const {
        allowDynamicSharedBytes(reinterpret_cast<const void*>(kernel), bytes);
    }

    DeviceBuffer& buffer(BufferSlot s) { return buffers_[static_cast<int>(s)]; }
    PinnedBuffer& staging() { return staging_; }

    // The device memory the engine may use, in bytes (0: no cap, the device's own): set by
    // setDeviceMemoryCap or, at the first use, by LINESCOPE_CUDA_MEMORY_CAP (a size such as
    // 512M). It bounds each call's working memory (the estimates that requireDeviceMemory and
    // the zone planner compare; buffers are allocated in whole MiB on top) together with the
    // resident images, so that a moderate image can be forced into zones (zones.h) as a huge
    // one is on a real device. Any thread; a bad LINESCOPE_CUDA_MEMORY_CAP throws Error.
    // The cap holds for each context (a device's contexts have one each).
    static void setDeviceMemoryCap(std::size_t bytes);
    static std::size_t deviceMemoryCap();
    // What the cap leaves beside this device's resident images (SIZE_MAX without a cap).
    std::size_t capLeft() const;
    // Bytes held by resident images on this device (resident.h): they count against the cap.
    void countResidentBytes(std::ptrdiff_t delta) { residentBytes_.fetch_add(delta); }

    // A stream of the device for reading resident images from any thread without the lock
    // (high priority, non-blocking: the reads never wait for the engine's work).
    cudaStream_t readerStream() const { return readerStream_; }

    // What one call may plan to use now: the device's free memory plus the buffers already
    // held (they are reused), within capLeft(). With releasePool, what the stream-ordered pool
    // keeps but no resident image holds is given back first, so that it counts as free; that
    // costs the next resident images their reuse of it, so callers ask without it first.
    std::size_t availableDeviceMemory(bool releasePool) const;
    std::size_t heldBufferBytes() const;  // the buffers' capacities, summed
    // Throws Error with a clear sentence when the work (`what`) needs more than
    // availableDeviceMemory(), `bytes` counting every buffer it uses (those held included);
    // the sentence names the cap when the cap is the limit.
    void requireDeviceMemory(std::size_t bytes, const std::string& what) const;
    // The sentence itself: "<what> needs N MiB of GPU memory, but …".
    [[noreturn]] void refuseDeviceMemory(std::size_t bytes, const std::string& what) const;
    void allowDynamicSharedBytes(const void* kernel, std::size_t bytes) const;

    // A pitched image in `slot`, valid until the slot is reused.
    template <class T>
    DeviceImageView<T> image(BufferSlot slot, int width, int height) {
        const std::size_t pitch = devicePitch(width, sizeof(T));
        auto* p = static_cast<T*>(buffer(slot).reserve(pitch * static_cast<std::size_t>(height)));
        return {p, width, height, pitch};
    }

    // Host image <-> device image through the pinned staging buffer, on the stream.
    void upload(const void* host, std::ptrdiff_t hostStrideBytes, void* device, std::size_t pitch,
                std::size_t rowBytes, int rows);
    void download(const void* device, std::size_t pitch, void* host, std::ptrdiff_t hostStrideBytes,
                  std::size_t rowBytes, int rows);
    void synchronize();

    // Bytes copied between host and device since the start, by every path of the engine
    // (uploads, downloads, spectra, probes, contour points): the GPU pipeline's per-frame
    // traffic is measured with it. Any thread.
    static std::uint64_t hostTraffic();
    static void countHostTraffic(std::size_t bytes);

    CudaContext(const CudaContext&) = delete;
    CudaContext& operator=(const CudaContext&) = delete;

    ~CudaContext();

private:
    explicit CudaContext(int device);

    int device_ = 0;
    std::mutex mutex_;
    std::atomic<long long> residentBytes_{0};
    cudaStream_t stream_ = nullptr;
    cudaStream_t readerStream_ = nullptr;
    cudaDeviceProp props_{};
    DeviceBuffer buffers_[static_cast<int>(BufferSlot::Count)];
    PinnedBuffer staging_;
    cudaEvent_t stagingDone_[2] = {};  // one per half of the staging area, created once
};

// The calling thread's device and context on it, which CudaDeviceScope (compute/cuda_devices.h)
// sets: useDevice checks that `device` exists ("there is no CUDA device 3: this machine has 2,
// 0 to 1") and returns the thread's previous choice for restoreDevice. A device has up to
// kContextsPerDevice contexts (each its own stream and buffers; the engine's threads overlap
// on them); `context` is taken modulo that. deviceCount: the devices the driver shows (0 when
// none is usable).
constexpr int kContextsPerDevice = 4;
struct DeviceChoice {
    int device = 0, context = 0;
};
int deviceCount();
DeviceChoice useDevice(int device, int context = 0);
void restoreDevice(DeviceChoice previous) noexcept;

}  // namespace linescope::cuda
