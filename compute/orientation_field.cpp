// Block orientation field from line openings and closings at angles over 180°. Both methods
// end in doubled-angle vectors per block (doubling makes 0° and 180° one direction, so
// averages do not cancel), smoothed by a Gaussian over blocks.
#include "compute/orientation_field.h"

#include "compute/line_morph.h"
#include "compute/sweep.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace linescope {

namespace {

constexpr int kDefaultLength = 15;  // ~1.5–2 ridge periods of a 500 dpi print (8–11 px)

// Per block: the doubled-angle vector (c, s), its contrast weight and the coherence.
struct BlockVectors {
    int bx = 0, by = 0, blockSize = 0;
    std::vector<double> c, s, weight, coherence;
    BlockVectors(int bx_, int by_, int size) : bx(bx_), by(by_), blockSize(size) {
        const std::size_t n = static_cast<std::size_t>(bx) * static_cast<std::size_t>(by);
        c.assign(n, 0.0);
        s.assign(n, 0.0);
        weight.assign(n, 0.0);
        coherence.assign(n, 0.0);
    }
    std::size_t blockOf(int x, int y) const {
        return static_cast<std::size_t>(y / blockSize) * static_cast<std::size_t>(bx) + static_cast<std::size_t>(x / blockSize);
    }
};

// cos 2α_k and sin 2α_k of every angle: the unit doubled-angle vectors.
struct DoubledAngles {
    std::vector<double> cos, sin;
    explicit DoubledAngles(const AngleSet& a) {
        for (int k = 0; k < a.count; ++k) {
            const double t = 2 * a.angle(k) * std::numbers::pi / 180;
            cos.push_back(std::cos(t));
            sin.push_back(std::sin(t));
        }
    }
};

template <class T>
void blockSpectrum(ImageView<const T> image, const AngleSet& angles, int length, LineKind kind, const EngineOptions& opt,
                   BlockVectors& acc) {
    const std::size_t blocks = acc.c.size(), n = static_cast<std::size_t>(angles.count);
    std::vector<double> spectra(blocks * n, 0.0);  // [block][k]: Σ closing − opening
    Image<T> opened(image.width, image.height), closed(image.width, image.height);
    for (std::size_t k = 0; k < n; ++k) {
        const LineParams lp{angles.angle(static_cast<int>(k)), length, kind};
        lineMorph<T>(MorphOp::Open, image, opened.view(), lp, opt);
        lineMorph<T>(MorphOp::Close, image, closed.view(), lp, opt);
        for (int y = 0; y < image.height; ++y)
            for (int x = 0; x < image.width; ++x)
                spectra[acc.blockOf(x, y) * n + k] +=
                    static_cast<double>(closed.at(x, y)) - static_cast<double>(opened.at(x, y));
    }
    const DoubledAngles unit(angles);
    for (std::size_t b = 0; b < blocks; ++b) {
        const double* B = &spectra[b * n];
        double mean = 0, lo = B[0], hi = B[0];
        for (std::size_t k = 0; k < n; ++k) {
            mean += B[k];
            lo = std::min(lo, B[k]);
            hi = std::max(hi, B[k]);
        }
        mean /= static_cast<double>(n);
        double c = 0, s = 0, deviation = 0;
        for (std::size_t k = 0; k < n; ++k) {
            // The minimum is the ridge direction: weigh each angle by how far below the mean it is.
            c -= (B[k] - mean) * unit.cos[k];
            s -= (B[k] - mean) * unit.sin[k];
            deviation += std::abs(B[k] - mean);
        }
        acc.c[b] = c;
        acc.s[b] = s;
        acc.weight[b] = hi - lo;  // Σ over the block; divided by its pixels later
        acc.coherence[b] = deviation > 0 ? std::hypot(c, s) / deviation : 0.0;
    }
}

template <class T>
void pixelArg(ImageView<const T> image, const AngleSet& angles, int length, LineKind kind, const EngineOptions& opt,
              BlockVectors& acc) {
    const DoubledAngles unit(angles);
    std::vector<double> total(acc.c.size(), 0.0);
    SweepRequest req;
    req.length = length;
    req.angles = angles;
    req.kind = kind;
    for (MorphOp op : {MorphOp::Open, MorphOp::Close}) {
        req.op = op;
        const SweepResult<T> r = sweep<T>(image, req, opt);
        for (int y = 0; y < image.height; ++y)
            for (int x = 0; x < image.width; ++x) {
                const double w = static_cast<double>(r.strength.at(x, y));
                if (!(w > 0)) continue;
                const std::size_t b = acc.blockOf(x, y), k = r.argIndex.at(x, y);
                acc.c[b] += w * unit.cos[k];
                acc.s[b] += w * unit.sin[k];
                total[b] += w;
            }
    }
    for (std::size_t b = 0; b < total.size(); ++b) {
        acc.weight[b] = total[b] / 2;
        acc.coherence[b] = total[b] > 0 ? std::hypot(acc.c[b], acc.s[b]) / total[b] : 0.0;
    }
}

// Separable Gaussian over the block grid (clamped at the edges, renormalized).
void smoothBlocks(std::vector<double>& v, int bx, int by, double sigma) {
    if (sigma <= 0) return;
    const int r = std::max(1, static_cast<int>(std::ceil(3 * sigma)));
    std::vector<double> k(static_cast<std::size_t>(2 * r + 1));
    for (int i = -r; i <= r; ++i) k[static_cast<std::size_t>(i + r)] = std::exp(-0.5 * i * i / (sigma * sigma));
    std::vector<double> tmp(v.size());
    auto pass = [&](const std::vector<double>& in, std::vector<double>& out, bool horizontal) {
        for (int y = 0; y < by; ++y)
            for (int x = 0; x < bx; ++x) {
                double sum = 0, norm = 0;
                for (int i = -r; i <= r; ++i) {
                    const int xx = horizontal ? x + i : x, yy = horizontal ? y : y + i;
                    if (xx < 0 || xx >= bx || yy < 0 || yy >= by) continue;
                    const double g = k[static_cast<std::size_t>(i + r)];
                    sum += g * in[static_cast<std::size_t>(yy) * static_cast<std::size_t>(bx) + static_cast<std::size_t>(xx)];
                    norm += g;
                }
                out[static_cast<std::size_t>(y) * static_cast<std::size_t>(bx) + static_cast<std::size_t>(x)] = sum / norm;
            }
    };
    pass(v, tmp, true);
    pass(tmp, v, false);
}

}  // namespace

