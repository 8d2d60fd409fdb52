// What the evaluations of linescope-task-eval share: a small option parser, CSV files, the
// machine line of the result tables, a stopwatch and the median. Main thread of linescope-task-eval.
#pragma once

#include "tests/tasks/task_eval.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace linescope::tasks {

// "--name value" and "--name=value" options, every one taking a value; "-h"/"--help" asks for
// help. Unknown options, missing values and bad numbers throw std::invalid_argument.
class EvalOptions {
public:
    EvalOptions(const ArgList& args, const std::vector<std::string>& names);
    bool helpRequested() const { return help_; }
    bool has(const std::string& name) const { return values_.count(name) > 0; }
    std::string text(const std::string& name, const std::string& fallback = {}) const;
    long long integer(const std::string& name, long long fallback, long long min, long long max) const;

private:
    std::map<std::string, std::string> values_;
    bool help_ = false;
};

// A CSV file opened for writing with its header line; throws std::runtime_error when it cannot.
// openDataIndex: DIR/NAME, the index of a data set written to DIR (created as needed); a
// closed stream when `dataDir` is empty.
std::ofstream openCsv(const std::filesystem::path& path, const char* header);
std::ofstream openDataIndex(const std::string& dataDir, const char* name, const char* header);

// The processor's model name from /proc/cpuinfo ("unknown CPU" elsewhere).
std::string cpuModel();
// "N cores, <CPU model>, engine backend <name>": the machine line under each table.
std::string machineDescription();

class Stopwatch {
public:
    double milliseconds() const {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    }

private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// The median of `values` (0 for none).
double median(std::vector<double> values);

}  // namespace linescope::tasks
