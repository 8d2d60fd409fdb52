// Chunked sweeps: each chunk is one engine sweep over consecutive angles, folded into the
// running result exactly as the engine folds angles (the smallest k wins ties).
#include "app/session/chunked_sweep.h"

#include "compute/thread_pool.h"

#include <algorithm>
#include <string>

namespace linescope::session {

namespace {

// Folds the chunk that starts at angle k0 into `acc` (which holds angles 0 … k0-1).
template <class T>
void foldChunk(SweepResult<T>& acc, const SweepResult<T>& chunk, int k0, bool bySup, int threads) {
    const int W = acc.sup.width();
    const auto offset = static_cast<std::uint16_t>(k0);
    parallelFor(static_cast<std::size_t>(acc.sup.height()), threads, [&](std::size_t y0, std::size_t y1) {
        for (int y = static_cast<int>(y0); y < static_cast<int>(y1); ++y) {
            T* sup = acc.sup.view().row(y);
            T* inf = acc.inf.view().row(y);
            std::uint16_t* arg = acc.argIndex.view().row(y);
            const T* s2 = chunk.sup.view().row(y);
            const T* i2 = chunk.inf.view().row(y);
            const std::uint16_t* a2 = chunk.argIndex.view().row(y);
            for (int x = 0; x < W; ++x) {
                // Strictly better only: on a tie the earlier chunk's (smaller) k stays.
                const bool takeChunk = bySup ? sup[x] < s2[x] : i2[x] < inf[x];
                if (takeChunk) arg[x] = static_cast<std::uint16_t>(offset + a2[x]);
                if (sup[x] < s2[x]) sup[x] = s2[x];
                if (i2[x] < inf[x]) inf[x] = i2[x];
            }
        }
    });
}

}  // namespace

template <class T>
bool chunkedSweep(ImageView<const T> src, const SweepRequest& req, const EngineOptions& opt, int chunkAngles,
                  const SweepStepFn& step, SweepResult<T>& out) {
    const int total = req.angles.count;
    // The engine checks these too, but a chunk of a bad set would report a wrong count.
    if (total < 1 || total > kMaxSweepAngles)
        throw Error("a sweep takes 1 to " + std::to_string(kMaxSweepAngles) + " angles (got " +
                    std::to_string(total) + ")");
    const int chunk = chunkAngles < 1 ? total : std::min(chunkAngles, total);
    if (step && !step(0, total)) return false;
    const bool bySup = req.op == MorphOp::Open || req.op == MorphOp::Erode;

    for (int k0 = 0; k0 < total; k0 += chunk) {
        SweepRequest part = req;
        part.angles = AngleSet{req.angles.angle(k0), req.angles.step, std::min(chunk, total - k0)};
        SweepResult<T> r = sweep<T>(src, part, opt);
        if (k0 == 0) {
            out = std::move(r);
            out.spectrum.resize(static_cast<std::size_t>(total));
            if (!out.spectrumExact.empty()) out.spectrumExact.resize(static_cast<std::size_t>(total));
        } else {
            foldChunk(out, r, k0, bySup, opt.threads);
            std::copy(r.spectrum.begin(), r.spectrum.end(), out.spectrum.begin() + k0);
            std::copy(r.spectrumExact.begin(), r.spectrumExact.end(), out.spectrumExact.begin() + k0);
        }
        const int done = k0 + part.angles.count;
        if (step && !step(done, total)) return false;
    }
    out.angles = req.angles;
    out.op = req.op;
    if (chunk < total) {  // the strength of the last chunk alone is stale
        const int W = out.sup.width();
        for (int y = 0; y < out.sup.height(); ++y)
            for (int x = 0; x < W; ++x) out.strength.at(x, y) = static_cast<T>(out.sup.at(x, y) - out.inf.at(x, y));
    }
    return true;
}

template bool chunkedSweep<std::uint8_t>(ImageView<const std::uint8_t>, const SweepRequest&, const EngineOptions&,
                                         int, const SweepStepFn&, SweepResult<std::uint8_t>&);
template bool chunkedSweep<std::uint16_t>(ImageView<const std::uint16_t>, const SweepRequest&,
                                          const EngineOptions&, int, const SweepStepFn&,
                                          SweepResult<std::uint16_t>&);
template bool chunkedSweep<float>(ImageView<const float>, const SweepRequest&, const EngineOptions&, int,
                                  const SweepStepFn&, SweepResult<float>&);

}  // namespace linescope::session
