// Autograd for the extension's ops.

#include "torch_extension/internal/autograd.h"

#include <torch/csrc/autograd/VariableTypeUtils.h>

namespace oneflow_promote::torch_extension {
namespace {

bool AnyRequiresGrad(const OpCall& call) {
  if (!torch::autograd::GradMode::is_enabled()) return false;
  for (const Operand& operand : call.operands) {
    if (operand.tensor != nullptr && operand.tensor->requires_grad()) return true;
  }
  return call.destination.defined() && call.destination.requires_grad();
}

}  // namespace

void RunAutograd(const OpCall& call, const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                 torch::jit::Stack* stack) {
  if (call.overload->variant == Variant::kOut && call.destination.defined()) {
    TORCH_CHECK(!AnyRequiresGrad(call), call.overload->base,
                "(): functions with out=... arguments don't support automatic differentiation, "
                "but one of the arguments requires grad.");
  }
  const at::AutoDispatchBelowADInplaceOrView guard;
  op.redispatchBoxed(keys & c10::after_autograd_keyset, stack);
}

void CountWrite(const at::Tensor& destination, const c10::OperatorHandle& op,
                c10::DispatchKeySet keys, torch::jit::Stack* stack) {
  {
    const at::AutoDispatchBelowADInplaceOrView guard;
    op.redispatchBoxed(keys & c10::after_ADInplaceOrView_keyset, stack);
  }
  if (destination.defined()) torch::autograd::increment_version(destination);
}

}  // namespace oneflow_promote::torch_extension
