// Block orientation field of a textured image (fingerprint ridges, hatching) from a sweep
// of line openings and closings, smoothed in the doubled-angle domain. Pure engine (no Qt,
// no OpenCV); called from the CLI, the session's engine thread and the task evaluation.
#pragma once

#include "compute/backend.h"
#include "compute/image.h"
#include "compute/line_kind.h"

#include <vector>

namespace linescope {

enum class OrientationMethod {
    // Default. Per block and angle k, Σ (closing_k − opening_k) over the block's pixels: small
    // along the ridges, large across them. The orientation is half the argument of the first
    // doubled-angle harmonic of that block spectrum (exact between sweep angles, no ties),
    // smoothed over blocks at two scales blended by the coarse scale's coherence, the coarse
    // window longer across the ridges, and kept unsmoothed at singular points (see below).
    BlockSpectrum,
    // The literal reading: each pixel's orientation map value (the arg of the supremum of
    // openings, and of the infimum of closings), averaged per block as doubled-angle vectors
    // weighted by the strength. Quantized to the angle step and biased by its smallest-k tie
    // rule; kept to compare.
    PixelArg,
};

// λ when none is given: ≈ one ridge period of a 500 dpi print (8–11 px) as a Euclidean
// length; 7, 9, 11 and 13 were measured (tests/bench/task-results.md §2), 9 is best on
// degraded prints, even on good ones.
inline constexpr int kDefaultOrientationLength = 9;

struct OrientationFieldParams {
    OrientationMethod method = OrientationMethod::BlockSpectrum;
    int blockSize = 16;      // pixels a block (square); the field has ceil(W/b) × ceil(H/b) blocks
    int length = 0;          // λ of the segment; 0 = kDefaultOrientationLength
    int angleCount = 24;     // sweep angles over 180° (0, 180/n, …)
    double smoothing = 0.8;  // σ of the (fine) Gaussian over blocks applied to (cos 2θ, sin 2θ); 0 = none
    LineKind kind = LineKind::Paths;  // the digital line of every opening and closing (line_kind.h)
    // Added by issue 21 (accuracy); the defaults are the ones measured best on two print
    // generators (tests/bench/task-results.md §2). Each can be switched off to get the
    // field of before (λ 15, smoothing 1, euclideanLength false, presmoothing 0, coarseSmoothing 0,
    // refineSingularPoints false).
    // λ as a Euclidean length: the segment at α gets round(λ·max(|cos α|, |sin α|)) pixels, so
    // that every angle's segment is λ long (λ line-path pixels at 45° are 1.41 λ long: the
    // longer diagonals bias the harmonic toward 0° and 90°, by up to 3° on prints).
    bool euclideanLength = true;
    double presmoothing = 1.0;  // σ (pixels) of a Gaussian applied to the image before the sweep; 0 = none
    // Two-scale smoothing: σ of the coarse Gaussian over blocks (0 = only `smoothing`). Each
    // block's doubled-angle vector is first scaled to coherence × √contrast (V / √Σ|v|, v the
    // per-pixel vectors); per block the unit vectors of the fine and coarse fields are then
    // blended with the coarse window's coherence c (|Σ V| / Σ |V|) raised to blendExponent:
    // the coarse field where the orientation is steady, the fine one near cores and deltas.
    // With coarseAcross > coarseSmoothing the coarse window is anisotropic: σ coarseSmoothing
    // along the ridges and coarseAcross across them, oriented by the isotropic blend (the pilot).
    // Ridges of a print are nearly equidistant, so across them the orientation stays nearly
    // constant even where they bend, and a minutia's twist of the ridges around it (of opposite
    // signs on its two sides across the ridges) cancels there; along the ridges neither holds.
    double coarseSmoothing = 1.0;
    double coarseAcross = 1.6;
    double blendExponent = 2.0;
    // Where the smoothed field turns by ±360° (doubled) around 2 × 2 blocks (a core, a delta, a
    // whorl's centre) in clean surroundings, those blocks keep their own measured orientation:
    // every window around a singular point mixes orientations that cancel (see the .cpp).
    bool refineSingularPoints = true;
};

struct OrientationField {
    int blocksX = 0, blocksY = 0, blockSize = 0;
    int length = 0;                 // the λ used
    std::vector<float> angle;       // degrees in [0, 180), design.md §1 convention, row-major blocks
    std::vector<float> coherence;   // 0 … 1: how strongly one orientation stands out in the block
    std::vector<float> weight;      // the block's line contrast, in the image's units (see .cpp)
    std::vector<unsigned char> foreground;  // 1 where the block has ridges (weight above a threshold)
    float angleAt(int bx, int by) const { return angle[static_cast<std::size_t>(by) * blocksX + bx]; }
};

template <class T>
OrientationField estimateOrientationField(ImageView<const T> image, const OrientationFieldParams& p = {},
                                          const EngineOptions& opt = {});

}  // namespace linescope
