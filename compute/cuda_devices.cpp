#include "compute/cuda_devices.h"

#include "compute/image.h"

#if LINESCOPE_HAVE_CUDA
#include "compute/cuda/cuda_context.h"
#endif

namespace linescope {

int cudaDeviceCount() {
#if LINESCOPE_HAVE_CUDA
    return cuda::deviceCount();
#else
    return 0;
#endif
}

CudaDeviceScope::CudaDeviceScope(int device, int context) {
#if LINESCOPE_HAVE_CUDA
    const cuda::DeviceChoice previous = cuda::useDevice(device, context);
    previous_ = previous.device;
    previousContext_ = previous.context;
#else
    (void)device;
    (void)context;
    throw Error("this build of LineScope has no CUDA backend: it was built without a CUDA compiler");
#endif
}

CudaDeviceScope::~CudaDeviceScope() {
#if LINESCOPE_HAVE_CUDA
    cuda::restoreDevice({previous_, previousContext_});
#endif
}

HostMemoryPin::HostMemoryPin(const void* data, std::size_t bytes) {
#if LINESCOPE_HAVE_CUDA
    if (data == nullptr || bytes == 0 || cuda::deviceCount() == 0) return;
    // Portable: every device's contexts see it as page-locked.
    if (cudaHostRegister(const_cast<void*>(data), bytes, cudaHostRegisterPortable) == cudaSuccess)
        data_ = const_cast<void*>(data);
    else
        (void)cudaGetLastError();  // refused (a limit on locked memory): the staging area copies it
#else
    (void)data;
    (void)bytes;
#endif
}

HostMemoryPin::~HostMemoryPin() {
#if LINESCOPE_HAVE_CUDA
    if (data_ != nullptr && cudaHostUnregister(data_) != cudaSuccess) (void)cudaGetLastError();
#endif
}

}  // namespace linescope
