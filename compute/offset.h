// A pixel offset of a structuring element: ε(f)(p) = min f(p + offset).
#pragma once

namespace linescope {

struct Offset {
    int dx = 0;
    int dy = 0;
    bool operator==(const Offset&) const = default;
};

}  // namespace linescope
