// The parameters the functions share, checked with the command line's limits and wording,
// each named as its Python keyword ("length must be between 1 and 1000000, got 0" where
// the CLI says "--length must be ...").
#pragma once

#include "compute/backend.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"

#include <pybind11/pybind11.h>

#include <string>

namespace linescope::python {

namespace py = pybind11;

// A whole number in [min, max]: TypeError for anything that is not an integer (1.5, "3"),
// ValueError out of range.
int wholeNumber(const py::handle& value, const std::string& name, long long min, long long max);
// A finite real number (int or float): TypeError, or ValueError for NaN and ±inf.
double finiteNumber(const py::handle& value, const std::string& name);
// A real number in [min, max].
double numberInRange(const py::handle& value, const std::string& name, double min, double max);
// The segment's length λ, 1 … the CLI's limit.
int segmentLength(const py::handle& value);

// backend ("auto", "cpu", "cuda"), algorithm and threads as EngineOptions, the backend
// resolved: "auto" becomes the CPU quietly where CUDA is unusable, "cuda" then raises
// RuntimeError with the reason.
EngineOptions engineOptions(const std::string& backend, const std::string& algorithm, const py::handle& threads);
// The backend `backend` resolves to, raising as engineOptions does.
Backend resolvedBackend(const std::string& backend);

// An angle set: the CLI's text ("0:180:1", stop excluded, or "N"), a whole number N (N angles
// over 180°), or a (start, step, count) tuple; at most kMaxSweepAngles angles.
AngleSet angleSet(const py::handle& angles, const std::string& name);
// ValueError "NAME gives COUNT angles; at most kMaxSweepAngles are allowed" over the limit:
// the one limit on angles of every function, as of every command.
void requireAngleCount(const std::string& name, long long count);
// op of a sweep: open, close, erode or dilate.
MorphOp sweepOp(const std::string& op);
// A sweep's or spectrum's parameters as its dict gives them: angles (float64 α_k), op, length.
void putRequestFields(py::dict& d, const SweepRequest& req);
// A number as printf's %g writes it, as the CLI's messages do.
std::string shortNumber(double v);

}  // namespace linescope::python
