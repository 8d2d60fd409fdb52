// sweep and spectrum: the engine's sweep, returned as linescope-cli sweep writes its folder
// and linescope-cli spectrum prints its JSON.
#include "python/src/arrays.h"
#include "python/src/bindings.h"
#include "python/src/options.h"

#include "compute/spectrum_peaks.h"
#include "compute/sweep.h"

#include <algorithm>
#include <optional>

namespace linescope::python {

namespace {
// The per-pixel angle in degrees as float32: orientation-angles.tiff of the CLI, computed the
// same way (α_k in double, then rounded to float).
template <class T>
Image<float> orientationAngles(const SweepResult<T>& r) {
    Image<float> out(r.argIndex.width(), r.argIndex.height());
    for (int y = 0; y < out.height(); ++y)
        for (int x = 0; x < out.width(); ++x) out.at(x, y) = static_cast<float>(r.orientation(x, y));
    return out;
}

py::dict sweepImage(const py::object& image, const py::object& length, const py::object& angles,
                    const std::string& op, const std::string& line, const std::string& backend,
                    const std::string& algorithm, const py::object& threads) {
    SweepRequest req;
    req.length = segmentLength(length);
    req.angles = angleSet(angles, "angles");
    req.op = sweepOp(op);
    req.kind = parseLineKind(line);
    const EngineOptions opt = engineOptions(backend, algorithm, threads);
    const InputImage in = inputImage(image);
    return visitPixelType(in, [&]<class T>(std::type_identity<T>) {
        const HeldView<T> src(in);
        std::optional<SweepResult<T>> r;
        Image<float> orientation;
        RgbImage colours;
        {
            py::gil_scoped_release release;
            r.emplace(sweep<T>(src.view(), req, opt));
            orientation = orientationAngles(*r);
            colours = orientationColours(*r);
        }
        py::dict d;
        d["sup"] = arrayOf(std::move(r->sup));
        d["inf"] = arrayOf(std::move(r->inf));
        d["strength"] = arrayOf(std::move(r->strength));
        d["orientation"] = arrayOf(std::move(orientation));
        d["arg_index"] = arrayOf(std::move(r->argIndex));
        d["colours"] = arrayOf(std::move(colours.rgb), {colours.height, colours.width, 3});
        // spectrum.json: exact integers for integer images, doubles for float32.
        if constexpr (std::is_same_v<T, float>) d["spectrum"] = arrayOf(std::move(r->spectrum));
        else d["spectrum"] = arrayOf(std::move(r->spectrumExact));
        putRequestFields(d, req);
        return d;
    });
}

py::dict spectrumOf(const py::object& image, const py::object& length, const py::object& angles,
                    const std::string& op, const py::object& peaks, const py::object& minProminence,
                    const std::string& line, const std::string& backend, const std::string& algorithm,
                    const py::object& threads) {
    SweepRequest req;
    req.op = sweepOp(op);
    req.kind = parseLineKind(line);
    req.angles = angleSet(angles, "angles");
    const int maxPeaks = wholeNumber(peaks, "peaks", 1, 100);
    const double minProm = numberInRange(minProminence, "min_prominence", 0, 1);
    const EngineOptions opt = engineOptions(backend, algorithm, threads);
    const InputImage in = inputImage(image);
    // The CLI's default: a quarter of the image's smaller side.
    req.length = length.is_none() ? std::max(1, std::min(in.width, in.height) / 4) : segmentLength(length);
    return visitPixelType(in, [&]<class T>(std::type_identity<T>) {
        const HeldView<T> src(in);
        std::vector<double> spectrum;
        std::vector<SpectrumPeak> found;
        {
            py::gil_scoped_release release;
            spectrum = sweep<T>(src.view(), req, opt).spectrum;
            const bool minimum = req.op == MorphOp::Close || req.op == MorphOp::Dilate;
            found = spectrumPeaks(spectrum, req.angles, minimum, maxPeaks, minProm);
        }
        py::list peakList;
        for (const SpectrumPeak& p : found) peakList.append(py::make_tuple(p.angle, p.prominence, p.index));
        py::dict d;
        putRequestFields(d, req);
        d["spectrum"] = arrayOf(std::move(spectrum));
        d["peaks"] = peakList;
        return d;
    });
}
}  // namespace

void bindSweep(py::module_& m) {
    m.def("sweep", &sweepImage, py::arg("image"), py::arg("length"), py::arg("angles"), py::arg("op"),
          py::arg("line"), py::arg("backend"), py::arg("algorithm"), py::arg("threads"),
          "The sweep of op over the angles: a dict of sup, inf, strength, orientation, arg_index, colours, "
          "spectrum, angles, op, length.");
    m.def("spectrum", &spectrumOf, py::arg("image"), py::arg("length"), py::arg("angles"), py::arg("op"),
          py::arg("peaks"), py::arg("min_prominence"), py::arg("line"), py::arg("backend"), py::arg("algorithm"), py::arg("threads"),
          "The angular spectrum and its peaks: a dict of op, length, angles, spectrum, peaks.");
}

}  // namespace linescope::python
