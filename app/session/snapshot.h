// The value types the session and its engine queue exchange with the UI: requests (what to
// compute, on which image) and snapshots (what came out). A snapshot is published once, as a
// shared_ptr to const, and never changes afterwards: the UI only reads them (Tracy's model).
#pragma once

#include "app/analysis/structure_tensor.h"
#include "app/session/plane.h"
#include "compute/backend.h"
#include "compute/contours/contours.h"
#include "compute/granulometry.h"
#include "compute/image.h"
#include "compute/line_morph.h"
#include "compute/line_window.h"
#include "compute/orientation_field.h"
#include "compute/singular_points.h"
#include "compute/skew.h"
#include "compute/sweep.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace linescope::session {

// An image of any of the engine's pixel types.
using AnyImage = std::variant<Image<std::uint8_t>, Image<std::uint16_t>, Image<float>>;
// A sweep result of any of the engine's pixel types.
using AnySweep = std::variant<SweepResult<std::uint8_t>, SweepResult<std::uint16_t>, SweepResult<float>>;

// Width and height of any image.
int widthOf(const AnyImage& img);
int heightOf(const AnyImage& img);

// The kinds of work; each kind has at most one queued request and one running request.
enum class RequestKind { Result, Sweep, Contours, Skew, Granulometry, Lesson, Field };
inline constexpr int kRequestKindCount = 7;
// "result", "sweep", "contours", "skew", "granulometry", "lesson", "field"
const char* requestKindName(RequestKind k);

// The result view: one operator at one angle and λ, by the line kind of `line`; with
// `against`, the same operator by that kind too, and the two compared (kind_difference.h).
struct ResultParams {
    MorphOp op = MorphOp::Open;
    LineParams line;
    std::optional<LineKind> against{};
};

// The sweep views: supremum, infimum, orientation, strength and the spectrum.
struct SweepParams {
    SweepRequest sweep;
};

// Contours of the binary image "pixel > threshold" of the request's image, or of a plane of
// the request's sourceSnapshot (Request::contourSource).
struct ContourParams {
    double threshold = 127;
    ContourMode mode = ContourMode::List;
    ContourApprox approx = ContourApprox::Simple;
};

// The skew estimate and the spectrum it was found on (engine's SkewParams).
struct SkewRequestParams {
    SkewParams skew;
};

// The granulometry dock: S(λ) and the pattern spectrum at one angle, or the supremum over an
// angle set, of the whole image or a rectangle of it (compute/granulometry.h).
struct GranulometryParams {
    double angle = 0;
    std::optional<AngleSet> angles;  // set: the supremum over these angles
    int maxLength = 64;
    LineKind kind = LineKind::Paths;
    std::optional<PixelRect> rect;
    // The engine's request (no mask: the window has rectangles only).
    GranulometryRequest request() const {
        GranulometryRequest r;
        r.angle = angle;
        r.angles = angles;
        r.maxLength = maxLength;
        r.kind = kind;
        r.rect = rect;
        return r;
    }
};

// The lesson mode (lesson.h): an opening or closing stage by stage at the result view's angle,
// λ and kind, and at the pinned pixel the stages' windows, the profile and the response over
// the sweep's angles.
struct LessonParams {
    MorphOp op = MorphOp::Open;  // Open or Close (lessonOpOf)
    LineParams line;
    std::optional<PixelAt> pin;
    AngleSet angles;             // the response's: the sweep's angle set
};

// The orientation-field workbench (orientation_workbench.h): the engine's block field, its
// singular points and, with `tensor`, the structure tensor's field and the difference.
struct FieldParams {
    OrientationFieldParams field;
    SingularPointParams singular;
    std::optional<analysis::StructureTensorParams> tensor;  // its blockSize is the field's
};

using RequestParams = std::variant<ResultParams, SweepParams, ContourParams, SkewRequestParams, GranulometryParams,
                                   LessonParams, FieldParams>;

struct Snapshot;

