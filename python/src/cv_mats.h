// An engine view as a cv::Mat header over the same pixels, for app/io's OpenCV functions.
#pragma once

#include "app/io/image_io.h"

namespace linescope::python {

template <class T>
cv::Mat matOf(ImageView<const T> v) {
    return cv::Mat(v.height, v.width, CV_MAKETYPE(io::cvDepthOf<T>(), 1), const_cast<T*>(v.data),
                   static_cast<std::size_t>(v.stride) * sizeof(T));
}

}  // namespace linescope::python
