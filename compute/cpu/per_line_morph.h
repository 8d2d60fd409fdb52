// Line operators one line at a time: gather the line, run a 1-D algorithm, scatter back.
#pragma once

#include "compute/backend.h"
#include "compute/image.h"
#include "compute/line_geometry.h"
#include "compute/line_morph.h"

namespace linescope::cpu {

// algorithm: VanHerk, Fifo or Stack. Erosion and dilation alone use van Herk/Gil-Werman for
// VanHerk and Stack (Morard's stack computes openings), the streaming FIFO for Fifo.
template <class T>
void perLineMorph(MorphOp op, LineAlgorithm algorithm, ImageView<const T> src, ImageView<T> dst,
                  const LineFamily& family, Segment seg, int threads);

}  // namespace linescope::cpu
