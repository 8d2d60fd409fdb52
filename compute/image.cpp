#include "compute/image.h"

#include <cmath>

namespace linescope {

const char* pixelTypeName(PixelType t) {
    switch (t) {
    case PixelType::U8: return "uint8";
    case PixelType::U16: return "uint16";
    case PixelType::F32: return "float32";
    }
    return "?";
}

void detail::requireNoNaNFloat(ImageView<const float> v) {
    for (int y = 0; y < v.height; ++y) {
        const float* r = v.row(y);
        for (int x = 0; x < v.width; ++x)
            if (std::isnan(r[x]))
                throw Error("the float image holds NaN at (" + std::to_string(x) + ", " + std::to_string(y) +
                            "): morphology needs ordered values");
    }
}

}  // namespace linescope
