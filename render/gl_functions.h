// The OpenGL 3.3 core entry points render/ uses, loaded through the host's proc-address
// function (QOpenGLContext::getProcAddress in the app, eglGetProcAddress in headless tests),
// so that render/ links no GL library and works in whatever context it is given.
#pragma once

#include <GL/glcorearb.h>

#include <string>

namespace linescope::render {

// Resolves one entry point by name in the current context; nullptr when absent.
using GlProcLoader = void* (*)(const char* name);

// X-macro of every function loaded: (return type, name, parameters).
#define LINESCOPE_GL_FUNCTIONS(X)                                                               \
    X(PFNGLGETERRORPROC, GetError)                                                              \
    X(PFNGLGETSTRINGPROC, GetString)                                                            \
    X(PFNGLGETINTEGERVPROC, GetIntegerv)                                                        \
    X(PFNGLENABLEPROC, Enable)                                                                  \
    X(PFNGLDISABLEPROC, Disable)                                                                \
    X(PFNGLBLENDFUNCPROC, BlendFunc)                                                            \
    X(PFNGLVIEWPORTPROC, Viewport)                                                              \
    X(PFNGLSCISSORPROC, Scissor)                                                                \
    X(PFNGLCLEARCOLORPROC, ClearColor)                                                          \
    X(PFNGLCLEARPROC, Clear)                                                                    \
    X(PFNGLPIXELSTOREIPROC, PixelStorei)                                                        \
    X(PFNGLREADPIXELSPROC, ReadPixels)                                                          \
    X(PFNGLFINISHPROC, Finish)                                                                  \
    X(PFNGLGENTEXTURESPROC, GenTextures)                                                        \
    X(PFNGLDELETETEXTURESPROC, DeleteTextures)                                                  \
    X(PFNGLBINDTEXTUREPROC, BindTexture)                                                        \
    X(PFNGLACTIVETEXTUREPROC, ActiveTexture)                                                    \
    X(PFNGLTEXIMAGE2DPROC, TexImage2D)                                                          \
    X(PFNGLTEXSUBIMAGE2DPROC, TexSubImage2D)                                                    \
    X(PFNGLTEXPARAMETERIPROC, TexParameteri)                                                    \
    X(PFNGLGENERATEMIPMAPPROC, GenerateMipmap)                                                  \
    X(PFNGLGENBUFFERSPROC, GenBuffers)                                                          \
    X(PFNGLDELETEBUFFERSPROC, DeleteBuffers)                                                    \
    X(PFNGLBINDBUFFERPROC, BindBuffer)                                                          \
    X(PFNGLBUFFERDATAPROC, BufferData)                                                          \
    X(PFNGLMAPBUFFERRANGEPROC, MapBufferRange)                                                  \
    X(PFNGLUNMAPBUFFERPROC, UnmapBuffer)                                                        \
    X(PFNGLGENVERTEXARRAYSPROC, GenVertexArrays)                                                \
    X(PFNGLDELETEVERTEXARRAYSPROC, DeleteVertexArrays)                                          \
    X(PFNGLBINDVERTEXARRAYPROC, BindVertexArray)                                                \
    X(PFNGLENABLEVERTEXATTRIBARRAYPROC, EnableVertexAttribArray)                                \
    X(PFNGLVERTEXATTRIBPOINTERPROC, VertexAttribPointer)                                        \
    X(PFNGLDRAWARRAYSPROC, DrawArrays)                                                          \
    X(PFNGLMULTIDRAWARRAYSPROC, MultiDrawArrays)                                                \
    X(PFNGLCREATESHADERPROC, CreateShader)                                                      \
    X(PFNGLDELETESHADERPROC, DeleteShader)                                                      \
    X(PFNGLSHADERSOURCEPROC, ShaderSource)                                                      \
    X(PFNGLCOMPILESHADERPROC, CompileShader)                                                    \
    X(PFNGLGETSHADERIVPROC, GetShaderiv)                                                        \
    X(PFNGLGETSHADERINFOLOGPROC, GetShaderInfoLog)                                              \
    X(PFNGLCREATEPROGRAMPROC, CreateProgram)                                                    \
    X(PFNGLDELETEPROGRAMPROC, DeleteProgram)                                                    \
    X(PFNGLATTACHSHADERPROC, AttachShader)                                                      \
    X(PFNGLBINDATTRIBLOCATIONPROC, BindAttribLocation)                                          \
    X(PFNGLLINKPROGRAMPROC, LinkProgram)                                                        \
    X(PFNGLGETPROGRAMIVPROC, GetProgramiv)                                                      \
    X(PFNGLGETPROGRAMINFOLOGPROC, GetProgramInfoLog)                                            \
    X(PFNGLUSEPROGRAMPROC, UseProgram)                                                          \
    X(PFNGLGETUNIFORMLOCATIONPROC, GetUniformLocation)                                          \
    X(PFNGLUNIFORM1IPROC, Uniform1i)                                                            \
    X(PFNGLUNIFORM1FPROC, Uniform1f)                                                            \
    X(PFNGLUNIFORM2FPROC, Uniform2f)                                                            \
    X(PFNGLUNIFORM4FPROC, Uniform4f)                                                            \
    X(PFNGLGENFRAMEBUFFERSPROC, GenFramebuffers)                                                \
    X(PFNGLDELETEFRAMEBUFFERSPROC, DeleteFramebuffers)                                          \
    X(PFNGLBINDFRAMEBUFFERPROC, BindFramebuffer)                                                \
    X(PFNGLFRAMEBUFFERTEXTURE2DPROC, FramebufferTexture2D)                                      \
    X(PFNGLCHECKFRAMEBUFFERSTATUSPROC, CheckFramebufferStatus)

// The loaded entry points of one context (all contexts of one driver share them in
// practice, but a renderer keeps its own table so that nothing global is assumed).
struct GlFunctions {
#define LINESCOPE_GL_DECLARE(type, name) type name = nullptr;
    LINESCOPE_GL_FUNCTIONS(LINESCOPE_GL_DECLARE)
#undef LINESCOPE_GL_DECLARE

    // Loads every entry point; throws linescope::Error naming the first one missing.
    void load(GlProcLoader loader);
    // Throws linescope::Error "<what>: OpenGL error 0x…" when glGetError reports one.
    void check(const char* what) const;
};

}  // namespace linescope::render
