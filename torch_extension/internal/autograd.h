// The extension's kernels at the Autograd and ADInplaceOrView keys: what
// PyTorch's generated VariableType and ADInplaceOrView code does for aten's
// ops, for every overload of the table.

#ifndef ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_AUTOGRAD_H_
#define ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_AUTOGRAD_H_

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>

#include "torch_extension/internal/overloads.h"

namespace oneflow_promote::torch_extension {

// The Autograd kernel of `overload`: runs the call on the stack below
// autograd (`op` redispatched on `keys`) and leaves its result there,
// recording the graph where an operand requires grad. out= refuses
// operands that require grad, as PyTorch's out= functions do.
void RunAutograd(const Overload& overload, const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                 torch::jit::Stack* stack);

// The ADInplaceOrView kernel of out= and in-place overloads: runs the call
// below, then counts the write to `destination` (its version counter).
void CountWrite(const at::Tensor& destination, const c10::OperatorHandle& op,
                c10::DispatchKeySet keys, torch::jit::Stack* stack);

}  // namespace oneflow_promote::torch_extension

#endif  // ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_AUTOGRAD_H_
