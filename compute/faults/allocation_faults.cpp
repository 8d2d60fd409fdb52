// The replaceable global operator new, counting allocations for the fault seam
// (fault_injection.h). Linked as an object library only into the programs that want the
// seam (linescope-cli, linescope, the test suites); the engine library itself never
// replaces the allocator of a program that embeds it.
#include "compute/faults/fault_injection.h"

#include <cstdlib>
#include <new>

namespace {

void* allocateOrThrow(std::size_t bytes) {
    if (linescope::faults::allocationShouldFail(bytes)) throw std::bad_alloc();
    if (bytes == 0) bytes = 1;
    for (;;) {
        if (void* p = std::malloc(bytes)) return p;
        std::new_handler handler = std::get_new_handler();
        if (!handler) throw std::bad_alloc();
        handler();
    }
}

}  // namespace

// Every non-aligned form is replaced, so that new and delete always pair malloc with free,
// also under AddressSanitizer, whose own operator new would otherwise meet this delete.
// The aligned forms keep the library's pair.
void* operator new(std::size_t bytes) { return allocateOrThrow(bytes); }
void* operator new[](std::size_t bytes) { return allocateOrThrow(bytes); }
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
    try {
        return allocateOrThrow(bytes);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t bytes, const std::nothrow_t& tag) noexcept { return operator new(bytes, tag); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
