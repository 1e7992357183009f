// The extension's Functionalize kernel of out= and in-place overloads:
// under functionalization (torch.compile, torch.export) a call becomes its
// functional overload and torch's own copy into the destination, as
// PyTorch's generated functionalization does for aten's ops, so that
// compiled graphs hold functional ops only.

#ifndef ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_FUNCTIONALIZE_H_
#define ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_FUNCTIONALIZE_H_

#include <ATen/core/dispatch/Dispatcher.h>

#include "torch_extension/internal/overloads.h"

namespace oneflow_promote::torch_extension {

// Runs `call` (an out= or in-place overload, `functional` its functional
// overload) under functionalization. Its checks (dtypes, casts, an
// in-place op's shape) are made first, so that they hold in compiled code
// too.
void Functionalize(const OpCall& call, const c10::OperatorHandle& functional,
                   const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                   torch::jit::Stack* stack);

}  // namespace oneflow_promote::torch_extension

#endif  // ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_FUNCTIONALIZE_H_
