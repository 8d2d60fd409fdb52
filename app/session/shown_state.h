// Whether what a view shows is what its controls ask for: the exact result of the current
// parameters, a preview of it (a sweep still being refined), or a result of older parameters
// or of another image (stale until replaced). The viewport's badge, the spectrum dock's mark
// and the status bar all say it in these words.
#pragma once

#include "app/session/snapshot.h"

#include <optional>
#include <string>

namespace linescope::session {

enum class Freshness { Current, Preview, Stale };

struct ShownState {
    Freshness freshness = Freshness::Current;
    std::string text;  // "" when Current; "preview: 45 of 180 angles"; "stale: shows λ = 21"
};

// `shown`: the snapshot a view shows (nullptr: nothing yet, which is Current with no mark);
// `wanted`: the request the view would submit now (Session::requestFor), nullopt without an image.
ShownState shownStateOf(const Snapshot* shown, const std::optional<Request>& wanted);

// Whether a snapshot answers exactly this request (same image, same parameters).
bool answers(const Snapshot& shown, const Request& wanted);

}  // namespace linescope::session
