// Rotating a page about its centre (OpenCV warpAffine, bilinear), and deskewing it by the
// angle estimateSkew found: shared by linescope-cli skew --deskew and the desktop app's
// Deskew button. Plain functions on images the caller owns, any thread.
#pragma once

#include "app/io/image_io.h"
#include "compute/image.h"

#include <opencv2/core.hpp>

namespace linescope::io {

// What fills the corners that rotation brings in from outside the page.
enum class RotationBorder {
    Replicate,  // the nearest edge pixel
    White,      // the type's maximum (255, 65535; for float32 the page's own maximum)
};

// `page` (one channel of CV_8U, CV_16U or CV_32F, or 3-channel 8-bit) rotated by `degrees`
// about its centre ((w−1)/2, (h−1)/2), counter-clockwise on screen for positive degrees
// (design.md §1: a line at angle α ends up at α + degrees); same size and type.
cv::Mat rotateAboutCentre(const cv::Mat& page, double degrees, RotationBorder border);

// The page with its skew removed: rotated by −skewAngle, where skewAngle is SkewResult::angle
// (the lines' angle, counter-clockwise positive), so that the lines end up horizontal.
inline cv::Mat deskew(const cv::Mat& page, double skewAngle, RotationBorder border) {
    return rotateAboutCentre(page, -skewAngle, border);
}

// deskew() on an engine image, returning a new engine image of the same type and size.
template <class T>
Image<T> deskew(ImageView<const T> page, double skewAngle, RotationBorder border) {
    const cv::Mat wrapped(page.height, page.width, CV_MAKETYPE(cvDepthOf<T>(), 1), const_cast<T*>(page.data),
                          static_cast<std::size_t>(page.stride) * sizeof(T));
    const cv::Mat out = deskew(wrapped, skewAngle, border);
    return Image<T>::copyOf(viewOf<T>(out));
}

}  // namespace linescope::io
