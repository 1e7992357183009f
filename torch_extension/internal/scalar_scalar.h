// op(2.5, 3) with both operands Python numbers, where torch's argument
// parser takes it (add, sub, mul, div, floor_divide): both wrapped into
// tensors, as the parser wraps them, and the Tensor overload run on them.

#ifndef ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_SCALAR_SCALAR_H_
#define ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_SCALAR_SCALAR_H_

#include <torch/library.h>

namespace oneflow_promote::torch_extension {

// Defines the Scalar_Scalar overloads; called after every other overload
// is defined, so that torch.ops tries them last. Their kernel is
// CompositeImplicitAutograd: a call with no tensor reaches no backend key.
void DefineScalarScalar(torch::Library& m);

}  // namespace oneflow_promote::torch_extension

#endif  // ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_SCALAR_SCALAR_H_
