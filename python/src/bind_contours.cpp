// contours: the engine's border tracking, returned as cv2.findContours returns them, of the
// image itself (non-zero = foreground) or of its threshold as linescope-cli contours takes it.
// The engine-only build (no OpenCV: the GPU machine's) takes binary images only.
#include "python/src/arrays.h"
#include "python/src/bindings.h"
#include "python/src/contour_results.h"
#include "python/src/options.h"

#include "compute/contours/contours.h"

#ifndef LINESCOPE_PYTHON_ENGINE_ONLY
#include "app/io/threshold.h"
#include "python/src/cv_mats.h"
#endif

namespace linescope::python {

namespace {
#ifndef LINESCOPE_PYTHON_ENGINE_ONLY
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
#endif

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
#ifndef LINESCOPE_PYTHON_ENGINE_ONLY
        const cv::Mat binary = thresholded(in, threshold, otsu);
        py::gil_scoped_release release;
        c = findContours(io::viewOf<std::uint8_t>(binary), m, a, opt);
#else
        throw py::value_error("this engine-only linescope thresholds no host image (that needs OpenCV): "
                              "give the binary image");
#endif
    }
    return contoursTuple(c);
}

#ifndef LINESCOPE_PYTHON_ENGINE_ONLY
double otsuThresholdOf(const py::object& image) {
    const InputImage in = inputImage(image);
    return visitPixelType(in, [&]<class T>(std::type_identity<T>) {
        const HeldView<T> src(in);
        const cv::Mat mat = matOf(src.view());
        py::gil_scoped_release release;
        return io::otsuThreshold(mat);
    });
}
#endif
}  // namespace

void bindContours(py::module_& m) {
    m.def("contours", &contoursOf, py::arg("image"), py::arg("mode"), py::arg("approx"), py::arg("threshold"),
          py::arg("otsu"), py::arg("backend"), py::arg("threads"),
          "(contours, hierarchy) as cv2.findContours returns them.");
#ifndef LINESCOPE_PYTHON_ENGINE_ONLY
    m.def("otsu_threshold", &otsuThresholdOf, py::arg("image"), "Otsu's threshold in the image's units.");
#endif
}

}  // namespace linescope::python
