#include "python/src/device_arrays.h"

#include "python/src/arrays.h"
#include "python/src/contour_results.h"
#include "python/src/options.h"

#include "compute/cuda/cuda_check.h"
#include "compute/cuda/foreign_images.h"
#include "compute/cuda/resident.h"
#include "compute/cuda_devices.h"
#include "compute/line_morph.h"
#include "compute/spectrum_peaks.h"
#include "compute/sweep.h"

#include <dlpack/dlpack.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

namespace linescope::python {

namespace {

using cuda::CudaContext;
using cuda::ResidentImage;

std::size_t pixelBytes(PixelType t) { return t == PixelType::U8 ? 1 : t == PixelType::U16 ? 2 : 4; }

std::string shapeText(py::ssize_t ndim, const auto& shapeAt) {
    std::string s = "(";
    for (py::ssize_t i = 0; i < ndim; ++i) s += (i ? ", " : "") + std::to_string(shapeAt(i));
    return s + (ndim == 1 ? ",)" : ")");
}

// The CPU path's messages (arrays.cpp), so that a GPU array is refused as a NumPy one is.
[[noreturn]] void unsupportedType(const std::string& name, bool allowBool) {
    throw py::type_error("the image has " + name +
                         " pixels, which LineScope does not support (use uint8, uint16 or float32" +
                         (allowBool ? ", or bool for a mask" : "") + ")");
}
void requireTwoDimensions(py::ssize_t ndim, const auto& shapeAt) {
    if (ndim != 2)
        throw py::value_error("the image has " + std::to_string(ndim) + " dimensions (shape " +
                              shapeText(ndim, shapeAt) +
                              "); LineScope takes 2-D images of one channel (convert colour images to grey first)");
    if (shapeAt(0) == 0 || shapeAt(1) == 0) throw py::value_error("the image is empty");
    if (shapeAt(0) > INT32_MAX || shapeAt(1) > INT32_MAX)
        throw py::value_error("the image is too large: shape " + shapeText(ndim, shapeAt));
}

// A GPU array lent by its owner for one call, as a resident image over its memory. Destroyed
// with the GIL held: a DLPack deleter may call into its library's Python objects.
class DeviceInput {
public:
    DeviceInput() = default;
    DeviceInput(const DeviceInput&) = delete;
    DeviceInput& operator=(const DeviceInput&) = delete;
    ~DeviceInput() {
        image.reset();
        if (managed_ && managed_->deleter) managed_->deleter(managed_);
    }
    void own(DLManagedTensor* managed) { managed_ = managed; }

