// Edit > Copy as Python / Copy as Command Line: the call that reproduces what the window
// shows, as text. Pure functions of the session's parameters, the view and the file, so
// that they are tested without a window (the window only puts the text on the clipboard).
#pragma once

#include "app/session/plane.h"
#include "app/session/session.h"

#include <string>

namespace linescope::ui {

struct CopyAsState {
    std::string file;                // the image's file, as opened
    bool floatPixels = false;        // float32 image: its image outputs are .tiff, not .png
    session::Parameters params;      // what the session computes with
    session::Plane view = session::Plane::Result;
    bool contours = false;           // contours are shown: they are the subject
    session::Plane contourSource = session::Plane::Original;
    bool deskewed = false;           // the shown image is the file deskewed in the window
};

// The Python lines (import, imread, the call, the plane or contours as a variable).
std::string copyAsPython(const CopyAsState& state);
// The linescope-cli command(s), one a line; outputs named after the file's stem in the
// current folder (the last word, or the folder after --out-dir; a trailing comment names
// the file of a sweep plane).
std::string copyAsCommandLine(const CopyAsState& state);

// A number as the shortest text that parses back to the same double ("30", "0.1", "-12.5").
std::string exactNumber(double v);
// The angle set as the CLI and linescope.sweep take it: "N" for N angles over 180°, else
// "start:stop:step" with numbers that parse back to the same set.
std::string angleSetWords(const AngleSet& angles);

}  // namespace linescope::ui
