// NumPy arrays as the engine's image views, and engine images as NumPy arrays.
#pragma once

#include "compute/image.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace linescope::python {

namespace py = pybind11;

// `object` as a NumPy array of one of the engine's pixel types, 2-D and not empty. Anything
// else raises TypeError (the pixel type) or ValueError (the shape) with the CLI's wording,
// "the image" standing for the file name. `allowBool` also takes bool arrays (as uint8 0/1:
// the masks given to contours).
struct InputImage {
    py::array array;
    PixelType type = PixelType::U8;
    int width = 0;
    int height = 0;
};
InputImage inputImage(const py::handle& object, bool allowBool = false);
// NumPy's name of the array's pixel type: "int32", ">u2" (byte-swapped uint16).
std::string dtypeName(const py::array& array);

// A view of an input image's pixels: the array's own memory when each row is contiguous and
// aligned (any row stride, so slices such as a[10:50, 20:80] are not copied), else one packed
// copy. Holds the copy; the array itself must outlive the view.
template <class T>
class HeldView {
public:
    explicit HeldView(const InputImage& image);
    HeldView(const HeldView&) = delete;
    HeldView& operator=(const HeldView&) = delete;
    ImageView<const T> view() const { return view_; }
    bool copied() const { return !copy_.empty(); }

private:
    Image<T> copy_;
    ImageView<const T> view_;
};

// Calls f(std::type_identity<T>{}) with T the image's pixel type.
template <class F>
decltype(auto) visitPixelType(const InputImage& image, F&& f) {
    switch (image.type) {
    case PixelType::U8: return f(std::type_identity<std::uint8_t>{});
    case PixelType::U16: return f(std::type_identity<std::uint16_t>{});
    case PixelType::F32: break;
    }
    return f(std::type_identity<float>{});
}

// A new C-contiguous height × width array (allocated with the GIL held, written without it).
template <class T>
py::array_t<T> newArray(int width, int height) {
    return py::array_t<T>({static_cast<py::ssize_t>(height), static_cast<py::ssize_t>(width)});
}

// A writable engine view of an array made by newArray.
template <class T>
ImageView<T> mutableViewOf(py::array_t<T>& a) {
    return {a.mutable_data(), static_cast<int>(a.shape(1)), static_cast<int>(a.shape(0)),
            static_cast<std::ptrdiff_t>(a.strides(0) / static_cast<py::ssize_t>(sizeof(T)))};
}

// An engine image handed to NumPy without a copy: the array owns the image's buffer.
template <class T>
py::array_t<T> arrayOf(Image<T>&& image) {
    auto owned = std::make_unique<Image<T>>(std::move(image));
    Image<T>* raw = owned.get();
    py::capsule owner(raw, [](void* p) { delete static_cast<Image<T>*>(p); });
    owned.release();
    return py::array_t<T>({static_cast<py::ssize_t>(raw->height()), static_cast<py::ssize_t>(raw->width())},
                          raw->data(), owner);
}

// A std::vector handed to NumPy without a copy, as an array of `shape` (1-D by default).
template <class T>
py::array_t<T> arrayOf(std::vector<T>&& values, std::vector<py::ssize_t> shape = {}) {
    if (shape.empty()) shape.push_back(static_cast<py::ssize_t>(values.size()));
    auto owned = std::make_unique<std::vector<T>>(std::move(values));
    std::vector<T>* raw = owned.get();
    py::capsule owner(raw, [](void* p) { delete static_cast<std::vector<T>*>(p); });
    owned.release();
    return py::array_t<T>(std::move(shape), raw->data(), owner);
}

}  // namespace linescope::python
