// The sheared kernels compiled for the avx2 instruction set (flags in compute/CMakeLists.txt).
#include "compute/cpu/sheared_line_morph.h"

#define LINESCOPE_ISA avx2
#include "compute/cpu/sheared_line_morph_impl.inl"
