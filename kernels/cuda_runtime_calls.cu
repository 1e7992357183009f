// The CUDA runtime calls behind cuda_device.h, kept free of Abseil so that
// nvcc compiles only what needs it.

#include <cuda_runtime.h>

extern "C" int OneflowPromoteCudaDeviceCount(int* count, const char** error) {
  const cudaError_t status = cudaGetDeviceCount(count);
  *error = status == cudaSuccess ? "" : cudaGetErrorString(status);
  return status == cudaSuccess ? 0 : 1;
}

// Stream-ordered where the device has memory pools (cudaMallocAsync), so
// that allocating and freeing neither waits for the device nor breaks a
// CUDA graph capture; plain cudaMalloc on devices without them. *pooled
// says which, for OneflowPromoteCudaFree.
extern "C" int OneflowPromoteCudaMalloc(void** pointer, long long bytes, int ordinal, void* stream,
                                        int* pooled, const char** error) {
  int previous = 0;
  cudaGetDevice(&previous);
  cudaError_t status = cudaSetDevice(ordinal);
  *pooled = 0;
  if (status == cudaSuccess) {
    status = cudaDeviceGetAttribute(pooled, cudaDevAttrMemoryPoolsSupported, ordinal);
  }
  if (status == cudaSuccess) {
    status = *pooled ? cudaMallocAsync(pointer, static_cast<size_t>(bytes),
                                       static_cast<cudaStream_t>(stream))
                     : cudaMalloc(pointer, static_cast<size_t>(bytes));
  }
  cudaSetDevice(previous);
  *error = status == cudaSuccess ? "" : cudaGetErrorString(status);
  return status == cudaSuccess ? 0 : 1;
}

extern "C" void OneflowPromoteCudaFree(void* pointer, void* stream, int pooled) {
  if (pooled) {
    cudaFreeAsync(pointer, static_cast<cudaStream_t>(stream));
  } else {
    cudaFree(pointer);
  }
}

// Whether `pointer` is device memory of `ordinal` or managed memory; an
// unknown pointer is an answer (0), not an error. The queries run in relaxed
// capture mode, so that a check made while a stream is being captured into
// a CUDA graph cannot invalidate the capture.
extern "C" int OneflowPromoteCudaIsDeviceMemory(const void* pointer, int ordinal, int* is_device,
                                                const char** error) {
  struct RelaxedCapture {
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    RelaxedCapture() { cudaThreadExchangeStreamCaptureMode(&mode); }
    ~RelaxedCapture() { cudaThreadExchangeStreamCaptureMode(&mode); }
  } relaxed;
  *is_device = 0;
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status == cudaSuccess && (ordinal < 0 || ordinal >= count)) status = cudaErrorInvalidDevice;
  *error = status == cudaSuccess ? "" : cudaGetErrorString(status);
  if (status != cudaSuccess) return 1;
  cudaPointerAttributes attributes;
  if (cudaPointerGetAttributes(&attributes, pointer) != cudaSuccess) {
    cudaGetLastError();  // not a sticky error
    return 0;
  }
  *is_device = (attributes.type == cudaMemoryTypeDevice && attributes.device == ordinal) ||
               attributes.type == cudaMemoryTypeManaged;
  return 0;
}

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
