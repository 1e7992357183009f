// The C ABI over CastElements.

#include "kernels/cast_c_api.h"

#include "kernels/cast.h"
#include "oneflow_promote/internal/c_api_status.h"

extern "C" int oneflow_promote_cast(const void* src, int from, void* dst, int to, int64_t n,
                                    int cuda_ordinal, void* stream, char* error,
                                    size_t error_size) {
  using oneflow_promote::Device;
  using oneflow_promote::DType;
  using oneflow_promote::c_api_internal::DTypeFromCode;
  const Device device = cuda_ordinal < 0 ? Device::Cpu() : Device::Cuda(cuda_ordinal, stream);
  return oneflow_promote::c_api_internal::ReportStatus(
      oneflow_promote::CastElements(src, DTypeFromCode<DType>(from), dst, DTypeFromCode<DType>(to), n,
                                    device),
      error, error_size);
}
