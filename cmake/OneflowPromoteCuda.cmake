# CUDA detection for the CMake build, the counterpart of third_party/cuda/
# for Bazel: the CUDA kernels are built when nvcc is found, and everything
# still builds without them (ONEFLOW_PROMOTE_HAVE_CUDA=0, the CUDA path
# reporting Unavailable). -DONEFLOW_PROMOTE_CUDA=OFF leaves them out anyway.
#
# nvcc is CMAKE_CUDA_COMPILER or $CUDACXX when given; otherwise
# $CUDA_PATH/bin/nvcc (default /usr/local/cuda), the toolkit Bazel's
# cuda_configure picks; otherwise nvcc on PATH.

include(CheckLanguage)

if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
  if(DEFINED ENV{CUDA_PATH})
    set(_oneflow_promote_cuda_path "$ENV{CUDA_PATH}")
  else()
    set(_oneflow_promote_cuda_path /usr/local/cuda)
  endif()
  if(EXISTS "${_oneflow_promote_cuda_path}/bin/nvcc")
    # Through the environment, so that check_language still tries it.
    set(ENV{CUDACXX} "${_oneflow_promote_cuda_path}/bin/nvcc")
  endif()
endif()

# A build told to leave CUDA out does not pay for the probe.
if(NOT DEFINED ONEFLOW_PROMOTE_CUDA OR ONEFLOW_PROMOTE_CUDA)
  check_language(CUDA)
endif()
if(CMAKE_CUDA_COMPILER)
  set(_oneflow_promote_cuda_default ON)
else()
  set(_oneflow_promote_cuda_default OFF)
endif()
option(ONEFLOW_PROMOTE_CUDA "Build the CUDA kernels (ON when nvcc is found)"
       ${_oneflow_promote_cuda_default})

if(ONEFLOW_PROMOTE_CUDA)
  if(NOT CMAKE_CUDA_COMPILER)
    message(FATAL_ERROR "ONEFLOW_PROMOTE_CUDA is ON but no working nvcc was found; "
                        "set CMAKE_CUDA_COMPILER or CUDA_PATH, or turn it OFF.")
  endif()
  # SASS for sm_80 and sm_90, as third_party/cuda/cuda.bzl compiles.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 80-real 90-real)
  endif()
  # cudart is linked explicitly (CUDA::cudart), shared like Bazel's -lcudart.
  set(CMAKE_CUDA_RUNTIME_LIBRARY None)
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  message(STATUS "oneflow_promote: CUDA kernels for ${CMAKE_CUDA_ARCHITECTURES} "
                 "with ${CMAKE_CUDA_COMPILER} ${CMAKE_CUDA_COMPILER_VERSION}")
else()
  message(STATUS "oneflow_promote: building without the CUDA kernels")
endif()
