// The orientation field's measurements (orientation_field.cpp, OrientationMethod::BlockSpectrum)
// on the GPU: the image uploaded once, each angle's opening and closing computed on the device,
// and per angle the block sums of closing − opening and each pixel's doubled-angle vector
// accumulated there; only the per-block numbers come back. Integer images: the block sums are
// exact, and the per-pixel float and per-block double sums are taken in the CPU's order with
// its roundings, so the results are the CPU's bit for bit.
#pragma once

#include "compute/image.h"
#include "compute/line_morph.h"

#include <vector>

namespace linescope::cuda {

struct BlockSpectrumInput {
    std::vector<LineParams> lines;  // one an angle, in the spectrum's order
    std::vector<float> cos2, sin2;  // the angles' doubled-angle unit vectors, as float
    int blockSize = 16;
    LineAlgorithm algorithm = LineAlgorithm::Auto;
};

struct BlockSpectrumOutput {
    std::vector<double> spectra;    // [block][k]: Σ over the block of closing_k − opening_k
    std::vector<double> magnitude;  // [block]: Σ over the block of each pixel's |Σ_k −d_k·(cos 2α_k, sin 2α_k)|
};

template <class T>
BlockSpectrumOutput blockSpectrumDevice(ImageView<const T> image, const BlockSpectrumInput& in);

}  // namespace linescope::cuda
