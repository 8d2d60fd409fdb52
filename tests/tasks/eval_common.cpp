#include "tests/tasks/eval_common.h"

#include "compute/backend.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <thread>

namespace linescope::tasks {

EvalOptions::EvalOptions(const ArgList& args, const std::vector<std::string>& names) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-h" || a == "--help") {
            help_ = true;
            continue;
        }
        const auto eq = a.find('=');
        const std::string name = a.substr(0, eq);
        if (std::find(names.begin(), names.end(), name) == names.end())
            throw std::invalid_argument("unknown option '" + a + "' (see --help)");
        if (eq != std::string::npos) values_[name] = a.substr(eq + 1);
        else if (i + 1 < args.size()) values_[name] = args[++i];
        else throw std::invalid_argument("option " + name + " needs a value");
    }
}

std::string EvalOptions::text(const std::string& name, const std::string& fallback) const {
    const auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second;
}

long long EvalOptions::integer(const std::string& name, long long fallback, long long min, long long max) const {
    const auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    long long v = 0;
    const std::string& s = it->second;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v < min || v > max)
        throw std::invalid_argument(name + " takes a whole number from " + std::to_string(min) + " to " +
                                    std::to_string(max) + ", not '" + s + "'");
    return v;
}

std::ofstream openCsv(const std::filesystem::path& path, const char* header) {
    std::ofstream f(path);
    if (!f) throw std::runtime_error("cannot write " + path.string());
    f << header << '\n';
    return f;
}

std::ofstream openDataIndex(const std::string& dataDir, const char* name, const char* header) {
    if (dataDir.empty()) return {};
    std::filesystem::create_directories(dataDir);
    return openCsv(std::filesystem::path(dataDir) / name, header);
}

std::string cpuModel() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);)
        if (line.starts_with("model name") && line.find(':') != std::string::npos)
            return line.substr(line.find_first_not_of(" \t", line.find(':') + 1));
    return "unknown CPU";
}

std::string machineDescription() {
    return std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " cores, " + cpuModel() +
           ", engine backend " + backendName(resolveBackend(Backend::Auto));
}

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    const std::size_t n = values.size();
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n / 2), values.end());
    const double upper = values[n / 2];
    if (n % 2) return upper;
    return 0.5 * (upper + *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n / 2)));
}

}  // namespace linescope::tasks