    std::shared_ptr<ResidentImage> image;
    bool allowBool = false;  // set by the caller: bool pixels taken as uint8 0/1 (contours' masks)
    bool boolean = false;    // the pixels were bool

private:
    DLManagedTensor* managed_ = nullptr;
};

// Rows of pixels at (row, column) element strides: the layouts the engine reads in place
// (each row contiguous, rows at least a row apart); anything else is refused with a fix.
std::shared_ptr<ResidentImage> lend(PixelType type, std::int64_t height, std::int64_t width, std::int64_t rowStride,
                                    std::int64_t colStride, void* data, CudaContext& ctx) {
    const bool rowsContiguous = colStride == 1 || width == 1;
    const bool rowsApart = height == 1 || rowStride >= width;
    if (!rowsContiguous || !rowsApart)
        throw py::value_error("the GPU array's pixels are not in rows (strides (" + std::to_string(rowStride) + ", " +
                              std::to_string(colStride) +
                              ") in pixels); pass a row-contiguous array (cupy.ascontiguousarray(a), t.contiguous())");
    if (reinterpret_cast<std::uintptr_t>(data) % pixelBytes(type) != 0)
        throw py::value_error("the GPU array's data is not aligned to its pixel size");
    const int device = cuda::deviceOfPointer(data);
    if (device < 0) throw py::value_error("the array's data is not in GPU memory that CUDA knows");
    if (device != ctx.device())  // OnInputDevice chose the device the protocol named
        throw py::value_error("the array's data is on GPU " + std::to_string(device) + ", but it says GPU " +
                              std::to_string(ctx.device()));
    const auto pitch = static_cast<std::size_t>(height == 1 ? width : rowStride) * pixelBytes(type);
    return ResidentImage::borrow(type, static_cast<int>(width), static_cast<int>(height), pitch, data, ctx);
}

// DLPack's kDLBool (since 0.8; Debian 12's libdlpack-dev is 0.6, which has none).
constexpr std::uint8_t kBoolCode = 6;

std::string dlpackTypeName(const DLDataType& t) {
    std::string code = t.code == kDLInt ? "int" : t.code == kDLUInt ? "uint" : t.code == kDLFloat ? "float"
                     : t.code == kDLBfloat ? "bfloat" : "type code " + std::to_string(t.code) + " of ";
    std::string name = code + std::to_string(t.bits);
    if (t.lanes != 1) name += "x" + std::to_string(t.lanes);
    return name;
}

// __dlpack__(stream=the engine's stream): the producer makes the engine's stream wait for
// the pixels (the protocol's hand-over), so no host wait happens here.
void fromDlpack(const py::handle& object, CudaContext& ctx, DeviceInput& in) {
    py::object capsule = object.attr("__dlpack__")(py::arg("stream") = reinterpret_cast<std::intptr_t>(ctx.stream()));
    auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
    if (!managed) {
        PyErr_Clear();
        throw py::type_error("the image's __dlpack__() did not give a DLPack tensor (a capsule named \"dltensor\")");
    }
    if (PyCapsule_SetName(capsule.ptr(), "used_dltensor") != 0) throw py::error_already_set();  // its deleter is ours to call
    in.own(managed);
    const DLTensor& t = managed->dl_tensor;
    if (t.device.device_type != kDLCUDA && t.device.device_type != kDLCUDAManaged)
        throw py::value_error("the array is not in GPU memory (DLPack device type " +
                              std::to_string(static_cast<int>(t.device.device_type)) + ")");
    const auto shapeAt = [&](py::ssize_t i) { return static_cast<long long>(t.shape[i]); };
    PixelType type = PixelType::U8;
    if (t.dtype.code == kDLUInt && t.dtype.bits == 8 && t.dtype.lanes == 1) type = PixelType::U8;
    else if (t.dtype.code == kDLUInt && t.dtype.bits == 16 && t.dtype.lanes == 1) type = PixelType::U16;
    else if (t.dtype.code == kDLFloat && t.dtype.bits == 32 && t.dtype.lanes == 1) type = PixelType::F32;
    else if (in.allowBool && t.dtype.code == kBoolCode && t.dtype.bits == 8 && t.dtype.lanes == 1) in.boolean = true;
    else unsupportedType(t.dtype.code == kBoolCode ? "bool" : dlpackTypeName(t.dtype), in.allowBool);
    requireTwoDimensions(t.ndim, shapeAt);
    const std::int64_t rowStride = t.strides ? t.strides[0] : t.shape[1];
    const std::int64_t colStride = t.strides ? t.strides[1] : 1;
    in.image = lend(type, t.shape[0], t.shape[1], rowStride, colStride,
                    static_cast<unsigned char*>(t.data) + t.byte_offset, ctx);
}

// __cuda_array_interface__ (version 2 or 3): the engine's stream waits for the producer's
// stream when the interface names one.
void fromCudaArrayInterface(const py::handle& object, CudaContext& ctx, DeviceInput& in) {
    const py::dict cai = object.attr("__cuda_array_interface__");
    if (cai.contains("mask") && !cai["mask"].is_none())
        throw py::value_error("the GPU array has a mask; LineScope takes every pixel");
    const py::tuple shape = cai["shape"];
    const auto shapeAt = [&](py::ssize_t i) { return shape[static_cast<std::size_t>(i)].cast<long long>(); };
    const std::string typestr = cai["typestr"].cast<std::string>();
    PixelType type = PixelType::U8;
    const bool littleOrAny = typestr.size() >= 3 && (typestr[0] == '<' || typestr[0] == '|');
    const std::string kind = typestr.size() >= 3 ? typestr.substr(1, 1) : "?";
    const std::string size = typestr.size() >= 3 ? typestr.substr(2) : "?";
    const std::string name = (kind == "u" ? "uint" : kind == "i" ? "int" : kind == "f" ? "float" : kind == "b" ? "bool"
                              : "'" + typestr + "'") + (kind == "b" ? "" : std::to_string(std::atoi(size.c_str()) * 8));
    if (littleOrAny && typestr.substr(1) == "u1") type = PixelType::U8;
    else if (littleOrAny && typestr.substr(1) == "u2") type = PixelType::U16;
    else if (littleOrAny && typestr.substr(1) == "f4") type = PixelType::F32;
    else if (in.allowBool && typestr == "|b1") in.boolean = true;
    else unsupportedType(typestr[0] == '>' ? "big-endian " + name : name, in.allowBool);
    requireTwoDimensions(static_cast<py::ssize_t>(shape.size()), shapeAt);
    const py::tuple dataField = cai["data"];
    auto* data = reinterpret_cast<void*>(dataField[0].cast<std::uintptr_t>());
    const auto item = static_cast<std::int64_t>(pixelBytes(type));
    std::int64_t rowStride = shapeAt(1), colStride = 1;
    if (cai.contains("strides") && !cai["strides"].is_none()) {
        const py::tuple strides = cai["strides"];
        const auto rowBytes = strides[0].cast<std::int64_t>(), colBytes = strides[1].cast<std::int64_t>();
        if (rowBytes % item != 0 || colBytes % item != 0)
            throw py::value_error("the GPU array's strides are not whole pixels");
        rowStride = rowBytes / item;
        colStride = colBytes / item;
    }
    if (cai.contains("stream") && !cai["stream"].is_none()) {
        const auto handle = cai["stream"].cast<std::intptr_t>();
        if (handle != 0 && handle != -1) cuda::streamWaits(ctx.stream(), cuda::protocolStream(handle));
    }
    in.image = lend(type, shapeAt(0), shapeAt(1), rowStride, colStride, data, ctx);
}

void deviceInput(const py::handle& object, CudaContext& ctx, DeviceInput& in) {
    if (py::hasattr(object, "__dlpack__")) fromDlpack(object, ctx, in);
    else if (py::hasattr(object, "__cuda_array_interface__")) fromCudaArrayInterface(object, ctx, in);
    else throw py::type_error("the image is not a GPU array (it has neither __dlpack__ nor __cuda_array_interface__)");
}

// The CPU path refuses NaN before any work (requireNoNaN); so does this one, on the device.
void requireNoNaNOnDevice(const ResidentImage& image, CudaContext& ctx) {
    if (const auto at = cuda::firstNaN(image, ctx))
        throw Error("the float image holds NaN at (" + std::to_string(at->first) + ", " + std::to_string(at->second) +
                    "): morphology needs ordered values");
}

// The device a GPU array is on: its __dlpack_device__, else the device of its
// __cuda_array_interface__ pointer; 0 for anything else (refused later, with the reason).
int deviceOfInput(const py::handle& object) {
    if (py::hasattr(object, "__dlpack_device__")) {
        const py::tuple where = object.attr("__dlpack_device__")();
        const int type = where[0].cast<int>();
        return type == kDLCUDA || type == kDLCUDAManaged ? where[1].cast<int>() : 0;
    }
    if (py::hasattr(object, "__cuda_array_interface__")) {
        const py::dict cai = object.attr("__cuda_array_interface__");
        const auto data = py::tuple(cai["data"])[0].cast<std::uintptr_t>();
        return std::max(0, cuda::deviceOfPointer(reinterpret_cast<const void*>(data)));
    }
    return 0;
}

int currentCudaDevice() {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) (void)cudaGetLastError();
    return device;
}

// The calling thread's current CUDA device (CuPy's or PyTorch's choice), given back when this
// ends: the engine makes its own device current.
class KeepCurrentDevice {
public:
    KeepCurrentDevice() = default;
    ~KeepCurrentDevice() {
        if (cudaSetDevice(previous_) != cudaSuccess) (void)cudaGetLastError();
    }
    KeepCurrentDevice(const KeepCurrentDevice&) = delete;
    KeepCurrentDevice& operator=(const KeepCurrentDevice&) = delete;

private:
    int previous_ = currentCudaDevice();
};

// Refuses a GPU array where CUDA cannot take it: with backend="cpu" (`backend` given: the
// engine's functions) or where CUDA is not usable (also for the copies, which run on CUDA
// whatever the backend). True, so that it can start a constructor.
bool requireCudaFor(const std::string* backend) {
    if (backend && *backend == "cpu")
        throw py::value_error("the image is in GPU memory; backend=\"cpu\" needs a host array (copy it first: "
                              "a.get(), t.cpu().numpy())");
    std::string why;
    if (!backendAvailable(Backend::Cuda, &why))
        throw std::runtime_error("the image is in GPU memory, but CUDA is not usable here: " + why);
    if (backend) resolvedBackend(*backend);  // refuses an unknown name with the CLI's words
    return true;
}

// While a call on a GPU array runs, the engine works on the array's device (after
// requireCudaFor's checks); context() is that device's.
class OnInputDevice {
public:
    OnInputDevice(const py::handle& object, const std::string* backend)
        : checked_(requireCudaFor(backend)), scope_(deviceOfInput(object)) {}
    CudaContext& context() const { return CudaContext::get(); }

private:
    bool checked_;            // members start in this order: the checks,
    KeepCurrentDevice keep_;  // the caller's current device,
    CudaDeviceScope scope_;   // then the array's
};

// A result in device memory, complete when it is handed out (the engine waits for its own
// work), owned by the DeviceArray and by every DLPack tensor made from it.
// `channels` 3: an RGB image held as a uint8 image of 3 × its width (the orientation colours),
// shaped (height, width, 3).
class DeviceArray {
public:
    explicit DeviceArray(std::shared_ptr<const ResidentImage> image, int channels = 1)
        : image_(std::move(image)), channels_(channels) {}

