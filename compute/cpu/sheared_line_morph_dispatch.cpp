// Picks the sheared kernels built for the best instruction set this processor has.
#include "compute/cpu/sheared_line_morph.h"

#include <cstdlib>
#include <cstring>

namespace linescope::cpu {

#define LINESCOPE_DECLARE_ISA(isa)                                                                          \
    namespace isa {                                                                                        \
    template <class T>                                                                                     \
    void shearedLineMorph(MorphOp, ImageView<const T>, ImageView<T>, const LineFamily&, Segment, int,     \
                          WindowKernel);                                                                 \
    template <class T>                                                                                     \
    SpectrumTerm shearedSweepStep(MorphOp, ImageView<const T>, const LineFamily&, Segment, int,           \
                                  SweepPlanes<T>&, std::uint16_t, bool);                                  \
    }
LINESCOPE_DECLARE_ISA(generic)
LINESCOPE_DECLARE_ISA(avx2)
LINESCOPE_DECLARE_ISA(avx512)
#undef LINESCOPE_DECLARE_ISA

namespace {

enum class Isa { Generic, Avx2, Avx512 };

Isa detectIsa() {
#if defined(LINESCOPE_X86_DISPATCH)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
        return Isa::Avx512;
    if (__builtin_cpu_supports("avx2")) return Isa::Avx2;
#endif
    return Isa::Generic;
}

// LINESCOPE_CPU_ISA=generic or avx2 caps the choice, so that one machine can test and time
// every copy of the kernels (results are the same bit for bit); any other value is ignored.
Isa cappedIsa() {
    const Isa best = detectIsa();
    const char* cap = std::getenv("LINESCOPE_CPU_ISA");
    if (!cap) return best;
    if (std::strcmp(cap, "generic") == 0) return Isa::Generic;
    if (std::strcmp(cap, "avx2") == 0 && best == Isa::Avx512) return Isa::Avx2;
    return best;
}

Isa isa() {
    static const Isa chosen = cappedIsa();
    return chosen;
}

}  // namespace

const char* shearedKernelIsa() {
    switch (isa()) {
    case Isa::Avx512: return "avx512";
    case Isa::Avx2: return "avx2";
    case Isa::Generic: break;
    }
    return "generic";
}

template <class T>
void shearedLineMorph(MorphOp op, ImageView<const T> src, ImageView<T> dst, const LineFamily& family, Segment seg,
                      int threads, WindowKernel kernel) {
    switch (isa()) {
    case Isa::Avx512: avx512::shearedLineMorph<T>(op, src, dst, family, seg, threads, kernel); return;
    case Isa::Avx2: avx2::shearedLineMorph<T>(op, src, dst, family, seg, threads, kernel); return;
    case Isa::Generic: break;
    }
    generic::shearedLineMorph<T>(op, src, dst, family, seg, threads, kernel);
}

template <class T>
SpectrumTerm shearedSweepStep(MorphOp op, ImageView<const T> src, const LineFamily& family, Segment seg, int threads,
                              SweepPlanes<T>& planes, std::uint16_t k, bool bySup) {
    switch (isa()) {
    case Isa::Avx512: return avx512::shearedSweepStep<T>(op, src, family, seg, threads, planes, k, bySup);
    case Isa::Avx2: return avx2::shearedSweepStep<T>(op, src, family, seg, threads, planes, k, bySup);
    case Isa::Generic: break;
    }
    return generic::shearedSweepStep<T>(op, src, family, seg, threads, planes, k, bySup);
}

template SpectrumTerm shearedSweepStep<std::uint8_t>(MorphOp, ImageView<const std::uint8_t>, const LineFamily&,
                                                     Segment, int, SweepPlanes<std::uint8_t>&, std::uint16_t, bool);
template SpectrumTerm shearedSweepStep<std::uint16_t>(MorphOp, ImageView<const std::uint16_t>, const LineFamily&,
                                                      Segment, int, SweepPlanes<std::uint16_t>&, std::uint16_t, bool);
template SpectrumTerm shearedSweepStep<float>(MorphOp, ImageView<const float>, const LineFamily&, Segment, int,
                                              SweepPlanes<float>&, std::uint16_t, bool);

template void shearedLineMorph<std::uint8_t>(MorphOp, ImageView<const std::uint8_t>, ImageView<std::uint8_t>,
                                             const LineFamily&, Segment, int, WindowKernel);
template void shearedLineMorph<std::uint16_t>(MorphOp, ImageView<const std::uint16_t>, ImageView<std::uint16_t>,
                                              const LineFamily&, Segment, int, WindowKernel);
template void shearedLineMorph<float>(MorphOp, ImageView<const float>, ImageView<float>, const LineFamily&, Segment,
                                      int, WindowKernel);

}  // namespace linescope::cpu
