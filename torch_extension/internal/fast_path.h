// The CPU kernel's short path for the common call: two tensors of one
// shape with row-major strides, or such a tensor and a Python scalar; no
// alpha; into a new result, or into out= (or self) that takes the result
// as it stands. It skips the general path's layout work (broadcasting,
// strided views, resizing and converting destinations) and the functional
// frontend's checks, which such a call cannot fail, and calls the
// elementwise kernel on flat views; for two tensors the dtypes decided for
// the thread's last operand dtypes are kept. The answer is the general
// path's.

#ifndef ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_FAST_PATH_H_
#define ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_FAST_PATH_H_

#include <ATen/ATen.h>

#include <optional>

#include "torch_extension/internal/overloads.h"

namespace oneflow_promote::torch_extension {

// The call's result (out= or self where it has one) through the short
// path; nullopt where the call does not take it.
std::optional<at::Tensor> TryFastPath(const OpCall& call);

}  // namespace oneflow_promote::torch_extension

#endif  // ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_FAST_PATH_H_
