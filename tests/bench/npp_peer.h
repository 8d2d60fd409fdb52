// The NPP peer: NVIDIA's nppiErodeBorder / nppiDilateBorder (8u, one channel) with the
// digital segment as a 2-D mask, loaded at run time with dlopen (the GPU machine has the
// NPP shared libraries but not their headers, so the few declarations needed are ours).
#pragma once

#include "tests/bench/gpu_bench_support.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>

namespace lsbench {

// A segment mask in device memory (NPP reads the mask from device memory).
class DeviceMask {
public:
    explicit DeviceMask(const SegmentMask& m);
    DeviceMask(DeviceMask&& o) noexcept;
    DeviceMask(const DeviceMask&) = delete;
    DeviceMask& operator=(const DeviceMask&) = delete;
    ~DeviceMask();
    const std::uint8_t* data() const { return data_; }
    int width() const { return width_; }
    int height() const { return height_; }
    int anchorX() const { return anchorX_; }
    int anchorY() const { return anchorY_; }

private:
    std::uint8_t* data_ = nullptr;
    int width_ = 0, height_ = 0, anchorX_ = 0, anchorY_ = 0;
};

class NppPeer {
public:
    // libnppc then libnppim (.so.13, .so.12, .so; the loader's path, then the usual CUDA
    // folders); nullptr with `why` when they or the two functions cannot be found.
    static std::unique_ptr<NppPeer> load(std::string* why);
    ~NppPeer();
    NppPeer(const NppPeer&) = delete;
    NppPeer& operator=(const NppPeer&) = delete;

    // "NPP 13.0.1 (libnppim.so.13)": the version and the library file loaded.
    std::string description() const;

    // Erosion / dilation by the mask with NPP_BORDER_REPLICATE (the only border these take),
    // enqueued on `stream`. Throws std::runtime_error on an NPP error status.
    void erode(const DeviceImage<std::uint8_t>& src, DeviceImage<std::uint8_t>& dst, const DeviceMask& mask,
               cudaStream_t stream);
    void dilate(const DeviceImage<std::uint8_t>& src, DeviceImage<std::uint8_t>& dst, const DeviceMask& mask,
                cudaStream_t stream);
    // dst = dilate(erode(src)) through tmp.
    void open(const DeviceImage<std::uint8_t>& src, DeviceImage<std::uint8_t>& tmp, DeviceImage<std::uint8_t>& dst,
              const DeviceMask& mask, cudaStream_t stream) {
        erode(src, tmp, mask, stream);
        dilate(tmp, dst, mask, stream);
    }

    // The first warning status NPP returned, if any (empty when none).
    const std::string& warning() const { return warning_; }

private:
    NppPeer() = default;
    struct Api;
    std::unique_ptr<Api> api_;
    std::string warning_;
};

}  // namespace lsbench
