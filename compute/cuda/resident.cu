#include "compute/cuda/resident.h"

#include "compute/cuda/contours_device.h"
#include "compute/cuda/cuda_line_api.h"
#include "compute/cuda/kernel_line_morph.h"
#include "compute/cuda/plane_extremes.cuh"
#include "compute/cuda/pool_array.h"
#include "compute/cuda/sweep_results.cuh"
#include "compute/cuda/zones.h"
#include "compute/line_geometry.h"
#include "compute/pixel_rules.h"
#include "compute/sweep_chunks.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

namespace linescope::cuda {
namespace {

std::size_t elementSize(PixelType t) {
    switch (t) {
    case PixelType::U8: return 1;
    case PixelType::U16: return 2;
    case PixelType::F32: return 4;
    }
    return 1;
}

dim3 gridFor(int w, int h) { return dim3((w + 31) / 32, (h + 7) / 8); }
constexpr dim3 kBlock(32, 8);

// Takes or folds a chunk of every m-th angle from `first` (local index a ↦ first + m·a) into
// the accumulators. The chunks come in the order of chunkResidues, not by angle, so a tie
// goes to the smaller angle index explicitly: sweep()'s rule (the smallest k reaching the extreme).
// One angle's image (the segment and periodic sweeps): s2 = i2 = the image, a2 without data
// (local index 0 everywhere), `first` its k.
template <class T>
__global__ void foldChunk(DeviceImageView<T> sup, DeviceImageView<T> inf, DeviceImageView<std::uint16_t> arg,
                          DeviceImageView<const T> s2, DeviceImageView<const T> i2,
                          DeviceImageView<const std::uint16_t> a2, int first, int m, bool take, bool bySup) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= sup.width || y >= sup.height) return;
    const T cs = s2.at(x, y), ci = i2.at(x, y);
    const auto k = static_cast<std::uint16_t>(a2.data ? first + m * a2.at(x, y) : first);
    if (take) {
        sup.at(x, y) = cs;
        inf.at(x, y) = ci;
        arg.at(x, y) = k;
        return;
    }
    const T s = sup.at(x, y), i = inf.at(x, y);
    const bool better = bySup ? (s < cs || (s == cs && k < arg.at(x, y))) : (ci < i || (ci == i && k < arg.at(x, y)));
    if (better) arg.at(x, y) = k;
    if (s < cs) sup.at(x, y) = cs;
    if (ci < i) inf.at(x, y) = ci;
}

// Σ of each row of g, left to right in one thread (cpu::sweepRowSum's order: the float sum
// is the CPU's bit for bit), then (rowsToSpectrum, one thread) the rows in order, as
// sweepByImages totals them.
template <class T>
__global__ void rowSums(DeviceImageView<const T> g, SpectrumSum<T>* rows) {
    const int y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= g.height) return;
    SpectrumSum<T> s = 0;
    for (int x = 0; x < g.width; ++x) s += static_cast<SpectrumSum<T>>(g.at(x, y));
    rows[y] = s;
}

template <class T>
__global__ void rowsToSpectrum(const SpectrumSum<T>* rows, int height, int k, std::int64_t* exact, double* spectrum) {
    SpectrumSum<T> total = 0;
    for (int y = 0; y < height; ++y) total += rows[y];
    if constexpr (std::is_floating_point_v<T>) {
        spectrum[k] = total;
    } else {
        exact[k] = total;
        spectrum[k] = static_cast<double>(total);
    }
}

template <class T>
__global__ void strengthOf(DeviceImageView<const T> sup, DeviceImageView<const T> inf, DeviceImageView<T> strength) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= sup.width || y >= sup.height) return;
    strength.at(x, y) = static_cast<T>(sup.at(x, y) - inf.at(x, y));
}

// The largest value as float, from its key (the orientation map's white point, for the
// viewport's kernels: no trip through the host).
template <class T>
__global__ void maxKeyAsFloat(const unsigned* keys, float* out) {
    *out = static_cast<float>(classic::fromOrderedKey<T>(keys[1]));
}

template <class T>
double valueOfKey(unsigned k) {
    return static_cast<double>(classic::fromOrderedKey<T>(k));
}

