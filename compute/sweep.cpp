// The angle sweep: one operator image at a time, folded into the running results.
#include "compute/sweep.h"

#include "compute/band_algorithm.h"
#include "compute/sweep_spectrum.h"

#if LINESCOPE_HAVE_CUDA
#include "compute/cuda/cuda_backend.h"
#endif

#include "compute/cpu/partial_sweep.h"
#include "compute/cpu/sheared_line_morph.h"
#include "compute/cpu/sweep_accumulate.h"
#include "compute/cpu/transpose.h"
#include "compute/line_geometry.h"
#include "compute/thread_pool.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <utility>
#include <vector>

namespace linescope {

AngleSet AngleSet::parse(const std::string& text) {
    const auto bad = [&](const std::string& why) {
        return Error("bad angle range '" + text + "': " + why + " (expected N or start:stop:step, e.g. 180 or 0:180:1)");
    };
    // A bare whole number N: N angles over the half turn. Strictly digits, no sign, no fraction.
    if (text.find(':') == std::string::npos) {
        int count = 0;
        const char* end = text.data() + text.size();
        const auto [stop, ec] = std::from_chars(text.data(), end, count);
        const bool digits = !text.empty() && text[0] != '-' && stop == end;
        if (!digits) throw bad("'" + text + "' is not a whole number of angles");
        if (ec != std::errc() || count < 1 || count > kMaxSweepAngles)
            throw bad("the angle count must be 1 to " + std::to_string(kMaxSweepAngles));
        return overHalfTurn(count);
    }
    double v[3];
    std::size_t pos = 0;
    for (int i = 0; i < 3; ++i) {
        const std::size_t end = i < 2 ? text.find(':', pos) : text.size();
        if (end == std::string::npos) throw bad("three numbers separated by ':' are needed");
        const std::string part = text.substr(pos, end - pos);
        // from_chars, unlike strtod, takes no spaces and no hexadecimal; one leading '+' is allowed.
        const char* first = part.data() + (part.size() > 1 && part[0] == '+' && part[1] != '-' ? 1 : 0);
        const auto [stop, ec] = std::from_chars(first, part.data() + part.size(), v[i], std::chars_format::general);
        if (part.empty() || ec != std::errc() || stop != part.data() + part.size() || !std::isfinite(v[i]))
            throw bad("'" + part + "' is not a number");
        pos = end + 1;
    }
    const double start = v[0], stop = v[1], step = v[2];
    if (step <= 0) throw bad("the step must be positive");
    // stop is excluded; a hair of tolerance keeps 0:180:0.1 at 1800 steps, not 1801.
    const double n = std::ceil((stop - start) / step - 1e-9);
    if (n < 1) throw bad("it holds no angle");
    if (n > kMaxSweepAngles) throw bad("more than " + std::to_string(kMaxSweepAngles) + " angles");
    return AngleSet{start, step, static_cast<int>(n)};
}

void validateSweepRequest(const SweepRequest& req) {
    if (req.op == MorphOp::TopHat) throw Error("a sweep takes erode, dilate, open or close, not tophat");
    if (req.angles.count < 1 || req.angles.count > kMaxSweepAngles)
        throw Error("a sweep takes 1 to " + std::to_string(kMaxSweepAngles) + " angles (got " +
                    std::to_string(req.angles.count) + ")");
    if (!std::isfinite(req.angles.start) || !std::isfinite(req.angles.step))
        throw Error("the sweep's angles must be finite");
}

namespace {

// Any algorithm: one operator image at a time, folded row by row.
template <class T>
void sweepByImages(ImageView<const T> src, const SweepRequest& req, const EngineOptions& opt, bool bySup,
                   SweepResult<T>& r) {
    const int W = src.width, H = src.height;
    Image<T> gamma = Image<T>::unwritten(W, H);  // lineMorph writes every pixel
    std::vector<cpu::SpectrumTerm> rows(static_cast<std::size_t>(H));
    for (int k = 0; k < req.angles.count; ++k) {
        lineMorph<T>(req.op, src, gamma.view(), LineParams{req.angles.angle(k), req.length, req.kind}, opt);
        const auto kk = static_cast<std::uint16_t>(k);
        parallelFor(static_cast<std::size_t>(H), opt.threads, [&](std::size_t y0, std::size_t y1) {
            for (std::size_t yy = y0; yy < y1; ++yy) {
                const int y = static_cast<int>(yy);
                const T* g = gamma.view().row(y);
                T* sup = r.sup.view().row(y);
                T* inf = r.inf.view().row(y);
                std::uint16_t* arg = r.argIndex.view().row(y);
                if (k == 0) cpu::sweepStartRow(g, sup, inf, arg, W, kk);
                else if (bySup) cpu::sweepFoldRow<T, true>(g, sup, inf, arg, W, kk);
                else cpu::sweepFoldRow<T, false>(g, sup, inf, arg, W, kk);
                if constexpr (std::is_floating_point_v<T>) rows[yy].sum = cpu::sweepRowSum(g, W);
                else rows[yy].exact = cpu::sweepRowSum(g, W);
            }
        });
        cpu::SpectrumTerm total;
        for (const auto& t : rows) { total.exact += t.exact; total.sum += t.sum; }
        cpu::setSpectrum(r, k, total);
    }
}

// The angles `ks` in their order, with `threads` workers inside each angle (cpu::ShearedRun:
// each angle's strips fold straight into the running results).
template <class T>
cpu::RunPlanes<T> sweepAngles(ImageView<const T> src, ImageView<const T> srcT, const SweepRequest& req,
                              const std::vector<int>& ks, int threads, bool bySup, SweepResult<T>& r) {
    cpu::ShearedRun<T> run(src, srcT, req, threads, bySup);
    for (int k : ks) cpu::setSpectrum(r, k, run.step(k));
    return run.take();
}

// The angles in the order the workers share them: the flat ones (run on the transposed
// image), then the upright ones, each in increasing k. A worker's contiguous share then
// holds one layout, except where the share straddles the boundary, which is moved to it when
// that unbalances the shares by at most a few angles: a worker with both layouts fills and
// merges a second set of planes, which costs more than those angles.
std::vector<std::vector<int>> shareAngles(const AngleSet& angles, int width, int height, int workers) {
    std::vector<int> order, upright;
    for (int k = 0; k < angles.count; ++k)
        (lineFamily(angles.angle(k), width, height).yMajor ? upright : order).push_back(k);
    const int flat = static_cast<int>(order.size());
    order.insert(order.end(), upright.begin(), upright.end());
    const int slack = std::max(1, angles.count / 32);
    std::vector<std::vector<int>> shares(static_cast<std::size_t>(workers));
    int begin = 0;
    for (int w = 0; w < workers; ++w) {
        int end = static_cast<int>(static_cast<long long>(angles.count) * (w + 1) / workers);
        if (w + 1 < workers && std::abs(end - flat) <= slack && flat > begin) end = flat;
        end = std::max(end, begin);  // a share moved forward may have reached past this one
        shares[static_cast<std::size_t>(w)].assign(order.begin() + begin, order.begin() + end);
        begin = end;
    }
    return shares;
}

// The default. With many angles, each worker takes a share of them and runs them alone (no
// synchronization per angle, and a float spectrum term is summed by one worker, so it does
// not depend on the thread count); the shares are merged at the end (any order: the merge
// keeps the smaller k on ties). With few angles, the workers share each angle's strips.
template <class T>
void sweepSheared(ImageView<const T> src, const SweepRequest& req, const EngineOptions& opt, bool bySup,
                  SweepResult<T>& r) {
    const int W = src.width, H = src.height;
    const int count = req.angles.count;
    bool anyFlat = false;
    for (int k = 0; k < count && !anyFlat; ++k) anyFlat = !lineFamily(req.angles.angle(k), W, H).yMajor;
    Image<T> srcT;
    if (anyFlat) {
        srcT = Image<T>::unwritten(H, W);
        cpu::transposeImage<T>(src, srcT.view(), opt.threads);
    }
    // Each share holds up to two sets of planes; keep them within ~1 GiB together.
    const double shareBytes = 2.0 * static_cast<double>(src.pixelCount()) * (2 * sizeof(T) + 2);
    const int memoryCap = std::max(1, static_cast<int>((1024.0 * 1024 * 1024) / shareBytes));
    const int workers = std::min({resolveThreads(opt.threads), memoryCap, count / 2});
    std::vector<cpu::RunPlanes<T>> parts;
    if (workers <= 1) {
        std::vector<int> all(static_cast<std::size_t>(count));
        for (int k = 0; k < count; ++k) all[static_cast<std::size_t>(k)] = k;
        parts.push_back(sweepAngles<T>(src, srcT.cview(), req, all, opt.threads, bySup, r));
    } else {
        const auto shares = shareAngles(req.angles, W, H, workers);
        parts.resize(static_cast<std::size_t>(workers));
        parallelFor(static_cast<std::size_t>(workers), workers, [&](std::size_t w0, std::size_t w1) {
            for (std::size_t w = w0; w < w1; ++w) parts[w] = sweepAngles<T>(src, srcT.cview(), req, shares[w], 1, bySup, r);
        });
    }
    cpu::PartialSweep<T> total = cpu::combine(std::move(parts), bySup, opt.threads);
    r.sup = std::move(total.sup);
    r.inf = std::move(total.inf);
    r.argIndex = std::move(total.arg);
}

// The checks every sweep makes before any work; true when the device's host sweep serves it
// (segment and periodic sweeps fold one image an angle, sweepByImages, each computed on the
// backend's device by lineMorph).
template <class T>
bool checkedForDevice(ImageView<const T> src, const SweepRequest& req, const EngineOptions& opt) {
    validateSweepRequest(req);
    if (src.empty()) throw Error("the image is empty");
    segmentOf(req.length);  // validates λ
    requireNoNaN(src);
    const Backend backend = resolveBackend(opt.backend);
#if LINESCOPE_HAVE_CUDA
    return backend == Backend::Cuda && usesBandKernel(opt.algorithm) && req.kind == LineKind::Paths;
#else
    (void)backend;
    return false;
#endif
}

template <class T>
SweepResult<T> deviceSweep(ImageView<const T> src, const SweepRequest& req, bool withImages) {
#if LINESCOPE_HAVE_CUDA
    return cuda::sweep<T>(src, req, withImages);
#else
    (void)src, (void)req, (void)withImages;
    throw Error("this build of LineScope has no CUDA backend");  // checkedForDevice said no
#endif
}

// sweep() on the CPU, after checkedForDevice.
template <class T>
SweepResult<T> hostSweep(ImageView<const T> src, const SweepRequest& req, const EngineOptions& opt) {
    const int W = src.width, H = src.height;
    SweepResult<T> r;
    r.angles = req.angles;
    r.op = req.op;
    r.spectrum.assign(static_cast<std::size_t>(req.angles.count), 0.0);
    if (!std::is_floating_point_v<T>) r.spectrumExact.assign(static_cast<std::size_t>(req.angles.count), 0);
    // Openings and erosions are oriented by their supremum, closings and dilations by their infimum.
    const bool bySup = req.op == MorphOp::Open || req.op == MorphOp::Erode;
    // The fold over angles is the same for every kind; only line paths have the sheared sweep.
    if (req.kind == LineKind::Paths && (opt.algorithm == LineAlgorithm::Auto || opt.algorithm == LineAlgorithm::Sheared)) {
        sweepSheared<T>(src, req, opt, bySup, r);
    } else {
        r.sup = Image<T>::unwritten(W, H);  // the first angle writes every pixel
        r.inf = Image<T>::unwritten(W, H);
        r.argIndex = Image<std::uint16_t>::unwritten(W, H);
        sweepByImages<T>(src, req, opt, bySup, r);
    }
    r.strength = cpu::strengthOf(r.sup, r.inf, opt.threads);
    return r;
}

}  // namespace

template <class T>
SweepResult<T> sweep(ImageView<const T> src, const SweepRequest& req, const EngineOptions& opt) {
    if (checkedForDevice(src, req, opt)) return deviceSweep<T>(src, req, true);
    return hostSweep<T>(src, req, opt);
}

template <class T>
SweepSpectrum sweepSpectrum(ImageView<const T> src, const SweepRequest& req, const EngineOptions& opt) {
    SweepResult<T> r = checkedForDevice(src, req, opt) ? deviceSweep<T>(src, req, false) : hostSweep<T>(src, req, opt);
    return {std::move(r.spectrum), std::move(r.spectrumExact)};
}

template SweepSpectrum sweepSpectrum<std::uint8_t>(ImageView<const std::uint8_t>, const SweepRequest&,
                                                   const EngineOptions&);
template SweepSpectrum sweepSpectrum<std::uint16_t>(ImageView<const std::uint16_t>, const SweepRequest&,
                                                    const EngineOptions&);
template SweepSpectrum sweepSpectrum<float>(ImageView<const float>, const SweepRequest&, const EngineOptions&);
template SweepResult<std::uint8_t> sweep<std::uint8_t>(ImageView<const std::uint8_t>, const SweepRequest&,
                                                       const EngineOptions&);
template SweepResult<std::uint16_t> sweep<std::uint16_t>(ImageView<const std::uint16_t>, const SweepRequest&,
                                                         const EngineOptions&);
template SweepResult<float> sweep<float>(ImageView<const float>, const SweepRequest&, const EngineOptions&);

}  // namespace linescope
