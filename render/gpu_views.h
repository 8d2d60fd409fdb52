// The GPU path of the viewport (built only with LINESCOPE_HAVE_CUDA): the engine computes
// the shown view on the device and kernels write it straight into the renderer's textures
// through CUDA-OpenGL interop — no copy through the host, no allocation once the sizes are
// known. The source image is uploaded once per image; a sweep is computed once per request
// and its planes kept on the device, so switching between supremum, infimum, strength and
// orientation, or moving the angle, costs no new sweep.
//
// Every call only enqueues work on the engine context's stream (under its lock, so the
// session's engine thread and this never share a buffer at the same moment); unmapping the
// textures orders OpenGL's drawing after the kernels. Nothing here waits for the GPU.
//
// Thread: the thread whose OpenGL context holds the renderer's textures (the GUI thread in
// the app, the test's thread headless).
#pragma once

#if defined(LINESCOPE_HAVE_CUDA)

#include "compute/cuda/device_buffer.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"
#include "render/cuda_gl_interop.h"
#include "render/viewport_renderer.h"

#include <optional>
#include <string>

namespace linescope::render {

// The planes of a sweep the viewport can show.
enum class SweepPlane { Supremum, Infimum, Strength, Orientation };

class GpuViews {
public:
    GpuViews() = default;
    GpuViews(const GpuViews&) = delete;
    GpuViews& operator=(const GpuViews&) = delete;
    ~GpuViews();

    // Whether the CUDA engine can run here (the reason otherwise).
    static bool available(std::string* why);

    // Uploads the source image (once per image; throws Error with the CPU alternative when it
    // does not fit in device memory).
    template <class T>
    void setSource(ImageView<const T> image);
    bool hasSource() const { return width_ > 0; }
    int width() const { return width_; }
    int height() const { return height_; }

    // The source itself into the renderer's Image texture.
    void showSource(ViewportRenderer& renderer);
    // op by the segment (angle, λ) of the source into the Image texture.
    void showResult(ViewportRenderer& renderer, MorphOp op, const LineParams& line,
                    LineAlgorithm algorithm = LineAlgorithm::Auto);
    // A plane of the sweep `request` of the source (computed when the request differs from the
    // last one) into the Image texture (Supremum, Infimum, Strength) or the Angle and Strength
    // textures (Orientation). Orientation leaves the Image texture alone, so the renderer's
    // OrientationOverImage blends over whatever showSource() put there.
    void showSweep(ViewportRenderer& renderer, const SweepRequest& request, SweepPlane plane);

    // Drops the interop registrations (before the renderer's release(), context current).
    void releaseGl() { interop_.releaseAll(); }
    // Frees the device buffers.
    void clear();

private:
    template <class T>
    void showResultT(ViewportRenderer& renderer, MorphOp op, const LineParams& line, LineAlgorithm algorithm);
    template <class T>
    void sweepT(const SweepRequest& request);
    template <class T>
    void showSweepT(ViewportRenderer& renderer, SweepPlane plane);
    float* reduceScratch();  // the reductions' device scratch (gpu_views.cpp)
    template <class T>
    void writeGrey(ViewportRenderer& renderer, const void* device, std::size_t pitch);

    PixelType type_ = PixelType::U8;
    int width_ = 0, height_ = 0;
    std::size_t pitch_ = 0;  // of T images
    cuda::DeviceBuffer source_, result_, sup_, inf_, strength_, arg_, reduce_;
    std::optional<SweepRequest> sweptFor_;  // the request the sweep planes hold
    CudaGlViews interop_;
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
