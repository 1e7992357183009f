// The CUDA half of the cast API, implemented in kernels/cast_cuda.cu. Kept
// free of Abseil so that nvcc reads only this, dtype_enum.h and convert.h;
// cast.cc validates arguments and turns these results into absl::Status.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_CUDA_CAST_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_CUDA_CAST_H_

#include <cstdint>

#include "kernels/internal/strided_layout.h"
#include "oneflow_promote/dtype_enum.h"

namespace oneflow_promote::cast_internal {

// What a CUDA call came to.
enum class CudaOutcome {
  kOk,
  kNoKernel,      // a dtype or op the library has no CUDA kernel for
  kRuntimeError,  // an error of the CUDA runtime
};

// The outcome, and unless kOk its message.
struct CudaResult {
  CudaOutcome outcome = CudaOutcome::kOk;
  const char* message = "";
  [[nodiscard]] bool ok() const { return outcome == CudaOutcome::kOk; }
};

// Queues n contiguous conversions on `stream`; from != to.
[[nodiscard]] CudaResult CudaCastContiguous(const void* src, DType from, void* dst, DType to,
                                            int64_t n, int ordinal, void* stream);

// Queues the strided conversion of n = product(layout sizes) elements.
[[nodiscard]] CudaResult CudaCastStrided(const void* src, DType from, const StridedLayout& layout,
                                         void* dst, DType to, int64_t n, int ordinal, void* stream);

// Queues a device-to-device copy of `bytes` bytes.
[[nodiscard]] CudaResult CudaCopy(const void* src, void* dst, int64_t bytes, int ordinal,
                                  void* stream);

}  // namespace oneflow_promote::cast_internal

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_CUDA_CAST_H_
