// The names of the line kinds, one spelling for the CLI, the GUI and the exports.
#include "compute/line_kind.h"

#include "compute/image.h"

namespace linescope {

const char* lineKindName(LineKind k) {
    switch (k) {
    case LineKind::Paths: return "paths";
    case LineKind::Segment: return "segment";
    case LineKind::Periodic: return "periodic";
    }
    return "?";
}

LineKind parseLineKind(const std::string& s) {
    for (auto k : {LineKind::Paths, LineKind::Segment, LineKind::Periodic})
        if (s == lineKindName(k)) return k;
    throw Error("unknown line kind '" + s + "' (expected paths, segment or periodic)");
}

}  // namespace linescope
