// The skew estimate of an A4 page at 300 dpi on the GPU, whole and stage by stage (issue 19's
// batch of pages is bound by the engine's time a page): each stage is the engine call that
// estimateSkew makes, with its sizes and parameters, timed from host memory as the estimate
// makes it, so that the table says where a page's milliseconds go.
#pragma once

#include <string>

namespace lsbench {

// A Markdown section: the stages' median wall times on the CUDA backend, the whole estimate
// on CUDA and on the CPU (all cores), and whether both found the same angle.
std::string skewStagesSection(int warmup, int reps);

}  // namespace lsbench
