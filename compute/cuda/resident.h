// Results that outlive an engine call: images in device memory owned by whoever holds them
// (the session's snapshots in GPU mode), not by the context's reusable slots. The session's
// engine thread computes into them once, and every consumer reads the same device planes: the
// viewport writes them into its textures, the probe reads a few pixels, contours are traced
// from them, and a host copy is made only when one is asked for (an export).
//
// Memory comes from CUDA's stream-ordered pool on the context's stream and goes back to it
// there (cudaMallocAsync/cudaFreeAsync; the pool keeps what it had, so a drag allocates no
// new device memory after its first frames): dropping the last reference on any thread never
// synchronises the device, as cudaFree would. Readers on other streams keep the image alive
// until their reads have completed.
#pragma once

#include "compute/contours/contours.h"
#include "compute/cuda/cuda_context.h"
#include "compute/cuda/device_image.h"
#include "compute/image.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace linescope::cuda {

class ResidentImage {
public:
    // Uninitialised pixels. Throws Error when the device's memory is exhausted.
    ResidentImage(PixelType type, int width, int height, CudaContext& ctx);
    // Device memory owned elsewhere (another library's array, lent for one call): never freed
    // here and not counted against the cap. `pitch`, in bytes, is a whole number of pixels and
    // at least a row; `data` is aligned to the pixel's size (foreign_images.h checks both).
    static std::shared_ptr<ResidentImage> borrow(PixelType type, int width, int height, std::size_t pitch,
                                                 void* data, CudaContext& ctx);
    ~ResidentImage();
    ResidentImage(const ResidentImage&) = delete;
    ResidentImage& operator=(const ResidentImage&) = delete;

    PixelType type() const { return type_; }
    int width() const { return width_; }
    int height() const { return height_; }
    std::size_t pitch() const { return pitch_; }
    const void* data() const { return data_; }
    void* data() { return data_; }
    std::size_t bytes() const { return pitch_ * static_cast<std::size_t>(height_); }
    // The context of the device that holds the pixels.
    CudaContext& context() const { return *ctx_; }

    // The pixels as T (throws Error when T is not the image's type).
    template <class T>
    DeviceImageView<T> view();
    template <class T>
    DeviceImageView<const T> view() const;

private:
    struct Borrowed {};
    ResidentImage(Borrowed, PixelType type, int width, int height, std::size_t pitch, void* data, CudaContext& ctx);

    PixelType type_;
    int width_, height_;
    std::size_t pitch_;
    void* data_ = nullptr;
    bool owned_ = true;
    cudaStream_t stream_;  // the context's: allocation and release are ordered on it
    CudaContext* ctx_;     // the device's context, which counts the bytes against its cap
};

using ResidentPtr = std::shared_ptr<const ResidentImage>;

// A sweep whose planes stay on the device. The spectrum (one number an angle) and the
// strength's maximum (the orientation map's white point) come down to the host.
struct ResidentSweep {
    ResidentPtr sup, inf, strength;  // of the source's type
    ResidentPtr argIndex;            // uint16: the smallest k reaching sup (Open/Erode) or inf
    std::vector<std::int64_t> spectrumExact;  // integer images only
    std::vector<double> spectrum;
    double maxStrength = 0;
    ResidentPtr maxStrengthOnDevice;  // the same as one float (1×1), for the viewport's kernels
    AngleSet angles;
    MorphOp op = MorphOp::Open;
};

// Called between chunks of a resident sweep with the angles done so far (0 before the first);
// it may throw to stop the sweep (the session's cancellation).
using ChunkStep = std::function<void(int doneAngles, int totalAngles)>;
// Called after a chunk that leaves the angles done evenly spread (`covered`: every d-th angle
// of the request's set, sweep_chunks.h), with the sweep of those angles so far: planes of its
// own (the sweep goes on changing its accumulators), argIndex an index of the whole set, the
// spectrum of the covered angles only, in their order.
using ResidentPreviewFn = std::function<void(ResidentSweep&& soFar, const AngleSet& covered)>;

// Every function below enqueues on the context's stream and returns once its results are
// complete (it waits for its own work, so that the caller can publish them to other threads).
// The caller holds ctx.lock().

// `image` copied into device memory.
template <class T>
std::shared_ptr<ResidentImage> uploadResident(ImageView<const T> image, CudaContext& ctx);

// op by the segment (angle, λ) of `src`: lineMorph's result, bit for bit.
std::shared_ptr<ResidentImage> lineMorphResident(MorphOp op, const ResidentImage& src, const LineParams& line,
                                                 LineAlgorithm algorithm, CudaContext& ctx);

// The sweep `req` of `src`, computed in chunks of about `chunkAngles` interleaved angles
// (sweepChunks; < 1: all at once) and folded on the device with sweep()'s tie rule (the
// smallest k): equal to sweep(src, req) pixel for pixel, and so to the CPU's. `preview`, if
// set, is offered the sweep so far after the chunks that leave it evenly spread. Segment and
// periodic lines (req.kind) go one angle at a time, `step` after each, no previews, their
// spectrum the CPU's bit for bit for float images too.
ResidentSweep sweepResident(const ResidentImage& src, const SweepRequest& req, int chunkAngles,
                            const ChunkStep& step, CudaContext& ctx, const ResidentPreviewFn& preview = {});

// The contours of "pixel > threshold" of `plane` (as the session thresholds on the host).
void findContoursResident(const ResidentImage& plane, double threshold, ContourMode mode, ContourApprox approx,
                          Contours& out, ContourTimings* timings, CudaContext& ctx);

// Reading resident images from any thread, without the context's lock: the copies run on a
// stream of their own (high priority, non-blocking), so they never wait for the engine's work.
// A whole image to the host (an export, a CPU consumer).
template <class T>
Image<T> downloadResident(const ResidentImage& image);
// A whole sweep to the host: its planes, spectra, angles and operator (T: the source's type).
template <class T>
SweepResult<T> downloadSweep(const ResidentSweep& sweep);
// The pixel (x, y) as double (the probe); NaN outside the image.
double residentPixel(const ResidentImage& image, int x, int y);
// The smallest and largest pixel (a threshold control's range), reduced on the device.
void residentMinMax(const ResidentImage& image, double* min, double* max);
// The pixels at (step/2 + i·step, step/2 + j·step), row by row (grid cells' centres: the
// orientation needles), gathered on the device: one number a cell comes back.
std::vector<double> residentGrid(const ResidentImage& image, int step);

}  // namespace linescope::cuda
