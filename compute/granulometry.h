// Granulometries by openings along digital lines: the size distribution of an image's bright
// structures along one orientation (or the best of several), for every length at once.
//
// Definitions (docs/definitions.md §10):
//   S(λ)  = Σ_{p ∈ R} γ_λ(f)(p)   for λ = 1 … Λ + 1, where γ_λ is the opening of design.md §1
//           by λ pixels at the angle (computed on the whole image; R only selects the pixels
//           summed), or, over an angle set, S(λ) = Σ_{p ∈ R} max_k γ_{k,λ}(f)(p);
//   PS(λ) = S(λ) − S(λ + 1)       for λ = 1 … Λ (the pattern spectrum: the mass removed when
//           the length grows past λ). So Σ_{λ=1..Λ} PS(λ) + S(Λ + 1) = S(1) = Σ_R f: S(Λ + 1),
//           the residual, is what survives every length of the range. γ_1 is the identity.
// S is non-increasing in λ, hence PS ≥ 0. Integer images: exact 64-bit sums; float32: the
// exact sum (exact_sum.h) rounded once to double, so every method gives the same bits.
//
// Cost (W×H pixels, Λ lengths, N angles):
//   line paths, one angle: one pass a line (granulometry_line.h), O(W·H) whatever Λ;
//   the supremum over N angles: one sweep of openings per λ (λ = 2 … Λ+1), O(Λ·N·W·H), with
//     a step callback between lengths (progress, cancellation) — the max over angles mixes
//     the lines of different families, so no per-line pass gives it;
//   segment and periodic lines: one opening per λ (line_morph.h, the CPU), O(Λ·W·H).
#pragma once

#include "compute/backend.h"
#include "compute/image.h"
#include "compute/line_kind.h"
#include "compute/sweep.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace linescope {

// A rectangle of pixels: [x, x + width) × [y, y + height).
struct PixelRect {
    int x = 0;
    int y = 0;
    int width = 0;
    int height = 0;
    bool operator==(const PixelRect&) const = default;
};

struct GranulometryRequest {
    double angle = 0;                 // degrees: the one angle, unless `angles` is set
    std::optional<AngleSet> angles;   // the supremum of the openings over these angles
    int maxLength = 64;               // Λ ≥ 1: S is given for λ = 1 … Λ + 1
    LineKind kind = LineKind::Paths;
    // The pixels summed (R): the whole image, or this rectangle (clipped to the image) …
    std::optional<PixelRect> rect;
    // … and, when not empty, only where this mask (the image's size) is non-zero.
    ImageView<const std::uint8_t> mask{};
};
inline constexpr int kMaxGranulometryLength = 1'000'000;

struct Granulometry {
    int maxLength = 0;            // Λ
    long long pixels = 0;         // |R|
    // Index λ − 1: S(λ) for λ = 1 … Λ + 1 (Λ + 1 values) and PS(λ) for λ = 1 … Λ (Λ values).
    std::vector<double> sums;
    std::vector<double> spectrum;
    std::vector<std::int64_t> sumsExact;     // integer images only
    std::vector<std::int64_t> spectrumExact; // integer images only
    double sum(int length) const { return sums[static_cast<std::size_t>(length - 1)]; }
    double residual() const { return sums.back(); }  // S(Λ + 1)
};

// Called on the computing thread before the first step (done = 0) and after each one (a
// length of a supremum or of a segment/periodic granulometry; the one pass of line paths is
// one step); returning false stops the computation.
using GranulometryStepFn = std::function<bool(int done, int total)>;

// Which backend runs the request, in one line for the callers' notices: "" when it runs where
// `backend` says; else why it runs on the CPU (the one-pass walk of line paths runs on the
// GPU for integer images without a mask: float32 sums are exact sums, made on the CPU; the
// supremum and segment and periodic lines run their openings and sweeps on the device).
std::string granulometryCpuNotice(const GranulometryRequest& req, Backend backend, bool floatImage);

// Throws Error for a request every granulometry refuses (Λ out of 1 … kMaxGranulometryLength,
// angles not finite, a bad angle set).
void validateGranulometryRequest(const GranulometryRequest& req);

// The granulometry of `src` (see above). Throws Error on bad input: an empty image, NaN or
// infinite float pixels (the sums must be finite), a mask of another size, a region holding
// no pixel of the image. Returns nullopt only when `step` asked to stop.
template <class T>
std::optional<Granulometry> granulometry(ImageView<const T> src, const GranulometryRequest& req,
                                         const EngineOptions& opt = {}, const GranulometryStepFn& step = {});

}  // namespace linescope
