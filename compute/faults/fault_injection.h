// Test seams that make one allocation or one CUDA call fail on purpose, so that tests can
// check that every path reports the failure and goes on, instead of crashing. Off unless a
// test turns them on, or a program's main calls armFaultsFromEnvironment() (linescope-cli does); when off each
// check is one relaxed atomic load. Counting starts when armed, so the allocations of the
// libraries' static initializers (before main) never count.
//
//   LINESCOPE_FAIL_ALLOCATION=N[:BYTES]  the Nth allocation of at least BYTES bytes (default
//                                        65536) throws std::bad_alloc, once. Counts only in
//                                        programs that link linescope_allocation_faults.
//   LINESCOPE_FAIL_CUDA_CALL=N           the Nth checked CUDA runtime call fails, once, as
//                                        cudaErrorMemoryAllocation would.
#pragma once

#include <cstddef>

namespace linescope::faults {

// Arms the seams from the environment variables above (called first thing in main).
void armFaultsFromEnvironment();

// Makes the nth allocation of at least minBytes fail, counting from now; 0 turns it off.
void failNthAllocation(long n, std::size_t minBytes = 65536);
// Makes the nth checked CUDA call fail, counting from now; 0 turns it off.
void failNthCudaCall(long n);

// True while an armed allocation fault has not fired yet (tests: was the nth reached?).
bool allocationFaultPending() noexcept;

// Called by the replaced operator new: true exactly once, for the armed allocation.
bool allocationShouldFail(std::size_t bytes) noexcept;
// Called by LS_CUDA_CHECK: true exactly once, for the armed call.
bool cudaCallShouldFail() noexcept;

}  // namespace linescope::faults
