// One synthetic texture scored the way the `texture` evaluation and the regression test score
// it: the dominant orientations from the peaks of the engine's angular spectrum (a sweep of
// openings: the textures are bright structures on a darker ground) and, as the peer, from the
// peaks of the Fourier power spectrum summed by angle (Fiji Directionality's Fourier method).
// Any thread (the engine runs on its own pool).
#pragma once

#include "compute/sweep.h"
#include "tests/tasks/prints/texture_synth.h"

#include <vector>

namespace linescope::tasks {

struct TextureSweepParams {
    int length = 121;                    // λ of the opening: long for a sharp angular response (README.md)
    AngleSet angles{0.0, 1.0, 180};      // 0°, 1°, … 179°
};

struct TextureScore {
    std::vector<double> found;   // the strongest peaks, as many as the texture has orientations
    std::vector<double> errors;  // per true orientation (same order), degrees in [0, 90]
    bool recovered = false;      // every error ≤ one angle step
    double ms = 0;
};

// The engine: sweep<uint8_t> of openings, then spectrumPeaks.
TextureScore scoreTextureEngine(const SyntheticTexture& t, const TextureSweepParams& p = {});

// The peer: Fourier power spectrum (Hann window), summed into the angle bins of p.angles
// by the direction of the lines it stands for, then the same spectrumPeaks.
TextureScore scoreTextureFourier(const SyntheticTexture& t, const TextureSweepParams& p = {});

// Errors of the best pairing of `truth` with `found` (each found angle used once; a truth
// left without a partner scores 90).
std::vector<double> matchedErrors(const std::vector<double>& truth, const std::vector<double>& found);

}  // namespace linescope::tasks
