// What an exception escaping a command means for the user: the exit status and the one
// line that says why. main() reports a whole command's failure with it, and batch reports
// each file's, so that a file fails in a batch with the words it fails with alone.
#pragma once

#include <exception>
#include <string>

namespace linescope::cli {

struct Failure {
    int status = 1;       // 2 for a usage mistake, 1 for everything else
    std::string message;  // one line, without the "linescope-cli: error: " prefix
};

// Must be given a non-null exception_ptr (std::current_exception() inside a catch).
Failure describeFailure(std::exception_ptr error);

// `text` on one line: line breaks become spaces, trailing spaces are dropped.
std::string oneLine(std::string text);

}  // namespace linescope::cli
