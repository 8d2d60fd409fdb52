// CUDA-OpenGL interop for the view textures (built only with LINESCOPE_HAVE_CUDA): each
// texture is registered with cudaGraphicsGLRegisterImage for surface load/store, mapped for
// the engine's kernels to write through a cudaSurfaceObject_t, and unmapped before OpenGL
// draws it. Registrations follow the renderer's textures: when a texture's storage is
// reallocated (ViewportRenderer::textureSerial() changes; OpenGL recycles names, so the name
// cannot tell) or Qt recreates the context, the old registration is dropped and the new
// texture registered.
//
// Thread: the thread whose OpenGL context is current, with the engine's CUDA device.
// Tested on the GPU machine by tests/render/test_gpu_views.cpp (label gpu).
#pragma once

#if defined(LINESCOPE_HAVE_CUDA)

#include "render/viewport_renderer.h"

#include <cuda_runtime.h>

#include <array>
#include <cstdint>

namespace linescope::render {

class CudaGlViews {
public:
    CudaGlViews() = default;
    CudaGlViews(const CudaGlViews&) = delete;
    CudaGlViews& operator=(const CudaGlViews&) = delete;
    ~CudaGlViews();  // unmaps and unregisters (the context must still be current)

    // Registers every allocated view texture of the renderer that is not registered yet,
    // or whose texture storage changed. Call after allocate*().
    void sync(const ViewportRenderer& renderer);
    // Maps one view on the stream and returns a surface object over its level 0, valid until
    // unmap(). Throws linescope::Error when the view is not registered.
    cudaSurfaceObject_t map(ViewTexture which, cudaStream_t stream);
    // Destroys the surface and unmaps, ordered after the kernels on the stream; OpenGL may
    // then draw the texture.
    void unmap(ViewTexture which, cudaStream_t stream);
    // Drops every registration: before the renderer's release() when the context goes away.
    void releaseAll();

private:
    struct Slot {
        cudaGraphicsResource_t resource = nullptr;
        GLuint texture = 0;
        std::uint64_t serial = 0;
        cudaSurfaceObject_t surface = 0;
        bool mapped = false;
    };
    void release(Slot& s);
    std::array<Slot, 3> slots_{};
};

}  // namespace linescope::render

#endif  // LINESCOPE_HAVE_CUDA
