// Functionalization of the out= and in-place overloads.

#include "torch_extension/internal/functionalize.h"

#include <ATen/FunctionalTensorWrapper.h>
#include <ATen/core/LegacyTypeDispatch.h>

#include "torch_extension/internal/kernels.h"

namespace oneflow_promote::torch_extension {

void Functionalize(const OpCall& call, const c10::OperatorHandle& functional,
                   const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                   torch::jit::Stack* stack) {
  namespace impl = at::functionalization::impl;
  const at::Tensor destination = call.destination;
  if (!destination.defined() || !impl::isFunctionalTensor(destination)) {
    // out=None, or a destination outside functionalization: nothing to do.
    op.redispatchBoxed(keys & c10::after_func_keyset, stack);
    return;
  }
  CheckDestinationOf(call);
  const size_t arguments = call.overload->arguments();
  const size_t first = stack->size() - arguments;
  // The functional overload's arguments: these, out= dropped, tensors
  // synced and unwrapped.
  torch::jit::Stack functional_stack;
  const size_t kept = call.overload->variant == Variant::kOut ? arguments - 1 : arguments;
  for (size_t i = 0; i < kept; ++i) {
    c10::IValue value = (*stack)[first + i];
    if (value.isTensor() && impl::isFunctionalTensor(value.toTensor())) {
      impl::sync(value.toTensor());
      value = impl::from_functional_tensor(value.toTensor());
    }
    functional_stack.push_back(std::move(value));
  }
  {
    const at::AutoDispatchSkipFunctionalize skip;
    functional.callBoxed(&functional_stack);
  }
  // The value, converted to the destination's dtype (torch's conversion)
  // and out= resized, as torch's functionalization does for aten's ops.
  impl::replace_(destination, functional_stack.back().toTensor());
  impl::commit_update(destination);
  impl::sync(destination);
  torch::jit::drop(*stack, arguments);
  torch::jit::push(*stack, destination);
}

}  // namespace oneflow_promote::torch_extension
