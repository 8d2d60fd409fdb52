// The subcommands of linescope-cli; each takes the arguments after its name and returns
// the exit status. Errors are thrown (UsageError → 2, anything else → 1) and reported by main.
#pragma once

#include "app/cli/command_job.h"

#include "compute/line_morph.h"

#include <memory>
#include <string>
#include <vector>

namespace linescope::cli {

using ArgList = std::vector<std::string>;

int runMorph(MorphOp op, const ArgList& args);  // open, close, erode, dilate, tophat
int runSweep(const ArgList& args);
int runSkew(const ArgList& args);
int runSpectrum(const ArgList& args);
int runOrientation(const ArgList& args);
int runContours(const ArgList& args);
int runBench(const ArgList& args);
int runBatch(const ArgList& args);
int runSe(const ArgList& args);  // a line kind's structuring element as files
int runGranulometry(const ArgList& args);  // S(λ) and the pattern spectrum as CSV or JSON

// The commands batch can run: their options parsed and checked by the command's own
// parser (UsageError), in `mode`. Null when --help was asked for (and printed).
std::unique_ptr<CommandJob> morphJob(MorphOp op, const ArgList& args, JobMode mode);
std::unique_ptr<CommandJob> sweepJob(const ArgList& args, JobMode mode);
std::unique_ptr<CommandJob> skewJob(const ArgList& args, JobMode mode);
std::unique_ptr<CommandJob> spectrumJob(const ArgList& args, JobMode mode);
std::unique_ptr<CommandJob> orientationJob(const ArgList& args, JobMode mode);
std::unique_ptr<CommandJob> contoursJob(const ArgList& args, JobMode mode);

}  // namespace linescope::cli
