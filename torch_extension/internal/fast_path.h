// The CPU kernel's short path for the common call: new result, tensors
// of one shape, contiguous, no alpha. It skips the general path's layout
// work (broadcasting, strided views, destinations) and the functional
// frontend's checks, which such a call cannot fail, and calls the
// elementwise kernel on flat views; the dtypes decided for the thread's
// last operand dtypes are kept. The answer is the general path's.

#ifndef ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_FAST_PATH_H_
#define ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_FAST_PATH_H_

#include <ATen/ATen.h>

#include "torch_extension/internal/overloads.h"

namespace oneflow_promote::torch_extension {

// Whether the call takes the short path.
bool TakesFastPath(const OpCall& call);

// The result of a call for which TakesFastPath holds.
at::Tensor RunFastPath(const OpCall& call);

}  // namespace oneflow_promote::torch_extension

#endif  // ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_FAST_PATH_H_
