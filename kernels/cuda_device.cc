// CudaDeviceCount, device buffers and pointer checks, with or without the
// CUDA toolkit.

#include "kernels/cuda_device.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

#if ONEFLOW_PROMOTE_HAVE_CUDA
extern "C" int OneflowPromoteCudaDeviceCount(int* count, const char** error);
extern "C" int OneflowPromoteCudaMalloc(void** pointer, long long bytes, int ordinal, void* stream,
                                        int* pooled, const char** error);
extern "C" void OneflowPromoteCudaFree(void* pointer, void* stream, int pooled);
extern "C" int OneflowPromoteCudaIsDeviceMemory(const void* pointer, int ordinal, int* is_device,
                                                const char** error);
extern "C" int OneflowPromoteCudaMemcpy(void* dst, const void* src, long long bytes, int direction,
                                        const char** error);
#endif

namespace oneflow_promote {

absl::StatusOr<int> CudaDeviceCount() {
#if ONEFLOW_PROMOTE_HAVE_CUDA
  int count = 0;
  const char* error = "";
  if (OneflowPromoteCudaDeviceCount(&count, &error) != 0) {
    return absl::UnavailableError(absl::StrCat("no usable CUDA device: ", error));
  }
  if (count == 0) return absl::UnavailableError("no CUDA device");
  return count;
#else
  return absl::UnavailableError("built without the CUDA toolkit");
#endif
}

absl::StatusOr<std::shared_ptr<std::byte[]>> AllocateCudaBuffer(int64_t bytes, int ordinal,
                                                                void* stream) {
#if ONEFLOW_PROMOTE_HAVE_CUDA
  void* pointer = nullptr;
  int pooled = 0;
  const char* error = "";
  if (OneflowPromoteCudaMalloc(&pointer, bytes, ordinal, stream, &pooled, &error) != 0) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot allocate ", bytes, " bytes on cuda:", ordinal, ": ", error));
  }
  return std::shared_ptr<std::byte[]>(
      static_cast<std::byte*>(pointer),
      [stream, pooled](std::byte* p) { OneflowPromoteCudaFree(p, stream, pooled); });
#else
  (void)bytes, (void)stream;
  return absl::UnavailableError(
      absl::StrCat("cuda:", ordinal, " requested, but the library was built without CUDA"));
#endif
}

absl::Status CheckCudaMemory(const void* pointer, int ordinal, absl::string_view role) {
#if ONEFLOW_PROMOTE_HAVE_CUDA
  int is_device = 0;
  const char* error = "";
  if (OneflowPromoteCudaIsDeviceMemory(pointer, ordinal, &is_device, &error) != 0) {
    return absl::UnavailableError(absl::StrCat("CUDA device ", ordinal, ": ", error));
  }
  if (is_device) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(role, " pointer 0x",
                                                 absl::Hex(reinterpret_cast<uintptr_t>(pointer)),
                                                 " is not memory of CUDA device ", ordinal));
#else
  (void)pointer, (void)role;
  return absl::UnavailableError(
      absl::StrCat("cuda:", ordinal, " requested, but the library was built without CUDA"));
#endif
}

absl::Status CudaCopyBytes(void* dst, const void* src, int64_t bytes, CopyDirection direction) {
#if ONEFLOW_PROMOTE_HAVE_CUDA
  const char* error = "";
  if (OneflowPromoteCudaMemcpy(dst, src, bytes, static_cast<int>(direction), &error) != 0) {
    return absl::InternalError(absl::StrCat("cudaMemcpy of ", bytes, " bytes failed: ", error));
  }
  return absl::OkStatus();
#else
  (void)dst, (void)src, (void)bytes, (void)direction;
  return absl::UnavailableError("built without the CUDA toolkit");
#endif
}

}  // namespace oneflow_promote
