// Which GPU the CUDA backend's calls go to, for callers without CUDA headers: device 0 unless
// the calling thread holds a CudaDeviceScope (batch --devices gives each GPU engine threads);
// and host memory page-locked for its copies (HostMemoryPin).
#pragma once

#include <cstddef>

namespace linescope {

// How many CUDA devices the CUDA backend can choose from (0: none, or a build without it).
int cudaDeviceCount();

// While it lives, the CUDA backend's calls from the calling thread run on device `device` (an
// ordinal as nvidia-smi lists them) in its context number `context`: each device has up to
// four contexts, each with its own stream and buffers, so that threads on different contexts
// of one device overlap (one's copies and host work with another's kernels; numbers are taken
// modulo four). The thread's previous device and context come back when it ends. Throws Error
// when there is no such device or no CUDA backend.
class CudaDeviceScope {
public:
    explicit CudaDeviceScope(int device, int context = 0);
    ~CudaDeviceScope();
    CudaDeviceScope(const CudaDeviceScope&) = delete;
    CudaDeviceScope& operator=(const CudaDeviceScope&) = delete;

private:
    int previous_ = 0, previousContext_ = 0;
};

// Page-locks the host memory [data, data + bytes) while it lives, so that the CUDA backend
// copies it to a GPU by DMA straight from there instead of through its staging area: a batch's
// decoders pin each page, which takes that copy off the engine's thread. Does nothing without
// a usable device or when the driver refuses (the copy then goes through the staging area).
// The memory must outlive the pin.
class HostMemoryPin {
public:
    HostMemoryPin(const void* data, std::size_t bytes);
    ~HostMemoryPin();
    HostMemoryPin(const HostMemoryPin&) = delete;
    HostMemoryPin& operator=(const HostMemoryPin&) = delete;
    bool pinned() const { return data_ != nullptr; }

private:
    void* data_ = nullptr;
};

}  // namespace linescope
