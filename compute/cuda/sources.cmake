# Sources of the CUDA backend, relative to compute/. Each part keeps its own list line.
set(LINESCOPE_CUDA_SOURCES
  cuda/cuda_context.cu
  cuda/cuda_backend.cu
  cuda/line_band_morph.cu
  cuda/line_band_sweep.cu
  cuda/line_tile_sweep.cu
  cuda/float_ranks.cu
)
list(APPEND LINESCOPE_CUDA_SOURCES cuda/classic_vhgw.cu cuda/classic_square.cu cuda/classic_device.cu cuda/classic_host.cu)
list(APPEND LINESCOPE_CUDA_SOURCES cuda/line_queue_kernels.cu)
list(APPEND LINESCOPE_CUDA_SOURCES cuda/contours_cuda.cu)
list(APPEND LINESCOPE_CUDA_SOURCES cuda/resident.cu)
list(APPEND LINESCOPE_CUDA_SOURCES cuda/zones.cu)
list(APPEND LINESCOPE_CUDA_SOURCES cuda/granulometry_cuda.cu)
list(APPEND LINESCOPE_CUDA_SOURCES cuda/kernel_line_morph.cu)
list(APPEND LINESCOPE_CUDA_SOURCES cuda/foreign_images.cu)
list(APPEND LINESCOPE_CUDA_SOURCES cuda/orientation_blocks.cu)
list(APPEND LINESCOPE_CUDA_SOURCES cuda/digital_line_device.cu)
list(APPEND LINESCOPE_CUDA_SOURCES cuda/skew_device.cu)
list(APPEND LINESCOPE_CUDA_SOURCES cuda/line_spectrum_warps.cu)
