// Device memory for one call's working planes, from the context's stream-ordered pool
// (cudaMallocAsync) and given back on that stream when it goes: the pool keeps the memory
// for the next call, so repeated calls allocate nothing from the driver.
#pragma once

#include "compute/cuda/cuda_check.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

namespace linescope::cuda {

class PoolArray {
public:
    PoolArray() = default;
    // `bytes` of device memory ordered on `s`, zeroed on it when `zeroed`.
    PoolArray(std::size_t bytes, cudaStream_t s, bool zeroed = false) : stream_(s) {
        if (bytes == 0) return;
        LS_CUDA_CHECK(cudaMallocAsync(&data_, bytes, s));
        if (zeroed) LS_CUDA_CHECK(cudaMemsetAsync(data_, 0, bytes, s));
    }
    ~PoolArray() { release(); }
    PoolArray(const PoolArray&) = delete;
    PoolArray& operator=(const PoolArray&) = delete;
    PoolArray(PoolArray&& o) noexcept : data_(std::exchange(o.data_, nullptr)), stream_(o.stream_) {}
    PoolArray& operator=(PoolArray&& o) noexcept {
        if (this != &o) {
            release();
            data_ = std::exchange(o.data_, nullptr);
            stream_ = o.stream_;
        }
        return *this;
    }
    template <class U>
    U* as() const { return static_cast<U*>(data_); }

private:
    void release() noexcept {
        if (data_) (void)cudaFreeAsync(data_, stream_);  // a destructor does not throw: the stream reports later
        data_ = nullptr;
    }
    void* data_ = nullptr;
    cudaStream_t stream_ = nullptr;
};

}  // namespace linescope::cuda
