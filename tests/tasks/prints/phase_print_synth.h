// A second, independent generator of synthetic fingerprints with exact orientation truth
// (issue 21): ridges are cos ψ of a phase ψ, after Larkin and Fletcher's AM-FM model
// ("A coherent framework for fingerprint analysis: are fingerprints holograms?", 2007), instead
// of SFinGe's Gabor growth (fingerprint_synth.h). ψ = 2π·φ(w(p))/T + Σ ±arg(p − m_i): a smooth
// ridge-count potential φ of the class (arch, loop, whorl, spiral), seen through a smooth random
// warp w, plus spiral phase singularities m_i (the minutiae). The truth at each pixel is the
// direction perpendicular to the gradient of the continuous phase (ψ without the minutiae's
// terms: the field the ridges follow, as in FVC-onGoing's hand-marked truth), computed
// analytically (chain rule through the warp). Rendering differs from the first set too: dry
// (thin, broken ridges) and wet (thick, merged) pressure, scars, creases, speckle.
// Deterministic from the seed (same OpenCV version); any thread, no shared state.
#pragma once

#include "tests/tasks/prints/fingerprint_synth.h"

#include <cstdint>

namespace linescope::tasks {

// The generators of the `orientation` evaluation: SFinGe-style Gabor growth (the first set)
// and the phase model.
enum class PrintGenerator { Gabor, Phase };
const char* printGeneratorName(PrintGenerator g);  // "gabor", "phase"

// One print of the phase model; `printClass` is Arch, LeftLoop, RightLoop or Whorl (the
// tented arch of the first set has no counterpart here). `period` holds 2π / |∇ψ|.
SyntheticPrint makePhasePrint(std::uint64_t seed, PrintQuality quality);

// makeSyntheticPrint or makePhasePrint.
SyntheticPrint makePrint(PrintGenerator g, std::uint64_t seed, PrintQuality quality);

}  // namespace linescope::tasks
