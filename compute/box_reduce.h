// Reduction of an image by an integer factor, each output pixel the mean of its f×f block
// (OpenCV's INTER_AREA for integer factors; partial blocks at the right and bottom edges
// are dropped). Used by the skew estimate's coarse-to-fine stages.
#pragma once

#include "compute/backend.h"
#include "compute/image.h"

namespace linescope {

// factor ≥ 1; the result is (width / factor) × (height / factor), at least 1×1. Integer
// types round the exact mean to nearest, halves up; float32 is the mean summed in double.
template <class T>
Image<T> boxReduce(ImageView<const T> src, int factor, const EngineOptions& opt = {});

}  // namespace linescope
