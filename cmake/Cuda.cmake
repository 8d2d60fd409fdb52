# CUDA is optional: found -> the CUDA backend is built; absent -> CPU only.
set(LINESCOPE_HAVE_CUDA OFF)
if(LINESCOPE_WITH_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(LINESCOPE_HAVE_CUDA ON)
  endif()
endif()
# This version of the engine has no CUDA kernels yet: the detection is in place so that
# the CUDA backend builds as soon as it exists, and says plainly what is built today.
if(LINESCOPE_HAVE_CUDA)
  message(STATUS "LineScope: CUDA compiler found (${CMAKE_CUDA_COMPILER}), but this version has no CUDA kernels yet: building the CPU backend only")
else()
  message(STATUS "LineScope: no CUDA compiler found (or LINESCOPE_WITH_CUDA=OFF): building the CPU backend only")
endif()