    int ndim() const { return channels_ == 1 ? 2 : 3; }
    py::tuple shape() const {
        if (channels_ == 1) return py::make_tuple(image_->height(), image_->width());
        return py::make_tuple(image_->height(), image_->width() / channels_, channels_);
    }
    py::dtype dtype() const {
        switch (image_->type()) {
        case PixelType::U8: return py::dtype::of<std::uint8_t>();
        case PixelType::U16: return py::dtype::of<std::uint16_t>();
        case PixelType::F32: break;
        }
        return py::dtype::of<float>();
    }
    py::dict cudaArrayInterface() const {
        const char* typestr = image_->type() == PixelType::U8 ? "|u1" : image_->type() == PixelType::U16 ? "<u2" : "<f4";
        py::dict d;
        d["shape"] = shape();
        d["typestr"] = typestr;
        d["data"] = py::make_tuple(reinterpret_cast<std::uintptr_t>(image_->data()), false);
        if (channels_ == 1) d["strides"] = py::make_tuple(image_->pitch(), pixelBytes(image_->type()));
        else d["strides"] = py::make_tuple(image_->pitch(), channels_, 1);
        d["version"] = 3;
        d["stream"] = py::none();  // complete: nothing to wait for
        return d;
    }
    py::tuple dlpackDevice() const { return py::make_tuple(static_cast<int>(kDLCUDA), image_->context().device()); }
    py::capsule dlpack(const py::object& stream) const;
    py::array get() const {
        return visitPixelType(image_->type(), [&](auto tag) -> py::array {
            using T = decltype(tag);
            Image<T> host;
            {
                py::gil_scoped_release release;
                const KeepCurrentDevice keep;  // the read makes the image's device current
                host = cuda::downloadResident<T>(*image_);
            }
            py::array out = arrayOf(std::move(host));
            return channels_ == 1 ? out : py::array(out.attr("reshape")(shape()));
        });
    }

private:
    std::shared_ptr<const ResidentImage> image_;
    int channels_ = 1;
};

struct ExportedTensor {
    DLManagedTensor managed{};
    std::shared_ptr<const ResidentImage> image;
    std::int64_t shape[3] = {0, 0, 0};
    std::int64_t strides[3] = {0, 0, 0};
    std::intptr_t consumerStream = 1;
};

// The consumer is done with the tensor, but work that reads it may still be queued on the
// stream it named: the engine's stream, on which the memory goes back to its pool, waits for
// that work first.
void releaseExported(DLManagedTensor* managed) {
    auto* exported = static_cast<ExportedTensor*>(managed->manager_ctx);
    if (exported->consumerStream != -1 && exported->consumerStream != 0) {
        try {
            CudaContext& ctx = exported->image->context();
            const KeepCurrentDevice keep;
            LS_CUDA_CHECK(cudaSetDevice(ctx.device()));
            cuda::streamWaits(ctx.stream(), cuda::protocolStream(exported->consumerStream));
        } catch (const std::exception&) {
            // The consumer's stream is gone (a deleter cannot throw): wait for the whole device.
            (void)cudaDeviceSynchronize();
        }
    }
    delete exported;
}

py::capsule DeviceArray::dlpack(const py::object& stream) const {
    auto exported = std::make_unique<ExportedTensor>();
    // None: the consumer reads on the legacy default stream (the protocol's rule for CUDA).
    exported->consumerStream = stream.is_none() ? 1 : stream.cast<std::intptr_t>();
    exported->image = image_;
    exported->shape[0] = image_->height();
    exported->shape[1] = image_->width() / channels_;
    exported->shape[2] = channels_;
    exported->strides[0] = static_cast<std::int64_t>(image_->pitch() / pixelBytes(image_->type()));
    exported->strides[1] = channels_;
    exported->strides[2] = 1;
    DLTensor& t = exported->managed.dl_tensor;
    t.data = const_cast<void*>(image_->data());
    t.device = {kDLCUDA, py::cast<int>(dlpackDevice()[1])};
    t.ndim = ndim();
    t.dtype = {static_cast<std::uint8_t>(image_->type() == PixelType::F32 ? kDLFloat : kDLUInt),
               static_cast<std::uint8_t>(pixelBytes(image_->type()) * 8), 1};
    t.shape = exported->shape;
    t.strides = exported->strides;
    t.byte_offset = 0;
    exported->managed.manager_ctx = exported.get();
    exported->managed.deleter = releaseExported;
    DLManagedTensor* managed = &exported.release()->managed;
    return py::capsule(managed, "dltensor", [](PyObject* capsule) {
        // Never consumed (a consumer renames it "used_dltensor" and calls the deleter itself).
        if (PyCapsule_IsValid(capsule, "dltensor")) {
            auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
            m->deleter(m);
        }
    });
}

py::object deviceMorph(const std::string& opName, const py::object& image, const py::object& angle,
                       const py::object& length, const std::string& line, const std::string& backend,
                       const std::string& algorithm) {
    const MorphOp op = parseMorphOp(opName);
    LineParams p;
    p.angle = finiteNumber(angle, "angle");
    p.length = segmentLength(length);
    p.kind = parseLineKind(line);
    const EngineOptions opt = engineOptions(backend, algorithm, py::int_(0));
    const OnInputDevice onDevice(image, &backend);
    CudaContext& ctx = onDevice.context();
    DeviceInput in;
    deviceInput(image, ctx, in);
    std::shared_ptr<ResidentImage> out;
    {
        py::gil_scoped_release release;
        const auto lock = ctx.lock();
        requireNoNaNOnDevice(*in.image, ctx);
        out = cuda::lineMorphResident(op, *in.image, p, opt.algorithm, ctx);
    }
    return py::cast(DeviceArray(std::move(out)));
}

SweepRequest deviceSweepRequest(const py::object& length, const py::object& angles, const std::string& op,
                                const std::string& line) {
    SweepRequest req;
    req.length = length.is_none() ? 0 : segmentLength(length);  // 0: spectrum's default, once the shape is known
    req.angles = angleSet(angles, "angles");
    req.op = sweepOp(op);
    req.kind = parseLineKind(line);
    return req;
}

// The sweep of a GPU array on the device; with `planes`, its orientation angles and colours too.
struct SweepPlanes {
    std::shared_ptr<ResidentImage> orientation, colours;
};

cuda::ResidentSweep runDeviceSweep(const py::object& image, SweepRequest& req, const std::string& backend,
                                   SweepPlanes* planes) {
    engineOptions(backend, "auto", py::int_(0));
    const OnInputDevice onDevice(image, &backend);
    CudaContext& ctx = onDevice.context();
    DeviceInput in;
    deviceInput(image, ctx, in);
    if (req.length == 0)  // the CLI's default: a quarter of the image's smaller side
        req.length = std::max(1, std::min(in.image->width(), in.image->height()) / 4);
    py::gil_scoped_release release;
    const auto lock = ctx.lock();
    requireNoNaNOnDevice(*in.image, ctx);
    cuda::ResidentSweep r = cuda::sweepResident(*in.image, req, 0, {}, ctx);
    if (planes) {
        planes->orientation = cuda::orientationPlane(*r.argIndex, req.angles, ctx);
        planes->colours = cuda::orientationColoursPlane(*r.argIndex, *r.strength, r.maxStrength, req.angles, ctx);
    }
    return r;
}

py::dict deviceSweep(const py::object& image, const py::object& length, const py::object& angles,
                     const std::string& op, const std::string& line, const std::string& backend) {
    if (length.is_none()) segmentLength(length);  // sweep() has no default: the CPU path's message
    SweepRequest req = deviceSweepRequest(length, angles, op, line);
    SweepPlanes planes;
    cuda::ResidentSweep r = runDeviceSweep(image, req, backend, &planes);
    py::dict d;
    d["sup"] = DeviceArray(r.sup);
    d["inf"] = DeviceArray(r.inf);
    d["strength"] = DeviceArray(r.strength);
    d["orientation"] = DeviceArray(std::move(planes.orientation));
    d["arg_index"] = DeviceArray(r.argIndex);
    d["colours"] = DeviceArray(std::move(planes.colours), 3);
    if (r.spectrumExact.empty()) d["spectrum"] = arrayOf(std::move(r.spectrum));
    else d["spectrum"] = arrayOf(std::move(r.spectrumExact));
    putRequestFields(d, req);
    return d;
}

py::dict deviceSpectrum(const py::object& image, const py::object& length, const py::object& angles,
                        const std::string& op, const py::object& peaks, const py::object& minProminence,
                        const std::string& line, const std::string& backend) {
    const int maxPeaks = wholeNumber(peaks, "peaks", 1, 100);
    const double minProm = numberInRange(minProminence, "min_prominence", 0, 1);
    SweepRequest req = deviceSweepRequest(length, angles, op, line);
    cuda::ResidentSweep r = runDeviceSweep(image, req, backend, nullptr);
    const bool minimum = req.op == MorphOp::Close || req.op == MorphOp::Dilate;
    const std::vector<SpectrumPeak> found = spectrumPeaks(r.spectrum, req.angles, minimum, maxPeaks, minProm);
    py::list peakList;
    for (const SpectrumPeak& p : found) peakList.append(py::make_tuple(p.angle, p.prominence, p.index));
    py::dict d;
    putRequestFields(d, req);
    d["spectrum"] = arrayOf(std::move(r.spectrum));
    d["peaks"] = peakList;
    return d;
}

// A GPU array's pixels in a new NumPy array: one copy on the engine's stream, which waited for
// the producer's (the same hand-over as the engine's own reads). Bool pixels (allowBool) come
// back as bool.
py::array deviceDownload(const py::object& image, bool allowBool) {
    const OnInputDevice onDevice(image, nullptr);
    CudaContext& ctx = onDevice.context();
    DeviceInput in;
    in.allowBool = allowBool;
    deviceInput(image, ctx, in);
    const ResidentImage& src = *in.image;
    py::array out = visitPixelType(src.type(), [&](auto tag) -> py::array {
        using T = decltype(tag);
        Image<T> host(src.width(), src.height());
        {
            py::gil_scoped_release release;
            const auto lock = ctx.lock();
            const std::size_t rowBytes = sizeof(T) * static_cast<std::size_t>(src.width());
            CudaContext::countHostTraffic(rowBytes * static_cast<std::size_t>(src.height()));
            LS_CUDA_CHECK(cudaMemcpy2DAsync(host.data(), rowBytes, src.data(), src.pitch(), rowBytes,
                                            static_cast<std::size_t>(src.height()), cudaMemcpyDeviceToHost,
                                            ctx.stream()));
            ctx.synchronize();
        }
        return arrayOf(std::move(host));
    });
    return in.boolean ? py::array(out.attr("view")("bool")) : out;
}

// A host result (deskew's page) as a DeviceArray on the device of `like` (the input): one
// upload, complete when returned.
py::object deviceUpload(const py::object& array, const py::object& like) {
    const OnInputDevice onDevice(like, nullptr);
    CudaContext& ctx = onDevice.context();
    const InputImage in = inputImage(array);
    return visitPixelType(in, [&]<class T>(std::type_identity<T>) {
        const HeldView<T> src(in);
        std::shared_ptr<ResidentImage> out;
        {
            py::gil_scoped_release release;
            const auto lock = ctx.lock();
            out = cuda::uploadResident<T>(src.view(), ctx);
            ctx.synchronize();
        }
        return py::cast(DeviceArray(std::move(out)));
    });
}

// contours() of a GPU array on the device (findContoursResident: "pixel > threshold", the
// binary image's non-zero pixels without one). None for a float32 image with a threshold:
// OpenCV compares those in float, so the caller thresholds a host copy as the CPU path does.
py::object deviceContours(const py::object& image, const py::object& mode, const py::object& approx,
                          const py::object& threshold, const std::string& backend, const py::object& threads) {
    const ContourMode m = contourMode(mode);
    const ContourApprox a = contourApprox(approx);
    const OnInputDevice onDevice(image, &backend);
    CudaContext& ctx = onDevice.context();
    wholeNumber(threads, "threads", 0, 4096);  // checked as the CPU path checks it, unused here
    const double t = threshold.is_none() ? 0.0 : finiteNumber(threshold, "threshold");
    DeviceInput in;
    in.allowBool = true;  // as the CPU path: bool masks as uint8 0/1
    deviceInput(image, ctx, in);
    const PixelType type = in.image->type();
    if (threshold.is_none() && type != PixelType::U8)
        throw py::type_error("contours without a threshold take a uint8 or bool image (non-zero = foreground), got " +
                             std::string(type == PixelType::U16 ? "uint16" : "float32") +
                             ": give threshold=T or otsu=True");
    if (type == PixelType::F32) return py::none();
    Contours c;
    {
        py::gil_scoped_release release;
        const auto lock = ctx.lock();
        cuda::findContoursResident(*in.image, t, m, a, c, nullptr, ctx);
    }
    return contoursTuple(c);
}

}  // namespace

