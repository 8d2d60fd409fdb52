// Device and pinned host memory that grows on demand and is kept for the next call, so a
// sweep loop or a slider drag allocates nothing after its first frame.
#pragma once

#include "compute/cuda/cuda_check.h"

#include <cstddef>
#include <utility>

namespace linescope::cuda {

class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
    ~DeviceBuffer() { release(); }

    // At least `bytes` of device memory; the old contents are not kept when it grows.
    void* reserve(std::size_t bytes);
    template <class T>
    T* as(std::size_t count) { return static_cast<T*>(reserve(count * sizeof(T))); }
    void release() noexcept;
    std::size_t capacity() const { return bytes_; }

private:
    void* ptr_ = nullptr;
    std::size_t bytes_ = 0;
};

class PinnedBuffer {
public:
    PinnedBuffer() = default;
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    ~PinnedBuffer() { release(); }

    void* reserve(std::size_t bytes);
    void release() noexcept;

private:
    void* ptr_ = nullptr;
    std::size_t bytes_ = 0;
};

}  // namespace linescope::cuda
