// The CUDA runtime calls behind cuda_device.h, kept free of Abseil so that
// nvcc compiles only what needs it.

#include <cuda_runtime.h>

extern "C" int OneflowPromoteCudaDeviceCount(int* count, const char** error) {
  const cudaError_t status = cudaGetDeviceCount(count);
  *error = status == cudaSuccess ? "" : cudaGetErrorString(status);
  return status == cudaSuccess ? 0 : 1;
}

extern "C" int OneflowPromoteCudaMalloc(void** pointer, long long bytes, int ordinal,
                                        const char** error) {
  int previous = 0;
  cudaGetDevice(&previous);
  cudaError_t status = cudaSetDevice(ordinal);
  if (status == cudaSuccess) status = cudaMalloc(pointer, static_cast<size_t>(bytes));
  cudaSetDevice(previous);
  *error = status == cudaSuccess ? "" : cudaGetErrorString(status);
  return status == cudaSuccess ? 0 : 1;
}

extern "C" void OneflowPromoteCudaFree(void* pointer) { cudaFree(pointer); }

// direction: 0 host to device, 1 device to host, 2 device to device.
extern "C" int OneflowPromoteCudaMemcpy(void* dst, const void* src, long long bytes, int direction,
                                        const char** error) {
  const cudaMemcpyKind kind = direction == 0   ? cudaMemcpyHostToDevice
                              : direction == 1 ? cudaMemcpyDeviceToHost
                                               : cudaMemcpyDeviceToDevice;
  const cudaError_t status = cudaMemcpy(dst, src, static_cast<size_t>(bytes), kind);
  *error = status == cudaSuccess ? "" : cudaGetErrorString(status);
  return status == cudaSuccess ? 0 : 1;
}
