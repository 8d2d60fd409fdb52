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

CudaDeviceScope::CudaDeviceScope(int device) {
#if LINESCOPE_HAVE_CUDA
    previous_ = cuda::useDevice(device);
#else
    (void)device;
    throw Error("this build of LineScope has no CUDA backend: it was built without a CUDA compiler");
#endif
}

CudaDeviceScope::~CudaDeviceScope() {
#if LINESCOPE_HAVE_CUDA
    cuda::restoreDevice(previous_);
#endif
}

}  // namespace linescope
