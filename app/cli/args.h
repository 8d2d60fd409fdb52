// A small command-line parser for the subcommands of linescope-cli: options with and
// without values, positionals, and strict number parsing. Mistakes throw UsageError.
// Everything here is a pure function of its arguments (no I/O), so that a fuzz target can
// drive it directly.
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
    // A word that starts with '-' and is neither an option of `specs` nor a number ("-3",
    // "-.5") nor "-" is an unknown option: "-l" is refused rather than taken as a file.
    Args(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs, std::string command);

    bool has(const std::string& name) const;
    std::optional<std::string> value(const std::string& name) const;
    std::string valueOr(const std::string& name, const std::string& fallback) const;
    // Every value of an option that may be given more than once, in order.
    std::vector<std::string> values(const std::string& name) const;
    const std::vector<std::string>& positionals() const { return positionals_; }
    // Throws UsageError unless exactly `names.size()` positionals were given.
    void requirePositionals(const std::vector<std::string>& names) const;
    bool helpRequested() const { return help_; }
    const std::string& command() const { return command_; }
    const std::vector<OptionSpec>& specs() const { return specs_; }

private:
    std::string command_;
    std::vector<OptionSpec> specs_;
    std::vector<std::pair<std::string, std::string>> values_;  // last one wins
    std::vector<std::string> flags_;
    std::vector<std::string> positionals_;
    bool help_ = false;
};

// The index of the first word of `args` that is neither an option of `specs` nor the value
// of one ("-h"/"--help" count as options): where a command's own options end and the
// command it runs begins ("batch --jobs 2 skew …" → 2). args.size() when there is none.
std::size_t optionsEnd(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs);

// Strict parsers: the whole text must be a number in range, else UsageError naming `what`
// and the text. No spaces, no hexadecimal, at most one sign ('+' or '-').
long long parseInteger(const std::string& text, const std::string& what, long long min, long long max);
// A finite decimal number ("30", "-2.5", "1e-3"); "inf", "nan", "0x1e" and "1e400" are refused.
double parseReal(const std::string& text, const std::string& what);

// The long options (--name) that `help` mentions and that are not in `specs`, and those of
// `specs` that `help` does not mention ("--help" aside): both empty when the help text and
// the declared options agree.
struct HelpMismatch {
    std::vector<std::string> undeclared;    // in the help, not accepted
    std::vector<std::string> undocumented;  // accepted, not in the help
};
HelpMismatch compareHelp(const std::vector<OptionSpec>& specs, const std::string& help);

}  // namespace linescope::cli
