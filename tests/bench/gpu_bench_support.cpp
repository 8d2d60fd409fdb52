#include "tests/bench/gpu_bench_support.h"

#include "compute/cuda/device_image.h"
#include "compute/line_geometry.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numbers>
#include <stdexcept>
#include <utility>

namespace lsbench {

void checkCuda(cudaError_t status, const char* call, const char* file, int line) {
    if (status == cudaSuccess) return;
    throw std::runtime_error(std::string("CUDA error ") + cudaGetErrorName(status) + " (" +
                             cudaGetErrorString(status) + ") in " + call + " at " + file + ":" +
                             std::to_string(line));
}

Stats statsOf(std::vector<double> ms) {
    Stats s;
    if (ms.empty()) return s;
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    s.medianMs = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    s.minMs = ms.front();
    s.maxMs = ms.back();
    s.reps = static_cast<int>(n);
    return s;
}

Stats timeDevice(cudaStream_t stream, int warmup, int reps, const std::function<void(int)>& run) {
    int call = 0;
    for (int i = 0; i < warmup; ++i) {
        run(call++);
        LSB_CHECK(cudaPeekAtLastError());
    }
    // A fault in the warm-up surfaces here, not inside the timed region.
    LSB_CHECK(cudaStreamSynchronize(stream));
    std::vector<cudaEvent_t> events(2 * static_cast<std::size_t>(reps));
    for (auto& e : events) LSB_CHECK(cudaEventCreate(&e));
    std::vector<double> ms;
    try {
        for (int r = 0; r < reps; ++r) {
            LSB_CHECK(cudaEventRecord(events[2 * static_cast<std::size_t>(r)], stream));
            run(call++);
            LSB_CHECK(cudaPeekAtLastError());
            LSB_CHECK(cudaEventRecord(events[2 * static_cast<std::size_t>(r) + 1], stream));
        }
        LSB_CHECK(cudaStreamSynchronize(stream));
        for (int r = 0; r < reps; ++r) {
            float t = 0;
            LSB_CHECK(cudaEventElapsedTime(&t, events[2 * static_cast<std::size_t>(r)],
                                           events[2 * static_cast<std::size_t>(r) + 1]));
            ms.push_back(static_cast<double>(t));
        }
    } catch (...) {
        for (auto& e : events) (void)cudaEventDestroy(e);
        throw;
    }
    for (auto& e : events) (void)cudaEventDestroy(e);
    return statsOf(std::move(ms));
}

Stats timeHost(int warmup, int reps, const std::function<void(int)>& run) {
    int call = 0;
    for (int i = 0; i < warmup; ++i) run(call++);
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        run(call++);
        const auto t1 = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    return statsOf(std::move(ms));
}

template <class T>
DeviceImage<T>::DeviceImage(int width, int height) : width_(width), height_(height) {
    pitch_ = linescope::cuda::devicePitch(width, sizeof(T));
    void* p = nullptr;
    LSB_CHECK(cudaMalloc(&p, pitch_ * static_cast<std::size_t>(height)));
    data_ = static_cast<T*>(p);
}

template <class T>
DeviceImage<T>::~DeviceImage() {
    if (data_) (void)cudaFree(data_);
}

template <class T>
void DeviceImage<T>::swap(DeviceImage& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(width_, o.width_);
    std::swap(height_, o.height_);
    std::swap(pitch_, o.pitch_);
}

template <class T>
void DeviceImage<T>::upload(const std::vector<T>& host) {
    if (host.size() != static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_))
        throw std::runtime_error("upload: host image size differs from the device image");
    LSB_CHECK(cudaMemcpy2D(data_, pitch_, host.data(), rowBytes(), rowBytes(), static_cast<std::size_t>(height_),
                           cudaMemcpyHostToDevice));
}

template <class T>
std::vector<T> DeviceImage<T>::download() const {
    std::vector<T> host(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_));
    LSB_CHECK(cudaDeviceSynchronize());
    LSB_CHECK(cudaMemcpy2D(host.data(), rowBytes(), data_, pitch_, rowBytes(), static_cast<std::size_t>(height_),
                           cudaMemcpyDeviceToHost));
    return host;
}

template <class T>
void DeviceImage<T>::fill(unsigned char byte, cudaStream_t s) {
    LSB_CHECK(cudaMemset2DAsync(data_, pitch_, byte, rowBytes(), static_cast<std::size_t>(height_), s));
}

template class DeviceImage<std::uint8_t>;
template class DeviceImage<std::uint16_t>;
template class DeviceImage<float>;

namespace {

// splitmix64: tiny, fixed, the same on every compiler (unlike std::uniform_int_distribution).
struct Rng {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int uniform(int lo, int hi) {  // [lo, hi)
        return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo));
    }
    double uniform01() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
};

}  // namespace

