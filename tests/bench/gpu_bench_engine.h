// The benchmark's one door to the engine's device-resident CUDA entry points
// (compute/cuda/cuda_line_api.h): everything the bench times without transfers goes
// through here, so that a change in that API is mended in gpu_bench_engine.cpp alone.
#pragma once

#include "compute/backend.h"
#include "compute/contours/contours.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"
#include "tests/bench/gpu_bench_support.h"

#include <cuda_runtime.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace lsbench {

// Whether this build has the device-resident API and a usable device; `why` says why not.
bool engineDeviceAvailable(std::string* why);
// A one-line description of the engine's device (name, SMs, memory).
std::string engineDeviceDescription();

// The engine's stream: every call below is enqueued on it, asynchronously.
cudaStream_t engineStream();
// The engine's context lock; hold it around device-resident calls, release it before the
// host API (which takes it itself).
std::unique_lock<std::mutex> lockEngine();

// dst = op(src) by the segment of `length` pixels at `angle` degrees, on engineStream().
void engineMorph(linescope::MorphOp op, const DeviceImage<std::uint8_t>& src, DeviceImage<std::uint8_t>& dst,
                 double angle, int length, linescope::LineAlgorithm algorithm);

// dst = op(src) by a translation-invariant line kernel (the segment or periodic kind), with
// tmp for the first stage, on engineStream().
void engineKernelMorph(linescope::MorphOp op, const DeviceImage<std::uint8_t>& src, DeviceImage<std::uint8_t>& tmp,
                       DeviceImage<std::uint8_t>& dst, double angle, int length, linescope::LineKind kind);

// The contours of `src` (non-zero = foreground) into `out`, downloaded: synchronous, so it
// is timed on the host clock; `timings` gets the engine's phases (CUDA events).
void engineContours(const DeviceImage<std::uint8_t>& src, linescope::ContourMode mode, linescope::ContourApprox approx,
                    const linescope::ContourTuning& tuning, linescope::Contours& out, linescope::ContourTimings* timings);

// A sweep's results copied to the host (packed), for checks.
struct SweepOnHost {
    std::vector<std::uint8_t> sup, inf, strength;
    std::vector<std::uint16_t> arg;
    std::vector<std::int64_t> spectrum;  // exact sums
};

// A sweep whose results stay on the device (sup, inf, arg, strength, spectrum).
// The sweep of the u8 image `host` converted to uint16 (×257) or float32 (÷255): device time
// of sweepDevice on engineStream(), as for the u8 rows. type: 1 = uint16, 2 = float32 (256
// values: 16-bit ranks), 3 = float32 with a different small offset on each of 4096 pixels in
// turn (more than 65,536 values: the float kernels).
Stats timeTypedSweep(int type, const std::vector<std::uint8_t>& host, int width, int height,
                     const linescope::SweepRequest& req, int warmup, int reps);

class EngineSweep {
public:
    EngineSweep();
    ~EngineSweep();
    EngineSweep(const EngineSweep&) = delete;
    EngineSweep& operator=(const EngineSweep&) = delete;
    // Enqueues the sweep of `src` on engineStream().
    void run(const DeviceImage<std::uint8_t>& src, const linescope::SweepRequest& req);
    // The results of the last run (valid until the engine's next sweep), synchronously.
    SweepOnHost download() const;
    // Fills the last run's result buffers with `byte` (the next run of the same size reuses them).
    void poison(unsigned char byte) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace lsbench
