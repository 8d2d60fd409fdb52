// Writing a whole file so that the destination is always either its old content or the
// complete new one: a killed run, a full disk or two runs writing the same path never leave
// a truncated or mixed file. Plain POSIX (no Qt): used by the command line and the app.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace linescope::io {

// Writes `bytes` to a uniquely named temporary file in `path`'s folder, flushes it to disk
// and renames it over `path`. A new file gets the usual mode (0666 less the umask); a
// replaced one keeps its mode. A symbolic link is followed (its target is replaced).
// An existing FIFO or device (/dev/stdout, /dev/null) is written in place: it cannot be
// replaced. On failure the temporary file is removed, `path` is untouched, and IoError
// says why: "cannot write 'out.png': No space left on device".
void writeFileAtomically(const std::string& path, std::string_view bytes);

// A test seam: the next writeFileAtomically in this process writes at most `afterBytes`
// bytes and then fails as if write(2) had set errno to `error` (ENOSPC: a full disk).
void failNextWriteForTesting(int error, std::size_t afterBytes);

}  // namespace linescope::io
