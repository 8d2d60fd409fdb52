#include "render/headless/egl_context.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "compute/image.h"

#include <algorithm>
#include <cstdio>

namespace linescope::render {

struct EglContext::State {
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;
    EGLSurface surface = EGL_NO_SURFACE;
    std::string platform;
};

namespace {

std::string eglErrorText(const char* what) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " (EGL error 0x%04x)", static_cast<unsigned>(eglGetError()));
    return std::string(what) + buf;
}

bool hasExtension(const char* list, const char* name) {
    if (!list) return false;
    const std::string l = std::string(" ") + list + " ";
    return l.find(std::string(" ") + name + " ") != std::string::npos;
}

}  // namespace

void* EglContext::procAddress(const char* name) {
    return reinterpret_cast<void*>(eglGetProcAddress(name));
}

EglContext::EglContext() : s_(std::make_unique<State>()) {
    const char* clientExtensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    auto getPlatformDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
        eglGetProcAddress("eglGetPlatformDisplayEXT"));
    std::string tried;
    auto tryDisplay = [&](EGLDisplay d, const char* platform) {
        if (d == EGL_NO_DISPLAY) { tried += std::string(platform) + ": no display; "; return false; }
        EGLint major = 0, minor = 0;
        if (!eglInitialize(d, &major, &minor)) { tried += eglErrorText((std::string(platform) + ": eglInitialize failed").c_str()) + "; "; return false; }
        s_->display = d;
        s_->platform = platform;
        return true;
    };
    bool found = false;
    if (getPlatformDisplay && hasExtension(clientExtensions, "EGL_MESA_platform_surfaceless"))
        found = tryDisplay(getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr), "surfaceless");
    if (!found && getPlatformDisplay && hasExtension(clientExtensions, "EGL_EXT_platform_device")) {
        auto queryDevices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
        EGLDeviceEXT devices[8];
        EGLint count = 0;
        if (queryDevices && queryDevices(8, devices, &count))
            for (EGLint i = 0; i < count && !found; ++i)
                found = tryDisplay(getPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr), "device");
    }
    if (!found) found = tryDisplay(eglGetDisplay(EGL_DEFAULT_DISPLAY), "default");
    if (!found) { why_ = "no usable EGL display: " + tried; return; }

    if (!eglBindAPI(EGL_OPENGL_API)) { why_ = eglErrorText("eglBindAPI(EGL_OPENGL_API) failed"); return; }
    const EGLint configAttribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                    EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    eglChooseConfig(s_->display, configAttribs, &config, 1, &configs);
    const EGLint contextAttribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                     EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    s_->context = eglCreateContext(s_->display, configs > 0 ? config : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, contextAttribs);
    if (s_->context == EGL_NO_CONTEXT) { why_ = eglErrorText(("OpenGL 3.3 core context on EGL " + s_->platform + " failed").c_str()); return; }
    // A 1×1 pbuffer where there is a config for one; we draw into our own framebuffer object.
    if (configs > 0) {
        const EGLint pbufferAttribs[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
        s_->surface = eglCreatePbufferSurface(s_->display, config, pbufferAttribs);
    }
    if (!eglMakeCurrent(s_->display, s_->surface, s_->surface, s_->context)) {
        why_ = eglErrorText("eglMakeCurrent failed");
        return;
    }
    try {
        gl_.load(&EglContext::procAddress);
    } catch (const Error& e) {
        why_ = e.what();
        return;
    }
    usable_ = true;
}

EglContext::~EglContext() {
    if (s_->display == EGL_NO_DISPLAY) return;
    if (usable_) {
        if (fbo_) gl_.DeleteFramebuffers(1, &fbo_);
        if (colour_) gl_.DeleteTextures(1, &colour_);
    }
    eglMakeCurrent(s_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (s_->surface != EGL_NO_SURFACE) eglDestroySurface(s_->display, s_->surface);
    if (s_->context != EGL_NO_CONTEXT) eglDestroyContext(s_->display, s_->context);
    eglTerminate(s_->display);
}

std::string EglContext::description() const {
    if (!usable_) return "unusable: " + why_;
    auto str = [&](GLenum e) { const GLubyte* s = gl_.GetString(e); return s ? std::string(reinterpret_cast<const char*>(s)) : std::string("?"); };
    return "EGL " + s_->platform + ", OpenGL " + str(GL_VERSION) + " / " + str(GL_RENDERER);
}

GLuint EglContext::framebuffer(int width, int height) {
    if (!usable_) throw Error("EglContext: " + why_);
    if (fbo_ && (width != width_ || height != height_)) {
        gl_.DeleteFramebuffers(1, &fbo_);
        gl_.DeleteTextures(1, &colour_);
        fbo_ = colour_ = 0;
    }
    if (!fbo_) {
        gl_.GenTextures(1, &colour_);
        gl_.BindTexture(GL_TEXTURE_2D, colour_);
        gl_.TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        gl_.BindTexture(GL_TEXTURE_2D, 0);
        gl_.GenFramebuffers(1, &fbo_);
        gl_.BindFramebuffer(GL_FRAMEBUFFER, fbo_);
        gl_.FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colour_, 0);
        if (gl_.CheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
            throw Error("EglContext: the RGBA8 framebuffer object is incomplete");
        width_ = width;
        height_ = height;
    }
    gl_.BindFramebuffer(GL_FRAMEBUFFER, fbo_);
    gl_.check("EglContext::framebuffer");
    return fbo_;
}

std::vector<std::uint8_t> EglContext::readPixels() {
    std::vector<std::uint8_t> bottomUp(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_) * 4);
    gl_.BindFramebuffer(GL_FRAMEBUFFER, fbo_);
    gl_.PixelStorei(GL_PACK_ALIGNMENT, 1);
    gl_.ReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, bottomUp.data());
    gl_.check("EglContext::readPixels");
    std::vector<std::uint8_t> out(bottomUp.size());
    const std::size_t row = static_cast<std::size_t>(width_) * 4;
    for (int y = 0; y < height_; ++y)
        std::copy_n(bottomUp.data() + row * static_cast<std::size_t>(height_ - 1 - y), row,
                    out.data() + row * static_cast<std::size_t>(y));
    return out;
}

}  // namespace linescope::render
