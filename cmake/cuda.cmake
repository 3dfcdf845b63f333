# LAYOUTX_CUDA=ON|OFF|AUTO: whether to enable CUDA for the GPU evaluator
# (src/device). Included from the top directory: a language must be enabled in
# the highest directory whose targets link CUDA code. Sets LAYOUTX_HAVE_CUDA.
# CUDA code is compiled for CMAKE_CUDA_ARCHITECTURES (90, the H100/H200, by
# default; never "native": CI compiles it on machines without a GPU).
set(LAYOUTX_HAVE_CUDA OFF)
if(NOT LAYOUTX_CUDA STREQUAL "OFF")
  # nvcc is rarely on PATH: CUDA's default location is where check_language looks next.
  if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
    set(ENV{CUDACXX} /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(LAYOUTX_HAVE_CUDA ON)
  elseif(LAYOUTX_CUDA STREQUAL "ON")
    message(FATAL_ERROR "LAYOUTX_CUDA=ON, but no working CUDA compiler was found (set CMAKE_CUDA_COMPILER or CUDACXX)")
  else()
    message(STATUS "layoutx: no CUDA compiler; the GPU evaluator is left out")
  endif()
endif()
