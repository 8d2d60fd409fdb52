// What contours() takes and gives in cv2.findContours' terms, shared by the host path
// (bind_contours.cpp) and GPU arrays (device_arrays.cpp).
#pragma once

#include "compute/contours/contours.h"

#include <pybind11/pybind11.h>

namespace linescope::python {

// mode and approx given by name ("tree") or by cv2's constant (cv2.RETR_TREE = 3); ValueError
// with the CLI's message otherwise.
ContourMode contourMode(const pybind11::handle& mode);
ContourApprox contourApprox(const pybind11::handle& approx);

// (contours, hierarchy) as cv2.findContours returns them: (N, 1, 2) int32 point arrays and a
// (1, N, 4) int32 hierarchy, None when there is no contour.
pybind11::tuple contoursTuple(const Contours& c);

}  // namespace linescope::python
