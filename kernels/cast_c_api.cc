// The C ABI over CastElements.

#include "kernels/cast_c_api.h"

#include <algorithm>
#include <cstring>

#include "kernels/cast.h"

extern "C" int oneflow_promote_cast(const void* src, int from, void* dst, int to, int64_t n,
                                    int cuda_ordinal, void* stream, char* error,
                                    size_t error_size) {
  using oneflow_promote::Device;
  using oneflow_promote::DType;
  // Out-of-range codes reach CastElements as invalid enum values, which it
  // reports by number.
  const auto code = [](int raw) { return static_cast<DType>(raw < 0 || raw > 255 ? 255 : raw); };
  const Device device = cuda_ordinal < 0 ? Device::Cpu() : Device::Cuda(cuda_ordinal, stream);
  const absl::Status status = oneflow_promote::CastElements(src, code(from), dst, code(to), n, device);
  if (error != nullptr && error_size > 0) {
    const size_t length = std::min(error_size - 1, status.message().size());
    std::memcpy(error, status.message().data(), length);
    error[length] = '\0';
  }
  return static_cast<int>(status.code());
}
