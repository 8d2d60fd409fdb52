// LINESCOPE_HD marks functions that both the host and CUDA device code call: the engine's
// shared geometry (line paths, band extents, border tracking) and device image views.
// Outside nvcc it expands to nothing, so these headers stay plain C++ for the CPU build.
#pragma once

#if defined(__CUDACC__)
#define LINESCOPE_HD __host__ __device__
#else
#define LINESCOPE_HD
#endif
