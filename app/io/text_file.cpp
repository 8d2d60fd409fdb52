#include "app/io/text_file.h"

#include "app/io/atomic_file.h"

namespace linescope::io {

void writeTextFile(const std::string& path, const std::string& text) { writeFileAtomically(path, text); }

}  // namespace linescope::io
