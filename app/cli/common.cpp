#include "app/cli/common.h"

#include "app/io/memory_budget.h"

#include "compute/image.h"
#include "compute/line_morph.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <system_error>
#include <limits>
#include <stdexcept>

namespace linescope::cli {

namespace {
// Whether `a` and `b` name the same file: the same inode when both exist, else the same
// absolute path once "." and ".." and links in the existing part are resolved.
bool sameFile(const std::string& a, const std::string& b) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
    const fs::path ca = fs::weakly_canonical(fs::absolute(a, ec), ec);
    const fs::path cb = fs::weakly_canonical(fs::absolute(b, ec), ec);
    return !ec && ca == cb;
}

std::vector<std::string>& pendingNotices() {
    static std::vector<std::string> notices;
    return notices;
}

bool& quietFlag() {
    static bool quiet = false;
    return quiet;
}

// One text for --quiet in every command's help (commands without the engine options add it alone).
#define LINESCOPE_QUIET_HELP                                                                   \
    "  --quiet            no notes on stderr (the backend notice, conversions, replaced\n"   \
    "                     files); errors are still printed\n"
}  // namespace

std::string shortNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

void notice(const std::string& line) { pendingNotices().push_back(line); }

void flushNotices() {
    if (!quietFlag())
        for (const auto& n : pendingNotices()) std::cerr << "linescope-cli: note: " << n << '\n';
    pendingNotices().clear();
    std::cerr.flush();
}

std::vector<OptionSpec> engineOptionSpecs() {
    return {{"--backend", true},         {"--algorithm", true},   {"--threads", true}, imageMemoryOptionSpec(),
            {"--device-memory-cap", true}, quietOptionSpec()};
}

OptionSpec quietOptionSpec() { return {"--quiet", false}; }
const char* const kQuietHelp = LINESCOPE_QUIET_HELP;
void quietFrom(const Args& args) { quietFlag() = args.has("--quiet"); }

const char* const kEngineOptionsHelp =
    "  --backend B        cpu, cuda or auto (default auto: CUDA when available, else the CPU\n"
    "                     with a one-line notice)\n"
    "  --algorithm A      auto, sheared, vhgw, fifo, stack or reference (all give the same\n"
    "                     pixels; default auto: sheared on the CPU, the band kernel on the\n"
    "                     GPU; fifo and stack on the GPU are Karas et al.'s kernels;\n"
    "                     reference always runs on the CPU)\n"
    "  --threads N        CPU worker threads (default 0 = one per core)\n"
    "  --max-image-memory SIZE\n"
    "                     the most memory the decoded input may take, e.g. 512M or 16G\n"
    "                     (default: a quarter of the memory, or of ulimit -v); a larger\n"
    "                     image is refused from its header, before it is decoded\n"
    "  --device-memory-cap SIZE\n"
    "                     the most GPU memory the CUDA backend may use, e.g. 512M (default:\n"
    "                     the GPU's free memory); a larger image runs in horizontal zones,\n"
    "                     with the same results\n" LINESCOPE_QUIET_HELP;

OptionSpec imageMemoryOptionSpec() { return {"--max-image-memory", true}; }

void imageMemoryFrom(const Args& args) {
    const auto text = args.value("--max-image-memory");
    if (!text) {
        io::limitDecoderPixelsToBudget();  // the command has one thread until it reads
        return;
    }
    const auto bytes = io::parseByteSize(*text);
    if (!bytes)
        throw UsageError("--max-image-memory must be a size such as 512M or 16G (K, M, G, T: powers of 1024), got '" +
                         *text + "'");
    io::setImageMemoryBudget(*bytes);
    io::limitDecoderPixelsToBudget();
}

void deviceMemoryCapFrom(const Args& args) {
    const auto text = args.value("--device-memory-cap");
    if (!text) return;
    const auto bytes = io::parseByteSize(*text);
    if (!bytes)
        throw UsageError("--device-memory-cap must be a size such as 512M or 16G (K, M, G, T: powers of 1024), got '" +
                         *text + "'");
    setCudaMemoryCap(*bytes);
}

int threadsFrom(const Args& args) { return integerFrom(args, "--threads", 0, 0, 4096); }

Backend backendFrom(const Args& args) {
    try {
        return parseBackend(args.valueOr("--backend", "auto"));
    } catch (const Error& e) {
        throw UsageError(std::string("--backend: ") + e.what());
    }
}

EngineOptions engineOptionsFrom(const Args& args) {
    quietFrom(args);
    EngineOptions opt;
    opt.backend = backendFrom(args);
    try {
        opt.algorithm = parseAlgorithm(args.valueOr("--algorithm", "auto"));
    } catch (const Error& e) {
        throw UsageError(std::string("--algorithm: ") + e.what());
    }
    opt.threads = threadsFrom(args);
    imageMemoryFrom(args);
    deviceMemoryCapFrom(args);
    std::string why;
    opt.backend = resolveBackend(opt.backend, &why);  // throws Error when cuda is asked for and missing
    if (!why.empty()) notice(why);
    return opt;
}

