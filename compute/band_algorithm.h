// Which of the GPU's line algorithms are the band kernel's (the engine's dispatchers ask).
#pragma once

#include "compute/backend.h"

namespace linescope {

// On the GPU the band kernel (van Herk/Gil-Werman over bands of lines) serves these and folds a
// sweep's angles as it goes; the paper kernels (Fifo, Stack) sweep one image per angle.
inline bool usesBandKernel(LineAlgorithm a) {
    return a == LineAlgorithm::Auto || a == LineAlgorithm::Sheared || a == LineAlgorithm::VanHerk;
}

}  // namespace linescope
