// The CUDA backend as the engine's dispatchers see it: plain C++ over host images, so that
// line_morph.cpp, sweep.cpp, classic_morph.cpp and contours.cpp need no CUDA headers.
// Implemented in the .cu files beside this one; declared only when the build has CUDA
// (LINESCOPE_HAVE_CUDA).
#pragma once

#include "compute/backend.h"
#include "compute/classic_morph.h"
#include "compute/contours/contours.h"
#include "compute/image.h"
#include "compute/line_geometry.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"

#include <cstddef>
#include <string>

namespace linescope::cuda {

// Whether a CUDA device can be used (probed once); `why` says why not.
bool deviceUsable(std::string* why);
// CudaContext::setDeviceMemoryCap, for callers without CUDA headers (setCudaMemoryCap).
void setDeviceMemoryCap(std::size_t bytes);
// "NVIDIA H100 80GB HBM3, compute capability 9.0, 132 SMs, 79.1 GiB": for logs and notices.
std::string deviceDescription();

// dst = op(src) along the line family; `algorithm` picks the kernel (Auto: the band kernel;
// Fifo / Stack: the kernels of Karas et al.). Bit-exact with the CPU backend.
template <class T>
void lineMorph(MorphOp op, ImageView<const T> src, ImageView<T> dst, const LineFamily& family, Segment seg,
               LineAlgorithm algorithm);

// withImages false: the spectrum alone, the images left on the device (none downloaded, none
// allocated on the host).
template <class T>
SweepResult<T> sweep(ImageView<const T> src, const SweepRequest& req, bool withImages = true);

template <class T>
void classicMorph(MorphOp op, ImageView<const T> src, ImageView<T> dst, const ClassicSE& se);

// The contours of a host image (upload, findContoursDevice in contours_device.h); the
// upload counts as preprocessing. Identical to the CPU backend's.
void findContours(ImageView<const std::uint8_t> binary, ContourMode mode, ContourApprox approx,
                  const ContourTuning& tuning, Contours& out, ContourTimings* timings);

}  // namespace linescope::cuda
