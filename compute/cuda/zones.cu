#include "compute/cuda/zones.h"

#include "compute/cuda/cuda_check.h"

#include <atomic>
#include <string>
#include <type_traits>

namespace linescope::cuda::zones {

namespace {

std::atomic<std::uint64_t> zoneCount{0};

// The plan within what a call may use now, or the refusal naming the smallest strip's need.
// The pool's idle memory is released only when the whole image does not fit without it.
std::vector<Strip> planOrRefuse(int height, int reach, const std::function<std::size_t(int)>& bytesForRows,
                                const char* work, CudaContext& ctx) {
    std::size_t budget = ctx.availableDeviceMemory(false);
    if (bytesForRows(height) > budget) budget = ctx.availableDeviceMemory(true);
    StripPlan plan = planStrips(height, reach, budget, bytesForRows);
    if (plan.fits()) return std::move(plan.strips);
    const std::string what = plan.smallestRows < height
                                 ? std::string(work) + ", even in zones of " + std::to_string(plan.smallestRows) + " rows,"
                                 : std::string(work);
    ctx.refuseDeviceMemory(plan.smallestBytes, what);
}

std::size_t inputBytes(Input input, std::size_t rowBytes, int rows) {
    return input == Input::Host ? rowBytes * static_cast<std::size_t>(rows) : 0;
}

ZoneFrame frameOf(const Strip& s) { return {s.loadBegin, s.keepBegin - s.loadBegin, s.keepEnd - s.loadBegin}; }

void countZones(const std::vector<Strip>& strips) {
    if (strips.size() > 1) zoneCount.fetch_add(strips.size());
}

}  // namespace

template <class T>
std::vector<Strip> lineMorphStrips(MorphOp op, const LineFamily& family, Segment seg, LineAlgorithm algorithm,
                                   Input input, CudaContext& ctx) {
    const std::size_t rowBytes = devicePitch(family.width, sizeof(T));
    auto bytesForRows = [&](int rows) {
        // The strip's input, its result (the Result slot), and the operator's own buffers.
        return inputBytes(input, rowBytes, rows) + rowBytes * static_cast<std::size_t>(rows) +
               lineMorphDeviceBytes<T>(op, stripFamily(family, 0, rows), seg, algorithm, ctx);
    };
    return planOrRefuse(family.height, zoneReach(op, seg.length()), bytesForRows, "this line operator", ctx);
}

template <class T>
void lineMorph(const std::vector<Strip>& strips, MorphOp op, const LineFamily& family, Segment seg,
               LineAlgorithm algorithm, const StripInput<T>& input, const KeptRows<T>& output, CudaContext& ctx) {
    for (const Strip& s : strips) {
        const DeviceImageView<const T> in = input(s);
        const DeviceImageView<T> out = ctx.image<T>(BufferSlot::Result, family.width, s.loadRows());
        lineMorphDevice<T>(op, in, out, stripFamily(family, s.loadBegin, s.loadRows()), seg, algorithm, ctx);
        output(s, rowsOf<const T>(out, s.keepBegin - s.loadBegin, s.keepEnd - s.loadBegin));
    }
    countZones(strips);
}

template <class T>
std::vector<Strip> sweepStrips(int width, int height, const SweepRequest& req, Input input, CudaContext& ctx) {
    const std::size_t rowBytes = devicePitch(width, sizeof(T));
    auto bytesForRows = [&](int rows) {
        const std::size_t sweep = sweepDeviceBytes<T>(width, rows, req, ctx);
        return sweep == SIZE_MAX ? SIZE_MAX : inputBytes(input, rowBytes, rows) + sweep;
    };
    return planOrRefuse(height, zoneReach(req.op, req.length), bytesForRows, "this sweep", ctx);
}

template <class T>
Spectrum sweep(const std::vector<Strip>& strips, const SweepRequest& req, const StripInput<T>& input,
               const KeptSweepRows<T>& output, CudaContext& ctx) {
    constexpr bool kExact = !std::is_floating_point_v<T>;
    const auto N = static_cast<std::size_t>(req.angles.count);
    Spectrum total;
    total.values.assign(N, 0.0);
    if (kExact) total.exact.assign(N, 0);
    std::vector<double> values(N);
    std::vector<std::int64_t> exact(kExact ? N : 0);
    for (std::size_t z = 0; z < strips.size(); ++z) {
        const Strip& s = strips[z];
        const ZoneFrame frame = frameOf(s);
        DeviceSpectrum d;
        if (output) {
            const DeviceSweepResult<T> r = sweepDevice<T>(input(s), req, ctx, frame);
            const int k0 = frame.keepBegin, k1 = frame.keepEnd;
            output(s, {rowsOf<const T>(r.sup, k0, k1), rowsOf<const T>(r.inf, k0, k1),
                       rowsOf<const T>(r.strength, k0, k1), rowsOf<const std::uint16_t>(r.argIndex, k0, k1)});
            d = {r.spectrumExact, r.spectrum, r.count};
        } else {
            d = sweepSpectrumDevice<T>(input(s), req, ctx, frame);
        }
        CudaContext::countHostTraffic(N * (sizeof(double) + (kExact ? sizeof(std::int64_t) : 0)));
        LS_CUDA_CHECK(cudaMemcpyAsync(values.data(), d.values, N * sizeof(double), cudaMemcpyDeviceToHost, ctx.stream()));
        if (kExact)
            LS_CUDA_CHECK(cudaMemcpyAsync(exact.data(), d.exact, N * sizeof(std::int64_t), cudaMemcpyDeviceToHost,
                                          ctx.stream()));
        ctx.synchronize();  // the sums are read here, and the next zone reuses the sweep's buffers
        for (std::size_t k = 0; k < N; ++k) {
            if (kExact) total.exact[k] += exact[k];
            else total.values[k] = z == 0 ? values[k] : total.values[k] + values[k];
        }
    }
    if (kExact)
        for (std::size_t k = 0; k < N; ++k) total.values[k] = static_cast<double>(total.exact[k]);
    countZones(strips);
    return total;
}

std::uint64_t zonesRun() { return zoneCount.load(); }

#define LS_INSTANTIATE(T)                                                                                            \
    template std::vector<Strip> lineMorphStrips<T>(MorphOp, const LineFamily&, Segment, LineAlgorithm, Input,        \
                                                   CudaContext&);                                                    \
    template void lineMorph<T>(const std::vector<Strip>&, MorphOp, const LineFamily&, Segment, LineAlgorithm,         \
                               const StripInput<T>&, const KeptRows<T>&, CudaContext&);                              \
    template std::vector<Strip> sweepStrips<T>(int, int, const SweepRequest&, Input, CudaContext&);                  \
    template Spectrum sweep<T>(const std::vector<Strip>&, const SweepRequest&, const StripInput<T>&,                 \
                               const KeptSweepRows<T>&, CudaContext&);
LS_INSTANTIATE(std::uint8_t)
LS_INSTANTIATE(std::uint16_t)
LS_INSTANTIATE(float)
#undef LS_INSTANTIATE

}  // namespace linescope::cuda::zones
