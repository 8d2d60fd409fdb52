// GPU mode's engine work (CUDA builds): results, sweeps and contours computed on the device
// from a source image uploaded once per image, published as device-resident planes
// (device_planes.h) that every consumer reads where they are. The engine thread owns it.
#pragma once

#if defined(LINESCOPE_HAVE_CUDA)

#include "app/session/chunked_sweep.h"
#include "app/session/lesson.h"
#include "app/session/snapshot.h"
#include "compute/cuda/resident.h"

#include <functional>
#include <memory>

namespace linescope::session {

class ResidentEngine {
public:
    // Computes a Result, Sweep or Contours request into `out` (device, spectrum, contours) and
    // returns true; false for the kinds it does not handle (skew, granulometry, fields and
    // lessons: the host computes them, a lesson's stages through lessonStages). Throws Error
    // (CUDA failures, too little device memory) as the host API does; `step` may throw to stop
    // a sweep between chunks of `sweepChunkAngles` angles. `preview`, if set, is given the
    // sweep so far (its own planes, Snapshot::device, spectrum and preview set) after each
    // chunk that leaves the angles done evenly spread (sweep_chunks.h), but the last.
    using PreviewFn = std::function<void(Snapshot&& preview)>;
    bool compute(const Request& request, const EngineOptions& options, int sweepChunkAngles,
                 const SweepStepFn& step, const PreviewFn& preview, Snapshot& out);

    // The lesson's three stage images (lesson.h) of `request` (LessonParams), computed on the
    // device from the resident source (uploaded once per image, shared with the results) and
    // downloaded once each: the lesson's panes, windows and profile read them pixel by pixel.
    // Equal to the host's stages bit for bit. Throws Error as compute() does.
    std::shared_ptr<const LessonStages> lessonStages(const Request& request, const EngineOptions& options);

    // How often a source image was uploaded (once per image): for tests.
    int uploads() const { return uploads_; }

private:
    const cuda::ResidentImage& sourceFor(const std::shared_ptr<const AnyImage>& image, cuda::CudaContext& ctx);

    std::weak_ptr<const AnyImage> sourceImage_;  // the image source_ holds
    std::shared_ptr<cuda::ResidentImage> source_;
    int uploads_ = 0;
};

}  // namespace linescope::session

#endif  // LINESCOPE_HAVE_CUDA
