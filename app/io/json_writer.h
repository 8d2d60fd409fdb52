// A minimal JSON writer for the command line's reports: strings, exact integers and
// shortest round-trip doubles.
#pragma once

#include <cstdint>
#include <string>

namespace linescope::io {

// "text" with quotes and escapes. Bytes that are not UTF-8 (a file name in another
// encoding) become U+FFFD, so that the result is always valid JSON.
std::string jsonString(const std::string& text);
// The shortest text that reads back as the same double; null for NaN and infinities.
std::string jsonNumber(double v);
std::string jsonNumber(std::int64_t v);

}  // namespace linescope::io
