#include "python/src/arrays.h"

#include <climits>
#include <cstdint>
#include <cstring>
#include <string>

namespace linescope::python {

namespace {
std::string shapeText(const py::array& a) {
    std::string s = "(";
    for (py::ssize_t i = 0; i < a.ndim(); ++i) s += (i ? ", " : "") + std::to_string(a.shape(i));
    return s + (a.ndim() == 1 ? ",)" : ")");
}

// Whether `dtype` holds T in this machine's byte order.
template <class T>
bool holds(const py::dtype& dtype) {
    return dtype.equal(py::dtype::of<T>());
}
}  // namespace

std::string dtypeName(const py::array& array) { return py::str(py::handle(array.dtype())); }

InputImage inputImage(const py::handle& object, bool allowBool) {
    InputImage in;
    // ensure() turns lists and other array-likes into arrays and keeps arrays as they are.
    in.array = py::array::ensure(object);
    if (!in.array) {
        PyErr_Clear();
        throw py::type_error("the image must be a NumPy array (or array-like), got " +
                             std::string(py::str(py::type::handle_of(object).attr("__name__"))));
    }
    const py::dtype dtype = in.array.dtype();
    if (holds<std::uint8_t>(dtype) || (allowBool && holds<bool>(dtype))) in.type = PixelType::U8;
    else if (holds<std::uint16_t>(dtype)) in.type = PixelType::U16;
    else if (holds<float>(dtype)) in.type = PixelType::F32;
    else
        throw py::type_error("the image has " + dtypeName(in.array) +
                             " pixels, which LineScope does not support (use uint8, uint16 or float32" +
                             (allowBool ? ", or bool for a mask" : "") + ")");
    if (in.array.ndim() != 2)
        throw py::value_error("the image has " + std::to_string(in.array.ndim()) + " dimensions (shape " +
                              shapeText(in.array) +
                              "); LineScope takes 2-D images of one channel (convert colour images to grey first)");
    if (in.array.shape(0) == 0 || in.array.shape(1) == 0) throw py::value_error("the image is empty");
    if (in.array.shape(0) > INT_MAX || in.array.shape(1) > INT_MAX)
        throw py::value_error("the image is too large: shape " + shapeText(in.array) + ", at most " +
                              std::to_string(INT_MAX) + " pixels a side");
    in.height = static_cast<int>(in.array.shape(0));
    in.width = static_cast<int>(in.array.shape(1));
    return in;
}

template <class T>
HeldView<T>::HeldView(const InputImage& image) {
    const auto item = static_cast<py::ssize_t>(sizeof(T));
    const py::ssize_t rowStride = image.array.strides(0);
    const py::ssize_t colStride = image.array.strides(1);
    const auto* base = static_cast<const unsigned char*>(image.array.data());
    // ImageView has packed rows apart by a whole number of elements, at least a row: other
    // layouts (columns apart, transposed, reversed, broadcast rows, unaligned data) are copied once.
    const bool rowsApart = image.height == 1 || (rowStride >= image.width * item && rowStride % item == 0);
    const bool viewable = (colStride == item || image.width == 1) && rowsApart &&
                          reinterpret_cast<std::uintptr_t>(base) % alignof(T) == 0;
    if (viewable) {
        const std::ptrdiff_t stride = image.height == 1 ? image.width : static_cast<std::ptrdiff_t>(rowStride / item);
        view_ = ImageView<const T>(reinterpret_cast<const T*>(base), image.width, image.height, stride);
        return;
    }
    copy_ = Image<T>(image.width, image.height);
    for (int y = 0; y < image.height; ++y) {
        const unsigned char* row = base + y * rowStride;
        for (int x = 0; x < image.width; ++x) std::memcpy(&copy_.at(x, y), row + x * colStride, sizeof(T));
    }
    view_ = copy_.cview();
}

template class HeldView<std::uint8_t>;
template class HeldView<std::uint16_t>;
template class HeldView<float>;

}  // namespace linescope::python
