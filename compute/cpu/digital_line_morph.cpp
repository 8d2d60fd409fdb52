// The recursive run decomposition of digital_line_decomposition.h, on the host: the
// instruction set's kernels (digital_line_morph_impl.inl) and the kinds' shortcuts.
#include "compute/cpu/digital_line_morph.h"

#include "compute/cpu/sheared_line_morph.h"
#include "compute/digital_line_decomposition.h"
#include "compute/line_geometry.h"

#include <cstdint>
#include <cstring>

namespace linescope::cpu {

#define LINESCOPE_DECLARE_ISA(isa)                                                                       \
    namespace isa {                                                                                     \
    template <class T>                                                                                  \
    void digitalLineErodeDilateIsa(bool, ImageView<const T>, ImageView<T>, const LineKernel&, int);    \
    }
LINESCOPE_DECLARE_ISA(generic)
LINESCOPE_DECLARE_ISA(avx2)
LINESCOPE_DECLARE_ISA(avx512)
#undef LINESCOPE_DECLARE_ISA

bool collinearRun(const DigitalLinePiece& piece, Offset* A, std::int64_t* lo, std::int64_t* hi) {
    const DigitalLinePiece p = digital_line::normalized(piece);
    if (p.count <= 0 || digital_line::floorDivide((p.count - 1) * p.num + p.phase, p.den) != 0) return false;
    std::int64_t m = 0;
    if (!digital_line::collinear(p, &m)) return false;
    *A = p.major;
    *lo = m;
    *hi = m + p.count - 1;
    return true;
}

void setDigitalLineLeafSize(int points) { digital_line::setLeafSize(points); }

namespace {

bool asRun(const LineKernel& kernel, Offset* A, std::int64_t* lo, std::int64_t* hi) {
    return kernel.pieces.size() == 1 && collinearRun(kernel.pieces.front(), A, lo, hi);
}

}  // namespace

bool straightAsPaths(const LineKernel& kernel, double* pathsAngle) {
    Offset A;
    std::int64_t lo = 0, hi = 0;
    if (!asRun(kernel, &A, &lo, &hi)) return false;
    for (const double angle : {0.0, 45.0, 90.0, 135.0}) {
        const LineFamily fam = lineFamily(angle, 1, 1);
        if (fam.slope != 0 && fam.slope != 65536 && fam.slope != -65536) continue;  // not straight
        Offset B;
        std::int64_t l = 0, h = 0;
        if (!asRun(lineKernel(LineKind::Paths, angle, kernel.length), &B, &l, &h)) continue;
        const bool same = A.dx == B.dx && A.dy == B.dy && lo == l && hi == h;
        const bool reversed = A.dx == -B.dx && A.dy == -B.dy && lo == -h && hi == -l;
        if (same || reversed) {
            *pathsAngle = angle;
            return true;
        }
    }
    return false;
}

template <class T>
void digitalLineErodeDilate(bool erode, ImageView<const T> src, ImageView<T> dst, const LineKernel& kernel,
                           int threads) {
    // The sheared kernels' choice: the same processor test.
    const char* isa = shearedKernelIsa();
    if (std::strcmp(isa, "avx512") == 0) avx512::digitalLineErodeDilateIsa<T>(erode, src, dst, kernel, threads);
    else if (std::strcmp(isa, "avx2") == 0) avx2::digitalLineErodeDilateIsa<T>(erode, src, dst, kernel, threads);
    else generic::digitalLineErodeDilateIsa<T>(erode, src, dst, kernel, threads);
}

template void digitalLineErodeDilate<std::uint8_t>(bool, ImageView<const std::uint8_t>, ImageView<std::uint8_t>,
                                                   const LineKernel&, int);
template void digitalLineErodeDilate<std::uint16_t>(bool, ImageView<const std::uint16_t>, ImageView<std::uint16_t>,
                                                    const LineKernel&, int);
template void digitalLineErodeDilate<float>(bool, ImageView<const float>, ImageView<float>, const LineKernel&,
                                            int);

}  // namespace linescope::cpu
