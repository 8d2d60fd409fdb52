// The workloads of `linescope-cli bench`: the engine against OpenCV's morphologyEx with the
// same digital segment as a 2-D kernel.
#pragma once

#include "compute/line_kind.h"

#include <opencv2/core.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace linescope::cli::bench {

// A fixed-seed 8-bit test image with structure: noise, line segments at random angles and
// filled rectangles (cv::RNG, so it is the same on every machine).
cv::Mat makeStructuredImage(int width, int height, std::uint64_t seed);

// The engine's segment of λ pixels at α through the kernel's centre as an 8-bit 2-D kernel
// (anchor at the centre): the pixels (k, off(k)) — or (off(k), k) for y-major angles — for
// k in segmentOf(λ), taken from linescope::lineFamily. At 0°, 45°, 90°, 135° with odd λ it
// is exactly the engine's operator; at other angles the engine follows line paths, whose
// pixel pattern shifts along the line, while the kernel is the same pattern everywhere.
cv::Mat segmentKernel(double angleDegrees, int length);

struct Workload {
    std::string name;   // for --workload: open-0-11, …, sweep-41
    std::string label;  // for the table
    std::function<void(int threads)> engine;  // CPU backend, default algorithm; threads 0 = all cores
    std::function<void()> opencv;             // OpenCV with its current thread setting
    std::function<std::string()> check;       // after both ran: how their results compare
};

// The names known to --workload, in table order.
std::vector<std::string> workloadNames();
// Builds one workload (its images and outputs); `quick` shrinks it for tests.
// `kind` applies to the openings (open-A-L): the engine uses that line, and OpenCV the
// kernel and anchor of `linescope-cli se` for segment and periodic.
Workload makeWorkload(const std::string& name, bool quick, LineKind kind = LineKind::Paths);

}  // namespace linescope::cli::bench
