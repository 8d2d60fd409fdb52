// What the subcommands share: notices on stderr, the engine options, λ and angle parsing.
#pragma once

#include "app/cli/args.h"
#include "compute/backend.h"
#include "compute/line_kind.h"
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

// Each option that several commands share is parsed and limited by one function here, so
// that its checks and limits cannot differ between commands; each command's --help is
// checked against its declared options (printHelp).

// --quiet: the held-back notices are dropped instead of printed (errors are not notices).
// Every command takes it: through engineOptionSpecs, or alone with kQuietHelp.
OptionSpec quietOptionSpec();
extern const char* const kQuietHelp;
void quietFrom(const Args& args);

// The options every engine command takes: --backend, --algorithm, --threads,
// --max-image-memory, --device-memory-cap and --quiet.
std::vector<OptionSpec> engineOptionSpecs();
extern const char* const kEngineOptionsHelp;
// --max-image-memory SIZE: the loader's memory budget (io::setImageMemoryBudget).
OptionSpec imageMemoryOptionSpec();
// Applies --max-image-memory when given; a bad size is a UsageError.
void imageMemoryFrom(const Args& args);
// --device-memory-cap SIZE: the CUDA backend's memory cap (setCudaMemoryCap), when given.
void deviceMemoryCapFrom(const Args& args);
// Parses them (setting the image memory budget, the device memory cap and --quiet) and resolves the backend (auto → CPU with a notice when CUDA is unavailable).
EngineOptions engineOptionsFrom(const Args& args);
// --threads: 0 … 4096 (0: one per core).
int threadsFrom(const Args& args);
// --backend: cpu, cuda or auto (default), not yet resolved.
Backend backendFrom(const Args& args);

// --length: required unless `fallback` ≥ 0 is given; 1 … 1,000,000.
int lengthFrom(const Args& args, int fallback = -1);
// A whole-number option in [min, max], or `fallback` when absent; "1.9" is a UsageError.
int integerFrom(const Args& args, const std::string& name, int fallback, int min, int max);
// A real-valued option in [min, max], or `fallback` when absent; out of range is a UsageError.
double numberFrom(const Args& args, const std::string& name, double fallback, double min, double max);
// Throws the UsageError "WHAT gives N angles; at most kMaxSweepAngles are allowed" when
// count is over the limit: the one limit on angles of every command.
void requireAngleCount(const std::string& what, long long count);
// --angle-count N: 2 … kMaxSweepAngles angles over 180° (`fallback` when absent).
int angleCountFrom(const Args& args, int fallback);
// --op for a sweep: open, close, erode or dilate (`fallback` when absent); else a UsageError.
MorphOp sweepOpFrom(const Args& args, const std::string& fallback = "open");
// A number as printf's %g writes it ("0.05", "1e-06"): for messages.
std::string shortNumber(double v);
// Milliseconds since `start` on the steady clock: the "time_ms" of the JSON commands.
double millisecondsSince(std::chrono::steady_clock::time_point start);
// --angles start:stop:step (stop excluded), via AngleSet::parse, at most kMaxSweepAngles
// angles; a bad text is a UsageError.
AngleSet anglesFrom(const Args& args, const std::string& fallback);

// --line KIND: paths (default), segment or periodic (line_kind.h); a bad name is a UsageError.
// Every command whose engine call takes a LineKind declares it with lineOptionSpec and
// documents it with kLineHelp.
OptionSpec lineOptionSpec();
extern const char* const kLineHelp;
LineKind lineKindFrom(const Args& args);

// "-o" stands for --out in the commands that write one file (se, granulometry): the
// arguments with each "-o" before "--" replaced by "--out".
std::vector<std::string> withLongOut(const std::vector<std::string>& args);

// --force: the flag of every command that writes files, and its help line.
OptionSpec forceOptionSpec();
extern const char* const kForceHelp;
// Before a command writes: an output that is one of its inputs (the same file, however
// named) is a UsageError naming both, unless `force`; two outputs naming the same file are
// always one. Queues one notice listing the existing files the run will replace.
void checkOutputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs, bool force);

// Prints a command's --help text on stdout; returns 0. Throws std::logic_error (exit 1)
// when the text and the command's declared options disagree (an option not described, or
// one described but refused): test_cli runs every command's --help.
int printHelp(const Args& args, const std::string& text);
// Prints text as is (the top-level help); returns 0.
int printHelp(const char* text);

}  // namespace linescope::cli