template <class T>
__global__ void gatherGrid(DeviceImageView<const T> plane, int step, int cols, int rows, double* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= cols * rows) return;
    const int cx = step / 2 + (i % cols) * step, cy = step / 2 + (i / cols) * step;
    out[i] = static_cast<double>(plane.at(cx, cy));
}

template <class T>
__global__ void thresholdPlane(DeviceImageView<const T> plane, double threshold, DeviceImageView<std::uint8_t> bin) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= plane.width || y >= plane.height) return;
    bin.at(x, y) = static_cast<double>(plane.at(x, y)) > threshold ? 255 : 0;
}

template <class T>
void copyPlane(DeviceImageView<const T> from, DeviceImageView<T> to, cudaStream_t s) {
    LS_CUDA_CHECK(cudaMemcpy2DAsync(to.data, to.pitch, from.data, from.pitch, sizeof(T) * from.width, from.height,
                                    cudaMemcpyDeviceToDevice, s));
}

// The strength plane sup − inf and its maximum (on the device for the viewport, one float
// for the host) into r; waits for the stream.
template <class T>
void finishSweep(ResidentSweep& r, const std::shared_ptr<ResidentImage>& strength, CudaContext& ctx) {
    const cudaStream_t s = ctx.stream();
    const int W = r.sup->width(), H = r.sup->height();
    strengthOf<T><<<gridFor(W, H), kBlock, 0, s>>>(r.sup->view<T>(), r.inf->view<T>(), strength->view<T>());
    LS_CUDA_CHECK_LAUNCH("strengthOf");
    auto* keys = ctx.buffer(BufferSlot::Scratch).as<unsigned>(2);
    minMaxKeys<T>(strength->view<T>(), keys, 4 * ctx.multiprocessors(), s);
    const std::shared_ptr<ResidentImage> max = std::make_shared<ResidentImage>(PixelType::F32, 1, 1, ctx);
    maxKeyAsFloat<T><<<1, 1, 0, s>>>(keys, max->view<float>().data);
    LS_CUDA_CHECK_LAUNCH("maxKeyAsFloat");
    float maxStrength = 0;
    CudaContext::countHostTraffic(sizeof maxStrength);
    LS_CUDA_CHECK(cudaMemcpyAsync(&maxStrength, max->data(), sizeof maxStrength, cudaMemcpyDeviceToHost, s));
    ctx.synchronize();
    r.maxStrength = maxStrength;
    r.maxStrengthOnDevice = max;
    r.strength = strength;
}

template <class T>
ResidentPtr copyOf(const ResidentImage& from, CudaContext& ctx) {
    auto to = std::make_shared<ResidentImage>(from.type(), from.width(), from.height(), ctx);
    copyPlane<T>(std::as_const(from).view<T>(), to->view<T>(), ctx.stream());
    return to;
}

// A new sweep's accumulators (sup, inf and the angle index), which r holds read-only.
struct Accumulators {
    std::shared_ptr<ResidentImage> sup, inf, arg;
};

template <class T>
Accumulators startSweep(ResidentSweep& r, const SweepRequest& req, int W, int H, CudaContext& ctx) {
    r.angles = req.angles;
    r.op = req.op;
    Accumulators acc{std::make_shared<ResidentImage>(pixelTypeOf<T>(), W, H, ctx),
                     std::make_shared<ResidentImage>(pixelTypeOf<T>(), W, H, ctx),
                     std::make_shared<ResidentImage>(PixelType::U16, W, H, ctx)};
    r.sup = acc.sup;
    r.inf = acc.inf;
    r.argIndex = acc.arg;
    return acc;
}

