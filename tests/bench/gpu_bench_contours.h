// The contours workloads of linescope-gpu-bench: an image with a given number of borders,
// the device-resident GPU contours on it timed with the download of the contour arrays
// (RETR_TREE, CHAIN_APPROX_NONE, as the cv2 peer times cv2.findContours), and a check
// against the CPU engine.
#pragma once

#include "compute/contours/contours.h"
#include "tests/bench/gpu_bench_support.h"

#include <cstddef>
#include <string>

namespace lsbench {

struct ContourWorkload {
    int width = 0, height = 0;
    int borders = 0;  // asked for; the image holds about as many (ContourRun::bordersMade)
};

struct ContourRun {
    std::string key;       // "contours-4928x4112-400": shared with the cv2 peer
    std::string workload;  // for tables
    int width = 0, height = 0, bordersAsked = 0, bordersMade = 0;
    std::size_t contours = 0, points = 0;
    Stats wall;                        // findContoursDevice with its download, host clock
    linescope::ContourTimings phases;  // the engine's phases (CUDA events), medians over the timed runs
    std::string check;                 // "= CPU", "DIFFERS", or empty when not checked
    std::string checkDetail;           // the first difference, or "identical"
};

// The image of a workload (0 or 255): discs on a jittered grid, a third with a hole, some
// holes with an island; fixed seed.
std::vector<std::uint8_t> contourImage(const ContourWorkload& w, int* bordersMade);

// Writes the image as packed bits (row-major, bit i of byte k is pixel 8k + i) to
// DIR/contours-WxH-N.bits for the cv2 peer (numpy.unpackbits, bitorder "little").
void dumpContourImage(const std::string& dir, const ContourWorkload& w, const std::vector<std::uint8_t>& pixels);

// Times the workload: `warmup` untimed runs, then `reps`, on `rotations` device copies of
// the image in turn (so that no run finds its input in L2); checks the result against the
// CPU engine when `check`. The caller must not hold the engine lock.
ContourRun runContourWorkload(const ContourWorkload& w, const std::vector<std::uint8_t>& pixels, int bordersMade,
                              const linescope::ContourTuning& tuning, int warmup, int reps, int rotations, bool check);

}  // namespace lsbench
