// Synthetic fingerprints with a known orientation field, made the way SFinGe makes them
// (Cappelli, Maio, Maltoni): a finger silhouette, an orientation field from the zero-pole
// model of Sherlock and Monro with class-dependent cores and deltas plus a smooth random
// perturbation, a smoothly varying ridge period, ridges grown by iterated oriented Gabor
// filtering of sparse noise, then rendering (pressure, noise, blur, background, creases,
// partial prints). Deterministic from the seed (same OpenCV version, same image).
// Used by linescope-task-eval and the tasks regression tests; any thread, no shared state.
#pragma once

#include <opencv2/core.hpp>

#include <cstdint>
#include <vector>

namespace linescope::tasks {

enum class PrintClass { Arch, TentedArch, LeftLoop, RightLoop, Whorl };
enum class PrintQuality { Good, Degraded };

const char* printClassName(PrintClass c);
const char* printQualityName(PrintQuality q);

struct SyntheticPrint {
    cv::Mat image;        // CV_8U, dark ridges on a light background, 500 dpi-like (≈ 300×360 … 450×560)
    cv::Mat orientation;  // CV_32F, degrees in [0, 180): the ridge direction at each pixel, design.md §1
                          // (counter-clockwise on screen, 0 = East, direction (cos α, −sin α), y down)
    cv::Mat mask;         // CV_8U, 255 on the finger (foreground), 0 elsewhere
    cv::Mat period;       // CV_32F, ridge period in pixels at each pixel
    // The model's singular points in pixels (before the smooth perturbation, which moves them
    // by a few pixels at most); some may lie outside the image or the finger (partial prints).
    std::vector<cv::Point2d> cores, deltas;
    PrintClass printClass = PrintClass::Arch;
    PrintQuality quality = PrintQuality::Good;
    bool partial = false;  // the finger was shifted so that part of it lies outside the image
};

// One print; its class, size and every parameter are drawn from `seed`.
SyntheticPrint makeSyntheticPrint(std::uint64_t seed, PrintQuality quality);

}  // namespace linescope::tasks