// A sweep of segment or periodic lines (kernel_line_morph.h): one image an angle, computed
// on the device from the source and folded there with the host sweep's rules (sweepByImages),
// the spectrum summed in its order. No previews; `step` after every `chunkAngles` angles (< 1:
// once, at the end), so that a checkpoint's wait for the device comes a chunk at a time.
template <class T>
ResidentSweep sweepKindsResidentT(const ResidentImage& srcImage, const SweepRequest& req, int chunkAngles,
                                  const ChunkStep& step, CudaContext& ctx) {
    const int total = req.angles.count;
    const int W = srcImage.width(), H = srcImage.height();
    const DeviceImageView<const T> src = srcImage.template view<T>();
    const cudaStream_t s = ctx.stream();
    const bool bySup = req.op == MorphOp::Open || req.op == MorphOp::Erode;
    std::vector<LineKernel> kernels;  // all built (and validated) before any work
    kernels.reserve(static_cast<std::size_t>(total));
    for (int k = 0; k < total; ++k) kernels.push_back(lineKernel(req.kind, req.angles.angle(k), req.length));

    ResidentSweep r;
    const Accumulators acc = startSweep<T>(r, req, W, H, ctx);
    ResidentImage gamma(pixelTypeOf<T>(), W, H, ctx);
    const DeviceImageView<T> mid = ctx.image<T>(BufferSlot::Temp, W, H);
    const PoolArray rows(static_cast<std::size_t>(H) * sizeof(SpectrumSum<T>), s);
    const PoolArray sums(static_cast<std::size_t>(total) * (sizeof(double) + sizeof(std::int64_t)), s);
    auto* spectrum = sums.as<double>();
    auto* exact = reinterpret_cast<std::int64_t*>(spectrum + total);
    const DeviceImageView<T> supView = acc.sup->template view<T>(), infView = acc.inf->template view<T>();
    const DeviceImageView<std::uint16_t> argView = acc.arg->template view<std::uint16_t>();
    const DeviceImageView<T> out = gamma.template view<T>();
    const DeviceImageView<const T> g = std::as_const(gamma).template view<T>();
    SpectrumSum<T>* const rowSum = rows.as<SpectrumSum<T>>();
    if (step) step(0, total);
    for (int k = 0; k < total; ++k) {
        kernelLineMorphDevice<T>(req.op, src, out, mid, kernels[static_cast<std::size_t>(k)], ctx);
        foldChunk<T><<<gridFor(W, H), kBlock, 0, s>>>(supView, infView, argView, g, g, {}, k, 1, k == 0, bySup);
        LS_CUDA_CHECK_LAUNCH("foldChunk");
        rowSums<T><<<(H + 127) / 128, 128, 0, s>>>(g, rowSum);
        LS_CUDA_CHECK_LAUNCH("rowSums");
        rowsToSpectrum<T><<<1, 1, 0, s>>>(rowSum, H, k, exact, spectrum);
        LS_CUDA_CHECK_LAUNCH("rowsToSpectrum");
        const bool chunkDone = chunkAngles < 1 ? k + 1 == total : (k + 1) % chunkAngles == 0 || k + 1 == total;
        if (step && chunkDone) {  // a checkpoint that may stop the sweep sees the angles done
            ctx.synchronize();
            step(k + 1, total);
        }
    }
    r.spectrum.resize(static_cast<std::size_t>(total));
    LS_CUDA_CHECK(cudaMemcpyAsync(r.spectrum.data(), spectrum, r.spectrum.size() * sizeof(double),
                                  cudaMemcpyDeviceToHost, s));
    if (!std::is_floating_point_v<T>) {
        r.spectrumExact.resize(static_cast<std::size_t>(total));
        LS_CUDA_CHECK(cudaMemcpyAsync(r.spectrumExact.data(), exact, r.spectrumExact.size() * sizeof(std::int64_t),
                                      cudaMemcpyDeviceToHost, s));
    }
    CudaContext::countHostTraffic(static_cast<std::size_t>(total) * (sizeof(double) + sizeof(std::int64_t)));
    finishSweep<T>(r, std::make_shared<ResidentImage>(pixelTypeOf<T>(), W, H, ctx), ctx);  // waits for the copies
    return r;
}

