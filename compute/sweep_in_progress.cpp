// SweepInProgress: a ShearedRun per pass (increasing k, the kernel's tie rule), merged into
// the running total when the pass ends (the merge's tie rule: the smaller k, wherever it is).
#include "compute/sweep_in_progress.h"

#include "compute/cpu/partial_sweep.h"
#include "compute/cpu/transpose.h"
#include "compute/line_geometry.h"

#include <cmath>
#include <optional>
#include <string>
#include <utility>

namespace linescope {

template <class T>
struct SweepInProgress<T>::Passes {
    std::optional<cpu::ShearedRun<T>> run;  // the pass in progress
    cpu::PartialSweep<T> total;             // the passes before it
};

template <class T>
SweepInProgress<T>::SweepInProgress(ImageView<const T> src, const SweepRequest& req, const EngineOptions& opt)
    : src_(src), req_(req), opt_(opt), passes_(std::make_unique<Passes>()) {
    validateSweepRequest(req);
    // The sheared run folds line paths; another kind would come out as line paths, silently.
    if (req.kind != LineKind::Paths)
        throw Error(std::string("a sweep in progress folds line paths only, not ") + lineKindName(req.kind) + " lines");
    if (src.empty()) throw Error("the image is empty");
    segmentOf(req.length);  // validates λ
    requireNoNaN(src);
    bySup_ = req.op == MorphOp::Open || req.op == MorphOp::Erode;
    bool anyFlat = false;
    for (int k = 0; k < req.angles.count && !anyFlat; ++k)
        anyFlat = !lineFamily(req.angles.angle(k), src.width, src.height).yMajor;
    if (anyFlat) {
        srcT_ = Image<T>::unwritten(src.height, src.width);
        cpu::transposeImage<T>(src, srcT_.view(), opt.threads);
    }
    const auto n = static_cast<std::size_t>(req.angles.count);
    spectra_.spectrum.assign(n, 0.0);
    if (!std::is_floating_point_v<T>) spectra_.spectrumExact.assign(n, 0);
    have_.assign(n, false);
}

template <class T>
SweepInProgress<T>::~SweepInProgress() = default;

template <class T>
bool SweepInProgress<T>::supports(const SweepRequest& req, const EngineOptions& opt) {
    return req.kind == LineKind::Paths && resolveBackend(opt.backend) == Backend::Cpu &&
           (opt.algorithm == LineAlgorithm::Auto || opt.algorithm == LineAlgorithm::Sheared);
}

template <class T>
void SweepInProgress<T>::add(int k) {
    if (k < 0 || k >= req_.angles.count) throw Error("angle index " + std::to_string(k) + " is outside the set");
    if (have_[static_cast<std::size_t>(k)]) throw Error("angle index " + std::to_string(k) + " was folded already");
    if (k < last_) endPass();
    if (!passes_->run) passes_->run.emplace(src_, srcT_.cview(), req_, opt_.threads, bySup_);
    cpu::setSpectrum(spectra_, k, passes_->run->step(k));
    have_[static_cast<std::size_t>(k)] = true;
    ++done_;
    last_ = k;
}

template <class T>
void SweepInProgress<T>::endPass() {
    if (passes_->run) {
        cpu::PartialSweep<T> part = passes_->run->finish(opt_.threads);
        passes_->run.reset();
        if (!passes_->total.started) passes_->total = std::move(part);
        else cpu::mergeInto(passes_->total, std::move(part), bySup_, opt_.threads);
    }
    last_ = -1;
}

template <class T>
SweepResult<T> SweepInProgress<T>::result() {
    endPass();
    if (!passes_->total.started) throw Error("no angle has been folded yet");
    SweepResult<T> r;
    r.sup = passes_->total.sup;
    r.inf = passes_->total.inf;
    r.argIndex = passes_->total.arg;
    r.strength = cpu::strengthOf(r.sup, r.inf, opt_.threads);
    r.spectrum = spectra_.spectrum;
    r.spectrumExact = spectra_.spectrumExact;
    r.angles = req_.angles;
    r.op = req_.op;
    return r;
}

template <class T>
SweepResult<T> SweepInProgress<T>::takeResult() {
    endPass();
    if (!passes_->total.started) throw Error("no angle has been folded yet");
    SweepResult<T> r;
    r.sup = std::move(passes_->total.sup);
    r.inf = std::move(passes_->total.inf);
    r.argIndex = std::move(passes_->total.arg);
    passes_->total.started = false;
    r.strength = cpu::strengthOf(r.sup, r.inf, opt_.threads);
    r.spectrum = std::move(spectra_.spectrum);
    r.spectrumExact = std::move(spectra_.spectrumExact);
    r.angles = req_.angles;
    r.op = req_.op;
    return r;
}

template class SweepInProgress<std::uint8_t>;
template class SweepInProgress<std::uint16_t>;
template class SweepInProgress<float>;

}  // namespace linescope