template <class T>
OrientationField estimateOrientationField(ImageView<const T> image, const OrientationFieldParams& p,
                                          const EngineOptions& opt) {
    if (image.empty()) throw Error("the image is empty");
    if (p.blockSize < 1) throw Error("the block size must be at least 1 pixel");
    if (p.angleCount < 2 || p.angleCount > kMaxSweepAngles)
        throw Error("the orientation field needs 2 … " + std::to_string(kMaxSweepAngles) + " angles");
    if (p.length < 0) throw Error("the segment length must not be negative");
    if (!(p.smoothing >= 0)) throw Error("the smoothing must be a non-negative number of blocks");

    OrientationField f;
    f.blockSize = p.blockSize;
    f.blocksX = (image.width + p.blockSize - 1) / p.blockSize;
    f.blocksY = (image.height + p.blockSize - 1) / p.blockSize;
    f.length = p.length > 0 ? p.length : kDefaultLength;
    const AngleSet angles = AngleSet::overHalfTurn(p.angleCount);
    BlockVectors acc(f.blocksX, f.blocksY, p.blockSize);
    if (p.method == OrientationMethod::BlockSpectrum) blockSpectrum(image, angles, f.length, p.kind, opt, acc);
    else pixelArg(image, angles, f.length, p.kind, opt, acc);

    const std::size_t blocks = acc.c.size();
    f.weight.resize(blocks);
    f.coherence.resize(blocks);
    for (int by = 0; by < f.blocksY; ++by)
        for (int bx = 0; bx < f.blocksX; ++bx) {
            const std::size_t b = static_cast<std::size_t>(by) * static_cast<std::size_t>(f.blocksX) + static_cast<std::size_t>(bx);
            const int pixels = std::min(p.blockSize, image.width - bx * p.blockSize) *
                               std::min(p.blockSize, image.height - by * p.blockSize);  // edge blocks are partial
            f.weight[b] = static_cast<float>(acc.weight[b] / pixels);
            f.coherence[b] = static_cast<float>(acc.coherence[b]);
        }

    smoothBlocks(acc.c, f.blocksX, f.blocksY, p.smoothing);
    smoothBlocks(acc.s, f.blocksX, f.blocksY, p.smoothing);
    f.angle.resize(blocks);
    for (std::size_t b = 0; b < blocks; ++b) {
        double a = 0.5 * std::atan2(acc.s[b], acc.c[b]) * 180 / std::numbers::pi;  // (-90, 90]
        if (a < 0) a += 180;
        f.angle[b] = static_cast<float>(a >= 180 ? a - 180 : a);
    }

    // Foreground: blocks whose contrast reaches a fifth of the strong blocks' (90th percentile).
    std::vector<float> sorted(f.weight);
    const std::size_t q = std::min(sorted.size() - 1, sorted.size() * 9 / 10);
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(q), sorted.end());
    const float threshold = 0.2f * sorted[q];
    f.foreground.resize(blocks);
    for (std::size_t b = 0; b < blocks; ++b) f.foreground[b] = f.weight[b] > threshold && f.weight[b] > 0 ? 1 : 0;
    return f;
}

template OrientationField estimateOrientationField<std::uint8_t>(ImageView<const std::uint8_t>,
                                                                 const OrientationFieldParams&, const EngineOptions&);
template OrientationField estimateOrientationField<std::uint16_t>(ImageView<const std::uint16_t>,
                                                                  const OrientationFieldParams&, const EngineOptions&);
template OrientationField estimateOrientationField<float>(ImageView<const float>, const OrientationFieldParams&,
                                                          const EngineOptions&);

}  // namespace linescope
