// linescope._linescope: the engine's operations for Python. The public API, its defaults and
// docstrings are in linescope/__init__.py; every function here takes every parameter.
#include "python/src/bindings.h"
#include "python/src/errors.h"
#if LINESCOPE_HAVE_CUDA
#include "python/src/device_arrays.h"
#endif
#include "python/src/options.h"

#include "compute/backend.h"
#include "compute/line_geometry.h"

namespace py = pybind11;
using namespace linescope;
using namespace linescope::python;

#ifndef LINESCOPE_VERSION
#define LINESCOPE_VERSION "unknown"
#endif

PYBIND11_MODULE(_linescope, m) {
    m.doc() = "LineScope's engine (use the linescope package, which documents it).";
    m.attr("__version__") = LINESCOPE_VERSION;
    m.attr("MAX_SWEEP_ANGLES") = kMaxSweepAngles;
    registerErrors(m);
    bindMorph(m);
    bindSweep(m);
    bindOrientation(m);
    bindSkew(m);      // deskew only with app/ (OpenCV)
    bindContours(m);  // thresholds and otsu_threshold only with app/
#ifndef LINESCOPE_PYTHON_ENGINE_ONLY  // these need app/ (OpenCV): not in the GPU machine's engine-only build
    bindIo(m);
    bindBatch(m);
#endif
#if LINESCOPE_HAVE_CUDA
    bindDeviceArrays(m);
#endif
    m.def(
        "resolve_backend", [](const std::string& backend) { return std::string(backendName(resolvedBackend(backend))); },
        py::arg("backend"), "The backend (cpu or cuda) that `backend` runs on here.");
    m.def(
        "backend_note",
        [] {
            std::string why;
            return backendAvailable(Backend::Cuda, &why) ? cudaDeviceDescription() : why;
        },
        "The GPU that cuda runs on, or why there is none.");
    // The line family's geometry, for linescope.dask's tile overlap: taken from the engine
    // rather than recomputed, so that the depth and tile alignment follow the paths it visits.
    m.def(
        "line_family",
        [](double angle) {
            const LineFamily f = lineFamily(angle, 0, 0);
            return py::make_tuple(f.yMajor, f.slope);
        },
        py::arg("angle"), "(y_major, S): the major axis and 16.16 fixed-point slope of the angle's lines.");
}
