// A minimal JSON writer for the command line's reports: strings, exact integers and
// shortest round-trip doubles.
#pragma once

#include <cstdint>
#include <string>

namespace linescope::io {

// "text" with quotes and escapes; bytes that are not valid UTF-8 become U+FFFD, so that the
// result is valid JSON whatever the text (file names need not be UTF-8).
std::string jsonString(const std::string& text);
// The shortest text that reads back as the same double; null for NaN and infinities.
std::string jsonNumber(double v);
std::string jsonNumber(std::int64_t v);

}  // namespace linescope::io
