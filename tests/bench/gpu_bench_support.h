// The GPU benchmark's plumbing: checked CUDA calls, event timing with medians, pitched
// device images, the fixed-seed test images and the segment as a 2-D mask for the peers.
// Nothing here knows the engine's kernels; gpu_bench_engine.h is the one door to them.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lsbench {

// A failed CUDA call becomes std::runtime_error naming the call.
void checkCuda(cudaError_t status, const char* call, const char* file, int line);
#define LSB_CHECK(call) ::lsbench::checkCuda((call), #call, __FILE__, __LINE__)

// Milliseconds of one workload: median, fastest and slowest of `reps` timed runs.
struct Stats {
    double medianMs = 0;
    double minMs = 0;
    double maxMs = 0;
    int reps = 0;
};
Stats statsOf(std::vector<double> ms);

// `run(i)` enqueues one run on `stream` (i counts every call, warm-ups first, so that the
// caller can rotate among inputs). `warmup` untimed runs, then `reps` runs each between a
// pair of events; all are enqueued before one synchronisation, so the device never waits
// for the host's bookkeeping. Launch errors are checked after every run.
Stats timeDevice(cudaStream_t stream, int warmup, int reps, const std::function<void(int)>& run);
// Host wall clock (steady_clock) around `run(i)`, for calls that synchronise themselves
// (the engine's host API: upload + compute + download).
Stats timeHost(int warmup, int reps, const std::function<void(int)>& run);

// A pitched image in device memory; the pitch follows the engine (rows padded to 512 bytes).
template <class T>
class DeviceImage {
public:
    DeviceImage() = default;
    DeviceImage(int width, int height);
    DeviceImage(DeviceImage&& o) noexcept { swap(o); }
    DeviceImage& operator=(DeviceImage&& o) noexcept { swap(o); return *this; }
    DeviceImage(const DeviceImage&) = delete;
    DeviceImage& operator=(const DeviceImage&) = delete;
    ~DeviceImage();

    T* data() const { return data_; }
    int width() const { return width_; }
    int height() const { return height_; }
    std::size_t pitch() const { return pitch_; }
    std::size_t rowBytes() const { return static_cast<std::size_t>(width_) * sizeof(T); }

    void upload(const std::vector<T>& host);       // packed host pixels, synchronous
    std::vector<T> download() const;               // packed host pixels, synchronous
    void fill(unsigned char byte, cudaStream_t s);  // every byte of every row (poison)

private:
    void swap(DeviceImage& o) noexcept;
    T* data_ = nullptr;
    int width_ = 0;
    int height_ = 0;
    std::size_t pitch_ = 0;
};

// A fixed-seed 8-bit image with structure, like the CPU bench's: uniform noise 0…63, line
// segments of random angle, length, thickness (1–3) and brightness (96…255), and filled
// rectangles (64…199). Never all zero; the same on every machine.
std::vector<std::uint8_t> makeStructuredImage(int width, int height, std::uint64_t seed);

// Writes packed pixels to `path` (raw bytes; the cv2 peer reads them with numpy.fromfile).
void writeRaw(const std::string& path, const std::vector<std::uint8_t>& pixels);

// How the peers (NPP, OpenCV) rasterise the segment of λ pixels at α into a 2-D mask.
enum class MaskStyle {
    Path,   // the engine's own segment: (k, off(k)) for x-major angles, (off(k), k) for y-major,
            // k = −a … b: λ pixels spanning λ along the major axis; exact at 0/45/90/135°
    Round,  // (round(k·cos α), round(−k·sin α)), k = −a … b: λ points one pixel apart along the
            // Euclidean direction (duplicates merged); exact only at 0° and 90°
};
const char* maskStyleName(MaskStyle s);

// A mask in its tight bounding box; the anchor is the pixel of k = 0.
struct SegmentMask {
    int width = 0;
    int height = 0;
    int anchorX = 0;
    int anchorY = 0;
    int count = 0;                    // set pixels
    std::vector<std::uint8_t> bits;   // width × height, 1 = in the segment
};
SegmentMask segmentMask(double angleDegrees, int length, MaskStyle style);

// "12.3", "0.0456": a few significant digits, for tables.
std::string fmtMs(double ms);
std::string fmtNum(double v, int precision = 3);

}  // namespace lsbench
