// The GPU contours' entry points: ContourPipeline on the device executor, and the host API
// that uploads first.
#include "compute/cuda/contours_device.h"
#include "compute/cuda/contours_exec.cuh"
#include "compute/cuda/contours_pipeline.h"
#include "compute/cuda/cuda_backend.h"

#include <map>
#include <mutex>
#include <string>

namespace linescope::cuda {

namespace {

// What tracking needed last time, kept for the next call, and the executor's state, a set a
// context (calls hold that context's lock; the map's own lock guards only the lookup).
struct DeviceState {
    contours::gpu::TrackCapacity capacity;
    contours::gpu::ExecState exec;
};
DeviceState& deviceState(const CudaContext& ctx) {
    static std::mutex mutex;
    static std::map<const CudaContext*, DeviceState> states;  // nodes never move
    std::lock_guard<std::mutex> lock(mutex);
    return states[&ctx];
}

void checkImage(int width, int height, const ContourTuning& tuning) {
    if (width <= 0 || height <= 0) throw Error("the image is empty");
    if (width > contours::kMaxSide || height > contours::kMaxSide)
        throw Error("contours need an image of at most 65535 pixels a side, got " + std::to_string(width) + "x" +
                    std::to_string(height));
    contours::gpu::checkTrackRectangles(tuning.gpuRectWidth, tuning.gpuRectHeight);
    const long long rects = ((width + tuning.gpuRectWidth - 1LL) / tuning.gpuRectWidth) *
                            ((height + tuning.gpuRectHeight - 1LL) / tuning.gpuRectHeight);
    if (rects > (1LL << 30))
        throw Error("GPU contour rectangles of " + std::to_string(tuning.gpuRectWidth) + "x" +
                    std::to_string(tuning.gpuRectHeight) + " pixels are too small for a " + std::to_string(width) + "x" +
                    std::to_string(height) + " image");
}

void run(contours::gpu::DeviceExec& exec, contours::gpu::TrackCapacity& capacity,
         DeviceImageView<const std::uint8_t> binary, ContourMode mode, ContourApprox approx,
         const ContourTuning& tuning, Contours& out, ContourTimings* timings) {
    contours::gpu::ContourPipeline<contours::gpu::DeviceExec>(exec, capacity)
        .run(binary, mode, approx, tuning.gpuRectWidth, tuning.gpuRectHeight, out);
    if (timings) {
        timings->preprocess = exec.elapsed(0, 1);
        timings->track = exec.elapsed(1, 2);
        timings->connect = exec.elapsed(2, 3);
        timings->hierarchy = exec.elapsed(3, 4);
        timings->download = exec.elapsed(4, 5);
        // The sum rather than elapsed(0, 5): each event pair rounds on its own.
        timings->total = timings->preprocess + timings->track + timings->connect + timings->hierarchy + timings->download;
    }
}

}  // namespace

void findContoursDevice(DeviceImageView<const std::uint8_t> binary, ContourMode mode, ContourApprox approx,
                        const ContourTuning& tuning, Contours& out, ContourTimings* timings, CudaContext& ctx) {
    checkImage(binary.width, binary.height, tuning);
    DeviceState& state = deviceState(ctx);
    contours::gpu::DeviceExec exec(ctx, state.exec);
    exec.mark(0);
    run(exec, state.capacity, binary, mode, approx, tuning, out, timings);
}

void findContours(ImageView<const std::uint8_t> binary, ContourMode mode, ContourApprox approx,
                  const ContourTuning& tuning, Contours& out, ContourTimings* timings) {
    checkImage(binary.width, binary.height, tuning);
    CudaContext& ctx = CudaContext::get();
    auto lock = ctx.lock();
    DeviceState& state = deviceState(ctx);
    contours::gpu::DeviceExec exec(ctx, state.exec);
    exec.mark(0);  // the upload counts as preprocessing
    const DeviceImageView<std::uint8_t> image = ctx.image<std::uint8_t>(BufferSlot::Source, binary.width, binary.height);
    ctx.upload(binary.data, binary.stride, image.data, image.pitch, static_cast<std::size_t>(binary.width), binary.height);
    run(exec, state.capacity, image, mode, approx, tuning, out, timings);
}

}  // namespace linescope::cuda
