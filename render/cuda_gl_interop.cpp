#include "render/cuda_gl_interop.h"

#if defined(LINESCOPE_HAVE_CUDA)

#include "compute/cuda/cuda_check.h"

// cuda_gl_interop.h includes the system GL header for GLuint/GLenum; glcorearb.h
// (included first through the renderer) defines the same types with the same widths.
#include <cuda_gl_interop.h>

namespace linescope::render {
namespace {

std::size_t indexOf(ViewTexture which) { return static_cast<std::size_t>(which); }

}  // namespace

CudaGlViews::~CudaGlViews() {
    // A destructor must not throw: failures here (a context already gone) are ignored.
    for (Slot& s : slots_) {
        if (s.mapped) {
            cudaDestroySurfaceObject(s.surface);
            cudaGraphicsUnmapResources(1, &s.resource, nullptr);
        }
        if (s.resource) cudaGraphicsUnregisterResource(s.resource);
        s = Slot{};
    }
}

void CudaGlViews::release(Slot& s) {
    if (s.mapped) {
        LS_CUDA_CHECK(cudaDestroySurfaceObject(s.surface));
        LS_CUDA_CHECK(cudaGraphicsUnmapResources(1, &s.resource, nullptr));
    }
    if (s.resource) LS_CUDA_CHECK(cudaGraphicsUnregisterResource(s.resource));
    s = Slot{};
}

void CudaGlViews::releaseAll() {
    for (Slot& s : slots_) release(s);
}

void CudaGlViews::sync(const ViewportRenderer& renderer) {
    for (ViewTexture which : {ViewTexture::Image, ViewTexture::Angle, ViewTexture::Strength}) {
        Slot& s = slots_[indexOf(which)];
        const GLuint texture = renderer.initialized() ? renderer.texture(which) : 0;
        const std::uint64_t serial = renderer.textureSerial(which);
        if (s.resource && s.texture == texture && s.serial == serial) continue;
        release(s);  // stale: the texture was replaced or its context recreated
        if (!texture) continue;
        LS_CUDA_CHECK(cudaGraphicsGLRegisterImage(&s.resource, texture, GL_TEXTURE_2D,
                                                  cudaGraphicsRegisterFlagsSurfaceLoadStore));
        s.texture = texture;
        s.serial = serial;
    }
}

cudaSurfaceObject_t CudaGlViews::map(ViewTexture which, cudaStream_t stream) {
    Slot& s = slots_[indexOf(which)];
    if (!s.resource) throw Error("CUDA interop: the view texture is not registered (allocate it, then sync())");
    if (s.mapped) return s.surface;
    LS_CUDA_CHECK(cudaGraphicsMapResources(1, &s.resource, stream));
    s.mapped = true;  // set before the next calls so that release() unmaps on failure
    cudaArray_t array = nullptr;
    LS_CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, s.resource, 0, 0));
    cudaResourceDesc desc{};
    desc.resType = cudaResourceTypeArray;
    desc.res.array.array = array;
    LS_CUDA_CHECK(cudaCreateSurfaceObject(&s.surface, &desc));
    return s.surface;
}

void CudaGlViews::unmap(ViewTexture which, cudaStream_t stream) {
    Slot& s = slots_[indexOf(which)];
    if (!s.mapped) return;
    s.mapped = false;
    LS_CUDA_CHECK(cudaDestroySurfaceObject(s.surface));
    s.surface = 0;
    LS_CUDA_CHECK(cudaGraphicsUnmapResources(1, &s.resource, stream));
}

}  // namespace linescope::render

#endif  // LINESCOPE_HAVE_CUDA
