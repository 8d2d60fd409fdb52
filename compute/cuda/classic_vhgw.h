// Device-level line factors of the classic operators (Thurley & Danell): van Herk/Gil-Werman
// erosion and dilation along horizontal, vertical, ±45° and periodic lines, and the
// transpose of their "transpose, horizontal pass, transpose back" for vertical lines.
// Images live in device memory; every call is asynchronous on `stream`.
#pragma once

#include "compute/classic_se_offsets.h"
#include "compute/cuda/device_image.h"

#include <cuda_runtime.h>

namespace linescope::cuda {

// dst = ε (erode) or δ of src by the factor {k·(stage.dx, stage.dy) : k = −stage.a .. stage.b},
// pixels outside src ignored, exactly as the CPU's line operators compute it. prefix and
// suffix are scratch images of src's size; src, dst, prefix and suffix must not overlap.
template <class T>
void vhgwLineStage(bool erode, DeviceImageView<const T> src, DeviceImageView<T> dst, LineStage stage,
                   DeviceImageView<T> prefix, DeviceImageView<T> suffix, cudaStream_t stream);

// dst(x, y) = src(y, x); dst is src.height × src.width. Tiles through shared memory so that
// both the reads and the writes are row-wise (Ruetsch & Micikevicius).
template <class T>
void transposeImage(DeviceImageView<const T> src, DeviceImageView<T> dst, cudaStream_t stream);

}  // namespace linescope::cuda
