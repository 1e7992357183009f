// CudaDeviceCount, with or without the CUDA toolkit.

#include "kernels/cuda_device.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

#if ONEFLOW_PROMOTE_HAVE_CUDA
extern "C" int OneflowPromoteCudaDeviceCount(int* count, const char** error);
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

}  // namespace oneflow_promote
