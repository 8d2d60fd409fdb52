// contours: the engine's border tracking, returned as cv2.findContours returns them, of the
// image itself (non-zero = foreground) or of its threshold as linescope-cli contours takes it.
#include "python/src/arrays.h"
#include "python/src/bindings.h"
#include "python/src/cv_mats.h"
#include "python/src/options.h"

#include "app/io/threshold.h"
#include "compute/contours/contours.h"

#include <cstring>
#include <initializer_list>
#include <utility>

namespace linescope::python {

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

// The threshold of the image as linescope-cli contours makes it: "pixel > T", or Otsu's split.
cv::Mat thresholded(const InputImage& in, const py::object& threshold, bool otsu) {
    const double t = otsu ? 0.0 : finiteNumber(threshold, "threshold");
    return visitPixelType(in, [&]<class T>(std::type_identity<T>) {
        const HeldView<T> src(in);
        const cv::Mat image = matOf(src.view());
        py::gil_scoped_release release;
        if (!otsu) return io::binarize(image, t);
        const io::OtsuResult o = io::otsu(image);
        return io::binarize(o.eight, o.eightBit);  // the 8-bit image Otsu split, as the CLI does
    });
}

py::tuple contoursOf(const py::object& image, const py::object& mode, const py::object& approx,
                     const py::object& threshold, bool otsu, const std::string& backend, const py::object& threads) {
    const ContourMode m = contourMode(mode);
    const ContourApprox a = contourApprox(approx);
    if (!threshold.is_none() && otsu) throw py::value_error("contours take threshold or otsu=True, not both");
    EngineOptions opt;
    opt.backend = resolvedBackend(backend);
    opt.threads = wholeNumber(threads, "threads", 0, 4096);
    const InputImage in = inputImage(image, /*allowBool=*/true);
    Contours c;
    if (threshold.is_none() && !otsu) {
        // The image itself is the binary image, as cv2.findContours takes it.
        if (in.type != PixelType::U8)
            throw py::type_error("contours without a threshold take a uint8 or bool image (non-zero = foreground), got " +
                                 dtypeName(in.array) + ": give threshold=T or otsu=True");
        const HeldView<std::uint8_t> binary(in);
        py::gil_scoped_release release;
        c = findContours(binary.view(), m, a, opt);
    } else {
        const cv::Mat binary = thresholded(in, threshold, otsu);
        py::gil_scoped_release release;
        c = findContours(io::viewOf<std::uint8_t>(binary), m, a, opt);
    }
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

double otsuThresholdOf(const py::object& image) {
    const InputImage in = inputImage(image);
    return visitPixelType(in, [&]<class T>(std::type_identity<T>) {
        const HeldView<T> src(in);
        const cv::Mat mat = matOf(src.view());
        py::gil_scoped_release release;
        return io::otsuThreshold(mat);
    });
}
}  // namespace

void bindContours(py::module_& m) {
    m.def("contours", &contoursOf, py::arg("image"), py::arg("mode"), py::arg("approx"), py::arg("threshold"),
          py::arg("otsu"), py::arg("backend"), py::arg("threads"),
          "(contours, hierarchy) as cv2.findContours returns them.");
    m.def("otsu_threshold", &otsuThresholdOf, py::arg("image"), "Otsu's threshold in the image's units.");
}

}  // namespace linescope::python