// One request: its kind follows from the parameters' alternative.
struct Request {
    std::shared_ptr<const AnyImage> image;  // shared, never copied: snapshots keep it alive too
    RequestParams params;
    // Contours only: traced from this plane of sourceSnapshot (a Result or Sweep snapshot of
    // the same image) where it lives, on the host or on the device; Original traces `image`.
    Plane contourSource = Plane::Original;
    std::shared_ptr<const Snapshot> sourceSnapshot{};
    // Sweeps only: submitted while a slider is held (Session::setDragging). A sweep that
    // publishes previews stops at its first one: the next value of the drag supersedes it
    // anyway, and refining it would hold the device or the cores while the preview is drawn.
    bool interactive = false;
    RequestKind kind() const { return static_cast<RequestKind>(params.index()); }
};

// What every sweep snapshot carries on the host, wherever its planes are: one number an angle,
// and the strength's maximum (the orientation map's white point).
struct SweepSpectrum {
    AngleSet angles;
    MorphOp op = MorphOp::Open;
    long long pixels = 0;                  // width × height (the plot's per-pixel scale)
    std::vector<std::int64_t> exact;       // Σ_x op_k(x), integer images
    std::vector<double> values;            // the same as double
    double maxStrength = 0;
};

// A Result or Sweep snapshot's planes in device memory (GPU mode: device_planes.h, CUDA builds).
struct DevicePlanes;
// Two line kinds' results compared (kind_difference.h).
struct KindDifference;
// A lesson's stages and pinned pixel (lesson.h).
struct LessonOutput;
// The orientation-field workbench's fields (orientation_workbench.h).
struct FieldOutput;

// What a skew request produced: the estimate and its coarse spectrum (for the plot).
struct SkewOutput {
    SkewEstimate skew;
    int length = 0;  // the coarse stage's λ, on the page reduced by 2 × skew.reduction
    AngleSet angles;
    std::vector<double> spectrum;
};

// What a preview sweep snapshot is: the best result so far of a sweep still being refined
// (sweep_plan.h). The final snapshot of the request has none.
struct SweepPreview {
    int anglesDone = 0;   // the angles it covers, evenly spaced over the set
    int anglesTotal = 0;  // the request's angle count
    int reduction = 1;    // computed on the image reduced this many times (1: full resolution)
};
// "preview: 45 of 180 angles", "preview: 1/4 resolution" or both.
std::string previewText(const SweepPreview& p);

// Milliseconds of one request.
struct SnapshotTimings {
    double queued = 0;   // from submission to the engine thread taking it
    double compute = 0;  // the engine's work, including a CPU retry after a CUDA failure
    ContourTimings contours;  // the phases of a contour request
};

// One published result. Exactly one of the payloads is set when ok(), none when not.
struct Snapshot {
    std::uint64_t id = 0;     // the request's number, increasing with each submission
    Request request;          // its parameters and image
    Backend backend = Backend::Cpu;  // the backend that produced it
    std::string notice;       // a one-line notice (e.g. a CUDA failure and the CPU retry), or ""
    std::string error;        // the engine's Error message, or "" on success
    SnapshotTimings timings;

    // Result and Sweep planes are in host memory (result, sweep) or, in GPU mode, in device
    // memory (device) with host copies only on demand (planes.h: hostResult, hostSweep).
    std::shared_ptr<const AnyImage> result;     // RequestKind::Result, host
    // RequestKind::Result with ResultParams::against: that kind's result (host) and the comparison.
    std::shared_ptr<const AnyImage> against;
    std::shared_ptr<const KindDifference> difference;
    std::shared_ptr<const AnySweep> sweep;      // RequestKind::Sweep, host
    std::shared_ptr<const DevicePlanes> device; // RequestKind::Result or Sweep, GPU mode
    std::shared_ptr<const SweepSpectrum> spectrum;  // RequestKind::Sweep, always
    std::shared_ptr<const Contours> contours;   // RequestKind::Contours
    std::shared_ptr<const SkewOutput> skew;     // RequestKind::Skew
    std::shared_ptr<const Granulometry> granulometry;  // RequestKind::Granulometry
    std::shared_ptr<const LessonOutput> lesson;        // RequestKind::Lesson
    std::shared_ptr<const FieldOutput> field;          // RequestKind::Field
    // Sweep only: set on a preview (published before the exact snapshot of the same id).
    std::optional<SweepPreview> preview;

    RequestKind kind() const { return request.kind(); }
    bool ok() const { return error.empty(); }
    bool isPreview() const { return preview.has_value(); }
};

using SnapshotPtr = std::shared_ptr<const Snapshot>;

}  // namespace linescope::session
