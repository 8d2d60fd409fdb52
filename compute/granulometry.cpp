// The public granulometry: validation, the pixels summed, then one pass over the lines (line
// paths at one angle) or one opening (or sweep) per length.
#include "compute/granulometry.h"

#include "compute/cpu/granulometry_paths.h"
#include "compute/granulometry_sums.h"
#include "compute/line_geometry.h"
#include "compute/line_morph.h"
#include "compute/thread_pool.h"

#if LINESCOPE_HAVE_CUDA
#include "compute/cuda/granulometry_cuda.h"
#endif

#include <algorithm>
#include <cmath>
#include <mutex>
#include <string>

namespace linescope {

namespace {

std::string rectText(const PixelRect& r) {
    return std::to_string(r.x) + "," + std::to_string(r.y) + "," + std::to_string(r.width) + "," + std::to_string(r.height);
}

detail::SummedPixels summedPixels(int W, int H, const GranulometryRequest& req) {
    detail::SummedPixels s{0, 0, W, H, req.mask, !req.rect && req.mask.empty()};
    if (!req.mask.empty() && (req.mask.width != W || req.mask.height != H))
        throw Error("the region mask is " + std::to_string(req.mask.width) + "x" + std::to_string(req.mask.height) +
                    " but the image is " + std::to_string(W) + "x" + std::to_string(H));
    if (req.rect) {
        const PixelRect& r = *req.rect;
        if (r.width <= 0 || r.height <= 0) throw Error("the region " + rectText(r) + " is empty (x,y,width,height)");
        // Clipped in 64 bits: x + width may not fit an int.
        s.x0 = static_cast<int>(std::clamp<long long>(r.x, 0, W));
        s.y0 = static_cast<int>(std::clamp<long long>(r.y, 0, H));
        s.x1 = static_cast<int>(std::clamp<long long>(static_cast<long long>(r.x) + r.width, 0, W));
        s.y1 = static_cast<int>(std::clamp<long long>(static_cast<long long>(r.y) + r.height, 0, H));
        if (s.x0 >= s.x1 || s.y0 >= s.y1)
            throw Error("the region " + rectText(r) + " lies outside the " + std::to_string(W) + "x" + std::to_string(H) +
                        " image");
    }
    return s;
}

long long pixelCount(const detail::SummedPixels& region) {
    if (region.mask.empty()) return static_cast<long long>(region.x1 - region.x0) * (region.y1 - region.y0);
    long long n = 0;
    for (int y = region.y0; y < region.y1; ++y)
        for (int x = region.x0; x < region.x1; ++x) n += region.mask.at(x, y) != 0;
    return n;
}

template <class T>
void requireFinite(ImageView<const T> src) {
    requireNoNaN(src);
    if constexpr (std::is_floating_point_v<T>)
        for (int y = 0; y < src.height; ++y)
            for (int x = 0; x < src.width; ++x)
                if (!std::isfinite(src.at(x, y)))
                    throw Error("a granulometry needs finite pixel values, and the image holds an infinity at (" +
                                std::to_string(x) + ", " + std::to_string(y) + ")");
}

// Σ over the region of img, exactly.
template <class T>
detail::GranulometrySum<T> regionSum(ImageView<const T> img, const detail::SummedPixels& region, int threads) {
    detail::GranulometrySum<T> total{};
    std::mutex merge;
    parallelFor(static_cast<std::size_t>(region.y1 - region.y0), threads, [&](std::size_t r0, std::size_t r1) {
        detail::GranulometrySum<T> part{};
        for (std::size_t r = r0; r < r1; ++r) {
            const int y = region.y0 + static_cast<int>(r);
            const T* row = img.row(y);
            for (int x = region.x0; x < region.x1; ++x)
                if (region.mask.empty() || region.mask.at(x, y)) detail::addTimes<T>(part, canonical(row[x]), 1);
        }
        std::lock_guard lock(merge);
        total += part;
    });
    return total;
}

// S(λ) for λ = 1 … Λ+1 (index λ−1) by one opening (or sweep of openings) per length.
template <class T>
std::optional<std::vector<detail::GranulometrySum<T>>> sumsByOpenings(ImageView<const T> src,
                                                                      const GranulometryRequest& req,
                                                                      const EngineOptions& opt,
                                                                      const detail::SummedPixels& region,
                                                                      const GranulometryStepFn& step) {
    const int total = req.maxLength + 1;
    std::vector<detail::GranulometrySum<T>> sums(static_cast<std::size_t>(total));
    Image<T> gamma;
    if (!req.angles) gamma = Image<T>(src.width, src.height);
    for (int length = 1; length <= total; ++length) {
        if (req.angles) {
            const SweepResult<T> r = sweep<T>(src, SweepRequest{MorphOp::Open, length, *req.angles, req.kind}, opt);
            sums[static_cast<std::size_t>(length - 1)] = regionSum<T>(r.sup.cview(), region, opt.threads);
        } else {
            lineMorph<T>(MorphOp::Open, src, gamma.view(), LineParams{req.angle, length, req.kind}, opt);
            sums[static_cast<std::size_t>(length - 1)] = regionSum<T>(gamma.cview(), region, opt.threads);
        }
        if (step && !step(length, total)) return std::nullopt;
    }
    return sums;
}

template <class T>
Granulometry assemble(const std::vector<detail::GranulometrySum<T>>& sums, int maxLength, long long pixels) {
    Granulometry g;
    g.maxLength = maxLength;
    g.pixels = pixels;
    const auto toDouble = [](const detail::GranulometrySum<T>& s) {
        if constexpr (std::is_floating_point_v<T>) return s.toDouble();
        else return static_cast<double>(s);
    };
    for (std::size_t i = 0; i < sums.size(); ++i) {
        g.sums.push_back(toDouble(sums[i]));
        if (i + 1 < sums.size()) g.spectrum.push_back(toDouble(sums[i] - sums[i + 1]));  // exact, then rounded once
        if constexpr (!std::is_floating_point_v<T>) {
            g.sumsExact.push_back(sums[i]);
            if (i + 1 < sums.size()) g.spectrumExact.push_back(sums[i] - sums[i + 1]);
        }
    }
    return g;
}

}  // namespace

namespace {
bool runsInOnePass(const GranulometryRequest& req, const EngineOptions& opt) {
    return !req.angles && req.kind == LineKind::Paths && opt.algorithm != LineAlgorithm::Reference;
}
// The one-pass walk on the GPU: integer images (float sums are exact sums, which atomics
// cannot build) and regions without a mask.
bool runsOnCuda(const GranulometryRequest& req, bool floatImage) {
    return !floatImage && req.mask.empty();
}
}  // namespace


std::string granulometryCpuNotice(const GranulometryRequest& req, Backend backend, bool floatImage) {
    if (backend != Backend::Cuda) return {};
    if (runsInOnePass(req, EngineOptions{backend})) {
        if (runsOnCuda(req, floatImage)) return {};
        return floatImage ? "using the CPU backend (float32 granulometries are exact sums, made on the CPU)"
                          : "using the CPU backend (a granulometry over a mask runs on the CPU)";
    }
    return {};  // the supremum and segment and periodic lines: openings and sweeps on the device
}

void validateGranulometryRequest(const GranulometryRequest& req) {
    if (req.maxLength < 1 || req.maxLength > kMaxGranulometryLength)
        throw Error("the granulometry's longest length must be 1 to " + std::to_string(kMaxGranulometryLength) +
                    " (got " + std::to_string(req.maxLength) + ")");
    if (req.angles) validateSweepRequest(SweepRequest{MorphOp::Open, 1, *req.angles, req.kind});
    else normalizeAngle(req.angle);  // throws for an angle that is not finite
}

template <class T>
std::optional<Granulometry> granulometry(ImageView<const T> src, const GranulometryRequest& req,
                                         const EngineOptions& opt, const GranulometryStepFn& step) {
    validateGranulometryRequest(req);
    if (src.empty()) throw Error("the image is empty");
    const detail::SummedPixels region = summedPixels(src.width, src.height, req);
    const long long pixels = pixelCount(region);
    if (pixels == 0) throw Error("the region holds no pixel of the image (its mask is zero there)");
    requireFinite(src);
    [[maybe_unused]] const Backend backend = resolveBackend(opt.backend);  // throws when CUDA is missing; read only with CUDA

    if (runsInOnePass(req, opt)) {
        if (step && !step(0, 1)) return std::nullopt;
        const LineFamily family = lineFamily(req.angle, src.width, src.height);
        detail::GranulometryBuckets<T> buckets;
#if LINESCOPE_HAVE_CUDA
        if constexpr (!std::is_floating_point_v<T>) {
            if (backend == Backend::Cuda && runsOnCuda(req, false)) {
                const std::vector<std::int64_t> b = cuda::granulometryPathsBuckets<T>(src, family, req.maxLength, req.rect);
                buckets.assign(b.begin(), b.end());
            }
        }
#endif
        if (buckets.empty()) buckets = cpu::granulometryPaths<T>(src, family, req.maxLength, region, opt.threads);
        // S(λ) = Σ_{μ ≥ λ} bucket[μ].
        std::vector<detail::GranulometrySum<T>> sums(static_cast<std::size_t>(req.maxLength) + 1);
        detail::GranulometrySum<T> running{};
        for (std::size_t l = sums.size(); l >= 1; --l) {
            running += buckets[l];
            sums[l - 1] = running;
        }
        if (step && !step(1, 1)) return std::nullopt;
        return assemble<T>(sums, req.maxLength, pixels);
    }
    if (step && !step(0, req.maxLength + 1)) return std::nullopt;
    const auto sums = sumsByOpenings<T>(src, req, opt, region, step);
    if (!sums) return std::nullopt;
    return assemble<T>(*sums, req.maxLength, pixels);
}

template std::optional<Granulometry> granulometry<std::uint8_t>(ImageView<const std::uint8_t>, const GranulometryRequest&,
                                                                const EngineOptions&, const GranulometryStepFn&);
template std::optional<Granulometry> granulometry<std::uint16_t>(ImageView<const std::uint16_t>,
                                                                 const GranulometryRequest&, const EngineOptions&,
                                                                 const GranulometryStepFn&);
template std::optional<Granulometry> granulometry<float>(ImageView<const float>, const GranulometryRequest&,
                                                         const EngineOptions&, const GranulometryStepFn&);

}  // namespace linescope
