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

// The environment's settings, read once before the first check (getenv and strtol do not
// allocate, so this is safe inside operator new).
bool readEnvironment() noexcept {
    if (const char* v = std::getenv("LINESCOPE_FAIL_ALLOCATION")) {
        char* end = nullptr;
        const long n = std::strtol(v, &end, 10);
        const std::size_t bytes = (end && *end == ':') ? std::strtoull(end + 1, nullptr, 10) : 65536;
        if (n > 0) {
            gAllocations.minBytes.store(bytes, std::memory_order_relaxed);
            gAllocations.left.store(n, std::memory_order_relaxed);
        }
    }
    if (const char* v = std::getenv("LINESCOPE_FAIL_CUDA_CALL")) {
        const long n = std::strtol(v, nullptr, 10);
        if (n > 0) gCudaCalls.left.store(n, std::memory_order_relaxed);
    }
    return true;
}

void ensureEnvironmentRead() noexcept {
    static const bool read = readEnvironment();
    (void)read;
}

}  // namespace

void failNthAllocation(long n, std::size_t minBytes) {
    ensureEnvironmentRead();
    gAllocations.minBytes.store(minBytes, std::memory_order_relaxed);
    gAllocations.left.store(n > 0 ? n : 0, std::memory_order_relaxed);
}

void failNthCudaCall(long n) {
    ensureEnvironmentRead();
    gCudaCalls.left.store(n > 0 ? n : 0, std::memory_order_relaxed);
}

bool allocationFaultPending() noexcept {
    ensureEnvironmentRead();
    return gAllocations.left.load(std::memory_order_relaxed) > 0;
}

bool allocationShouldFail(std::size_t bytes) noexcept {
    ensureEnvironmentRead();
    if (gAllocations.left.load(std::memory_order_relaxed) <= 0) return false;
    if (bytes < gAllocations.minBytes.load(std::memory_order_relaxed)) return false;
    return gAllocations.tick();
}

bool cudaCallShouldFail() noexcept {
    ensureEnvironmentRead();
    if (gCudaCalls.left.load(std::memory_order_relaxed) <= 0) return false;
    return gCudaCalls.tick();
}

}  // namespace linescope::faults
