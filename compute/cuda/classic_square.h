// Device-level rectangle operators in the three styles of Izmantoko & Choi (naive, global,
// shared tile), kept to teach and to compare with van Herk/Gil-Werman. Images live in
// device memory; every call is asynchronous on `stream`.
#pragma once

#include "compute/classic_morph.h"
#include "compute/cuda/device_image.h"
#include "compute/line_geometry.h"

#include <cuda_runtime.h>

#include <cstdint>

namespace linescope::cuda {

// dst = ε (erode) or δ of src by segmentOf(w) × segmentOf(h) given as the segments sx, sy,
// pixels outside src ignored; the same pixels as the line decomposition. `method` is Naive,
// Global or SharedTile. keys: a src-sized scratch image, used by Global's dilation only
// (the scatter's atomic maxima). src and dst must not overlap.
template <class T>
void rectWindowMorph(bool erode, ClassicMethod method, DeviceImageView<const T> src, DeviceImageView<T> dst,
                     Segment sx, Segment sy, DeviceImageView<std::uint32_t> keys, cudaStream_t stream);

}  // namespace linescope::cuda
