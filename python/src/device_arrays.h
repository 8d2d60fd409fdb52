// GPU arrays (CuPy, PyTorch, Numba, JAX: anything with __dlpack__ or __cuda_array_interface__)
// straight into the CUDA engine, and its results back as linescope.DeviceArray, which both
// protocols read without a copy. Built where the engine has its CUDA backend.
#pragma once

#include <pybind11/pybind11.h>

namespace linescope::python {

// DeviceArray, device_morph, device_sweep and device_spectrum; the linescope package routes
// GPU arrays to them (linescope/__init__.py).
void bindDeviceArrays(pybind11::module_& m);

}  // namespace linescope::python
