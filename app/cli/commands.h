// The subcommands of linescope-cli; each takes the arguments after its name and returns
// the exit status. Errors are thrown (UsageError → 2, anything else → 1) and reported by main.
#pragma once

#include "compute/line_morph.h"

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

}  // namespace linescope::cli
