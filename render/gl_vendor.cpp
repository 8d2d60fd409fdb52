#include "render/gl_vendor.h"

namespace linescope::render {

std::optional<std::string> interopRefusal(const std::string& vendor) {
    if (vendor.find("NVIDIA") != std::string::npos) return std::nullopt;
    return "the OpenGL driver is " + (vendor.empty() ? std::string("unknown") : "\"" + vendor + "\"") +
           ", not NVIDIA's: CUDA-OpenGL interop needs NVIDIA's OpenGL, so the views are computed on the GPU "
           "and copied through the host";
}

}  // namespace linescope::render
