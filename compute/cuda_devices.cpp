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

}  // namespace linescope
