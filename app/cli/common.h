// What the subcommands share: notices on stderr, the engine options, λ and angle parsing.
#pragma once

#include "app/cli/args.h"
#include "compute/backend.h"
#include "compute/sweep.h"

#include <chrono>
#include <string>
#include <vector>

namespace linescope::cli {

inline constexpr long long kMaxLength = 1'000'000;

// One-line notices ("converted to grayscale", "using the CPU backend"). They are held back
// and printed on stderr when the command succeeds, so that a failing command prints
// exactly one line: its error.
void notice(const std::string& line);
void flushNotices();

// The options every engine command takes: --backend, --algorithm, --threads.
std::vector<OptionSpec> engineOptionSpecs();
extern const char* const kEngineOptionsHelp;
// Parses them and resolves the backend (auto → CPU with a notice when CUDA is unavailable).
EngineOptions engineOptionsFrom(const Args& args);

// --length: required unless `fallback` ≥ 0 is given; 1 … 1,000,000.
int lengthFrom(const Args& args, int fallback = -1);
// A real-valued option in [min, max], or `fallback` when absent; out of range is a UsageError.
double numberFrom(const Args& args, const std::string& name, double fallback, double min, double max);
// --op for a sweep: open, close, erode or dilate (`fallback` when absent); else a UsageError.
MorphOp sweepOpFrom(const Args& args, const std::string& fallback = "open");
// Milliseconds since `start` on the steady clock: the "time_ms" of the JSON commands.
double millisecondsSince(std::chrono::steady_clock::time_point start);
// --angles start:stop:step (stop excluded), via AngleSet::parse; a bad text is a UsageError.
AngleSet anglesFrom(const Args& args, const std::string& fallback);

// --force: the flag of every command that writes files, and its help line.
OptionSpec forceOptionSpec();
extern const char* const kForceHelp;
// Before a command writes: an output that is one of its inputs (the same file, however
// named) is a UsageError naming both, unless `force`; two outputs naming the same file are
// always one. Queues one notice listing the existing files the run will replace.
void checkOutputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs, bool force);

// The lines of help text printed for --help; returns 0.
int printHelp(const char* text);

}  // namespace linescope::cli
