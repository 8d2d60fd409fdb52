// A bare EGL context with an offscreen framebuffer object, for headless tests and
// benchmarks (design.md §4: the GPU machine has EGL's device platform and no window system).
#pragma once

#include "render/gl_functions.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace linescope::render {

class EglContext {
public:
    // Tries EGL's surfaceless platform (Mesa), then the device platform (NVIDIA), then the
    // default display, for an OpenGL 3.3 core context. On failure usable() is false and
    // why() says why (tests skip with it).
    EglContext();
    ~EglContext();
    EglContext(const EglContext&) = delete;
    EglContext& operator=(const EglContext&) = delete;

    bool usable() const { return usable_; }
    const std::string& why() const { return why_; }
    std::string description() const;  // "EGL platform …, GL_VERSION / GL_RENDERER"

    static void* procAddress(const char* name);  // eglGetProcAddress, as a GlProcLoader

    // An RGBA8 framebuffer object of the size (recreated when the size changes), bound.
    GLuint framebuffer(int width, int height);
    // The framebuffer's pixels, RGBA, rows top to bottom (glReadPixels reads bottom up).
    std::vector<std::uint8_t> readPixels();

private:
    struct State;
    std::unique_ptr<State> s_;
    bool usable_ = false;
    std::string why_;
    GlFunctions gl_{};
    GLuint fbo_ = 0, colour_ = 0;
    int width_ = 0, height_ = 0;
};

}  // namespace linescope::render
