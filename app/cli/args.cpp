#include "app/cli/args.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace linescope::cli {

Args::Args(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs, std::string command)
    : command_(std::move(command)) {
    bool optionsEnded = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (optionsEnded || a.size() < 2 || a[0] != '-' || (a[1] != '-' && a != "-h")) {
            // "-3" alone is a positional too; only "--name" and "-h" are options.
            positionals_.push_back(a);
            continue;
        }
        if (a == "--") { optionsEnded = true; continue; }
        if (a == "-h" || a == "--help") { help_ = true; continue; }
        std::string name = a;
        std::optional<std::string> inlineValue;
        if (auto eq = a.find('='); eq != std::string::npos) {
            name = a.substr(0, eq);
            inlineValue = a.substr(eq + 1);
        }
        auto spec = std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == name; });
        if (spec == specs.end())
            throw UsageError("unknown option '" + name + "' for '" + command_ + "' (see linescope-cli " + command_ +
                             " --help)");
        if (!spec->takesValue) {
            if (inlineValue) throw UsageError("option '" + name + "' takes no value");
            flags_.push_back(name);
            continue;
        }
        if (inlineValue) {
            values_.emplace_back(name, *inlineValue);
        } else {
            if (i + 1 >= args.size()) throw UsageError("option '" + name + "' needs a value");
            values_.emplace_back(name, args[++i]);
        }
    }
}

bool Args::has(const std::string& name) const {
    return std::find(flags_.begin(), flags_.end(), name) != flags_.end() || value(name).has_value();
}

std::optional<std::string> Args::value(const std::string& name) const {
    for (auto it = values_.rbegin(); it != values_.rend(); ++it)
        if (it->first == name) return it->second;
    return std::nullopt;
}

std::string Args::valueOr(const std::string& name, const std::string& fallback) const {
    auto v = value(name);
    return v ? *v : fallback;
}

void Args::requirePositionals(const std::vector<std::string>& names) const {
    if (positionals_.size() == names.size()) return;
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : " ") + n;
    if (positionals_.size() < names.size())
        throw UsageError("'" + command_ + "' needs " + std::to_string(names.size()) + " file argument" +
                         (names.size() == 1 ? "" : "s") + " (" + list + "), got " +
                         std::to_string(positionals_.size()));
    throw UsageError("unexpected argument '" + positionals_[names.size()] + "' for '" + command_ + "' (expects " +
                     list + ")");
}

long long parseInteger(const std::string& text, const std::string& what, long long min, long long max) {
    long long v = 0;
    const char* first = text.data();
    const char* last = text.data() + text.size();
    if (first != last && *first == '+') ++first;
    auto [ptr, ec] = std::from_chars(first, last, v);
    if (text.empty() || ec == std::errc::invalid_argument || ptr != last)
        throw UsageError(what + " must be an integer, got '" + text + "'");
    if (ec == std::errc::result_out_of_range || v < min || v > max)
        throw UsageError(what + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
                         ", got '" + text + "'");
    return v;
}

double parseReal(const std::string& text, const std::string& what) {
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v) || errno == ERANGE)
        throw UsageError(what + " must be a finite number, got '" + text + "'");
    return v;
}

}  // namespace linescope::cli
