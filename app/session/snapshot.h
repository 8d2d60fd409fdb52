// The value types the session and its engine queue exchange with the UI: requests (what to
// compute, on which image) and snapshots (what came out). A snapshot is published once, as a
// shared_ptr to const, and never changes afterwards: the UI only reads them (Tracy's model).
#pragma once

#include "compute/backend.h"
#include "compute/contours/contours.h"
#include "compute/image.h"
#include "compute/line_morph.h"
#include "compute/skew.h"
#include "compute/sweep.h"

#include <cstdint>
#include <memory>
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
enum class RequestKind { Result, Sweep, Contours, Skew };
inline constexpr int kRequestKindCount = 4;
const char* requestKindName(RequestKind k);  // "result", "sweep", "contours", "skew"

// The result view: one operator at one angle and λ.
struct ResultParams {
    MorphOp op = MorphOp::Open;
    LineParams line;
};

// The sweep views: supremum, infimum, orientation, strength and the spectrum.
struct SweepParams {
    SweepRequest sweep;
};

// Contours of the binary image "pixel > threshold" of the request's image.
struct ContourParams {
    double threshold = 127;
    ContourMode mode = ContourMode::List;
    ContourApprox approx = ContourApprox::Simple;
};

// The skew estimate and the spectrum it was found on (engine's SkewParams).
struct SkewRequestParams {
    SkewParams skew;
};

using RequestParams = std::variant<ResultParams, SweepParams, ContourParams, SkewRequestParams>;

// One request: its kind follows from the parameters' alternative.
struct Request {
    std::shared_ptr<const AnyImage> image;  // shared, never copied: snapshots keep it alive too
    RequestParams params;
    RequestKind kind() const { return static_cast<RequestKind>(params.index()); }
};

// What a skew request produced: the estimate and its coarse spectrum (for the plot).
struct SkewOutput {
    SkewEstimate skew;
    int length = 0;  // the coarse stage's λ, on the page reduced by 2 × skew.reduction
    AngleSet angles;
    std::vector<double> spectrum;
};

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

    std::shared_ptr<const AnyImage> result;     // RequestKind::Result
    std::shared_ptr<const AnySweep> sweep;      // RequestKind::Sweep
    std::shared_ptr<const Contours> contours;   // RequestKind::Contours
    std::shared_ptr<const SkewOutput> skew;     // RequestKind::Skew

    RequestKind kind() const { return request.kind(); }
    bool ok() const { return error.empty(); }
};

using SnapshotPtr = std::shared_ptr<const Snapshot>;

}  // namespace linescope::session
