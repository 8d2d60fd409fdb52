#include "tests/bench/npp_peer.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

// The declarations of NPP's nppdefs.h and nppi_morphological_operations.h that this file
// uses, as NPP 11–13 define them (NppStreamContext is filled by the application since
// nppGetStreamContext was deprecated in CUDA 12.9). Only the C ABI matters: plain structs of
// ints passed by value, enums as int.
extern "C" {
using NppStatus = int;  // an enum: < 0 errors, 0 success, > 0 warnings
struct NppiSize {
    int width;
    int height;
};
struct NppiPoint {
    int x;
    int y;
};
enum NppiBorderType : int {
    NPP_BORDER_UNDEFINED = 0,
    NPP_BORDER_CONSTANT = 1,
    NPP_BORDER_REPLICATE = 2,
    NPP_BORDER_WRAP = 3,
    NPP_BORDER_MIRROR = 4,
};
struct NppStreamContext {
    cudaStream_t hStream;
    int nCudaDeviceId;
    int nMultiProcessorCount;
    int nMaxThreadsPerMultiProcessor;
    int nMaxThreadsPerBlock;
    std::size_t nSharedMemPerBlock;
    int nCudaDevAttrComputeCapabilityMajor;
    int nCudaDevAttrComputeCapabilityMinor;
    unsigned int nStreamFlags;
    int nReserved0;
};
struct NppLibraryVersion {
    int major;
    int minor;
    int build;
};
using NppMorphBorderFn = NppStatus (*)(const unsigned char* pSrc, int nSrcStep, NppiSize oSrcSize,
                                       NppiPoint oSrcOffset, unsigned char* pDst, int nDstStep, NppiSize oSizeROI,
                                       const unsigned char* pMask, NppiSize oMaskSize, NppiPoint oAnchor,
                                       NppiBorderType eBorderType, NppStreamContext nppStreamCtx);
using NppGetLibVersionFn = const NppLibraryVersion* (*)();
}
static_assert(sizeof(NppStreamContext) == 48, "NppStreamContext must match nppdefs.h on 64-bit Linux");

namespace lsbench {

DeviceMask::DeviceMask(const SegmentMask& m)
    : width_(m.width), height_(m.height), anchorX_(m.anchorX), anchorY_(m.anchorY) {
    void* p = nullptr;
    LSB_CHECK(cudaMalloc(&p, m.bits.size()));
    data_ = static_cast<std::uint8_t*>(p);
    LSB_CHECK(cudaMemcpy(data_, m.bits.data(), m.bits.size(), cudaMemcpyHostToDevice));
}

DeviceMask::DeviceMask(DeviceMask&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), width_(o.width_), height_(o.height_), anchorX_(o.anchorX_),
      anchorY_(o.anchorY_) {}

DeviceMask::~DeviceMask() {
    if (data_) (void)cudaFree(data_);
}

struct NppPeer::Api {
    void* nppc = nullptr;
    void* nppim = nullptr;
    std::string nppimName;
    NppMorphBorderFn erode = nullptr;
    NppMorphBorderFn dilate = nullptr;
    NppGetLibVersionFn version = nullptr;
    std::map<cudaStream_t, NppStreamContext> contexts;
    // NPP stays loaded until exit (no dlclose): the driver may still hold its modules.

    const NppStreamContext& contextFor(cudaStream_t stream) {
        auto it = contexts.find(stream);
        if (it != contexts.end()) return it->second;
        NppStreamContext c{};
        c.hStream = stream;
        LSB_CHECK(cudaGetDevice(&c.nCudaDeviceId));
        cudaDeviceProp p{};
        LSB_CHECK(cudaGetDeviceProperties(&p, c.nCudaDeviceId));
        c.nMultiProcessorCount = p.multiProcessorCount;
        c.nMaxThreadsPerMultiProcessor = p.maxThreadsPerMultiProcessor;
        c.nMaxThreadsPerBlock = p.maxThreadsPerBlock;
        c.nSharedMemPerBlock = p.sharedMemPerBlock;
        LSB_CHECK(cudaDeviceGetAttribute(&c.nCudaDevAttrComputeCapabilityMajor, cudaDevAttrComputeCapabilityMajor,
                                         c.nCudaDeviceId));
        LSB_CHECK(cudaDeviceGetAttribute(&c.nCudaDevAttrComputeCapabilityMinor, cudaDevAttrComputeCapabilityMinor,
                                         c.nCudaDeviceId));
        LSB_CHECK(cudaStreamGetFlags(stream, &c.nStreamFlags));
        return contexts.emplace(stream, c).first->second;
    }
};

namespace {

std::vector<std::string> candidateFolders() {
    std::vector<std::string> dirs{""};  // the loader's own search path first
    for (const char* env : {"CUDA_HOME", "CUDA_PATH"})
        if (const char* v = std::getenv(env); v && *v) dirs.push_back(std::string(v) + "/lib64/");
    dirs.push_back("/usr/local/cuda/lib64/");
    dirs.push_back("/usr/local/cuda/targets/x86_64-linux/lib/");
    dirs.push_back("/usr/lib/x86_64-linux-gnu/");
    return dirs;
}

void* tryOpen(const std::string& path, std::string& errors) {
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
        const char* e = dlerror();
        errors += "\n    " + (e ? std::string(e) : path + ": unknown error");
    }
    return h;
}

}  // namespace

