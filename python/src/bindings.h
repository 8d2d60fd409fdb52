// The parts of the _linescope module, one file each; module.cpp calls them.
#pragma once

#include <pybind11/pybind11.h>

namespace linescope::python {

void bindMorph(pybind11::module_& m);        // bind_morph.cpp: open, close, erode, dilate, tophat
void bindSweep(pybind11::module_& m);        // bind_sweep.cpp: sweep, spectrum
void bindOrientation(pybind11::module_& m);  // bind_orientation.cpp: orientation_field
void bindSkew(pybind11::module_& m);         // bind_skew.cpp: skew, deskew
void bindContours(pybind11::module_& m);     // bind_contours.cpp: contours, otsu_threshold
void bindIo(pybind11::module_& m);           // bind_io.cpp: imread, imwrite
void bindBatch(pybind11::module_& m);        // bind_batch.cpp: linescope-cli batch's code for linescope.dask

}  // namespace linescope::python