int lengthFrom(const Args& args, int fallback) {
    auto v = args.value("--length");
    if (!v) {
        if (fallback >= 0) return fallback;
        throw UsageError("'" + args.command() + "' needs --length (the segment's length in pixels, λ ≥ 1)");
    }
    return static_cast<int>(parseInteger(*v, "--length", 1, kMaxLength));
}

int integerFrom(const Args& args, const std::string& name, int fallback, int min, int max) {
    const auto v = args.value(name);
    return v ? static_cast<int>(parseInteger(*v, name, min, max)) : fallback;
}

double numberFrom(const Args& args, const std::string& name, double fallback, double min, double max) {
    const auto v = args.value(name);
    if (!v) return fallback;
    const double x = parseReal(*v, name);
    if (x < min || x > max)
        throw UsageError(name + " must be between " + shortNumber(min) + " and " + shortNumber(max) + ", got " + *v);
    return x;
}

MorphOp sweepOpFrom(const Args& args, const std::string& fallback) {
    const std::string text = args.valueOr("--op", fallback);
    if (text != "open" && text != "close" && text != "erode" && text != "dilate")
        throw UsageError("--op must be open, close, erode or dilate, got '" + text + "'");
    return parseMorphOp(text);
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void requireAngleCount(const std::string& what, long long count) {
    if (count > kMaxSweepAngles)
        throw UsageError(what + " gives " + std::to_string(count) + " angles; at most " +
                         std::to_string(kMaxSweepAngles) + " are allowed");
}

int angleCountFrom(const Args& args, int fallback) {
    const auto v = args.value("--angle-count");
    if (!v) return fallback;
    const long long n = parseInteger(*v, "--angle-count", 2, std::numeric_limits<int>::max());
    requireAngleCount("--angle-count", n);
    return static_cast<int>(n);
}

AngleSet anglesFrom(const Args& args, const std::string& fallback) {
    const std::string text = args.valueOr("--angles", fallback);
    AngleSet angles;
    try {
        angles = AngleSet::parse(text);
    } catch (const Error& e) {
        throw UsageError(std::string("--angles: ") + e.what());
    }
    requireAngleCount("--angles", angles.count);
    return angles;
}

int printHelp(const Args& args, const std::string& text) {
    const HelpMismatch m = compareHelp(args.specs(), text);
    std::string problems;
    for (const auto& o : m.undocumented) problems += " " + o + " is accepted but not described;";
    for (const auto& o : m.undeclared) problems += " " + o + " is described but not accepted;";
    if (!problems.empty())
        throw std::logic_error("internal error: the help of '" + args.command() + "' and its options disagree:" +
                               problems.substr(0, problems.size() - 1));
    std::fputs(text.c_str(), stdout);
    return 0;
}

OptionSpec lineOptionSpec() { return {"--line", true}; }

const char* const kLineHelp =
    "  --line KIND        the digital line: paths (default: line paths, definitions.md\n"
    "                     §5), segment (one 2-D kernel everywhere, what OpenCV computes\n"
    "                     with the kernel of 'linescope-cli se') or periodic (Soille and\n"
    "                     Talbot's periodic line)\n";

LineKind lineKindFrom(const Args& args) {
    try {
        return parseLineKind(args.valueOr("--line", "paths"));
    } catch (const Error& e) {
        throw UsageError(std::string("--line: ") + e.what());
    }
}

std::vector<std::string> withLongOut(const std::vector<std::string>& args) {
    std::vector<std::string> out;
    bool ended = false;
    for (const std::string& a : args) {
        if (a == "--") ended = true;
        out.push_back(!ended && a == "-o" ? "--out" : a);
    }
    return out;
}

OptionSpec forceOptionSpec() { return {"--force", false}; }

const char* const kForceHelp =
    "  --force            write even when an output is one of the input files (which is then\n"
    "                     replaced); without it that is an error\n";

void checkOutputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs, bool force) {
    std::string replaced;
    int replacedCount = 0;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const std::string& out = outputs[i];
        for (std::size_t j = 0; j < i; ++j)
            if (sameFile(outputs[j], out))
                throw UsageError("'" + outputs[j] + "' and '" + out + "' are the same file: give each output its own name");
        for (const std::string& in : inputs)
            if (!force && sameFile(in, out))
                throw UsageError("the output '" + out + "' is the input '" + in +
                                 "': refusing to overwrite it (name another output, or give --force)");
        std::error_code ec;
        if (std::filesystem::is_regular_file(out, ec)) {
            replaced += (replacedCount ? ", '" : "'") + out + "'";
            ++replacedCount;
        }
    }
    if (replacedCount == 1) notice("replaced the existing file " + replaced);
    else if (replacedCount > 1) notice("replaced " + std::to_string(replacedCount) + " existing files: " + replaced);
}

int printHelp(const char* text) {
    std::fputs(text, stdout);
    return 0;
}

}  // namespace linescope::cli
