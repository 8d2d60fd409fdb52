// Which engine runs an operation, and the options every operation takes.
#pragma once

#include <cstdint>
#include <string>

namespace linescope {

enum class Backend { Auto, Cpu, Cuda };

// How a line operator is computed; all give the same pixels bit for bit.
//  CPU:  Sheared (SIMD strips), VanHerk / Fifo / Stack one line at a time, Reference.
//  CUDA: Auto, Sheared and VanHerk run the band kernel (van Herk/Gil-Werman over bands of
//        lines in shared memory); Fifo and Stack run Karas et al.'s GPU kernels; Reference
//        always runs on the CPU.
enum class LineAlgorithm {
    Auto,       // the fastest: Sheared on the CPU, the band kernel on the GPU
    Sheared,    // many parallel lines at once: the line family sheared into columns, SIMD van Herk/Gil-Werman
    VanHerk,    // van Herk/Gil-Werman erosion then dilation, one line at a time
    Fifo,       // Bartovsky et al.'s streaming FIFO opening (GPU: one thread per line, Karas et al.)
    Stack,      // Morard et al.'s stack (cord) opening (GPU: Karas et al.'s variant)
    Reference,  // the literal definition, O(λ) per pixel: for tests only
};

struct EngineOptions {
    Backend backend = Backend::Auto;
    LineAlgorithm algorithm = LineAlgorithm::Auto;
    int threads = 0;  // CPU worker threads; 0 = one per core
};

const char* backendName(Backend b);
const char* algorithmName(LineAlgorithm a);
// Parses "cpu", "cuda", "auto" / "auto", "sheared", "vhgw", "fifo", "stack", "reference"; throws Error.
Backend parseBackend(const std::string& s);
LineAlgorithm parseAlgorithm(const std::string& s);

// Whether this build and machine can run the backend; `why` says why not.
bool backendAvailable(Backend b, std::string* why = nullptr);
// The backend Auto resolves to on this machine, and a one-line notice when it had to fall back.
Backend resolveBackend(Backend requested, std::string* notice = nullptr);
// The most device memory the CUDA backend may use, in bytes (0: no cap, the GPU's own free
// memory). An image that does not fit runs in horizontal zones, with the same results; work
// that cannot fit even so is refused with a one-line Error. LINESCOPE_CUDA_MEMORY_CAP sets it
// too (this call wins). Does nothing in a build without the CUDA backend.
void setCudaMemoryCap(std::uint64_t bytes);

// The GPU the CUDA backend uses ("NVIDIA H100 80GB HBM3, compute capability 9.0, …"), or ""
// when there is none or the build has no CUDA backend.
std::string cudaDeviceDescription();

}  // namespace linescope
