#include "tests/tasks/prints/texture_scoring.h"

#include "app/io/image_io.h"
#include "compute/spectrum_peaks.h"
#include "tests/tasks/eval_common.h"
#include "tests/tasks/prints/orientation_metrics.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace linescope::tasks {

namespace {

TextureScore scored(const SyntheticTexture& t, const std::vector<double>& spectrum, const AngleSet& angles, double ms) {
    TextureScore s;
    s.ms = ms;
    const auto peaks = spectrumPeaks(spectrum, angles, false, static_cast<int>(t.orientations.size()));
    for (const SpectrumPeak& p : peaks) s.found.push_back(p.angle);
    s.errors = matchedErrors(t.orientations, s.found);
    s.recovered = std::all_of(s.errors.begin(), s.errors.end(), [&](double e) { return e <= angles.step + 1e-9; });
    return s;
}

}  // namespace

std::vector<double> matchedErrors(const std::vector<double>& truth, const std::vector<double>& found) {
    std::vector<std::size_t> order(found.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::vector<double> best(truth.size(), 90.0);
    double bestWorst = 1e9;
    do {  // one or two orientations: trying every pairing is cheap
        std::vector<double> e(truth.size(), 90.0);
        for (std::size_t i = 0; i < truth.size() && i < order.size(); ++i) e[i] = angleDifference(truth[i], found[order[i]]);
        const double worst = e.empty() ? 0.0 : *std::max_element(e.begin(), e.end());
        if (worst < bestWorst) {
            bestWorst = worst;
            best = e;
        }
    } while (std::next_permutation(order.begin(), order.end()));
    return best;
}

TextureScore scoreTextureEngine(const SyntheticTexture& t, const TextureSweepParams& p) {
    const Stopwatch clock;
    const SweepResult<std::uint8_t> r =
        sweep<std::uint8_t>(io::viewOf<std::uint8_t>(t.image), SweepRequest{MorphOp::Open, p.length, p.angles});
    return scored(t, r.spectrum, r.angles, clock.milliseconds());
}

TextureScore scoreTextureFourier(const SyntheticTexture& t, const TextureSweepParams& p) {
    const Stopwatch clock;
    cv::Mat f, window, spectrum;
    t.image.convertTo(f, CV_32F);
    f -= cv::mean(f)[0];
    cv::createHanningWindow(window, f.size(), CV_32F);  // no cross from the image's edges
    // Zero-padded to twice the size: the DFT grid near the axes is otherwise about 1° coarse
    // at ridge frequencies, as coarse as the step it must resolve.
    cv::Mat padded;
    cv::copyMakeBorder(f.mul(window), padded, 0, cv::getOptimalDFTSize(2 * f.rows) - f.rows, 0,
                       cv::getOptimalDFTSize(2 * f.cols) - f.cols, cv::BORDER_CONSTANT, 0);
    cv::dft(padded, spectrum, cv::DFT_COMPLEX_OUTPUT);
    // Mean power per bin: the DFT grid has more samples along its axes and diagonals, and a
    // plain sum would make peaks at 0°, 45°, 90° and 135° out of the grid alone.
    std::vector<double> bins(static_cast<std::size_t>(p.angles.count), 0.0), weights(bins.size(), 0.0);
    const int w = padded.cols, h = padded.rows;
    for (int l = 0; l < h; ++l) {
        const double v = (l < (h + 1) / 2 ? l : l - h) / static_cast<double>(h);
        const auto* row = spectrum.ptr<cv::Vec2f>(l);
        for (int k = 0; k < w; ++k) {
            const double u = (k < (w + 1) / 2 ? k : k - w) / static_cast<double>(w);
            const double radius = std::hypot(u, v);
            if (radius < 1.0 / 64 || radius > 0.45) continue;  // skip the ground's slow variations and the noise floor
            // A frequency (u, v) is the normal (sin α, cos α) of lines at α = 90° − its direction.
            const double alpha = 90.0 - std::atan2(v, u) * 180.0 / std::numbers::pi;
            const double pos = (alpha - p.angles.start) / p.angles.step;
            const double power = static_cast<double>(row[k][0]) * row[k][0] + static_cast<double>(row[k][1]) * row[k][1];
            // Linear share between the two nearest bins, wrapping over 180°.
            const double lo = std::floor(pos);
            const double frac = pos - lo;
            const int n = p.angles.count;
            const int b0 = ((static_cast<int>(lo) % n) + n) % n, b1 = (b0 + 1) % n;
            bins[static_cast<std::size_t>(b0)] += power * (1 - frac);
            bins[static_cast<std::size_t>(b1)] += power * frac;
            weights[static_cast<std::size_t>(b0)] += 1 - frac;
            weights[static_cast<std::size_t>(b1)] += frac;
        }
    }
    for (std::size_t i = 0; i < bins.size(); ++i) bins[i] /= std::max(weights[i], 1e-12);
    return scored(t, bins, p.angles, clock.milliseconds());
}

}  // namespace linescope::tasks
