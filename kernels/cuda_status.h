// absl::Status from the CUDA halves' results (cuda_cast.h, cuda_ops.h), for
// the host code of the cast and op kernels; kept out of cuda_cast.h, which
// nvcc reads and which stays free of Abseil.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_CUDA_STATUS_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_CUDA_STATUS_H_

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "kernels/cuda_cast.h"

namespace oneflow_promote::cast_internal {

// OK, or an error reading "<context...>: <message>": unimplemented for a
// missing kernel, internal for the CUDA runtime's. The context is formatted
// only on failure.
template <typename... Context>
absl::Status CudaStatus(const CudaResult& result, const Context&... context) {
  if (result.ok()) return absl::OkStatus();
  std::string message = absl::StrCat(context..., ": ", result.message);
  return result.outcome == CudaOutcome::kNoKernel ? absl::UnimplementedError(std::move(message))
                                                  : absl::InternalError(std::move(message));
}

}  // namespace oneflow_promote::cast_internal

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_CUDA_STATUS_H_
