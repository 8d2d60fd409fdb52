#include "compute/cpu/thread_scratch.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

namespace linescope::cpu {
namespace {

struct Block {
    void* p = nullptr;
    std::size_t size = 0;
    ~Block() { std::free(p); }
};

}  // namespace

void* threadScratch(ScratchSlot slot, std::size_t bytes) {
    thread_local Block blocks[static_cast<int>(ScratchSlot::Count)];
    Block& b = blocks[static_cast<int>(slot)];
    if (b.size < bytes) {
        std::free(b.p);
        const std::size_t rounded = (bytes + 63) / 64 * 64;
        b.p = std::aligned_alloc(64, rounded);
        if (!b.p) { b.size = 0; throw std::bad_alloc(); }
        b.size = rounded;
        // Defined contents: kernels may read a little past what they wrote (whole register
        // tiles of a partial group) and discard it.
        std::memset(b.p, 0, rounded);
    }
    return b.p;
}

}  // namespace linescope::cpu
