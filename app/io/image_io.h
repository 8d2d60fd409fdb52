// Image files through OpenCV and the conversions between cv::Mat and the engine's views.
// Everything the engine sees is one channel of uint8, uint16 or float32.
#pragma once

#include "compute/image.h"

#include <opencv2/core.hpp>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace linescope::io {

// A file that cannot be read or written: one sentence, reported with exit status 1.
class IoError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ExportRecipe;  // export_recipe.h

using NoticeFn = std::function<void(const std::string&)>;

// Reads `path` with imread(IMREAD_UNCHANGED) and returns one channel of CV_8U, CV_16U or CV_32F.
// Conversions are reported through `notice` (one line each):
//  - colour (BGR/BGRA) and gray+alpha images become grayscale;
//  - float64 and float16 become float32 (values beyond the float range become ±inf).
// Signed integer depths (int8, int16, int32) are errors. Throws IoError.
cv::Mat readImage(const std::string& path, const NoticeFn& notice);

// Writes a one-channel (or 3-channel 8-bit) image. The format comes from the extension:
// .png .tif/.tiff .pgm/.ppm/.pnm .pfm .jpg/.jpeg .bmp; float32 needs .tif/.tiff/.pfm and
// uint16 needs .png/.tif/.tiff/.pgm/.pnm; .ppm takes only colour, .pgm only gray. Throws
// IoError with a suggestion otherwise. Encoded in memory and written with
// writeFileAtomically: `path` is the old file or the new one.
void writeImage(const std::string& path, const cv::Mat& image);
// The same, with how the image was made inside a PNG or TIFF (export_recipe.h); other
// formats carry no text. The pointer form writes no recipe when it is null.
void writeImage(const std::string& path, const cv::Mat& image, const ExportRecipe& recipe);
void writeImage(const std::string& path, const cv::Mat& image, const ExportRecipe* recipe);

// Throws IoError when `path`'s format cannot hold images of `depth` and `channels` (checked
// before any work: float32 needs .tiff/.pfm, gray images no .ppm, colour ones no .pgm).
void requireWritable(const std::string& path, int depth, int channels = 1);

// The lower-case extension without the dot ("png"), or "" when there is none.
std::string extensionOf(const std::string& path);

// The extension to use for an image of this depth when the format is free: png or tiff.
const char* defaultExtensionFor(int depth);

const char* depthName(int depth);

template <class T>
constexpr int cvDepthOf() {
    if constexpr (std::is_same_v<T, std::uint8_t>) return CV_8U;
    else if constexpr (std::is_same_v<T, std::uint16_t>) return CV_16U;
    else return CV_32F;
}

template <class T>
ImageView<const T> viewOf(const cv::Mat& m) {
    CV_Assert(m.depth() == cvDepthOf<T>() && m.channels() == 1);
    return {m.ptr<T>(), m.cols, m.rows, static_cast<std::ptrdiff_t>(m.step1())};
}

template <class T>
ImageView<T> mutableViewOf(cv::Mat& m) {
    CV_Assert(m.depth() == cvDepthOf<T>() && m.channels() == 1);
    return {m.ptr<T>(), m.cols, m.rows, static_cast<std::ptrdiff_t>(m.step1())};
}

// A cv::Mat copy of an engine image or view.
template <class T>
cv::Mat matOf(ImageView<const T> view) {
    const cv::Mat wrap(view.height, view.width, CV_MAKETYPE(cvDepthOf<T>(), 1), const_cast<T*>(view.data),
                       static_cast<std::size_t>(view.stride) * sizeof(T));
    return wrap.clone();
}
template <class T>
cv::Mat matOf(const Image<T>& img) {
    return matOf(img.cview());
}

// Calls f(std::type_identity<T>{}) with T the pixel type of a CV_8U, CV_16U or CV_32F image.
template <class F>
decltype(auto) visitPixelType(const cv::Mat& m, F&& f) {
    switch (m.depth()) {
    case CV_8U: return f(std::type_identity<std::uint8_t>{});
    case CV_16U: return f(std::type_identity<std::uint16_t>{});
    case CV_32F: return f(std::type_identity<float>{});
    default: throw IoError(std::string("unsupported pixel type ") + depthName(m.depth()));
    }
}

}  // namespace linescope::io
