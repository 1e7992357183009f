// absl::Status from the CUDA halves' results (cuda_cast.h, cuda_ops.h), for
// the host code of the cast and op kernels; kept out of cuda_cast.h, which
// nvcc reads and which stays free of Abseil.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_CUDA_STATUS_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_CUDA_STATUS_H_

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "kernels/internal/cuda_cast.h"

namespace oneflow_promote::cast_internal {

// OK, or an internal error reading "<context...>: <CUDA's message>". The
// context is formatted only on failure.
template <typename... Context>
absl::Status CudaStatus(const CudaResult& result, const Context&... context) {
  if (result.ok()) return absl::OkStatus();
  return absl::InternalError(absl::StrCat(context..., ": ", result.message));
}

}  // namespace oneflow_promote::cast_internal

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_CUDA_STATUS_H_
