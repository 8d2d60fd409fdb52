// The lesson mode's data (issue 21), computed on the engine thread from one Lesson request:
// an opening (or closing) as its two stages, f → ε(f) → δ(ε(f)) = γ(f) (closings: f → δ(f) →
// ε(δ(f)) = φ(f)), and, at a pinned pixel, what each stage read there (the window and which
// pixel gave the min or max), the profile along the line path through it (f, ε, δ and the
// second stage) and the response over the sweep's angles. Plain values; any thread.
#pragma once

#include "app/session/snapshot.h"
#include "compute/line_window.h"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace linescope::session {

// The stage images of one (image, operator, line): shared by the snapshots of a pin drag,
// which does not change them.
struct LessonStages {
    MorphOp op = MorphOp::Open;  // Open or Close
    LineParams line;
    std::shared_ptr<const AnyImage> erosion;   // ε(f)
    std::shared_ptr<const AnyImage> dilation;  // δ(f)
    std::shared_ptr<const AnyImage> second;    // δ(ε(f)) = γ(f), or ε(δ(f)) = φ(f)
    // The first stage: ε(f) for an opening, δ(f) for a closing.
    const std::shared_ptr<const AnyImage>& first() const { return op == MorphOp::Close ? dilation : erosion; }
};

// The stages of (op, line) from their three images, whichever side computed them.
template <class T>
std::shared_ptr<const LessonStages> lessonStagesOf(MorphOp op, const LineParams& line, Image<T> erosion,
                                                   Image<T> dilation, Image<T> second) {
    auto stages = std::make_shared<LessonStages>();
    stages->op = op;
    stages->line = line;
    stages->erosion = std::make_shared<const AnyImage>(std::move(erosion));
    stages->dilation = std::make_shared<const AnyImage>(std::move(dilation));
    stages->second = std::make_shared<const AnyImage>(std::move(second));
    return stages;
}

// One pixel a stage read at the pin, with its value in the stage's input.
struct LessonWindowPixel {
    int x = 0, y = 0;
    int k = 0;  // its offset index in B = {−a … b} (0: the segment's origin)
    double value = 0;
};

// What one stage read at the pin: its window over its input (f, or the first stage), the
// pixel that gave the output (the first one, in window order, holding the min or max) and the
// output itself.
struct LessonWindow {
    bool minimum = true;  // an erosion (min) or a dilation (max)
    std::vector<LessonWindowPixel> pixels;
    int extreme = -1;     // index into pixels
    double output = 0;
};

// The grey values along the line path through the pin (line_window.h), of f, ε(f), δ(f) and
// the second stage, one entry a pixel of the path, in its order.
struct LessonProfile {
    std::vector<PixelAt> path;
    int index = 0;  // the pin's position on it
    std::vector<double> f, erosion, dilation, second;
};

// The second stage's operator at the pin over the angles (the sweep's), and the sweep's
// orientation rule: the smallest k with the max (openings) or the min (closings).
struct LessonResponse {
    AngleSet angles;
    std::vector<double> values;
    int best = -1;
};

struct LessonPin {
    PixelAt pixel;
    LessonWindow first, second;
    LessonProfile profile;
    LessonResponse response;
};

struct LessonOutput {
    std::shared_ptr<const LessonStages> stages;
    std::optional<LessonPin> pin;
};

// The second stage's operator: closings for a closing or a dilation, else openings (an
// erosion or a top-hat is taught through its opening).
constexpr MorphOp lessonOpOf(MorphOp op) {
    return op == MorphOp::Close || op == MorphOp::Dilate ? MorphOp::Close : MorphOp::Open;
}

// Computes a lesson request's stage images somewhere else (GPU mode: on the device, from the
// resident source; resident_engine.h). Empty: on the host, through lineMorph.
using LessonStagesFn = std::function<std::shared_ptr<const LessonStages>(const Request& request)>;

// [engine thread] The lesson of `request` (LessonParams). The stages of `previous` (the last
// lesson snapshot) are reused when its image, operator and line are the request's, so a pin
// drag computes only the pin's part; its response too when λ, kind, angles and pin match.
// New stages come from `stages` when it is set. Throws Error as lineMorph does.
LessonOutput computeLesson(const Request& request, const EngineOptions& options, const Snapshot* previous,
                           const LessonStagesFn& stages = {});

}  // namespace linescope::session
