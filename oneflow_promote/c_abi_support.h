// What the library's C ABIs outside oneflow_promote/ (kernels/cast_c_api.cc)
// take from the C ABIs' shared plumbing: reporting an absl::Status through
// a caller's error buffer and as this thread's last error (c_abi.h), and
// dtype codes from C. The one door into oneflow_promote/internal/ from
// outside oneflow_promote/ (tools/check_layers.py keeps it so); not an API
// for anyone else.

#ifndef ONEFLOW_PROMOTE_C_ABI_SUPPORT_H_
#define ONEFLOW_PROMOTE_C_ABI_SUPPORT_H_

#include "oneflow_promote/internal/c_api_status.h"

#endif  // ONEFLOW_PROMOTE_C_ABI_SUPPORT_H_