std::unique_ptr<NppPeer> NppPeer::load(std::string* why) {
    auto api = std::make_unique<Api>();
    std::string errors;
    for (const std::string& dir : candidateFolders()) {
        for (const char* suffix : {".so.13", ".so.12", ".so"}) {
            void* nppc = tryOpen(dir + "libnppc" + suffix, errors);
            if (!nppc) continue;
            void* nppim = tryOpen(dir + "libnppim" + suffix, errors);
            if (!nppim) {
                // NPP may need the shared CUDA runtime, which the loader may not find on its own.
                if (tryOpen(dir + "libcudart" + suffix, errors)) nppim = tryOpen(dir + "libnppim" + suffix, errors);
            }
            if (!nppim) continue;
            api->nppc = nppc;
            api->nppim = nppim;
            api->nppimName = dir + "libnppim" + suffix;
            break;
        }
        if (api->nppim) break;
    }
    if (!api->nppim) {
        if (why) *why = "libnppc/libnppim could not be loaded:" + errors;
        return nullptr;
    }
    api->erode = reinterpret_cast<NppMorphBorderFn>(dlsym(api->nppim, "nppiErodeBorder_8u_C1R_Ctx"));
    api->dilate = reinterpret_cast<NppMorphBorderFn>(dlsym(api->nppim, "nppiDilateBorder_8u_C1R_Ctx"));
    api->version = reinterpret_cast<NppGetLibVersionFn>(dlsym(api->nppc, "nppGetLibVersion"));
    if (!api->erode || !api->dilate) {
        if (why) *why = api->nppimName + " has no nppiErodeBorder_8u_C1R_Ctx / nppiDilateBorder_8u_C1R_Ctx";
        return nullptr;
    }
    std::unique_ptr<NppPeer> peer(new NppPeer);
    peer->api_ = std::move(api);
    return peer;
}

NppPeer::~NppPeer() = default;

std::string NppPeer::description() const {
    char version[64] = "NPP";
    if (const NppLibraryVersion* v = api_->version ? api_->version() : nullptr)
        std::snprintf(version, sizeof version, "NPP %d.%d.%d", v->major, v->minor, v->build);
    std::string s = version;
    s += " (";
    s += api_->nppimName;
    s += ")";
    return s;
}

namespace {

void call(NppMorphBorderFn fn, const char* name, const DeviceImage<std::uint8_t>& src,
          DeviceImage<std::uint8_t>& dst, const DeviceMask& mask, const NppStreamContext& ctx, std::string& warning) {
    const NppiSize size{src.width(), src.height()};
    const NppStatus st = fn(src.data(), static_cast<int>(src.pitch()), size, NppiPoint{0, 0}, dst.data(),
                            static_cast<int>(dst.pitch()), size, mask.data(), NppiSize{mask.width(), mask.height()},
                            NppiPoint{mask.anchorX(), mask.anchorY()}, NPP_BORDER_REPLICATE, ctx);
    if (st < 0) throw std::runtime_error(std::string(name) + " returned NPP error status " + std::to_string(st));
    if (st > 0 && warning.empty()) warning = std::string(name) + " returned NPP warning status " + std::to_string(st);
}

}  // namespace

void NppPeer::erode(const DeviceImage<std::uint8_t>& src, DeviceImage<std::uint8_t>& dst, const DeviceMask& mask,
                    cudaStream_t stream) {
    call(api_->erode, "nppiErodeBorder_8u_C1R_Ctx", src, dst, mask, api_->contextFor(stream), warning_);
}

void NppPeer::dilate(const DeviceImage<std::uint8_t>& src, DeviceImage<std::uint8_t>& dst, const DeviceMask& mask,
                     cudaStream_t stream) {
    call(api_->dilate, "nppiDilateBorder_8u_C1R_Ctx", src, dst, mask, api_->contextFor(stream), warning_);
}

}  // namespace lsbench
