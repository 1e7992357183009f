// How the C ABIs report an absl::Status: the code as the return value and
// the message copied, truncated and NUL-terminated, into a caller buffer.

#ifndef ONEFLOW_PROMOTE_INTERNAL_C_API_STATUS_H_
#define ONEFLOW_PROMOTE_INTERNAL_C_API_STATUS_H_

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "absl/status/status.h"

namespace oneflow_promote::c_api_internal {

// Writes status's message into error[0..error_size) (when error_size > 0)
// and returns its code as an int (0 for OK).
inline int ReportStatus(const absl::Status& status, char* error, size_t error_size) {
  if (error != nullptr && error_size > 0) {
    const size_t length = std::min(error_size - 1, status.message().size());
    // An OK status's empty message has a null data(), which memcpy may not
    // be given even for 0 bytes.
    if (length > 0) std::memcpy(error, status.message().data(), length);
    error[length] = '\0';
  }
  return static_cast<int>(status.code());
}

// A dtype code from C as a DType; out-of-range codes become an invalid
// enum value that the callee reports by number.
template <typename DType>
DType DTypeFromCode(int raw) {
  return static_cast<DType>(raw < 0 || raw > 255 ? 255 : raw);
}

}  // namespace oneflow_promote::c_api_internal

#endif  // ONEFLOW_PROMOTE_INTERNAL_C_API_STATUS_H_