void bindDeviceArrays(py::module_& m) {
    py::class_<DeviceArray>(m, "DeviceArray",
                            "A result in GPU memory: read it without a copy through DLPack (torch.from_dlpack(a), "
                            "cupy.from_dlpack(a)) or __cuda_array_interface__ (cupy.asarray(a), numba); a.get() "
                            "copies it to a NumPy array. Complete when returned.")
        .def_property_readonly("shape", &DeviceArray::shape, "(height, width), or (height, width, 3) for colours")
        .def_property_readonly("dtype", &DeviceArray::dtype, "uint8, uint16 or float32")
        .def_property_readonly("__cuda_array_interface__", &DeviceArray::cudaArrayInterface)
        .def("__dlpack__", &DeviceArray::dlpack, py::kw_only(), py::arg("stream") = py::none())
        .def("__dlpack_device__", &DeviceArray::dlpackDevice)
        .def("get", &DeviceArray::get, "A NumPy copy of the pixels.")
        .def("__array__",
             [](const DeviceArray&, const py::args&, const py::kwargs&) -> py::object {
                 throw py::type_error("a linescope.DeviceArray is in GPU memory and is not converted implicitly: "
                                      "a.get() copies it to a NumPy array");
             })
        .def("__repr__", [](const DeviceArray& a) {
            return "linescope.DeviceArray(shape=" + std::string(py::str(a.shape())) +
                   ", dtype=" + std::string(py::str(a.dtype())) + ")";
        });
    m.def("device_morph", &deviceMorph, py::arg("op"), py::arg("image"), py::arg("angle"), py::arg("length"),
          py::arg("line"), py::arg("backend"), py::arg("algorithm"),
          "morph() of a GPU array, into a DeviceArray.");
    m.def("device_sweep", &deviceSweep, py::arg("image"), py::arg("length"), py::arg("angles"), py::arg("op"),
          py::arg("line"), py::arg("backend"), "sweep() of a GPU array: its planes as DeviceArrays.");
    m.def("device_spectrum", &deviceSpectrum, py::arg("image"), py::arg("length"), py::arg("angles"), py::arg("op"),
          py::arg("peaks"), py::arg("min_prominence"), py::arg("line"), py::arg("backend"),
          "spectrum() of a GPU array.");
    m.def("device_download", &deviceDownload, py::arg("image"), py::arg("allow_bool"),
          "A NumPy copy of a GPU array's pixels (after the producer's queued work).");
    m.def("device_upload", &deviceUpload, py::arg("array"), py::arg("like") = py::none(),
          "A host image as a DeviceArray, on the GPU that `like` (a GPU array) is on; GPU 0 without one.");
    m.def("device_contours", &deviceContours, py::arg("image"), py::arg("mode"), py::arg("approx"),
          py::arg("threshold"), py::arg("backend"), py::arg("threads"),
          "contours() of a GPU array on the device; None for a float32 image with a threshold.");
}

}  // namespace linescope::python
