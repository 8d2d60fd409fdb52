// A 2-D view of pixels in device memory, usable on both sides; pitch is in bytes.
#pragma once

#include "compute/host_device.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace linescope::cuda {

template <class T>
struct DeviceImageView {
    T* data = nullptr;
    int width = 0;
    int height = 0;
    std::size_t pitch = 0;  // bytes between rows

    LINESCOPE_HD T* row(int y) const {
        return reinterpret_cast<T*>(reinterpret_cast<
            std::conditional_t<std::is_const_v<T>, const unsigned char, unsigned char>*>(data) +
            static_cast<std::size_t>(y) * pitch);
    }
    LINESCOPE_HD T& at(int x, int y) const { return row(y)[x]; }
    // A view of mutable pixels converts to a view of const ones.
    template <class U = T, std::enable_if_t<!std::is_const_v<U>, int> = 0>
    LINESCOPE_HD operator DeviceImageView<const U>() const { return {data, width, height, pitch}; }
};

// Rows padded to 512 bytes: coalesced row starts, and buffers reusable across sizes.
inline std::size_t devicePitch(int width, std::size_t elementSize) {
    const std::size_t bytes = static_cast<std::size_t>(width) * elementSize;
    return (bytes + 511) / 512 * 512;
}

}  // namespace linescope::cuda
