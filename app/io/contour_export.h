// Contours as files, shared by linescope-cli and the desktop app: one JSON writer and one SVG
// writer, so that both write the same bytes for the same contours. Plain functions of their
// arguments: any thread (the app calls them on the UI thread for an export).
#pragma once

#include "app/io/text_file.h"

#include "compute/contours/contours.h"

#include <opencv2/core.hpp>

#include <string>

namespace linescope::io {

// What a JSON export says besides the contours.
struct ContourJsonInfo {
    ContourMode mode = ContourMode::Tree;
    ContourApprox approx = ContourApprox::None;
    int width = 0;   // of the traced image
    int height = 0;
    double threshold = 0;  // pixels > threshold were foreground, in the image's units
    // "engine": timings_ms holds the engine's phases and their total; "opencv" (the CLI's
    // --algorithm opencv): only the total.
    std::string algorithm = "engine";
    ContourTimings timings;
};

// {"contours": [{"points": [[x, y], ...], "parent": i, "hole": bool}, ...], "mode": M,
//  "approx": A, "width": W, "height": H, "threshold": T, "algorithm": A, "timings_ms": {...}}
// with one contour a line; parent is the index of the parent contour or -1. A threshold or
// timing that is not finite is written as null.
std::string contoursToJson(const Contours& contours, const ContourJsonInfo& info);

// An SVG of width × height with one polygon a contour through the pixel centres (x + 0.5,
// y + 0.5): outer borders red (#ff2020), hole borders blue (#0050ff). A non-empty
// `background` (one channel, width × height; uint16 and float mapped min → 0, max → 255 as
// toEightBit does) is drawn beneath them, embedded as an 8-bit PNG. Throws
// std::invalid_argument when the background's size differs, std::runtime_error as toEightBit.
std::string contoursToSvg(const Contours& contours, int width, int height, const cv::Mat& background = {});

// Milliseconds to the microsecond ("12.345"), as timings_ms writes them.
std::string formatMillis(double ms);


}  // namespace linescope::io
