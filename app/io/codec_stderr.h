// Codec libraries (libpng, libjpeg, libtiff) print their complaints on stderr, and fd 2 is the
// process's. quietCodecCall runs a codec call with fd 2 pointed at a temporary file that the
// calls of the moment share (the first redirects it, the last restores it), so that decoders
// and encoders on many threads run at once (batch) and successes stay quiet. A call during
// whose run anything was written — by it or by a call beside it — and whose caller wants the
// line (a failure's reason, libjpeg's warning about a damaged file that decoded) is run again
// alone, fd 2 its own, so that the line it reports is its own. Nothing a call reports is
// misattributed; only a call that needs its line and printed, or ran beside one that did,
// costs a second run (a PNG's harmless warning on every file does not serialise a batch).
#pragma once

#include <functional>
#include <string>

namespace linescope::io {

// Runs `call` (which must give the same outcome when run twice: it resets what it sets) and
// returns the first non-empty line the codec wrote on stderr during it, or "" when none or
// when `wantsLine`, asked after the call, says the line does not matter for this outcome.
std::string quietCodecCall(const std::function<void()>& call, const std::function<bool()>& wantsLine = {});

}  // namespace linescope::io
