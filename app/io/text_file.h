// Writing a whole text file (JSON, SVG, CSV exports) with one clear error.
#pragma once

#include <string>

namespace linescope::io {

// Writes `text` to `path` atomically (see writeFileAtomically), replacing it. Throws IoError
// ("cannot write '…': reason") on failure, leaving `path` as it was.
void writeTextFile(const std::string& path, const std::string& text);

}  // namespace linescope::io
