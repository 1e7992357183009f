// CudaDeviceCount, with or without the CUDA toolkit.

#include "kernels/cuda_device.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

#if ONEFLOW_PROMOTE_HAVE_CUDA
extern "C" int OneflowPromoteCudaDeviceCount(int* count, const char** error);
extern "C" int OneflowPromoteCudaMalloc(void** pointer, long long bytes, int ordinal,
                                        const char** error);
extern "C" void OneflowPromoteCudaFree(void* pointer);
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

absl::StatusOr<std::shared_ptr<std::byte[]>> AllocateCudaBuffer(int64_t bytes, int ordinal) {
#if ONEFLOW_PROMOTE_HAVE_CUDA
  void* pointer = nullptr;
  const char* error = "";
  if (OneflowPromoteCudaMalloc(&pointer, bytes, ordinal, &error) != 0) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot allocate ", bytes, " bytes on cuda:", ordinal, ": ", error));
  }
  return std::shared_ptr<std::byte[]>(static_cast<std::byte*>(pointer),
                                      [](std::byte* p) { OneflowPromoteCudaFree(p); });
#else
  (void)bytes;
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
