// How the C ABIs report an absl::Status: the code as the return value, the
// message copied, truncated and NUL-terminated, into a caller buffer, and
// kept whole for oneflow_promote_last_error (c_abi.h).

#ifndef ONEFLOW_PROMOTE_INTERNAL_C_API_STATUS_H_
#define ONEFLOW_PROMOTE_INTERNAL_C_API_STATUS_H_

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace oneflow_promote::c_api_internal {

// Copies `message` into buffer[0..size), truncated and NUL-terminated;
// nothing when buffer is null or size 0.
inline void CopyMessage(absl::string_view message, char* buffer, size_t size) {
  if (buffer == nullptr || size == 0) return;
  const size_t length = std::min(size - 1, message.size());
  // An empty message may have a null data(), which memcpy may not be given
  // even for 0 bytes.
  if (length > 0) std::memcpy(buffer, message.data(), length);
  buffer[length] = '\0';
}

// Keeps `message` as this thread's last error (c_api_status.cc).
void RememberLastError(absl::string_view message);

// Writes status's message into error[0..error_size) (when error_size > 0),
// remembers it whole, and returns its code as an int (0 for OK).
inline int ReportStatus(const absl::Status& status, char* error, size_t error_size) {
  RememberLastError(status.message());
  CopyMessage(status.message(), error, error_size);
  return static_cast<int>(status.code());
}

// InvalidArgument "<what> is null" for a null pointer argument, else OK.
inline absl::Status NotNull(const void* pointer, absl::string_view what) {
  if (pointer != nullptr) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(what, " is null"));
}

// `error`'s message as InvalidArgument, prefixed with the argument it is
// about: "operand a: ...".
inline absl::Status ArgumentError(absl::string_view what, const absl::Status& error) {
  return absl::InvalidArgumentError(absl::StrCat(what, ": ", error.message()));
}

// A dtype code from C as a DType; out-of-range codes become an invalid
// enum value that the callee reports by number.
template <typename DType>
DType DTypeFromCode(int raw) {
  return static_cast<DType>(raw < 0 || raw > 255 ? 255 : raw);
}

}  // namespace oneflow_promote::c_api_internal

#endif  // ONEFLOW_PROMOTE_INTERNAL_C_API_STATUS_H_
