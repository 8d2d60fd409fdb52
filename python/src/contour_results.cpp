#include "python/src/contour_results.h"

#include <pybind11/numpy.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>

namespace linescope::python {

namespace py = pybind11;

namespace {
static_assert(sizeof(ContourPoint) == 2 * sizeof(std::int32_t), "contour points are copied as int32 pairs");

// A choice given by its name ("tree") or by cv2's constant (cv2.RETR_TREE = 3), so that code
// written for cv2.findContours runs unchanged.
template <class E>
E namedOrCv2(const py::handle& value, E (*parse)(const std::string&), std::initializer_list<std::pair<long, E>> cv2,
             const std::string& expected) {
    if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr())) {
        const long v = value.cast<long>();
        for (const auto& [code, e] : cv2)
            if (v == code) return e;
    } else if (PyUnicode_Check(value.ptr())) {
        try {
            return parse(value.cast<std::string>());
        } catch (const Error&) {
        }
    }
    // The CLI's message; cv2's constants are for code that has them, and the docstring says so.
    throw py::value_error(expected + ", got " + std::string(py::repr(value)));
}

}  // namespace

ContourMode contourMode(const py::handle& mode) {
    return namedOrCv2<ContourMode>(mode, &parseContourMode,
                                   {{0, ContourMode::External}, {1, ContourMode::List}, {2, ContourMode::CComp},
                                    {3, ContourMode::Tree}},
                                   "mode must be external, list, ccomp or tree");
}

ContourApprox contourApprox(const py::handle& approx) {
    return namedOrCv2<ContourApprox>(approx, &parseContourApprox,
                                     {{1, ContourApprox::None}, {2, ContourApprox::Simple}},
                                     "approx must be none or simple");
}

py::tuple contoursTuple(const Contours& c) {
    const std::size_t n = c.size();
    py::list list;
    for (std::size_t i = 0; i < n; ++i) {
        py::array_t<std::int32_t> points({static_cast<py::ssize_t>(c.length(i)), py::ssize_t{1}, py::ssize_t{2}});
        std::memcpy(points.mutable_data(), c.begin(i), c.length(i) * sizeof(ContourPoint));
        list.append(points);
    }
    if (n == 0) return py::make_tuple(list, py::none());  // cv2 gives no hierarchy either
    py::array_t<std::int32_t> hierarchy({py::ssize_t{1}, static_cast<py::ssize_t>(n), py::ssize_t{4}});
    auto h = hierarchy.mutable_unchecked<3>();
    for (std::size_t i = 0; i < n; ++i) {
        const auto k = static_cast<py::ssize_t>(i);
        h(0, k, 0) = c.next[i];
        h(0, k, 1) = c.previous[i];
        h(0, k, 2) = c.firstChild[i];
        h(0, k, 3) = c.parent[i];
    }
    return py::make_tuple(list, hierarchy);
}

}  // namespace linescope::python
