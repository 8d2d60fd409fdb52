// How a preview names itself, in the words the window shows.
#include "app/session/snapshot.h"

namespace linescope::session {

std::string previewText(const SweepPreview& p) {
    std::string text = "preview: ";
    if (p.reduction > 1) text += "1/" + std::to_string(p.reduction) + " resolution";
    if (p.anglesDone < p.anglesTotal) {
        if (p.reduction > 1) text += ", ";
        text += std::to_string(p.anglesDone) + " of " + std::to_string(p.anglesTotal) + " angles";
    }
    return text;
}

}  // namespace linescope::session
