// The C ABI over CastElements.

#include "kernels/cast_c_api.h"

#include <type_traits>

#include "kernels/cast.h"
#include "oneflow_promote/c_api/c_api_status.h"

namespace oneflow_promote {
namespace {

// The C pool is HostParallelFor's function type, spelled in C.
static_assert(std::is_same_v<oneflow_promote_parallel_for, HostParallelFor::Run>);

int Cast(const void* src, int from, void* dst, int to, int64_t n, const Device& device, char* error,
         size_t error_size) {
  using c_api_internal::DTypeFromCode;
  return c_api_internal::ReportStatus(
      CastElements(src, DTypeFromCode<DType>(from), dst, DTypeFromCode<DType>(to), n, device),
      error, error_size);
}

}  // namespace
}  // namespace oneflow_promote

extern "C" int oneflow_promote_cast(const void* src, int from, void* dst, int to, int64_t n,
                                    int cuda_ordinal, void* stream, char* error,
                                    size_t error_size) {
  using oneflow_promote::Device;
  const Device device = cuda_ordinal < 0 ? Device::Cpu() : Device::Cuda(cuda_ordinal, stream);
  return oneflow_promote::Cast(src, from, dst, to, n, device, error, error_size);
}

extern "C" int oneflow_promote_cast_on_host(const void* src, int from, void* dst, int to, int64_t n,
                                            int threads, oneflow_promote_parallel_for run,
                                            void* state, char* error, size_t error_size) {
  using oneflow_promote::Device;
  const Device device = Device::Cpu(threads, oneflow_promote::HostParallelFor{run, state});
  return oneflow_promote::Cast(src, from, dst, to, n, device, error, error_size);
}