template <class T>
ResidentSweep sweepResidentT(const ResidentImage& srcImage, const SweepRequest& req, int chunkAngles,
                             const ChunkStep& step, const ResidentPreviewFn& preview, CudaContext& ctx) {
    const int total = req.angles.count;
    if (total < 1 || total > kMaxSweepAngles)
        throw Error("a sweep takes 1 to " + std::to_string(kMaxSweepAngles) + " angles (got " + std::to_string(total) +
                    ")");
    const std::vector<SweepChunk> chunks = sweepChunks(req.angles, chunkAngles);
    const int W = srcImage.width(), H = srcImage.height();
    const DeviceImageView<const T> src = srcImage.view<T>();
    const cudaStream_t s = ctx.stream();
    const bool bySup = req.op == MorphOp::Open || req.op == MorphOp::Erode;

    ResidentSweep r;
    const Accumulators acc = startSweep<T>(r, req, W, H, ctx);
    const auto& sup = acc.sup;
    const auto& inf = acc.inf;
    const auto& arg = acc.arg;
    r.spectrum.resize(static_cast<std::size_t>(total));
    if (!std::is_floating_point_v<T>) r.spectrumExact.resize(static_cast<std::size_t>(total));

    if (step) step(0, total);
    int done = 0;
    for (std::size_t c = 0; c < chunks.size(); ++c) {
        const SweepChunk& chunk = chunks[c];
        SweepRequest part = req;
        part.angles = chunk.angles;
        // In zones when the chunk's working memory does not fit beside the resident planes:
        // each strip a view of the source, its kept rows taken (first chunk) or folded.
        const std::vector<Strip> strips = zones::sweepStrips<T>(W, H, part, zones::Input::Device, ctx);
        const zones::Spectrum spectrum = zones::sweep<T>(
            strips, part, [&](const Strip& z) { return zones::rowsOf(src, z.loadBegin, z.loadEnd); },
            [&](const Strip& z, const zones::KeptSweep<T>& d) {
                auto rows = [&](auto& plane, auto tag) {
                    return zones::rowsOf(plane->template view<decltype(tag)>(), z.keepBegin, z.keepEnd);
                };
                foldChunk<T><<<gridFor(W, z.keepEnd - z.keepBegin), kBlock, 0, s>>>(
                    rows(sup, T{}), rows(inf, T{}), rows(arg, std::uint16_t{}), d.sup, d.inf, d.argIndex,
                    chunk.first, chunk.stride, c == 0, bySup);
                LS_CUDA_CHECK_LAUNCH("foldChunk");
            },
            ctx);
        // zones::sweep waited for the chunk (its slots are reused by the next one) before
        // this checkpoint, which may end the sweep.
        for (int j = 0; j < chunk.angles.count; ++j) {
            const auto k = static_cast<std::size_t>(chunk.first + chunk.stride * j);
            r.spectrum[k] = spectrum.values[static_cast<std::size_t>(j)];
            if (!spectrum.exact.empty()) r.spectrumExact[k] = spectrum.exact[static_cast<std::size_t>(j)];
        }
        done += chunk.angles.count;
        if (step) step(done, total);
        const auto covered = preview ? coveredAfter(req.angles, chunks, static_cast<int>(c) + 1) : std::nullopt;
        if (covered) {  // copies: the accumulators go on changing while the preview is shown
            ResidentSweep soFar;
            soFar.angles = req.angles;
            soFar.op = req.op;
            soFar.sup = copyOf<T>(*r.sup, ctx);
            soFar.inf = copyOf<T>(*r.inf, ctx);
            soFar.argIndex = copyOf<std::uint16_t>(*r.argIndex, ctx);
            const int d = chunk.stride / (static_cast<int>(c) + 1);  // covered: every d-th angle (coveredAfter)
            for (int j = 0; j < covered->count; ++j) {
                const auto k = static_cast<std::size_t>(d * j);
                soFar.spectrum.push_back(r.spectrum[k]);
                if (!r.spectrumExact.empty()) soFar.spectrumExact.push_back(r.spectrumExact[k]);
            }
            finishSweep<T>(soFar, std::make_shared<ResidentImage>(pixelTypeOf<T>(), W, H, ctx), ctx);
            preview(std::move(soFar), *covered);
        }
    }
    finishSweep<T>(r, std::make_shared<ResidentImage>(pixelTypeOf<T>(), W, H, ctx), ctx);
    return r;
}

}  // namespace

