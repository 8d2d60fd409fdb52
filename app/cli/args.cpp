#include "app/cli/args.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace linescope::cli {

namespace {
// "-3", "-.5": a negative number, which is a positional or a value, never an option.
bool looksNegativeNumber(const std::string& a) {
    return a.size() >= 2 && a[0] == '-' && (std::isdigit(static_cast<unsigned char>(a[1])) || a[1] == '.');
}

// Where from_chars should start: past one leading '+' (it takes '-' but not '+'), but not
// past "+-" or "++", which stay invalid.
const char* numberStart(const std::string& text) {
    const char* first = text.data();
    if (text.size() >= 2 && text[0] == '+' && text[1] != '-' && text[1] != '+') ++first;
    return first;
}

bool isOptionChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-'; }
}  // namespace

Args::Args(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs, std::string command)
    : command_(std::move(command)), specs_(specs) {
    const std::string seeHelp = " for '" + command_ + "' (see linescope-cli " + command_ + " --help)";
    bool optionsEnded = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (optionsEnded || a.size() < 2 || a[0] != '-' || looksNegativeNumber(a)) {
            positionals_.push_back(a);
            continue;
        }
        if (a == "--") { optionsEnded = true; continue; }
        if (a == "-h" || a == "--help") { help_ = true; continue; }
        if (a[1] != '-') throw UsageError("unknown option '" + a + "'" + seeHelp);  // no short options but -h
        std::string name = a;
        std::optional<std::string> inlineValue;
        if (auto eq = a.find('='); eq != std::string::npos) {
            name = a.substr(0, eq);
            inlineValue = a.substr(eq + 1);
        }
        auto spec = std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == name; });
        if (spec == specs.end()) throw UsageError("unknown option '" + name + "'" + seeHelp);
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

std::vector<std::string> Args::values(const std::string& name) const {
    std::vector<std::string> all;
    for (const auto& [option, value] : values_)
        if (option == name) all.push_back(value);
    return all;
}

std::size_t optionsEnd(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.size() < 2 || a[0] != '-' || looksNegativeNumber(a)) return i;
        const std::string name = a.substr(0, a.find('='));
        const auto spec = std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == name; });
        if (spec != specs.end() && spec->takesValue && name.size() == a.size()) ++i;  // its value is the next word
    }
    return args.size();
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
    const char* last = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(numberStart(text), last, v);
    if (text.empty() || ec == std::errc::invalid_argument || ptr != last)
        throw UsageError(what + " must be a whole number, got '" + text + "'");
    if (ec == std::errc::result_out_of_range || v < min || v > max)
        throw UsageError(what + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
                         ", got '" + text + "'");
    return v;
}

double parseReal(const std::string& text, const std::string& what) {
    // from_chars, unlike strtod, skips no spaces and reads no hexadecimal in the general format.
    double v = 0;
    const char* last = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(numberStart(text), last, v, std::chars_format::general);
    if (text.empty() || ec == std::errc::invalid_argument || ptr != last || !std::isfinite(v))
        throw UsageError(what + " must be a finite number, got '" + text + "'");
    if (ec == std::errc::result_out_of_range) throw UsageError(what + " is out of range, got '" + text + "'");
    return v;
}

HelpMismatch compareHelp(const std::vector<OptionSpec>& specs, const std::string& help) {
    std::vector<std::string> mentioned;
    for (std::size_t i = help.find("--"); i != std::string::npos; i = help.find("--", i + 2)) {
        if (i > 0 && isOptionChar(help[i - 1])) continue;  // inside a word
        std::size_t end = i + 2;
        while (end < help.size() && isOptionChar(help[end])) ++end;
        while (end > i + 2 && help[end - 1] == '-') --end;
        if (end == i + 2) continue;  // a bare "--"
        mentioned.push_back(help.substr(i, end - i));
    }
    HelpMismatch m;
    auto declared = [&](const std::string& name) {
        return std::any_of(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == name; });
    };
    for (const auto& name : mentioned)
        if (name != "--help" && !declared(name) &&
            std::find(m.undeclared.begin(), m.undeclared.end(), name) == m.undeclared.end())
            m.undeclared.push_back(name);
    for (const auto& s : specs)
        if (std::find(mentioned.begin(), mentioned.end(), s.name) == mentioned.end()) m.undocumented.push_back(s.name);
    return m;
}

}  // namespace linescope::cli
