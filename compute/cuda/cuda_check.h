// Every CUDA runtime call is checked: a failure becomes a linescope::Error naming the call.
#pragma once

#include "compute/faults/fault_injection.h"

#include <cuda_runtime.h>

namespace linescope::cuda {

[[noreturn]] void throwCudaError(cudaError_t status, const char* call, const char* file, int line);

}  // namespace linescope::cuda

#define LS_CUDA_CHECK(call)                                                              \
    do {                                                                                 \
        cudaError_t ls_status_ = (call);                                                 \
        if (::linescope::faults::cudaCallShouldFail())                                   \
            ls_status_ = cudaErrorMemoryAllocation;                                      \
        if (ls_status_ != cudaSuccess)                                                   \
            ::linescope::cuda::throwCudaError(ls_status_, #call, __FILE__, __LINE__);    \
    } while (0)

// After a kernel launch: launch-configuration errors surface here, faults at the next sync.
// Reading the error clears it, so that one failed launch does not fail every later call of
// the thread (CudaContext::get clears what came before).
#define LS_CUDA_CHECK_LAUNCH(kernelName) LS_CUDA_CHECK(cudaGetLastError())
