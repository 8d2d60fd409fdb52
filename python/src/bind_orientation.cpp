// orientation_field: the engine's block orientation field, as linescope-cli orientation
// prints it, each per-block list as a blocks_y × blocks_x array.
#include "python/src/arrays.h"
#include "python/src/bindings.h"
#include "python/src/options.h"

#include "compute/orientation_field.h"

#include <limits>

namespace linescope::python {

namespace {
py::dict orientationField(const py::object& image, const py::object& block, const py::object& length,
                          const py::object& angleCount, const py::object& smoothing, const std::string& method,
                          const std::string& backend, const std::string& algorithm, const py::object& threads) {
    OrientationFieldParams p;
    p.blockSize = wholeNumber(block, "block", 1, 4096);
    p.length = length.is_none() ? 0 : segmentLength(length);
    p.angleCount = wholeNumber(angleCount, "angle_count", 2, std::numeric_limits<int>::max());
    requireAngleCount("angle_count", p.angleCount);
    p.smoothing = numberInRange(smoothing, "smoothing", 0, 100);
    if (method != "block" && method != "pixel")
        throw py::value_error("method must be block or pixel, got '" + method + "'");
    p.method = method == "block" ? OrientationMethod::BlockSpectrum : OrientationMethod::PixelArg;
    const EngineOptions opt = engineOptions(backend, algorithm, threads);
    const InputImage in = inputImage(image);
    OrientationField f = visitPixelType(in, [&]<class T>(std::type_identity<T>) {
        const HeldView<T> src(in);
        py::gil_scoped_release release;
        return estimateOrientationField<T>(src.view(), p, opt);
    });
    const std::vector<py::ssize_t> shape{f.blocksY, f.blocksX};
    py::dict d;
    d["blocks_x"] = f.blocksX;
    d["blocks_y"] = f.blocksY;
    d["block_size"] = f.blockSize;
    d["length"] = f.length;
    d["angle_count"] = p.angleCount;
    d["smoothing"] = p.smoothing;
    d["method"] = method;
    d["angles"] = arrayOf(std::move(f.angle), shape);
    d["coherence"] = arrayOf(std::move(f.coherence), shape);
    d["weight"] = arrayOf(std::move(f.weight), shape);
    d["foreground"] = arrayOf(std::move(f.foreground), shape).attr("astype")("bool");
    return d;
}
}  // namespace

void bindOrientation(py::module_& m) {
    m.def("orientation_field", &orientationField, py::arg("image"), py::arg("block"), py::arg("length"),
          py::arg("angle_count"), py::arg("smoothing"), py::arg("method"), py::arg("backend"), py::arg("algorithm"),
          py::arg("threads"),
          "The block orientation field: a dict of blocks_x, blocks_y, block_size, length, angle_count, smoothing, "
          "method, angles, coherence, weight, foreground.");
}

}  // namespace linescope::python
