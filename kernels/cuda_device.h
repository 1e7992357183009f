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
#include "absl/strings/string_view.h"

namespace oneflow_promote {

// The number of CUDA devices; an error (Unavailable) saying why there are
// none usable: no toolkit at build time, no driver, or a driver too old.
[[nodiscard]] absl::StatusOr<int> CudaDeviceCount();

// `bytes` bytes of device memory on CUDA device `ordinal`, allocated in
// the order of `stream` (a cudaStream_t; nullptr: the default stream) and
// freed in that order when the last owner lets go, so that neither waits
// for the device and both can be captured in a CUDA graph. Work on other
// streams that uses the buffer must be ordered before its release, as with
// PyTorch's caching allocator. Unavailable without the toolkit or a device.
[[nodiscard]] absl::StatusOr<std::shared_ptr<std::byte[]>> AllocateCudaBuffer(
    int64_t bytes, int ordinal, void* stream = nullptr);

// OK when `pointer` is memory CUDA device `ordinal` can address (its device
// memory, or managed memory); otherwise InvalidArgument naming `role` ("the
// source", "operand a") and the pointer, or Unavailable without a device.
[[nodiscard]] absl::Status CheckCudaMemory(const void* pointer, int ordinal,
                                           absl::string_view role);

enum class CopyDirection { kHostToDevice, kDeviceToHost, kDeviceToDevice };

// Copies `bytes` bytes (synchronously, on the default stream).
[[nodiscard]] absl::Status CudaCopyBytes(void* dst, const void* src, int64_t bytes,
                                         CopyDirection direction);

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_KERNELS_CUDA_DEVICE_H_
