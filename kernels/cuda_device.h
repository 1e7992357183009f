// Whether a usable CUDA device is present. Built with the CUDA toolkit when
// one is found at build time (ONEFLOW_PROMOTE_HAVE_CUDA), and without it
// otherwise; either way callers get an answer, never a crash, so GPU tests
// can skip cleanly on machines without a GPU or driver.

#ifndef ONEFLOW_PROMOTE_KERNELS_CUDA_DEVICE_H_
#define ONEFLOW_PROMOTE_KERNELS_CUDA_DEVICE_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace oneflow_promote {

// The number of CUDA devices; an error (Unavailable) saying why there are
// none usable: no toolkit at build time, no driver, or a driver too old.
[[nodiscard]] absl::StatusOr<int> CudaDeviceCount();

// `bytes` bytes of device memory on CUDA device `ordinal`, freed when the
// last owner lets go. Unavailable without the toolkit or a device.
[[nodiscard]] absl::StatusOr<std::shared_ptr<std::byte[]>> AllocateCudaBuffer(int64_t bytes,
                                                                             int ordinal);

enum class CopyDirection { kHostToDevice, kDeviceToHost, kDeviceToDevice };

// Copies `bytes` bytes (synchronously, on the default stream).
[[nodiscard]] absl::Status CudaCopyBytes(void* dst, const void* src, int64_t bytes,
                                         CopyDirection direction);

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_KERNELS_CUDA_DEVICE_H_
