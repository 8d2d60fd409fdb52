// The GPU path of the viewport (built only with LINESCOPE_HAVE_CUDA): the engine's
// device-resident planes (compute/cuda/resident.h), computed once by the session's engine
// thread, are written straight into the renderer's textures by kernels through CUDA-OpenGL
// interop — no copy through the host, no engine work here, and no allocation once the sizes
// are known. This is the viewport's only GPU work: it never computes a view itself.
//
// The kernels run on a stream of their own (high priority, never behind the engine's sweep
// on the context's stream) and never take the engine context's lock: the planes are
// immutable once published. Nothing here waits for the GPU: each call keeps its planes alive
// until an event says its kernels have read them, and unmapping orders OpenGL's drawing after
// the kernels.
//
// Thread: the thread whose OpenGL context holds the renderer's textures (the GUI thread in
// the app, the test's thread headless).
#pragma once

#if defined(LINESCOPE_HAVE_CUDA)

#include "compute/cuda/device_buffer.h"
#include "compute/cuda/resident.h"
#include "render/cuda_gl_interop.h"
#include "render/viewport_renderer.h"

#include <memory>
#include <string>
#include <vector>

namespace linescope::render {

class GpuViews {
public:
    GpuViews();
    GpuViews(const GpuViews&) = delete;
    GpuViews& operator=(const GpuViews&) = delete;
    ~GpuViews();  // waits for its own kernels (not the engine's), then frees its scratch

    // Whether the CUDA engine can run here (the reason otherwise).
    static bool available(std::string* why);

    // A grey plane (a result, a sweep's supremum, infimum or strength) into the renderer's
    // Image texture; `owner` keeps the plane alive (the snapshot holding it) until read.
    void showPlane(ViewportRenderer& renderer, const cuda::ResidentImage& plane, std::shared_ptr<const void> owner);
    // A sweep's orientation map into the Angle and Strength textures (the Image texture is
    // left alone, so the renderer's OrientationOverImage blends over what it holds).
    void showOrientation(ViewportRenderer& renderer, const cuda::ResidentSweep& sweep,
                         std::shared_ptr<const void> owner);

    // Drops the interop registrations (before the renderer's release(), context current).
    void releaseGl() { interop_.releaseAll(); }

    // Planes still held for kernels in flight (tests).

private:
    template <class T>
    void writeGrey(ViewportRenderer& renderer, cuda::DeviceImageView<const T> src);
    float* reduceScratch();
    // After a call's kernels: its owner is kept until they ran; owners of finished calls go.
    void retain(std::shared_ptr<const void> owner);
    void dropFinished();

    cudaStream_t stream_ = nullptr;
    cuda::DeviceBuffer reduce_;
    CudaGlViews interop_;
    struct InFlight {
        std::shared_ptr<const void> owner;
        cudaEvent_t done = nullptr;
    };
    std::vector<InFlight> inFlight_;
    std::vector<cudaEvent_t> spareEvents_;  // created once, reused
};

}  // namespace linescope::render

#else  // no CUDA backend in this build: the viewport's GPU path is never available

#include <string>

namespace linescope::render {

class GpuViews {
public:
    static bool available(std::string* why) {
        if (why) *why = "this build has no CUDA backend";
        return false;
    }
};

}  // namespace linescope::render

#endif  // LINESCOPE_HAVE_CUDA
