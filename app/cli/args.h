// A small command-line parser for the subcommands of linescope-cli: options with and
// without values, positionals, and strict number parsing. Mistakes throw UsageError.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace linescope::cli {

// A mistake in the command line: reported with exit status 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct OptionSpec {
    std::string name;        // with the dashes: "--length"
    bool takesValue = true;  // false: a flag
};

class Args {
public:
    // Parses the arguments after the subcommand. "--opt value" and "--opt=value" both work;
    // a value may start with '-' ("--angle -3"); "--" ends the options; "-h" is "--help".
    Args(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs, std::string command);

    bool has(const std::string& name) const;
    std::optional<std::string> value(const std::string& name) const;
    std::string valueOr(const std::string& name, const std::string& fallback) const;
    const std::vector<std::string>& positionals() const { return positionals_; }
    // Throws UsageError unless exactly `names.size()` positionals were given.
    void requirePositionals(const std::vector<std::string>& names) const;
    bool helpRequested() const { return help_; }
    const std::string& command() const { return command_; }

private:
    std::string command_;
    std::vector<std::pair<std::string, std::string>> values_;  // last one wins
    std::vector<std::string> flags_;
    std::vector<std::string> positionals_;
    bool help_ = false;
};

// Strict parsers: the whole text must be a number in range, else UsageError naming `what`.
long long parseInteger(const std::string& text, const std::string& what, long long min, long long max);
double parseReal(const std::string& text, const std::string& what);  // finite

}  // namespace linescope::cli
