// The digital line executor compiled for the generic instruction set (flags in compute/CMakeLists.txt).
#define LINESCOPE_ISA generic
#include "compute/cpu/digital_line_morph_impl.inl"
