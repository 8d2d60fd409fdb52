#include "compute/contours/contours.h"

#include "compute/contours/binary_bitmaps.h"
#include "compute/contours/border_hierarchy.h"
#include "compute/contours/connect_borders.h"
#include "compute/contours/contour_output.h"
#include "compute/contours/track_rectangles.h"

#if LINESCOPE_HAVE_CUDA
#include "compute/cuda/cuda_backend.h"
#endif

#include <chrono>

namespace linescope {

const char* contourModeName(ContourMode m) {
    switch (m) {
    case ContourMode::External: return "external";
    case ContourMode::List: return "list";
    case ContourMode::CComp: return "ccomp";
    case ContourMode::Tree: return "tree";
    }
    return "?";
}

const char* contourApproxName(ContourApprox a) { return a == ContourApprox::None ? "none" : "simple"; }

ContourMode parseContourMode(const std::string& s) {
    for (auto m : {ContourMode::External, ContourMode::List, ContourMode::CComp, ContourMode::Tree})
        if (s == contourModeName(m)) return m;
    throw Error("unknown contour mode '" + s + "' (expected external, list, ccomp or tree)");
}

ContourApprox parseContourApprox(const std::string& s) {
    if (s == "none") return ContourApprox::None;
    if (s == "simple") return ContourApprox::Simple;
    throw Error("unknown contour approximation '" + s + "' (expected none or simple)");
}

namespace {

class PhaseClock {
public:
    double lap() {
        const auto now = std::chrono::steady_clock::now();
        const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
        last_ = now;
        return ms;
    }

private:
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace

struct ContourFinder::Workspace {
    contours::BinaryBitmaps bitmaps;
    contours::TrackingScratch tracking;
    contours::TrackedBorders tracked;
    contours::ConnectionScratch connection;
};

ContourFinder::ContourFinder(const EngineOptions& options, const ContourTuning& tuning)
    : options_(options), tuning_(tuning), workspace_(std::make_unique<Workspace>()) {
    if (tuning.rectWidth < 1 || tuning.rectHeight < 1) throw Error("contour rectangles must be at least 1x1 pixels");
    options_.backend = resolveBackend(options.backend);  // throws when CUDA is asked for and missing
    if (options_.backend == Backend::Cuda && (tuning.gpuRectWidth < 1 || tuning.gpuRectWidth > kMaxGpuRectWidth ||
                                              tuning.gpuRectHeight < 1 || tuning.gpuRectHeight > kMaxGpuRectHeight))
        throw Error("GPU contour rectangles must be 1 to " + std::to_string(kMaxGpuRectWidth) + " pixels across and 1 to " +
                    std::to_string(kMaxGpuRectHeight) + " down, got " + std::to_string(tuning.gpuRectWidth) + "x" +
                    std::to_string(tuning.gpuRectHeight));
}

ContourFinder::~ContourFinder() = default;
ContourFinder::ContourFinder(ContourFinder&&) noexcept = default;
ContourFinder& ContourFinder::operator=(ContourFinder&&) noexcept = default;

void ContourFinder::find(ImageView<const std::uint8_t> binary, ContourMode mode, ContourApprox approx, Contours& out,
                         ContourTimings* timings) {
    using namespace contours;
    if (binary.empty()) throw Error("the image is empty");
    if (binary.width > kMaxSide || binary.height > kMaxSide)
        throw Error("contours need an image of at most 65535 pixels a side, got " + std::to_string(binary.width) + "x" +
                    std::to_string(binary.height));
#if LINESCOPE_HAVE_CUDA
    if (options_.backend == Backend::Cuda) {
        cuda::findContours(binary, mode, approx, tuning_, out, timings);
        return;
    }
#endif
    const long long rects = ((binary.width + tuning_.rectWidth - 1LL) / tuning_.rectWidth) *
                            ((binary.height + tuning_.rectHeight - 1LL) / tuning_.rectHeight);
    if (rects > (1LL << 30))  // rectangles are counted in int
        throw Error("contour rectangles of " + std::to_string(tuning_.rectWidth) + "x" +
                    std::to_string(tuning_.rectHeight) + " pixels are too small for a " + std::to_string(binary.width) +
                    "x" + std::to_string(binary.height) + " image");
    const WorkerBudget workers(options_.threads, tuning_);
    Workspace& ws = *workspace_;
    ContourTimings time;
    PhaseClock clock, total;

    preprocessBorders(binary, workers, ws.bitmaps);
    time.preprocess = clock.lap();

    trackRectangles(ws.bitmaps, RectGrid(binary.width, binary.height, tuning_.rectWidth, tuning_.rectHeight), workers,
                    ws.tracking, ws.tracked);
    time.track = clock.lap();

    connectBorders(ws.tracked, workers, ws.connection);
    time.connect = clock.lap();

    const BorderOrder order = orderBorders(ws.tracked, ws.bitmaps, mode, workers);
    time.hierarchy = clock.lap();

    writeContours(ws.tracked, order, approx, workers, out);
    time.download = clock.lap();
    time.total = total.lap();
    if (timings) *timings = time;
}

Contours findContours(ImageView<const std::uint8_t> binary, ContourMode mode, ContourApprox approx,
                      const EngineOptions& options, ContourTimings* timings, const ContourTuning& tuning) {
    Contours out;
    ContourFinder(options, tuning).find(binary, mode, approx, out, timings);
    return out;
}

}  // namespace linescope
