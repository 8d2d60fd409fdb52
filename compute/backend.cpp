#include "compute/backend.h"

#include "compute/image.h"

#if LINESCOPE_HAVE_CUDA
#include "compute/cuda/cuda_backend.h"
#endif

namespace linescope {

const char* backendName(Backend b) {
    switch (b) {
    case Backend::Auto: return "auto";
    case Backend::Cpu: return "cpu";
    case Backend::Cuda: return "cuda";
    }
    return "?";
}

const char* algorithmName(LineAlgorithm a) {
    switch (a) {
    case LineAlgorithm::Auto: return "auto";
    case LineAlgorithm::Sheared: return "sheared";
    case LineAlgorithm::VanHerk: return "vhgw";
    case LineAlgorithm::Fifo: return "fifo";
    case LineAlgorithm::Stack: return "stack";
    case LineAlgorithm::Reference: return "reference";
    }
    return "?";
}

Backend parseBackend(const std::string& s) {
    if (s == "auto") return Backend::Auto;
    if (s == "cpu") return Backend::Cpu;
    if (s == "cuda") return Backend::Cuda;
    throw Error("unknown backend '" + s + "' (expected cpu, cuda or auto)");
}

LineAlgorithm parseAlgorithm(const std::string& s) {
    for (auto a : {LineAlgorithm::Auto, LineAlgorithm::Sheared, LineAlgorithm::VanHerk, LineAlgorithm::Fifo,
                   LineAlgorithm::Stack, LineAlgorithm::Reference})
        if (s == algorithmName(a)) return a;
    throw Error("unknown algorithm '" + s + "' (expected auto, sheared, vhgw, fifo, stack or reference)");
}

bool backendAvailable(Backend b, std::string* why) {
    switch (b) {
    case Backend::Auto:
    case Backend::Cpu: return true;
    case Backend::Cuda:
#if LINESCOPE_HAVE_CUDA
        return cuda::deviceUsable(why);
#else
        if (why) *why = "this build of LineScope has no CUDA backend: it was built without a CUDA compiler";
        return false;
#endif
    }
    return false;
}

Backend resolveBackend(Backend requested, std::string* notice) {
    if (requested == Backend::Cpu) return Backend::Cpu;
    std::string why;
    if (backendAvailable(Backend::Cuda, &why)) return Backend::Cuda;
    if (requested == Backend::Cuda) throw Error("the CUDA backend is not available: " + why);
    if (notice) *notice = "using the CPU backend (" + why + ")";
    return Backend::Cpu;
}

}  // namespace linescope

namespace linescope {

void setCudaMemoryCap(std::uint64_t bytes) {
#if LINESCOPE_HAVE_CUDA
    cuda::setDeviceMemoryCap(static_cast<std::size_t>(bytes));
#else
    (void)bytes;
#endif
}

std::string cudaDeviceDescription() {
#if LINESCOPE_HAVE_CUDA
    std::string why;
    if (cuda::deviceUsable(&why)) return cuda::deviceDescription();
#endif
    return {};
}

}  // namespace linescope
