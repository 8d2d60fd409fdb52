#include "compute/faults/fault_injection.h"

#include <atomic>
#include <cstdlib>

namespace linescope::faults {
namespace {

// A countdown that fires once: positive while armed, 0 when off or spent.
struct Countdown {
    std::atomic<long> left{0};
    std::atomic<std::size_t> minBytes{0};

    bool tick() noexcept {
        long n = left.load(std::memory_order_relaxed);
        while (n > 0)
            if (left.compare_exchange_weak(n, n - 1, std::memory_order_relaxed)) return n == 1;
        return false;
    }
};

Countdown gAllocations;
Countdown gCudaCalls;

}  // namespace

void armFaultsFromEnvironment() {
    if (const char* v = std::getenv("LINESCOPE_FAIL_ALLOCATION")) {
        char* end = nullptr;
        const long n = std::strtol(v, &end, 10);
        const std::size_t bytes = (end && *end == ':') ? std::strtoull(end + 1, nullptr, 10) : 65536;
        failNthAllocation(n, bytes);
    }
    if (const char* v = std::getenv("LINESCOPE_FAIL_CUDA_CALL")) failNthCudaCall(std::strtol(v, nullptr, 10));
}

void failNthAllocation(long n, std::size_t minBytes) {
    gAllocations.minBytes.store(minBytes, std::memory_order_relaxed);
    gAllocations.left.store(n > 0 ? n : 0, std::memory_order_relaxed);
}

void failNthCudaCall(long n) {
    gCudaCalls.left.store(n > 0 ? n : 0, std::memory_order_relaxed);
}

bool allocationFaultPending() noexcept {
    return gAllocations.left.load(std::memory_order_relaxed) > 0;
}

bool allocationShouldFail(std::size_t bytes) noexcept {
    if (gAllocations.left.load(std::memory_order_relaxed) <= 0) return false;
    if (bytes < gAllocations.minBytes.load(std::memory_order_relaxed)) return false;
    return gAllocations.tick();
}

bool cudaCallShouldFail() noexcept {
    if (gCudaCalls.left.load(std::memory_order_relaxed) <= 0) return false;
    return gCudaCalls.tick();
}

}  // namespace linescope::faults
