// Whether CUDA-OpenGL interop can work on the current OpenGL: CUDA registers only textures of
// NVIDIA's own OpenGL driver, so on any other (Mesa's llvmpipe under Xvfb, a second GPU's
// driver) the GPU path must not start, and the views are uploaded from the host instead.
#pragma once

#include <optional>
#include <string>

namespace linescope::render {

// Why interop cannot work with the OpenGL whose GL_VENDOR is `vendor` (one sentence for the
// status bar), or nullopt when it is NVIDIA's.
std::optional<std::string> interopRefusal(const std::string& vendor);

}  // namespace linescope::render
