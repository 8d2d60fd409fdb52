// The block orientation field as text: the command line's `orientation` report (JSON) and its
// --csv table, written by the CLI and by the window's orientation-field workbench, so that
// both give the same bytes for the same field. Plain functions; any thread.
#pragma once

#include "compute/orientation_field.h"

#include <string>

namespace linescope::io {

// "bx,by,angle,coherence,weight,foreground" and one row a block, row by row.
std::string orientationFieldCsv(const OrientationField& f);

// The JSON object `linescope-cli orientation` prints (one line, "\n" at the end): the layout,
// the parameters, then angles, coherence and foreground a block, and the computation's time.
// `method`: "block" or "pixel" (methodName).
std::string orientationFieldJson(const OrientationField& f, const OrientationFieldParams& p, double timeMs);

// "block" for OrientationMethod::BlockSpectrum, "pixel" for PixelArg (the CLI's --method).
const char* orientationMethodName(OrientationMethod m);

}  // namespace linescope::io