std::vector<std::uint8_t> makeStructuredImage(int width, int height, std::uint64_t seed) {
    Rng rng{seed};
    std::vector<std::uint8_t> img(static_cast<std::size_t>(width) * static_cast<std::size_t>(height));
    for (auto& p : img) p = static_cast<std::uint8_t>(rng.next() & 63u);
    auto fillSquare = [&](int cx, int cy, int side, std::uint8_t v) {
        const int x0 = std::max(0, cx - side / 2), x1 = std::min(width - 1, cx - side / 2 + side - 1);
        const int y0 = std::max(0, cy - side / 2), y1 = std::min(height - 1, cy - side / 2 + side - 1);
        for (int y = y0; y <= y1; ++y)
            for (int x = x0; x <= x1; ++x) img[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)] = v;
    };
    const int lines = std::max(8, static_cast<int>(static_cast<std::int64_t>(width) * height / 20000));
    for (int i = 0; i < lines; ++i) {
        const double ax = rng.uniform(0, width), ay = rng.uniform(0, height);
        const double angle = rng.uniform01() * std::numbers::pi;
        const double len = 10.0 + rng.uniform01() * (0.5 * std::max(width, height) - 10.0);
        const auto v = static_cast<std::uint8_t>(rng.uniform(96, 256));
        const int thick = rng.uniform(1, 4);
        const double c = std::cos(angle), s = std::sin(angle);
        for (double t = 0; t <= len; t += 0.5)
            fillSquare(static_cast<int>(std::lround(ax + t * c)), static_cast<int>(std::lround(ay - t * s)), thick, v);
    }
    for (int i = 0; i < lines / 8; ++i) {
        const int x = rng.uniform(0, width), y = rng.uniform(0, height);
        const int w = rng.uniform(4, 64), h = rng.uniform(4, 64);
        const auto v = static_cast<std::uint8_t>(rng.uniform(64, 200));
        for (int yy = y; yy < std::min(height, y + h); ++yy)
            for (int xx = x; xx < std::min(width, x + w); ++xx)
                img[static_cast<std::size_t>(yy) * static_cast<std::size_t>(width) + static_cast<std::size_t>(xx)] = v;
    }
    return img;
}

void writeRaw(const std::string& path, const std::vector<std::uint8_t>& pixels) {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(pixels.data()), static_cast<std::streamsize>(pixels.size()));
    if (!f) throw std::runtime_error("cannot write " + path);
}

const char* maskStyleName(MaskStyle s) { return s == MaskStyle::Path ? "path" : "round"; }

SegmentMask segmentMask(double angleDegrees, int length, MaskStyle style) {
    const linescope::Segment seg = linescope::segmentOf(length);
    const linescope::LineFamily fam = linescope::lineFamily(angleDegrees, 1, 1);
    const double r = fam.angle * std::numbers::pi / 180.0;
    std::vector<std::pair<int, int>> pts;  // (x, y) relative to the anchor
    for (int k = -seg.a; k <= seg.b; ++k) {
        if (style == MaskStyle::Path) {
            const int o = static_cast<int>(fam.off(k));
            pts.emplace_back(fam.yMajor ? o : k, fam.yMajor ? k : o);
        } else {
            pts.emplace_back(static_cast<int>(std::lround(k * std::cos(r))), static_cast<int>(std::lround(-k * std::sin(r))));
        }
    }
    int x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    for (const auto& [x, y] : pts) {
        x0 = std::min(x0, x); x1 = std::max(x1, x);
        y0 = std::min(y0, y); y1 = std::max(y1, y);
    }
    SegmentMask m;
    m.width = x1 - x0 + 1;
    m.height = y1 - y0 + 1;
    m.anchorX = -x0;
    m.anchorY = -y0;
    m.bits.assign(static_cast<std::size_t>(m.width) * static_cast<std::size_t>(m.height), 0);
    for (const auto& [x, y] : pts) {
        auto& b = m.bits[static_cast<std::size_t>(y - y0) * static_cast<std::size_t>(m.width) + static_cast<std::size_t>(x - x0)];
        if (!b) ++m.count;
        b = 1;
    }
    return m;
}

std::string fmtNum(double v, int precision) {
    char buf[64];
    if (!std::isfinite(v)) return "–";
    // Significant digits, but never scientific notation for the magnitudes seen here.
    const double a = std::fabs(v);
    int decimals = precision;
    if (a >= 1) decimals = std::max(0, precision - 1 - static_cast<int>(std::floor(std::log10(a))));
    else if (a > 0) decimals = precision - 1 - static_cast<int>(std::floor(std::log10(a)));
    std::snprintf(buf, sizeof buf, "%.*f", std::min(decimals, 6), v);
    return buf;
}

std::string fmtMs(double ms) { return fmtNum(ms, 3); }

}  // namespace lsbench
