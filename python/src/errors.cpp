#include "python/src/errors.h"

#ifndef LINESCOPE_PYTHON_ENGINE_ONLY
#include "app/io/image_io.h"
#endif
#include "compute/image.h"

namespace py = pybind11;

namespace linescope::python {

void registerErrors(py::module_& m) {
    // A ValueError, because nearly every engine error is about the input or the parameters;
    // callers that want only LineScope's can catch linescope.Error.
    py::register_exception<Error>(m, "Error", PyExc_ValueError);
#ifndef LINESCOPE_PYTHON_ENGINE_ONLY
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const io::IoError& e) {
            PyErr_SetString(PyExc_OSError, e.what());
        }
    });
#endif
}

}  // namespace linescope::python
