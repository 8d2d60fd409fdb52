// skew and deskew: linescope-cli skew's estimate (the keys of its JSON) and its --deskew image
// (not in the engine-only build: the rotation is OpenCV's).
#include "python/src/arrays.h"
#include "python/src/bindings.h"
#include "python/src/options.h"

#include "compute/skew.h"
#ifndef LINESCOPE_PYTHON_ENGINE_ONLY
#include "app/io/deskew.h"
#endif

namespace linescope::python {

namespace {
py::dict skewOf(const py::object& page, const py::object& length, const py::object& angles,
                const py::object& refineRange, const py::object& refineStep, const py::object& reduction,
                bool brightLines, const std::string& line, const std::string& backend,
                const std::string& algorithm, const py::object& threads) {
    SkewParams p;
    p.length = length.is_none() ? 0 : segmentLength(length);
    p.angles = angleSet(angles, "angles");
    p.refineRange = numberInRange(refineRange, "refine_range", 0, 10);
    p.refineStep = numberInRange(refineStep, "refine_step", 1e-4, 5);
    p.reduction = reduction.is_none() ? 0 : wholeNumber(reduction, "reduction", 0, 64);
    if (p.refineRange > 0)
        requireAngleCount("refine_step " + shortNumber(p.refineStep) + " over refine_range " + shortNumber(p.refineRange),
                          skewFineAngleCount(p.refineRange, p.refineStep));
    p.darkLines = !brightLines;
    p.kind = parseLineKind(line);
    const EngineOptions opt = engineOptions(backend, algorithm, threads);
    const InputImage in = inputImage(page);
    SkewEstimate r = visitPixelType(in, [&]<class T>(std::type_identity<T>) {
        const HeldView<T> src(in);
        py::gil_scoped_release release;
        return estimateSkew<T>(src.view(), p, opt);
    });
    py::dict d;
    d["angle"] = r.angle;
    d["confidence"] = r.confidence;
    d["dominant"] = r.confidence >= kSkewConfidentThreshold;
    d["at_range_edge"] = r.atRangeEdge;
    d["coarse_angle"] = r.coarseAngle;
    d["reduction"] = r.reduction;
    d["length"] = r.length;
    d["coarse_length"] = r.coarseLength;
    d["lines"] = p.darkLines ? "dark" : "bright";
    std::vector<double> coarseAngles(static_cast<std::size_t>(r.angles.count));
    for (int k = 0; k < r.angles.count; ++k) coarseAngles[static_cast<std::size_t>(k)] = r.angles.angle(k);
    d["spectrum_angles"] = arrayOf(std::move(coarseAngles));
    d["spectrum"] = arrayOf(std::move(r.spectrum));
    return d;
}

#ifndef LINESCOPE_PYTHON_ENGINE_ONLY
py::array deskewPage(const py::object& page, const py::object& angle, const std::string& border) {
    const double skewAngle = finiteNumber(angle, "angle");
    if (border != "replicate" && border != "white")
        throw py::value_error("border must be replicate or white, got '" + border + "'");
    const auto fill = border == "white" ? io::RotationBorder::White : io::RotationBorder::Replicate;
    const InputImage in = inputImage(page);
    return visitPixelType(in, [&]<class T>(std::type_identity<T>) -> py::array {
        const HeldView<T> src(in);
        Image<T> out;
        {
            py::gil_scoped_release release;
            // As the CLI, which never deskews a page whose skew it could not estimate.
            requireNoNaN<T>(src.view());
            out = io::deskew<T>(src.view(), skewAngle, fill);
        }
        return arrayOf(std::move(out));
    });
}
#endif
}  // namespace

void bindSkew(py::module_& m) {
    m.def("skew", &skewOf, py::arg("page"), py::arg("length"), py::arg("angles"), py::arg("refine_range"),
          py::arg("refine_step"), py::arg("reduction"), py::arg("bright_lines"), py::arg("line"), py::arg("backend"),
          py::arg("algorithm"), py::arg("threads"),
          "The skew estimate: a dict with the keys of linescope-cli skew's JSON (but time_ms) and the coarse "
          "spectrum.");
#ifndef LINESCOPE_PYTHON_ENGINE_ONLY
    m.def("deskew", &deskewPage, py::arg("page"), py::arg("angle"), py::arg("border"),
          "The page rotated by -angle about its centre (bilinear), as linescope-cli skew --deskew writes it.");
#endif
}

}  // namespace linescope::python
