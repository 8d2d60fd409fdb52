// A small persistent pool of CPU workers for the engine's data-parallel loops.
#pragma once

#include <cstddef>
#include <functional>

namespace linescope {

// Runs body(begin, end) over [0, count) split into contiguous chunks on up to `threads`
// workers (0 = one per core) and waits for all of them. Chunks are deterministic for a
// given count and thread count. body may throw (std::bad_alloc under memory pressure, an
// engine Error): every chunk still runs and every worker is joined before parallelFor
// returns, then the exception of the lowest-numbered failing chunk is rethrown once on the
// caller.
void parallelFor(std::size_t count, int threads, const std::function<void(std::size_t, std::size_t)>& body);

// The number of workers `threads` resolves to (0 = one per core, or the calling thread's
// DefaultThreadsScope).
int resolveThreads(int threads);

// While it lives, "0 = one per core" means `threads` on the thread that made it: a caller
// that runs one image a core (a batch on the CPU) gives each image's engine calls one
// thread, without changing the options the user gave. Explicit thread counts are kept.
class DefaultThreadsScope {
public:
    explicit DefaultThreadsScope(int threads);
    ~DefaultThreadsScope();
    DefaultThreadsScope(const DefaultThreadsScope&) = delete;
    DefaultThreadsScope& operator=(const DefaultThreadsScope&) = delete;

private:
    int previous_;
};

}  // namespace linescope
