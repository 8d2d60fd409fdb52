// How the engine's and app/io's exceptions reach Python.
#pragma once

#include <pybind11/pybind11.h>

namespace linescope::python {

// Registers linescope.Error (a ValueError: the engine's one-sentence errors, such as NaN
// pixels or an empty image) and maps io::IoError to OSError.
void registerErrors(pybind11::module_& m);

}  // namespace linescope::python
