// linescope._linescope: the engine's operations for Python. The public API, its defaults and
// docstrings are in linescope/__init__.py; every function here takes every parameter.
#include "python/src/bindings.h"
#include "python/src/errors.h"
#include "python/src/options.h"

#include "compute/backend.h"

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
    bindSkew(m);
    bindContours(m);
    bindIo(m);
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
}
