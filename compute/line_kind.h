// The definitions of a digital line that the line operators offer (design.md §1 and
// line_kernel.h): line paths, the translation-invariant segment, Soille–Talbot periodic lines.
#pragma once

#include <string>

namespace linescope {

enum class LineKind {
    Paths,     // line paths (design.md §1): every pixel on one line of the angle's family, O(1) a pixel
    Segment,   // the translation-invariant digital segment of λ pixels, one 2-D kernel everywhere
               // (what cv::erode / cv::morphologyEx compute with the kernel of `linescope-cli se`)
    Periodic,  // Soille–Talbot's periodic line: λ points k·v, v a small irreducible integer step
};

const char* lineKindName(LineKind k);  // "paths", "segment", "periodic"
// Parses those names; throws Error naming the three.
LineKind parseLineKind(const std::string& s);

}  // namespace linescope
