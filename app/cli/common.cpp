#include "app/cli/common.h"

#include "compute/image.h"

#include <cstdio>
#include <iostream>

namespace linescope::cli {

namespace {
std::string shortNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::vector<std::string>& pendingNotices() {
    static std::vector<std::string> notices;
    return notices;
}
}  // namespace

void notice(const std::string& line) { pendingNotices().push_back(line); }

void flushNotices() {
    for (const auto& n : pendingNotices()) std::cerr << "linescope-cli: note: " << n << '\n';
    pendingNotices().clear();
    std::cerr.flush();
}

std::vector<OptionSpec> engineOptionSpecs() {
    return {{"--backend", true}, {"--algorithm", true}, {"--threads", true}};
}

const char* const kEngineOptionsHelp =
    "  --backend B        cpu, cuda or auto (default auto: CUDA when available, else the CPU\n"
    "                     with a one-line notice)\n"
    "  --algorithm A      auto, sheared, vhgw, fifo, stack or reference (all give the same\n"
    "                     pixels; default auto: sheared on the CPU, the band kernel on the\n"
    "                     GPU; fifo and stack on the GPU are Karas et al.'s kernels;\n"
    "                     reference always runs on the CPU)\n"
    "  --threads N        CPU worker threads (default 0 = one per core)\n";

EngineOptions engineOptionsFrom(const Args& args) {
    EngineOptions opt;
    try {
        opt.backend = parseBackend(args.valueOr("--backend", "auto"));
        opt.algorithm = parseAlgorithm(args.valueOr("--algorithm", "auto"));
    } catch (const Error& e) {
        throw UsageError(e.what());
    }
    if (auto t = args.value("--threads")) opt.threads = static_cast<int>(parseInteger(*t, "--threads", 0, 4096));
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

AngleSet anglesFrom(const Args& args, const std::string& fallback) {
    const std::string text = args.valueOr("--angles", fallback);
    try {
        return AngleSet::parse(text);
    } catch (const Error& e) {
        throw UsageError(std::string("--angles: ") + e.what());
    }
}

int printHelp(const char* text) {
    std::fputs(text, stdout);
    return 0;
}

}  // namespace linescope::cli
