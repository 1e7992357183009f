// The CUDA runtime calls behind cuda_device.h, kept free of Abseil so that
// nvcc compiles only what needs it.

#include <cuda_runtime.h>

extern "C" int OneflowPromoteCudaDeviceCount(int* count, const char** error) {
  const cudaError_t status = cudaGetDeviceCount(count);
  *error = status == cudaSuccess ? "" : cudaGetErrorString(status);
  return status == cudaSuccess ? 0 : 1;
}
