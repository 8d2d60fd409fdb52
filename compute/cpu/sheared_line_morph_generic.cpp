// The sheared kernels compiled for the generic instruction set (flags in compute/CMakeLists.txt).
#include "compute/cpu/sheared_line_morph.h"

#define LINESCOPE_ISA generic
#include "compute/cpu/sheared_line_morph_impl.inl"
