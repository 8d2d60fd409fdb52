// Per-thread scratch memory that survives between calls: a sweep runs hundreds of
// operators, and fresh pages for each would cost more than the work.
#pragma once

#include <cstddef>

namespace linescope::cpu {

// The row rings of a strip's two stages, and the staging buffers of a flat strip's column groups.
enum class ScratchSlot { Ring1, Ring2, GroupRawIn, GroupIn, GroupOut, GroupOutRows, Count };

// At least `bytes` bytes, 64-byte aligned, owned by the calling thread; valid until the
// same thread asks for the same slot again.
void* threadScratch(ScratchSlot slot, std::size_t bytes);

}  // namespace linescope::cpu
