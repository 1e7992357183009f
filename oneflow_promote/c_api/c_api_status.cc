// The state every C ABI shares: this thread's last error message, and the
// ABI version (oneflow_promote/c_api/c_abi.h).

#include <string>

#include "oneflow_promote/c_api/c_abi.h"
#include "oneflow_promote/c_api/c_api_status.h"

namespace oneflow_promote::c_api_internal {
namespace {

std::string& LastError() {
  thread_local std::string message;
  return message;
}

}  // namespace

void RememberLastError(absl::string_view message) {
  LastError().assign(message.data(), message.size());
}

}  // namespace oneflow_promote::c_api_internal

extern "C" int oneflow_promote_abi_version(void) { return ONEFLOW_PROMOTE_ABI_VERSION; }

extern "C" size_t oneflow_promote_last_error(char* buffer, size_t size) {
  const std::string& message = oneflow_promote::c_api_internal::LastError();
  oneflow_promote::c_api_internal::CopyMessage(message, buffer, size);
  return message.size();
}
