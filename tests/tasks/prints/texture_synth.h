// Synthetic oriented textures with one or two known dominant orientations: random bright
// strokes on a dark ground, or band-pass noise whose spectrum is a wedge around each
// orientation's normal; several contrasts and noise levels. Deterministic from the seed.
// Used by linescope-task-eval and the tasks regression tests; any thread, no shared state.
#pragma once

#include <opencv2/core.hpp>

#include <cstdint>
#include <vector>

namespace linescope::tasks {

enum class TextureKind { Strokes, OrientedNoise };

const char* textureKindName(TextureKind k);

struct SyntheticTexture {
    cv::Mat image;                      // CV_8U, bright structures on a darker ground, 256 … 512 a side
    std::vector<double> orientations;   // the dominant orientations, degrees in [0, 180) (design.md §1),
                                        // strongest first; one or two, at least 35° apart
    TextureKind kind = TextureKind::Strokes;
    double contrast = 0;                // grey levels between ground and structures
    double noiseSigma = 0;              // σ of the added Gaussian noise, grey levels
};

// One texture; its kind, size, number of orientations, contrast and noise are drawn from `seed`.
SyntheticTexture makeSyntheticTexture(std::uint64_t seed);

}  // namespace linescope::tasks
