// A CPU sweep computed a few angles at a time, so that its caller can stop between angles
// (the session's cancellation checkpoints), show the angles folded so far (a preview), and
// go on. Angles come in passes of increasing index (e.g. every 4th angle, then the ones
// between): whatever the order, once every angle is in, takeResult() equals sweep() bit for
// bit, because parts are merged with sweep()'s own tie rule (the smallest k wins).
//
// Unlike a sweep() call per chunk of angles, the image is transposed once and the planes are
// allocated once per pass, not per chunk: on 16 Mpx that overhead is several times one angle.
#pragma once

#include "compute/backend.h"
#include "compute/image.h"
#include "compute/sweep.h"

#include <memory>
#include <vector>

namespace linescope {

template <class T>
class SweepInProgress {
public:
    // Validates as sweep() does (Error), and refuses what supports() does not cover. `src` must
    // outlive this object.
    SweepInProgress(ImageView<const T> src, const SweepRequest& req, const EngineOptions& opt);
    ~SweepInProgress();
    SweepInProgress(const SweepInProgress&) = delete;
    SweepInProgress& operator=(const SweepInProgress&) = delete;

    // Whether sweep() runs this request on the CPU's sheared path, the one this class folds
    // with: line paths (the other kinds sweep one image per angle), the default algorithm, not
    // CUDA, not the paper kernels.
    static bool supports(const SweepRequest& req, const EngineOptions& opt);

    // Folds angle k of the request's set (each once). A k below the previous one ends the
    // pass in progress (its planes are merged) and starts a new one.
    void add(int k);
    int done() const { return done_; }
    bool has(int k) const { return have_[static_cast<std::size_t>(k)]; }
    bool complete() const { return done_ == req_.angles.count; }

    // The sweep over the angles folded so far (ends the pass in progress): sup, inf, strength,
    // and argIndex as indices of the whole set (orientation() reads it); the spectrum holds
    // the folded angles' sums and 0 elsewhere. A copy: adding goes on afterwards.
    SweepResult<T> result();
    // The same without a copy, leaving this object spent (for the last one).
    SweepResult<T> takeResult();

private:
    struct Passes;
    void endPass();

    ImageView<const T> src_;
    SweepRequest req_;
    EngineOptions opt_;
    bool bySup_ = true;
    Image<T> srcT_;  // the transposed image, made once when an angle is flat
    std::unique_ptr<Passes> passes_;
    SweepResult<T> spectra_;  // spectrum and spectrumExact of the whole set
    std::vector<bool> have_;
    int done_ = 0;
    int last_ = -1;  // the last k of the pass in progress
};

}  // namespace linescope
