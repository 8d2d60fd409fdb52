#include "render/gl_functions.h"

#include "compute/image.h"

#include <cstdio>

namespace linescope::render {

void GlFunctions::load(GlProcLoader loader) {
    if (!loader) throw Error("OpenGL: no proc-address loader given");
    // Function pointers and void* convert through reinterpret_cast (conditionally
    // supported, and what every GL loader does on the platforms we build for).
#define LINESCOPE_GL_LOAD(type, name)                                                   \
    name = reinterpret_cast<type>(loader("gl" #name));                                 \
    if (!name) throw Error("OpenGL: the current context lacks gl" #name " (OpenGL 3.3 core needed)");
    LINESCOPE_GL_FUNCTIONS(LINESCOPE_GL_LOAD)
#undef LINESCOPE_GL_LOAD
}

void GlFunctions::check(const char* what) const {
    const GLenum e = GetError();
    if (e == GL_NO_ERROR) return;
    while (GetError() != GL_NO_ERROR) {}  // drain, so the next check reports its own error
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%04x", static_cast<unsigned>(e));
    throw Error(std::string(what) + ": OpenGL error " + buf);
}

}  // namespace linescope::render
