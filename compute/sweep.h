// A sweep of one line operator over a set of angles: supremum, infimum, orientation,
// strength and the angular spectrum, without one image per angle.
#pragma once

#include "compute/backend.h"
#include "compute/image.h"
#include "compute/line_morph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace linescope {

// α_k = start + k·step, k = 0 … count-1 (at most kMaxSweepAngles).
struct AngleSet {
    double start = 0;
    double step = 1;
    int count = 180;
    double angle(int k) const { return start + k * step; }
    // `count` angles evenly over 180°, from 0° (the "N angles" of the UI and the CLI).
    static AngleSet overHalfTurn(int count) { return AngleSet{0, 180.0 / count, count}; }
    // "N", a whole number 1 … kMaxSweepAngles, as overHalfTurn(N); or "start:stop:step" with stop
    // excluded, e.g. "0:180:1" or "-10:10.25:0.25". Throws Error. The one spelling of the CLI and the GUI.
    static AngleSet parse(const std::string& text);
};
inline constexpr int kMaxSweepAngles = 720;

struct SweepRequest {
    MorphOp op = MorphOp::Open;  // Erode, Dilate, Open or Close
    int length = 1;
    AngleSet angles;
    // Segment and periodic lines fold one image an angle: on the host in sweep(), on the
    // device in cuda::sweepResident.
    LineKind kind = LineKind::Paths;
};

template <class T>
struct SweepResult {
    Image<T> sup;                    // max over k of op_k
    Image<T> inf;                    // min over k of op_k
    Image<std::uint16_t> argIndex;   // smallest k reaching sup (Open/Erode) or inf (Close/Dilate)
    Image<T> strength;               // sup - inf
    std::vector<std::int64_t> spectrumExact;  // Σ_x op_k(x), integer images only
    std::vector<double> spectrum;             // the same as double (float images: summed in double, in an
                                              // order fixed for a given thread count)
    AngleSet angles;
    MorphOp op = MorphOp::Open;
    double orientation(int x, int y) const { return angles.angle(argIndex.at(x, y)); }
};

// Throws Error for a request every sweep refuses: not erode, dilate, open or close, 0 or more
// than kMaxSweepAngles angles, angles that are not finite.
void validateSweepRequest(const SweepRequest& req);

template <class T>
SweepResult<T> sweep(ImageView<const T> src, const SweepRequest& req, const EngineOptions& opt = {});

// 8-bit RGB, packed (3 bytes a pixel).
struct RgbImage {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgb;
};

// One colour of the orientation map: the angle (any value, taken modulo 180) and the value
// 0…1 (strength / max strength), as 8-bit RGB. The legend's colour wheel uses it.
void orientationColour(double angleDegrees, double value, std::uint8_t rgb[3]);

// The orientation map of design.md §1: hue = 360°·α/180, saturation 1,
// value = strength / max strength.
template <class T>
RgbImage orientationColours(const SweepResult<T>& r);

}  // namespace linescope
