#include "python/src/options.h"

#include "python/src/arrays.h"

#include "app/cli/common.h"  // the CLI's limits (kMaxLength)

#include <cmath>
#include <cstdio>
#include <limits>

namespace linescope::python {

namespace {
std::string reprOf(const py::handle& value) { return py::repr(value); }

// An int or a NumPy integer: 1.5 is refused rather than truncated, and True is refused as
// the mistake it almost surely is.
bool isInteger(const py::handle& value) {
    if (PyBool_Check(value.ptr())) return false;
    if (PyFloat_Check(value.ptr())) return false;
    return PyIndex_Check(value.ptr()) != 0;
}

bool isReal(const py::handle& value) {
    if (PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr())) return false;
    return PyFloat_Check(value.ptr()) || PyIndex_Check(value.ptr()) || PyNumber_Check(value.ptr());
}
}  // namespace

std::string shortNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

int wholeNumber(const py::handle& value, const std::string& name, long long min, long long max) {
    if (!isInteger(value)) throw py::type_error(name + " must be a whole number, got " + reprOf(value));
    const py::int_ asInt = py::reinterpret_steal<py::int_>(PyNumber_Index(value.ptr()));
    if (!asInt) throw py::error_already_set();
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(asInt.ptr(), &overflow);
    if (overflow != 0 || v < min || v > max)
        throw py::value_error(name + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
                              ", got " + reprOf(value));
    return static_cast<int>(v);
}

double finiteNumber(const py::handle& value, const std::string& name) {
    if (!isReal(value)) throw py::type_error(name + " must be a number, got " + reprOf(value));
    const double v = PyFloat_AsDouble(value.ptr());
    if (v == -1.0 && PyErr_Occurred()) throw py::error_already_set();
    if (!std::isfinite(v)) throw py::value_error(name + " must be a finite number, got " + reprOf(value));
    return v;
}

double numberInRange(const py::handle& value, const std::string& name, double min, double max) {
    const double v = finiteNumber(value, name);
    if (v < min || v > max)
        throw py::value_error(name + " must be between " + shortNumber(min) + " and " + shortNumber(max) + ", got " +
                              reprOf(value));
    return v;
}

int segmentLength(const py::handle& value) { return wholeNumber(value, "length", 1, cli::kMaxLength); }

Backend resolvedBackend(const std::string& backend) {
    Backend requested{};
    try {
        requested = parseBackend(backend);
    } catch (const Error& e) {
        throw py::value_error(std::string("backend: ") + e.what());
    }
    try {
        return resolveBackend(requested);
    } catch (const Error& e) {
        // Not the input's fault: the machine or the build lacks the GPU.
        throw std::runtime_error(e.what());
    }
}

EngineOptions engineOptions(const std::string& backend, const std::string& algorithm, const py::handle& threads) {
    EngineOptions opt;
    try {
        opt.algorithm = parseAlgorithm(algorithm);
    } catch (const Error& e) {
        throw py::value_error(std::string("algorithm: ") + e.what());
    }
    opt.threads = wholeNumber(threads, "threads", 0, 4096);
    opt.backend = resolvedBackend(backend);
    return opt;
}

AngleSet angleSet(const py::handle& angles, const std::string& name) {
    AngleSet set;
    if (PyUnicode_Check(angles.ptr())) {
        try {
            set = AngleSet::parse(angles.cast<std::string>());
        } catch (const Error& e) {
            throw py::value_error(name + ": " + e.what());
        }
    } else if (isInteger(angles)) {
        set = AngleSet::overHalfTurn(wholeNumber(angles, name, 1, kMaxSweepAngles));
    } else if (py::isinstance<py::tuple>(angles) || py::isinstance<py::list>(angles)) {
        const py::sequence s = py::reinterpret_borrow<py::sequence>(angles);
        if (s.size() != 3)
            throw py::value_error(name + " as a sequence must be (start, step, count), got " + reprOf(angles));
        set.start = finiteNumber(s[0], name + " start");
        set.step = finiteNumber(s[1], name + " step");
        if (!(set.step > 0)) throw py::value_error(name + " step must be positive, got " + reprOf(s[1]));
        set.count = wholeNumber(s[2], name + " count", 1, std::numeric_limits<int>::max());
    } else {
        throw py::type_error(name + " must be a text such as \"0:180:1\", a number of angles or (start, step, count), got " +
                             reprOf(angles));
    }
    requireAngleCount(name, set.count);
    return set;
}

void requireAngleCount(const std::string& name, long long count) {
    if (count > kMaxSweepAngles)
        throw py::value_error(name + " gives " + std::to_string(count) + " angles; at most " +
                              std::to_string(kMaxSweepAngles) + " are allowed");
}

MorphOp sweepOp(const std::string& op) {
    if (op != "open" && op != "close" && op != "erode" && op != "dilate")
        throw py::value_error("op must be open, close, erode or dilate, got '" + op + "'");
    return parseMorphOp(op);
}

void putRequestFields(py::dict& d, const SweepRequest& req) {
    std::vector<double> angles(static_cast<std::size_t>(req.angles.count));
    for (int k = 0; k < req.angles.count; ++k) angles[static_cast<std::size_t>(k)] = req.angles.angle(k);
    d["angles"] = arrayOf(std::move(angles));
    d["op"] = morphOpName(req.op);
    d["length"] = req.length;
}

}  // namespace linescope::python