ResidentImage::ResidentImage(PixelType type, int width, int height, CudaContext& ctx)
    : type_(type), width_(width), height_(height), pitch_(devicePitch(width, elementSize(type))),
      stream_(ctx.stream()), ctx_(&ctx) {
    if (width <= 0 || height <= 0) throw Error("the image is empty");
    if (bytes() > ctx.capLeft()) ctx.refuseDeviceMemory(bytes(), "an image kept on the GPU");
    const cudaError_t status = cudaMallocAsync(&data_, bytes(), stream_);
    if (status == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        std::size_t freeBytes = 0, totalBytes = 0;
        (void)cudaMemGetInfo(&freeBytes, &totalBytes);
        throw Error("the GPU has too little free memory: " + std::to_string(bytes() >> 20) + " MiB needed, " +
                    std::to_string(freeBytes >> 20) + " MiB free");
    }
    LS_CUDA_CHECK(status);
    ctx.countResidentBytes(static_cast<std::ptrdiff_t>(bytes()));  // against the device memory cap
}

ResidentImage::ResidentImage(Borrowed, PixelType type, int width, int height, std::size_t pitch, void* data,
                             CudaContext& ctx)
    : type_(type), width_(width), height_(height), pitch_(pitch), data_(data), owned_(false), stream_(ctx.stream()), ctx_(&ctx) {}

std::shared_ptr<ResidentImage> ResidentImage::borrow(PixelType type, int width, int height, std::size_t pitch,
                                                     void* data, CudaContext& ctx) {
    if (width <= 0 || height <= 0) throw Error("the image is empty");
    if (!data || pitch < width * elementSize(type) || pitch % elementSize(type) != 0 ||
        reinterpret_cast<std::uintptr_t>(data) % elementSize(type) != 0)
        throw Error("ResidentImage::borrow: the rows are not a whole number of aligned pixels apart");
    return std::shared_ptr<ResidentImage>(new ResidentImage(Borrowed{}, type, width, height, pitch, data, ctx));
}

ResidentImage::~ResidentImage() {
    if (!data_ || !owned_) return;
    (void)cudaFreeAsync(data_, stream_);
    ctx_->countResidentBytes(-static_cast<std::ptrdiff_t>(bytes()));
}

template <class T>
DeviceImageView<T> ResidentImage::view() {
    if (pixelTypeOf<T>() != type_) throw Error("ResidentImage: the pixel type differs");
    return {static_cast<T*>(data_), width_, height_, pitch_};
}

template <class T>
DeviceImageView<const T> ResidentImage::view() const {
    if (pixelTypeOf<T>() != type_) throw Error("ResidentImage: the pixel type differs");
    return {static_cast<const T*>(data_), width_, height_, pitch_};
}

#define LS_INSTANTIATE(T)                                                                                    \
    template DeviceImageView<T> ResidentImage::view<T>();                                                    \
    template DeviceImageView<const T> ResidentImage::view<T>() const;                                        \
    template std::shared_ptr<ResidentImage> uploadResident<T>(ImageView<const T>, CudaContext&);             \
    template Image<T> downloadResident<T>(const ResidentImage&);                                             \
    template SweepResult<T> downloadSweep<T>(const ResidentSweep&);

template <class T>
std::shared_ptr<ResidentImage> uploadResident(ImageView<const T> image, CudaContext& ctx) {
    auto d = std::make_shared<ResidentImage>(pixelTypeOf<T>(), image.width, image.height, ctx);
    ctx.upload(image.data, image.stride * static_cast<std::ptrdiff_t>(sizeof(T)), d->data(), d->pitch(),
               sizeof(T) * static_cast<std::size_t>(image.width), image.height);
    return d;
}

