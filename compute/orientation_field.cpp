// Block orientation field from line openings and closings at angles over 180°. Both methods
// end in doubled-angle vectors per block (doubling makes 0° and 180° one direction, so
// averages do not cancel), smoothed by Gaussians over blocks at two scales (the coarse one
// longer across the ridges than along them) and blended by the coarse scale's coherence; the
// blocks at singular points keep their own vectors.
#include "compute/orientation_field.h"

#include "compute/line_morph.h"
#include "compute/sweep.h"
#if LINESCOPE_HAVE_CUDA
#include "compute/cuda/orientation_blocks.h"
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <numbers>

namespace linescope {

namespace {

// Per block: the doubled-angle vector (c, s), its contrast weight and the coherence.
struct BlockVectors {
    int bx = 0, by = 0, blockSize = 0;
    std::vector<double> c, s, weight, coherence;
    std::vector<double> magnitude;  // Σ over the block of each pixel's |v|: the coherence of a window's sum
    BlockVectors(int bx_, int by_, int size) : bx(bx_), by(by_), blockSize(size) {
        const std::size_t n = static_cast<std::size_t>(bx) * static_cast<std::size_t>(by);
        c.assign(n, 0.0);
        s.assign(n, 0.0);
        weight.assign(n, 0.0);
        coherence.assign(n, 0.0);
        magnitude.assign(n, 0.0);
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

// The segment's pixel count at `angle` for a Euclidean length λ: line paths step one pixel
// along the major axis, so λ pixels span λ / max(|cos α|, |sin α|).
int segmentPixels(double angle, int length, bool euclidean) {
    if (!euclidean) return length;
    const double r = angle * std::numbers::pi / 180;
    return std::max(1, static_cast<int>(std::lround(length * std::max(std::abs(std::cos(r)), std::abs(std::sin(r))))));
}

template <class T>
void measureOnHost(ImageView<const T> image, const AngleSet& angles, int length, bool euclidean, LineKind kind,
                   const EngineOptions& opt, const DoubledAngles& unit, BlockVectors& acc, std::vector<double>& spectra) {
    const std::size_t n = static_cast<std::size_t>(angles.count);
    const std::size_t pixels = static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height);
    std::vector<float> pc(pixels, 0.0f), ps(pixels, 0.0f);
    Image<T> opened(image.width, image.height), closed(image.width, image.height);
    for (std::size_t k = 0; k < n; ++k) {
        const double angle = angles.angle(static_cast<int>(k));
        const LineParams lp{angle, segmentPixels(angle, length, euclidean), kind};
        lineMorph<T>(MorphOp::Open, image, opened.view(), lp, opt);
        lineMorph<T>(MorphOp::Close, image, closed.view(), lp, opt);
        const float ck = static_cast<float>(unit.cos[k]), sk = static_cast<float>(unit.sin[k]);
        for (int y = 0; y < image.height; ++y) {
            double* blockRow = &spectra[static_cast<std::size_t>(y / acc.blockSize) * static_cast<std::size_t>(acc.bx) * n];
            float* cRow = &pc[static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width)];
            float* sRow = &ps[static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width)];
            for (int x = 0; x < image.width; ++x) {
                const float d = static_cast<float>(closed.at(x, y)) - static_cast<float>(opened.at(x, y));
                blockRow[static_cast<std::size_t>(x / acc.blockSize) * n + k] += d;
                cRow[x] -= d * ck;
                sRow[x] -= d * sk;
            }
        }
    }
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) + static_cast<std::size_t>(x);
            acc.magnitude[acc.blockOf(x, y)] += std::sqrt(static_cast<double>(pc[i]) * pc[i] + static_cast<double>(ps[i]) * ps[i]);
        }
}

