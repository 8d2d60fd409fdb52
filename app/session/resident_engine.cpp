#include "app/session/resident_engine.h"

#if defined(LINESCOPE_HAVE_CUDA)

#include "app/session/device_planes.h"

#include <type_traits>

namespace linescope::session {

const cuda::ResidentImage& ResidentEngine::sourceFor(const std::shared_ptr<const AnyImage>& image,
                                                     cuda::CudaContext& ctx) {
    if (source_ && sourceImage_.lock() == image) return *source_;
    source_.reset();  // its memory goes back to the pool before the new image takes some
    source_ = std::visit([&](const auto& img) { return cuda::uploadResident(img.cview(), ctx); }, *image);
    sourceImage_ = image;
    ++uploads_;
    return *source_;
}

namespace {

// The spectrum of a device sweep whose values are those of `angles` (the whole set, or the
// angles a preview covers).
std::shared_ptr<const SweepSpectrum> spectrumOf(const cuda::ResidentSweep& s, const AngleSet& angles) {
    auto spectrum = std::make_shared<SweepSpectrum>();
    spectrum->angles = angles;
    spectrum->op = s.op;
    spectrum->pixels = static_cast<long long>(s.sup->width()) * s.sup->height();
    spectrum->exact = s.spectrumExact;
    spectrum->values = s.spectrum;
    spectrum->maxStrength = s.maxStrength;
    return spectrum;
}

}  // namespace

bool ResidentEngine::compute(const Request& request, const EngineOptions& options, int sweepChunkAngles,
                             const SweepStepFn& step, const PreviewFn& preview, Snapshot& out) {
    const RequestKind kind = request.kind();
    // Host work: the skew and granulometry APIs, and the lesson's stages (host images that its
    // panes, windows and profile read pixel by pixel; their lineMorph calls run on CUDA).
    if (kind == RequestKind::Skew || kind == RequestKind::Granulometry || kind == RequestKind::Lesson ||
        kind == RequestKind::Field) return false;
    // Two kinds compared go through the host API, whose operators still run on the device.
    // Sweeps of segment and periodic lines stay here: an opening an angle, folded on the device.
    if (const auto* r = std::get_if<ResultParams>(&request.params); r && r->against) return false;
    cuda::CudaContext& ctx = cuda::CudaContext::get();
    auto lock = ctx.lock();
    if (kind == RequestKind::Result) {
        const auto& p = std::get<ResultParams>(request.params);
        auto planes = std::make_shared<DevicePlanes>();
        planes->result = cuda::lineMorphResident(p.op, sourceFor(request.image, ctx), p.line, options.algorithm, ctx);
        out.device = std::move(planes);
        return true;
    }
    if (kind == RequestKind::Sweep) {
        const auto& p = std::get<SweepParams>(request.params).sweep;
        // The sweep's checkpoints run with the context's lock held: they only read atomics
        // and emit queued signals, and a stop unwinds through here and releases it.
        const cuda::ChunkStep chunkStep = [&](int done, int total) {
            if (step) step(done, total);
        };
        cuda::ResidentPreviewFn onPreview;
        if (preview)
            onPreview = [&](cuda::ResidentSweep&& soFar, const AngleSet& covered) {
                Snapshot snap;
                snap.spectrum = spectrumOf(soFar, covered);
                snap.preview = SweepPreview{covered.count, p.angles.count, 1};
                auto planes = std::make_shared<DevicePlanes>();
                planes->sweep = std::move(soFar);
                snap.device = std::move(planes);
                preview(std::move(snap));
            };
        auto planes = std::make_shared<DevicePlanes>();
        planes->sweep =
            cuda::sweepResident(sourceFor(request.image, ctx), p, sweepChunkAngles, chunkStep, ctx, onPreview);
        out.spectrum = spectrumOf(*planes->sweep, planes->sweep->angles);
        out.device = std::move(planes);
        return true;
    }
    // Contours: from a device plane of the source snapshot, or from the resident source image.
    const auto& p = std::get<ContourParams>(request.params);
    const cuda::ResidentImage* plane = nullptr;
    if (request.contourSource == Plane::Original) {
        plane = &sourceFor(request.image, ctx);
    } else if (request.sourceSnapshot && request.sourceSnapshot->device) {
        plane = request.sourceSnapshot->device->plane(request.contourSource);
    } else {
        return false;  // a host plane: the host path traces it
    }
    if (!plane) throw Error(std::string("the ") + planeName(request.contourSource) + " is not available yet");
    auto contours = std::make_shared<Contours>();
    cuda::findContoursResident(*plane, p.threshold, p.mode, p.approx, *contours, &out.timings.contours, ctx);
    out.contours = std::move(contours);
    return true;
}

std::shared_ptr<const LessonStages> ResidentEngine::lessonStages(const Request& request, const EngineOptions& options) {
    const auto& p = std::get<LessonParams>(request.params);
    cuda::CudaContext& ctx = cuda::CudaContext::get();
    auto lock = ctx.lock();
    const cuda::ResidentImage& source = sourceFor(request.image, ctx);
    const auto eroded = cuda::lineMorphResident(MorphOp::Erode, source, p.line, options.algorithm, ctx);
    const auto dilated = cuda::lineMorphResident(MorphOp::Dilate, source, p.line, options.algorithm, ctx);
    // The second stage from the first, as the host's lesson computes it (lesson.cpp).
    const bool closing = p.op == MorphOp::Close;
    const auto second = cuda::lineMorphResident(closing ? MorphOp::Erode : MorphOp::Dilate, closing ? *dilated : *eroded,
                                                p.line, options.algorithm, ctx);
    return std::visit(
        [&](const auto& img) {
            using T = std::remove_cvref_t<decltype(*img.data())>;
            return lessonStagesOf<T>(p.op, p.line, cuda::downloadResident<T>(*eroded), cuda::downloadResident<T>(*dilated),
                                     cuda::downloadResident<T>(*second));
        },
        *request.image);
}

}  // namespace linescope::session

#endif  // LINESCOPE_HAVE_CUDA