std::shared_ptr<ResidentImage> lineMorphResident(MorphOp op, const ResidentImage& src, const LineParams& line,
                                                 LineAlgorithm algorithm, CudaContext& ctx) {
    const Segment seg = segmentOf(line.length);
    auto dst = std::make_shared<ResidentImage>(src.type(), src.width(), src.height(), ctx);
    if (line.kind != LineKind::Paths) {  // one kernel at every pixel (kernel_line_morph.h)
        const LineKernel kernel = lineKernel(line.kind, line.angle, line.length);
        visitPixelType(src.type(), [&](auto tag) {
            using T = decltype(tag);
            const DeviceImageView<T> mid = ctx.image<T>(BufferSlot::Temp, src.width(), src.height());
            kernelLineMorphDevice<T>(op, src.view<T>(), dst->view<T>(), mid, kernel, ctx);
        });
        ctx.synchronize();  // complete before it is handed out (readers use a stream of their own)
        return dst;
    }
    const LineFamily family = lineFamily(line.angle, src.width(), src.height());
    visitPixelType(src.type(), [&](auto tag) {
        using T = decltype(tag);
        const std::vector<Strip> strips = zones::lineMorphStrips<T>(op, family, seg, algorithm, zones::Input::Device, ctx);
        if (strips.size() == 1) {  // the whole image at once, straight into dst
            lineMorphDevice<T>(op, src.view<T>(), dst->view<T>(), family, seg, algorithm, ctx);
            return;
        }
        const DeviceImageView<T> out = dst->view<T>();
        zones::lineMorph<T>(
            strips, op, family, seg, algorithm,
            [&](const Strip& z) { return zones::rowsOf(src.view<T>(), z.loadBegin, z.loadEnd); },
            [&](const Strip& z, DeviceImageView<const T> kept) {
                copyPlane<T>(kept, zones::rowsOf(out, z.keepBegin, z.keepEnd), ctx.stream());
            },
            ctx);
    });
    ctx.synchronize();
    return dst;
}

ResidentSweep sweepResident(const ResidentImage& src, const SweepRequest& req, int chunkAngles, const ChunkStep& step,
                            CudaContext& ctx, const ResidentPreviewFn& preview) {
    segmentOf(req.length);  // validates λ before any work, as sweep() does
    if (req.kind != LineKind::Paths) {
        validateSweepRequest(req);
        return visitPixelType(src.type(),
                              [&](auto tag) { return sweepKindsResidentT<decltype(tag)>(src, req, chunkAngles, step, ctx); });
    }
    return visitPixelType(src.type(), [&](auto tag) {
        return sweepResidentT<decltype(tag)>(src, req, chunkAngles, step, preview, ctx);
    });
}

void findContoursResident(const ResidentImage& plane, double threshold, ContourMode mode, ContourApprox approx,
                          Contours& out, ContourTimings* timings, CudaContext& ctx) {
    // Temp2: free while contours run (the lock is held); the tracker's own buffers are Contour*.
    const DeviceImageView<std::uint8_t> bin = ctx.image<std::uint8_t>(BufferSlot::Temp2, plane.width(), plane.height());
    visitPixelType(plane.type(), [&](auto tag) {
        using T = decltype(tag);
        thresholdPlane<T><<<gridFor(plane.width(), plane.height()), kBlock, 0, ctx.stream()>>>(plane.view<T>(),
                                                                                             threshold, bin);
        LS_CUDA_CHECK_LAUNCH("thresholdPlane");
    });
    findContoursDevice(bin, mode, approx, ContourTuning{}, out, timings, ctx);
}

namespace {

// Reads run on the image's device, whichever thread asks (kernels launch on the current one).
cudaStream_t readerFor(const ResidentImage& image) {
    LS_CUDA_CHECK(cudaSetDevice(image.context().device()));
    return image.context().readerStream();
}

}  // namespace

template <class T>
Image<T> downloadResident(const ResidentImage& image) {
    Image<T> out(image.width(), image.height());
    const auto v = image.view<T>();
    const cudaStream_t s = readerFor(image);
    CudaContext::countHostTraffic(sizeof(T) * static_cast<std::size_t>(v.width) * v.height);
    LS_CUDA_CHECK(cudaMemcpy2DAsync(out.data(), sizeof(T) * static_cast<std::size_t>(out.width()), v.data, v.pitch,
                                    sizeof(T) * static_cast<std::size_t>(v.width), static_cast<std::size_t>(v.height),
                                    cudaMemcpyDeviceToHost, s));
    LS_CUDA_CHECK(cudaStreamSynchronize(s));
    return out;
}

