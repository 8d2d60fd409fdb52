// The line operators: the engine's lineMorph into a new array, as linescope-cli OP writes it.
#include "python/src/arrays.h"
#include "python/src/bindings.h"
#include "python/src/options.h"

#include "compute/line_morph.h"

namespace linescope::python {

namespace {
py::array morph(const std::string& opName, const py::object& image, const py::object& angle,
                const py::object& length, const std::string& line, const std::string& backend,
                const std::string& algorithm, const py::object& threads) {
    const MorphOp op = parseMorphOp(opName);
    LineParams p;
    p.angle = finiteNumber(angle, "angle");
    p.length = segmentLength(length);
    p.kind = parseLineKind(line);
    const EngineOptions opt = engineOptions(backend, algorithm, threads);
    const InputImage in = inputImage(image);
    return visitPixelType(in, [&]<class T>(std::type_identity<T>) -> py::array {
        const HeldView<T> src(in);
        py::array_t<T> out = newArray<T>(in.width, in.height);
        const ImageView<T> dst = mutableViewOf(out);
        {
            py::gil_scoped_release release;
            lineMorph<T>(op, src.view(), dst, p, opt);
        }
        return out;
    });
}
}  // namespace

void bindMorph(py::module_& m) {
    m.def("morph", &morph, py::arg("op"), py::arg("image"), py::arg("angle"), py::arg("length"), py::arg("line"),
          py::arg("backend"), py::arg("algorithm"), py::arg("threads"),
          "op(image) by a line of `length` pixels at `angle` degrees, of kind `line` (paths, segment, "
          "periodic); op is erode, dilate, open, close or tophat.");
}

}  // namespace linescope::python