// From the block spectra to each block's doubled-angle vector, contrast and coherence.
void finishBlocks(std::size_t n, const DoubledAngles& unit, BlockVectors& acc, const std::vector<double>& spectra) {
    const std::size_t blocks = acc.c.size();
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
void blockSpectrum(ImageView<const T> image, const AngleSet& angles, int length, bool euclidean, LineKind kind,
                   const EngineOptions& opt, BlockVectors& acc) {
    const std::size_t blocks = acc.c.size(), n = static_cast<std::size_t>(angles.count);
    const DoubledAngles unit(angles);
    std::vector<double> spectra(blocks * n, 0.0);  // [block][k]: Σ closing − opening
    // Each pixel's doubled-angle vector −Σ_k (closing_k − opening_k)·(cos 2α_k, sin 2α_k) (the
    // mean over k drops out: Σ_k of the unit vectors is 0); summed per block it is the block
    // spectrum's harmonic, and its length per pixel gives the coherence of any window.
    bool measured = false;
#if LINESCOPE_HAVE_CUDA
    if constexpr (std::is_integral_v<T>) {
        if (resolveBackend(opt.backend) == Backend::Cuda) {  // the same numbers, bit for bit (orientation_blocks.h)
            cuda::BlockSpectrumInput in;
            in.blockSize = acc.blockSize;
            in.algorithm = opt.algorithm;
            for (std::size_t k = 0; k < n; ++k) {
                const double angle = angles.angle(static_cast<int>(k));
                in.lines.push_back(LineParams{angle, segmentPixels(angle, length, euclidean), kind});
                in.cos2.push_back(static_cast<float>(unit.cos[k]));
                in.sin2.push_back(static_cast<float>(unit.sin[k]));
            }
            cuda::BlockSpectrumOutput out = cuda::blockSpectrumDevice<T>(image, in);
            spectra = std::move(out.spectra);
            acc.magnitude = std::move(out.magnitude);
            measured = true;
        }
    }
#endif
    if (!measured) measureOnHost(image, angles, length, euclidean, kind, opt, unit, acc, spectra);
    finishBlocks(n, unit, acc, spectra);
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
                acc.magnitude[b] += w;
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

// Blends the fine field (fc, fs) with the coarse one (cc, cs; cm the same window's Σ of the
// vectors' lengths) in place: per block the unit vectors, the coarse one weighted by its
// window's coherence |Σ V| / Σ |V| raised to `exponent`, the fine one by the rest.
void blendFields(std::vector<double>& fc, std::vector<double>& fs, const std::vector<double>& cc,
                 const std::vector<double>& cs, const std::vector<double>& cm, double exponent) {
    for (std::size_t b = 0; b < fc.size(); ++b) {
        const double coarse = std::hypot(cc[b], cs[b]), fine = std::hypot(fc[b], fs[b]);
        if (!(coarse > 0)) continue;  // a flat window: keep the fine field
        if (!(fine > 0)) {
            fc[b] = cc[b];
            fs[b] = cs[b];
            continue;
        }
        const double w = std::pow(std::min(1.0, coarse / cm[b]), exponent);
        fc[b] = w * cc[b] / coarse + (1 - w) * fc[b] / fine;
        fs[b] = w * cs[b] / coarse + (1 - w) * fs[b] / fine;
    }
}

// Gaussian window over blocks of σ `along` in the direction of the pilot field's ridges
// (doubled-angle vectors pc, ps) at each block and σ `across` perpendicular to them, applied to
// (c, s, m); edges renormalized. Across the ridges the orientation of equidistant ridges stays
// nearly constant even where they bend, and a minutia's twist (odd across the ridges) cancels.
void smoothAcrossRidges(const std::vector<double>& c, const std::vector<double>& s, const std::vector<double>& m,
                        const std::vector<double>& pc, const std::vector<double>& ps, int bx, int by, double along,
                        double across, std::vector<double>& oc, std::vector<double>& os, std::vector<double>& om) {
    const int r = std::max(1, static_cast<int>(std::ceil(3 * std::max(along, across))));
    const double ia = 0.5 / (along * along), ic = 0.5 / (across * across);
    // exp(−(a²/2σa² + q²/2σq²)) with a = dx·tx + dy·ty (along), q = dy·tx − dx·ty (across) is
    // exp(−dx²·A) · exp(−dy²·B) · exp(−dx·dy·C): three small tables a block instead of an
    // exponential a neighbour (the field's time on the GPU is mostly this host loop's).
    const std::size_t side = static_cast<std::size_t>(r) + 1, cross = static_cast<std::size_t>(r) * static_cast<std::size_t>(r);
    std::vector<double> ex(side), ey(side), exy(2 * cross + 1);
    for (int y = 0; y < by; ++y)
        for (int x = 0; x < bx; ++x) {
            const std::size_t b = static_cast<std::size_t>(y) * static_cast<std::size_t>(bx) + static_cast<std::size_t>(x);
            const double theta = 0.5 * std::atan2(ps[b], pc[b]);  // the ridge direction: (cos θ, −sin θ), y down
            const double tx = std::cos(theta), ty = -std::sin(theta);
            const double A = tx * tx * ia + ty * ty * ic, B = ty * ty * ia + tx * tx * ic, C = 2 * tx * ty * (ia - ic);
            for (std::size_t k = 0; k < side; ++k) {
                const double k2 = static_cast<double>(k * k);
                ex[k] = std::exp(-k2 * A);
                ey[k] = std::exp(-k2 * B);
            }
            const double up = std::exp(-C), down = std::exp(C);
            exy[cross] = 1;
            for (std::size_t k = 1; k <= cross; ++k) {
                exy[cross + k] = exy[cross + k - 1] * up;
                exy[cross - k] = exy[cross - k + 1] * down;
            }
            double sc = 0, ss = 0, sm = 0, norm = 0;
            for (int dy = -r; dy <= r; ++dy) {
                const int yy = y + dy;
                if (yy < 0 || yy >= by) continue;
                for (int dx = -r; dx <= r; ++dx) {
                    const int xx = x + dx;
                    if (xx < 0 || xx >= bx) continue;
                    const double g = ex[static_cast<std::size_t>(std::abs(dx))] * ey[static_cast<std::size_t>(std::abs(dy))] *
                                     exy[static_cast<std::size_t>(static_cast<long long>(cross) + dx * dy)];
                    const std::size_t n = static_cast<std::size_t>(yy) * static_cast<std::size_t>(bx) + static_cast<std::size_t>(xx);
                    sc += g * c[n];
                    ss += g * s[n];
                    sm += g * m[n];
                    norm += g;
                }
            }
            oc[b] = sc / norm;
            os[b] = ss / norm;
            om[b] = sm / norm;
        }
}

// Singular points: where the smoothed field's doubled angle turns by ±360° around a vertex of
// 2 × 2 blocks (Poincaré index ±½: a core or a delta; a whorl's centre shows as two), the
// neighbours' vectors cancel in every window and what is left is dominated by the blocks around,
// so the four blocks take their own measured vector (c, s) instead. Only where the 4 × 4 blocks
// around are clean: their own coherence (|V| / Σ|v|, weighted by √Σ|v|) averages at least
// kSingularCleanness, so that noise (scratches, creases) does not trigger it.
constexpr double kSingularCleanness = 0.6;

void refineAtSingularPoints(std::vector<double>& fc, std::vector<double>& fs, const std::vector<double>& c,
                            const std::vector<double>& s, const std::vector<double>& rootMagnitude, int bx, int by) {
    auto at = [bx](int x, int y) { return static_cast<std::size_t>(y) * static_cast<std::size_t>(bx) + static_cast<std::size_t>(x); };
    auto wrap = [](double a) { return std::remainder(a, 2 * std::numbers::pi); };
    std::vector<unsigned char> singular(fc.size(), 0);
    for (int y = 0; y + 1 < by; ++y)
        for (int x = 0; x + 1 < bx; ++x) {
            const double phi[4] = {std::atan2(fs[at(x, y)], fc[at(x, y)]), std::atan2(fs[at(x + 1, y)], fc[at(x + 1, y)]),
                                   std::atan2(fs[at(x + 1, y + 1)], fc[at(x + 1, y + 1)]), std::atan2(fs[at(x, y + 1)], fc[at(x, y + 1)])};
            double turn = 0;
            for (int i = 0; i < 4; ++i) turn += wrap(phi[(i + 1) % 4] - phi[i]);
            if (!(std::abs(turn) > std::numbers::pi)) continue;
            double coherent = 0, weight = 0;  // Σ |V / √Σ|v|| = Σ coherence × √Σ|v|, and Σ √Σ|v|
            for (int yy = std::max(0, y - 1); yy <= std::min(by - 1, y + 2); ++yy)
                for (int xx = std::max(0, x - 1); xx <= std::min(bx - 1, x + 2); ++xx) {
                    coherent += std::hypot(c[at(xx, yy)], s[at(xx, yy)]);
                    weight += rootMagnitude[at(xx, yy)];
                }
            if (!(weight > 0) || coherent < kSingularCleanness * weight) continue;
            singular[at(x, y)] = singular[at(x + 1, y)] = singular[at(x + 1, y + 1)] = singular[at(x, y + 1)] = 1;
        }
    for (std::size_t b = 0; b < fc.size(); ++b)
        if (singular[b] && (c[b] != 0 || s[b] != 0)) {
            fc[b] = c[b];
            fs[b] = s[b];
        }
}

// Separable Gaussian of σ pixels (mirrored border, as OpenCV's BORDER_REFLECT_101), times
// `scale`, into U (rounded for integer U). The sweep of uint8 images then runs on uint16 pixels
// × 256: as fast as uint8 (float line morphology is ~3× slower here) and without rounding the
// smoothed image to whole grey levels.
int mirrorIndex(int i, int n) {
    if (n == 1) return 0;
    while (i < 0 || i >= n) i = i < 0 ? -i : 2 * (n - 1) - i;
    return i;
}

template <class U, class T>
Image<U> gaussianBlur(ImageView<const T> in, double sigma, double scale) {
    const int r = std::max(1, static_cast<int>(std::ceil(3 * sigma)));
    std::vector<float> k(static_cast<std::size_t>(2 * r + 1));
    double sum = 0;
    for (int i = -r; i <= r; ++i) sum += k[static_cast<std::size_t>(i + r)] = static_cast<float>(std::exp(-0.5 * i * i / (sigma * sigma)));
    for (float& v : k) v = static_cast<float>(v / sum);
    const int w = in.width, h = in.height;
    std::vector<float> tmp(static_cast<std::size_t>(w) * static_cast<std::size_t>(h)), line(static_cast<std::size_t>(std::max(w, h) + 2 * r));
    for (int y = 0; y < h; ++y) {  // rows: a padded copy of the row, then the taps without bounds checks
        for (int x = -r; x < w + r; ++x) line[static_cast<std::size_t>(x + r)] = static_cast<float>(in.at(mirrorIndex(x, w), y));
        float* out = &tmp[static_cast<std::size_t>(y) * static_cast<std::size_t>(w)];
        for (int x = 0; x < w; ++x) {
            float a = 0;
            for (int i = 0; i <= 2 * r; ++i) a += k[static_cast<std::size_t>(i)] * line[static_cast<std::size_t>(x + i)];
            out[x] = a;
        }
    }
    Image<U> out(w, h);
    std::vector<float> column(static_cast<std::size_t>(w));
    for (int y = 0; y < h; ++y) {  // columns: whole rows at a time
        std::fill(column.begin(), column.end(), 0.0f);
        for (int i = -r; i <= r; ++i) {
            const float g = k[static_cast<std::size_t>(i + r)];
            const float* src = &tmp[static_cast<std::size_t>(mirrorIndex(y + i, h)) * static_cast<std::size_t>(w)];
            for (int x = 0; x < w; ++x) column[static_cast<std::size_t>(x)] += g * src[x];
        }
        for (int x = 0; x < w; ++x) {
            const double v = column[static_cast<std::size_t>(x)] * scale;
            if constexpr (std::is_floating_point_v<U>) out.at(x, y) = static_cast<U>(v);
            else out.at(x, y) = static_cast<U>(std::clamp(std::lround(v), 0L, static_cast<long>(std::numeric_limits<U>::max())));
        }
    }
    return out;
}

template <class T>
void measure(ImageView<const T> image, const OrientationFieldParams& p, const AngleSet& angles, int length,
             const EngineOptions& opt, BlockVectors& acc) {
    if (p.method == OrientationMethod::BlockSpectrum) blockSpectrum(image, angles, length, p.euclideanLength, p.kind, opt, acc);
    else pixelArg(image, angles, length, p.kind, opt, acc);
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
    if (!(p.coarseSmoothing >= 0)) throw Error("the coarse smoothing must be a non-negative number of blocks");
    if (!(p.presmoothing >= 0) || p.presmoothing > 100) throw Error("the presmoothing must be 0 … 100 pixels");
    if (!(p.blendExponent >= 0)) throw Error("the blend exponent must not be negative");
    if (!(p.coarseAcross >= 0)) throw Error("the coarse smoothing across the ridges must be a non-negative number of blocks");

    OrientationField f;
    f.blockSize = p.blockSize;
    f.blocksX = (image.width + p.blockSize - 1) / p.blockSize;
    f.blocksY = (image.height + p.blockSize - 1) / p.blockSize;
    f.length = p.length > 0 ? p.length : kDefaultOrientationLength;
    const AngleSet angles = AngleSet::overHalfTurn(p.angleCount);
    BlockVectors acc(f.blocksX, f.blocksY, p.blockSize);
    double unitsPerGrey = 1;  // the smoothed image's units per grey level of the input
    if (p.presmoothing > 0 && std::is_same_v<T, std::uint8_t>) {
        unitsPerGrey = 256;
        const Image<std::uint16_t> smooth = gaussianBlur<std::uint16_t>(image, p.presmoothing, unitsPerGrey);
        measure<std::uint16_t>(smooth.cview(), p, angles, f.length, opt, acc);
    } else if (p.presmoothing > 0) {
        const Image<T> smooth = gaussianBlur<T>(image, p.presmoothing, 1.0);
        measure<T>(smooth.cview(), p, angles, f.length, opt, acc);
    } else {
        measure<T>(image, p, angles, f.length, opt, acc);
    }

    const std::size_t blocks = acc.c.size();
    f.weight.resize(blocks);
    f.coherence.resize(blocks);
    for (int by = 0; by < f.blocksY; ++by)
        for (int bx = 0; bx < f.blocksX; ++bx) {
            const std::size_t b = static_cast<std::size_t>(by) * static_cast<std::size_t>(f.blocksX) + static_cast<std::size_t>(bx);
            const int pixels = std::min(p.blockSize, image.width - bx * p.blockSize) *
                               std::min(p.blockSize, image.height - by * p.blockSize);  // edge blocks are partial
            f.weight[b] = static_cast<float>(acc.weight[b] / pixels / unitsPerGrey);
            f.coherence[b] = static_cast<float>(acc.coherence[b]);
        }

    // Each block's vector V (length: contrast × coherence) is scaled to V / √(Σ|v|): its length
    // becomes coherence × √contrast, so that high-contrast noise (scratches, crease and smudge
    // edges) weighs less against faint but coherent ridges. Measured (tests/bench/task-results.md
    // §2): degraded prints 0.2° better on both generators, good ones unchanged.
    std::vector<double> rootMagnitude(blocks, 0.0);  // √Σ|v|: the weights of refineAtSingularPoints
    for (std::size_t b = 0; b < blocks; ++b) {
        if (!(acc.magnitude[b] > 0)) {
            acc.c[b] = acc.s[b] = acc.magnitude[b] = 0;
            continue;
        }
        const double root = rootMagnitude[b] = std::sqrt(acc.magnitude[b]);
        acc.c[b] /= root;
        acc.s[b] /= root;
        acc.magnitude[b] = std::hypot(acc.c[b], acc.s[b]);
    }

    // Fine and coarse fields. Where the coarse window holds one steady orientation its coherence
    // is near 1 and it wins (less noise); near cores and deltas, where orientations in the window
    // cancel, the fine field wins (less bias). Measured on prints: one scale of 1 block loses
    // 0.4–0.6° on good prints and 0.2° on degraded ones to this blend (tests/bench/task-results.md §2).
    std::vector<double> fc = acc.c, fs = acc.s;
    smoothBlocks(fc, f.blocksX, f.blocksY, p.smoothing);
    smoothBlocks(fs, f.blocksX, f.blocksY, p.smoothing);
    if (p.coarseSmoothing > 0) {
        std::vector<double> cc = acc.c, cs = acc.s, cm = acc.magnitude;
        smoothBlocks(cc, f.blocksX, f.blocksY, p.coarseSmoothing);
        smoothBlocks(cs, f.blocksX, f.blocksY, p.coarseSmoothing);
        smoothBlocks(cm, f.blocksX, f.blocksY, p.coarseSmoothing);
        if (p.coarseAcross > p.coarseSmoothing) {
            // The isotropic blend is the pilot whose ridge directions orient the coarse window:
            // σ coarseSmoothing along the ridges, coarseAcross across them (see the header).
            std::vector<double> pc = fc, ps = fs;
            blendFields(pc, ps, cc, cs, cm, p.blendExponent);
            smoothAcrossRidges(acc.c, acc.s, acc.magnitude, pc, ps, f.blocksX, f.blocksY, p.coarseSmoothing,
                               p.coarseAcross, cc, cs, cm);
        }
        blendFields(fc, fs, cc, cs, cm, p.blendExponent);
    }
    if (p.refineSingularPoints) refineAtSingularPoints(fc, fs, acc.c, acc.s, rootMagnitude, f.blocksX, f.blocksY);
    f.angle.resize(blocks);
    for (std::size_t b = 0; b < blocks; ++b) {
        double a = 0.5 * std::atan2(fs[b], fc[b]) * 180 / std::numbers::pi;  // (-90, 90]
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