template <class T>
SweepResult<T> downloadSweep(const ResidentSweep& sweep) {
    SweepResult<T> r;
    r.sup = downloadResident<T>(*sweep.sup);
    r.inf = downloadResident<T>(*sweep.inf);
    r.strength = downloadResident<T>(*sweep.strength);
    r.argIndex = downloadResident<std::uint16_t>(*sweep.argIndex);
    r.spectrum = sweep.spectrum;
    r.spectrumExact = sweep.spectrumExact;
    r.angles = sweep.angles;
    r.op = sweep.op;
    return r;
}

double residentPixel(const ResidentImage& image, int x, int y) {
    if (x < 0 || y < 0 || x >= image.width() || y >= image.height()) return std::numeric_limits<double>::quiet_NaN();
    return visitPixelType(image.type(), [&](auto tag) {
        using T = decltype(tag);
        T v{};
        const cudaStream_t s = readerFor(image);
        CudaContext::countHostTraffic(sizeof(T));
        LS_CUDA_CHECK(cudaMemcpyAsync(&v, &image.view<T>().at(x, y), sizeof(T), cudaMemcpyDeviceToHost, s));
        LS_CUDA_CHECK(cudaStreamSynchronize(s));
        return static_cast<double>(v);
    });
}

std::vector<double> residentGrid(const ResidentImage& image, int step) {
    if (step < 1) throw Error("residentGrid: the step must be at least 1");
    const int cols = image.width() > step / 2 ? (image.width() - step / 2 + step - 1) / step : 0;
    const int rows = image.height() > step / 2 ? (image.height() - step / 2 + step - 1) / step : 0;
    std::vector<double> out(static_cast<std::size_t>(cols) * rows);
    if (out.empty()) return out;
    const cudaStream_t s = readerFor(image);
    double* cells = nullptr;
    LS_CUDA_CHECK(cudaMallocAsync(&cells, out.size() * sizeof(double), s));
    visitPixelType(image.type(), [&](auto tag) {
        using T = decltype(tag);
        gatherGrid<T><<<static_cast<unsigned>((out.size() + 255) / 256), 256, 0, s>>>(image.view<T>(), step, cols, rows,
                                                                                      cells);
    });
    const cudaError_t launch = cudaGetLastError();
    CudaContext::countHostTraffic(out.size() * sizeof(double));
    const cudaError_t copy = launch == cudaSuccess
                                 ? cudaMemcpyAsync(out.data(), cells, out.size() * sizeof(double), cudaMemcpyDeviceToHost, s)
                                 : launch;
    (void)cudaFreeAsync(cells, s);
    LS_CUDA_CHECK(copy);
    LS_CUDA_CHECK(cudaStreamSynchronize(s));
    return out;
}

void residentMinMax(const ResidentImage& image, double* min, double* max) {
    const cudaStream_t s = readerFor(image);
    unsigned* keys = nullptr;
    LS_CUDA_CHECK(cudaMallocAsync(&keys, 2 * sizeof(unsigned), s));
    unsigned host[2] = {};
    const cudaError_t status = visitPixelType(image.type(), [&](auto tag) {
        minMaxKeys<decltype(tag)>(image.view<decltype(tag)>(), keys, 1024, s);
        return cudaMemcpyAsync(host, keys, sizeof host, cudaMemcpyDeviceToHost, s);
    });
    CudaContext::countHostTraffic(sizeof host);
    (void)cudaFreeAsync(keys, s);  // ordered after the copy
    LS_CUDA_CHECK(status);
    LS_CUDA_CHECK(cudaStreamSynchronize(s));
    visitPixelType(image.type(), [&](auto tag) {
        *min = valueOfKey<decltype(tag)>(host[0]);
        *max = valueOfKey<decltype(tag)>(host[1]);
    });
}

LS_INSTANTIATE(std::uint8_t)
LS_INSTANTIATE(std::uint16_t)
LS_INSTANTIATE(float)
#undef LS_INSTANTIATE

}  // namespace linescope::cuda
