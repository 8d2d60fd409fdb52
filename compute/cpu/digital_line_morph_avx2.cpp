// The digital line executor compiled for the avx2 instruction set (flags in compute/CMakeLists.txt).
#define LINESCOPE_ISA avx2
#include "compute/cpu/digital_line_morph_impl.inl"
