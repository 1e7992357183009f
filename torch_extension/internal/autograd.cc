// Autograd for the extension's ops, as PyTorch's generated VariableType
// code does it for aten's: a graph node per differentiable call whose
// backward follows derivatives.yaml's formulas for the same ops, and whose
// gradients reach each operand by the library's gradient rules
// (GradientDType: the operand's own dtype, the real part for a real operand
// of a complex result, summed over the dimensions it was broadcast along).

#include "torch_extension/internal/autograd.h"

#include <ATen/ExpandUtils.h>
#include <torch/csrc/autograd/VariableTypeUtils.h>
#include <torch/csrc/autograd/functions/basic_ops.h>

#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "functional/torch_tensor_traits.h"
#include "oneflow_promote/ops/op_rules.h"
#include "torch_extension/internal/kernels.h"

namespace oneflow_promote::torch_extension {
namespace {

using ops::Op;
using torch::autograd::Node;
using torch::autograd::SavedVariable;
using torch::autograd::variable_list;

// The pointer type of a graph node in this torch (std::shared_ptr before
// torch 2.12, c10::intrusive_ptr after).
using NodePtr = std::decay_t<decltype(std::declval<torch::autograd::Edge>().function)>;

template <typename T, typename... Args>
NodePtr MakeNode(Args&&... args) {
  if constexpr (std::is_same_v<NodePtr, std::shared_ptr<Node>>) {
    return std::make_shared<T>(std::forward<Args>(args)...);
  } else {
    return c10::make_intrusive<T>(std::forward<Args>(args)...);
  }
}

using ops::GradientFormula;

// Whether backward reads the operands' values (saved for it).
bool ReadsOperands(GradientFormula formula) {
  switch (formula) {
    case GradientFormula::kProduct:
    case GradientFormula::kQuotient:
    case GradientFormula::kRemainder:
    case GradientFormula::kExtremum:
    case GradientFormula::kAtan2:
    case GradientFormula::kSelect:
      return true;
    case GradientFormula::kNone:
    case GradientFormula::kSum:
    case GradientFormula::kZero:
      return false;
  }
  return false;
}

// Every op of the extension whose result can carry a gradient names its
// formula in its row, or says that PyTorch's backward raises.
static_assert([] {
  for (Op op : ops::kKernelOps) {
    const ops::OpSpec& spec = ops::SpecOf(op);
    const bool differentiable = spec.in_torch_extension &&
                                spec.promotion != ops::PromotionKind::kAlwaysBool &&
                                (spec.categories & ops::kInexactCategories) != 0;
    if (differentiable && spec.derivative == ops::Derivative::kDefined &&
        spec.gradient == GradientFormula::kNone) {
      return false;
    }
  }
  return true;
}());

// The formula of the call's backward, as the op's row names it; none where
// the row says backward raises (floor_divide; remainder of a Python scalar).
std::optional<GradientFormula> FormulaOf(const OpCall& call) {
  if (ops::BackwardRaises(ops::RuleOf(call.op).derivative, call.operands[0].tensor == nullptr)) {
    return std::nullopt;
  }
  return ops::SpecOf(call.op).gradient;
}

bool AnyOperandRequiresGrad(const OpCall& call) {
  if (!torch::autograd::GradMode::is_enabled()) return false;
  for (const Operand& operand : call.operands) {
    if (operand.tensor != nullptr && operand.tensor->requires_grad()) return true;
  }
  return false;
}

// The node of one call: its operands (tensors saved where backward reads
// them, Python scalars as values), the gradient dtype and shape of each.
class OpBackward final : public Node {
 public:
  OpBackward(const OpCall& call, GradientFormula formula, const ops::OpDTypes& dtypes)
      : op_(call.op), base_(call.overload->base), formula_(formula), alpha_(call.alpha) {
    absl::InlinedVector<oneflow_promote::Operand, 3> rule_operands;
    for (const Operand& operand : call.operands) {
      rule_operands.push_back(
          operand.tensor != nullptr
              ? oneflow_promote::Operand::Tensor(
                    *FromTorchScalarType(operand.tensor->scalar_type()), operand.tensor->dim())
              : ScalarOperand(operand.scalar));
    }
    for (size_t i = 0; i < call.operands.size(); ++i) {
      OperandInfo info;
      const Operand& operand = call.operands[i];
      info.scalar = operand.scalar;
      if (operand.tensor != nullptr) {
        info.is_tensor = true;
        info.sizes = operand.tensor->sym_sizes().vec();
        info.options = operand.tensor->options();
        const std::optional<DType> gradient =
            ops::GradientDType(ops::RuleOf(op_), rule_operands, i, dtypes);
        if (gradient.has_value()) info.gradient = *ToTorchScalarType(*gradient);
      }
      operands_.push_back(std::move(info));
    }
  }

  // Saves operand i's value for backward: `value` is the operand itself, or
  // a copy of self made before an in-place op overwrote it.
  void Save(size_t i, const at::Tensor& value) {
    operands_[i].saved = SavedVariable(value, /*is_output=*/false);
  }

  std::string name() const override { return "oneflow_promote::" + base_ + "_backward"; }

  void release_variables() override {
    for (OperandInfo& operand : operands_) operand.saved.reset_data();
  }

  variable_list apply(variable_list&& grads) override {
    variable_list gradients(operands_.size());
    const at::Tensor& grad = grads[0];
    if (!grad.defined()) return gradients;
    for (size_t i = 0; i < operands_.size(); ++i) {
      const OperandInfo& operand = operands_[i];
      if (!operand.gradient.has_value() || !task_should_compute_output(i)) continue;
      at::Tensor g = Gradient(i, grad);
      // The library's rule: a real operand of a complex result receives the
      // real part; the sum over broadcast dimensions runs in the gradient's
      // dtype, then the operand's dtype (the order of torch's engine). As
      // the engine, it sums only a gradient of another shape: a sum of one
      // element would turn -0.0 into +0.0.
      if (g.is_complex() && !at::isComplexType(*operand.gradient)) g = at::real(g);
      if (!g.sym_sizes().equals(operand.sizes)) g = at::sum_to(g, operand.sizes);
      if (g.scalar_type() != *operand.gradient) g = g.to(*operand.gradient);
      gradients[i] = std::move(g);
    }
    return gradients;
  }

 private:
  struct OperandInfo {
    bool is_tensor = false;
    c10::Scalar scalar;
    SavedVariable saved;
    std::vector<c10::SymInt> sizes;
    at::TensorOptions options;
    std::optional<at::ScalarType> gradient;  // none: the operand receives none
  };

  // Operand i as backward reads it. A Python scalar stays a Scalar, so
  // that at:: picks the Scalar overloads, as derivatives.yaml's formulas
  // for aten's Scalar overloads do (a wrapped-number tensor would become a
  // Python number in a traced graph and reach a Tensor overload).
  at::Tensor Tensor(size_t i) const { return operands_[i].saved.unpack(); }
  bool IsScalar(size_t i) const { return !operands_[i].is_tensor; }
  const c10::Scalar& Scalar(size_t i) const { return operands_[i].scalar; }
  // self where it may be a Python scalar (div(2, t)): a 0-d tensor of the
  // dtype torch computes self / other in, which divides as the wrapped
  // number torch's formula sees would.
  at::Tensor Self() const {
    if (!IsScalar(0)) return Tensor(0);
    const at::Tensor other = Tensor(1);
    return at::scalar_tensor(Scalar(0), other.options().dtype(at::result_type(other, Scalar(0))));
  }

  // f(other.conj()) of derivatives.yaml's formulas where other is Python
  // scalar i, which torch wraps in a 0-d tensor (a wrapped number). conj()
  // of a real one is that tensor itself, whose dtype promotes nothing: the
  // Scalar. conj() of a complex one is a new 0-d tensor that is not a
  // wrapped number: with a 0-d gradient the formula computes in complex128.
  template <typename F>
  at::Tensor ScalarConj(size_t i, F&& f) const {
    if (!Scalar(i).isComplex()) return f(Scalar(i));
    return f(at::scalar_tensor(Scalar(i).conj(), at::TensorOptions().dtype(at::kComplexDouble)));
  }

  // The gradient operand i receives before the library's rule converts it,
  // by derivatives.yaml's formula for the same aten op.
  at::Tensor Gradient(size_t i, const at::Tensor& grad) const {
    switch (formula_) {
      case GradientFormula::kSum: {
        if (i == 0) return grad;
        const at::Tensor signed_grad = op_ == Op::kSub ? -grad : grad;
        if (!alpha_.has_value() || alpha_->equal(1)) return signed_grad;
        return signed_grad * alpha_->conj();
      }
      case GradientFormula::kProduct:
        if (IsScalar(1 - i)) return ScalarConj(1 - i, [&](auto conj) { return grad * conj; });
        return grad * Tensor(1 - i).conj();
      case GradientFormula::kQuotient:
        if (i == 0 && IsScalar(1)) return ScalarConj(1, [&](auto conj) { return grad / conj; });
        if (i == 0) return grad / Tensor(1).conj();
        return -grad * ((Self() / Tensor(1)) / Tensor(1)).conj();
      case GradientFormula::kZero:
        return at::zeros_like(grad, grad.options().dtype(*operands_[i].gradient));
      case GradientFormula::kRemainder:
        if (i == 0) return grad;
        return -grad * Tensor(0).div(Tensor(1), "floor");
      case GradientFormula::kExtremum: {
        // Ties split the gradient in two (torch's rule); elsewhere it goes
        // to the operand that won.
        const at::Tensor self = Tensor(0);
        const bool scalar = IsScalar(1);
        const at::Tensor tie = scalar ? self == Scalar(1) : self == Tensor(1);
        const at::Tensor below = scalar ? self < Scalar(1) : self < Tensor(1);
        const at::Tensor above = scalar ? self > Scalar(1) : self > Tensor(1);
        const bool self_loses_below = op_ == Op::kMaximum;
        return at::where(tie, grad / 2, grad)
            .masked_fill((i == 0) == self_loses_below ? below : above, 0);
      }
      case GradientFormula::kAtan2: {
        const at::Tensor self = Tensor(0);
        if (IsScalar(1)) {
          const double other = Scalar(1).toDouble();
          return grad * other * (self * self + other * other).reciprocal();
        }
        const at::Tensor other = Tensor(1);
        const at::Tensor reciprocal = (self * self + other * other).reciprocal();
        return i == 0 ? grad * other * reciprocal : grad * -self * reciprocal;
      }
      case GradientFormula::kSelect: {
        const at::Tensor condition = Tensor(0);
        return i == 1 ? at::where(condition, grad, 0) : at::where(condition, 0, grad);
      }
      case GradientFormula::kNone:
        break;
    }
    TORCH_CHECK(false, "no derivative for oneflow_promote::", base_);
  }

  Op op_;
  std::string base_;
  GradientFormula formula_;
  std::optional<c10::Scalar> alpha_;
  absl::InlinedVector<OperandInfo, 3> operands_;
};

torch::autograd::edge_list NextEdges(const OpCall& call) {
  torch::autograd::edge_list edges;
  for (const Operand& operand : call.operands) {
    edges.push_back(operand.tensor != nullptr
                        ? torch::autograd::impl::gradient_edge(*operand.tensor)
                        : torch::autograd::Edge());
  }
  return edges;
}

// The node for a call: the formula (none: a node whose backward raises),
// and the dtypes of the result the gradient arrives in. Saves the operands
// the formula reads; in place, a copy of self, taken before the op
// overwrites it, with its own history so that double backward reaches self.
NodePtr MakeBackward(const OpCall& call, std::optional<GradientFormula> formula,
                     const ops::OpDTypes& dtypes, bool in_place = false) {
  if (!formula.has_value()) {
    return MakeNode<torch::autograd::NotImplemented>("oneflow_promote::" + call.overload->base,
                                                     NextEdges(call));
  }
  NodePtr node = MakeNode<OpBackward>(call, *formula, dtypes);
  node->set_next_edges(NextEdges(call));
  if (ReadsOperands(*formula)) {
    auto& backward = static_cast<OpBackward&>(*node);
    for (size_t i = 0; i < call.operands.size(); ++i) {
      if (i == 0 && in_place) {
        backward.Save(0, call.destination.clone());
      } else if (call.operands[i].tensor != nullptr) {
        backward.Save(i, *call.operands[i].tensor);
      }
    }
  }
  return node;
}

// The call below autograd: the Autograd keys off, ADInplaceOrView on (it
// counts the writes of out= and in-place calls). Those return their
// destination itself, as the schema says, whatever the layers below
// returned (functionalization returns a new tensor holding the value).
void Redispatch(const OpCall& call, const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                torch::jit::Stack* stack) {
  {
    const at::AutoDispatchBelowAutograd guard;
    op.redispatchBoxed(keys & c10::after_autograd_keyset, stack);
  }
  if (call.destination.defined()) stack->back() = call.destination;
}

// A call that returns a new tensor (functional overloads, out=None).
void RunFunctional(const OpCall& call, const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                   torch::jit::Stack* stack) {
  if (!AnyOperandRequiresGrad(call)) return Redispatch(call, op, keys, stack);
  // Only the dtypes matter here: the kernel below checks values.
  const ops::OpDTypes dtypes = InferDTypes(call);
  if (!ops::ResultRequiresGrad(dtypes)) return Redispatch(call, op, keys, stack);
  NodePtr node = MakeBackward(call, FormulaOf(call), dtypes);
  Redispatch(call, op, keys, stack);
  torch::autograd::set_history(stack->back().toTensor(), node);
}

// self.op_(other): the gradient arrives in self's dtype. Logical ops leave
// self's history as it was and comparisons give zeros (their rows' formula),
// as torch's do.
void RunInPlace(const OpCall& call, const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                torch::jit::Stack* stack) {
  const at::Tensor self = call.destination;
  const bool differentiable =
      at::isFloatingType(self.scalar_type()) || at::isComplexType(self.scalar_type());
  const std::optional<GradientFormula> formula = FormulaOf(call);
  const bool logical = ops::RuleOf(call.op).kind == ops::PromotionKind::kAlwaysBool &&
                       formula == GradientFormula::kNone;
  const bool requires_grad = differentiable && !logical && AnyOperandRequiresGrad(call);
  torch::autograd::check_inplace(self, requires_grad);
  if (!requires_grad) return Redispatch(call, op, keys, stack);
  ops::OpDTypes dtypes = InferDTypes(call);
  // The gradient arrives in self's dtype.
  dtypes.result = *FromTorchScalarType(self.scalar_type());
  NodePtr node = MakeBackward(call, formula, dtypes, /*in_place=*/true);
  Redispatch(call, op, keys, stack);
  torch::autograd::rebase_history(self, node);
}

}  // namespace

void RunAutograd(const Overload& overload, const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                 torch::jit::Stack* stack) {
  // The common case first, without reading the call: a functional call
  // none of whose tensors requires grad.
  if (overload.variant == Variant::kFunctional) {
    bool requires_grad = false;
    if (torch::autograd::GradMode::is_enabled()) {
      for (auto it = stack->end() - overload.arguments(); it != stack->end(); ++it) {
        requires_grad |= it->isTensor() && it->toTensor().requires_grad();
      }
    }
    if (!requires_grad) {
      const at::AutoDispatchBelowAutograd guard;
      op.redispatchBoxed(keys & c10::after_autograd_keyset, stack);
      return;
    }
  }
  const OpCall call = ReadCall(overload, *stack);
  switch (call.overload->variant) {
    case Variant::kInPlace:
      return RunInPlace(call, op, keys, stack);
    case Variant::kOut:
      if (call.destination.defined()) break;
      [[fallthrough]];  // out=None: a new tensor
    case Variant::kFunctional:
      return RunFunctional(call, op, keys, stack);
  }
  // out=: torch refuses operands that require grad where the op has a
  // derivative, and leaves floor_divide's out= with a node that raises.
  const bool requires_grad = torch::autograd::GradMode::is_enabled() &&
                             (AnyOperandRequiresGrad(call) || call.destination.requires_grad());
  if (!requires_grad) return Redispatch(call, op, keys, stack);
  const ops::OpDTypes dtypes = InferDTypes(call);
  if (!ops::ResultRequiresGrad(dtypes)) return Redispatch(call, op, keys, stack);
  const bool not_implemented = ops::RuleOf(call.op).derivative == ops::Derivative::kNotImplemented;
  TORCH_CHECK(not_implemented, call.overload->base,
              "(): functions with out=... arguments don't support automatic differentiation, "
              "but one of the arguments requires grad.");
  const at::Tensor out = call.destination;
  NodePtr node = MakeBackward(call, std::nullopt, dtypes);
  Redispatch(call, op, keys, stack);
  torch::autograd::rebase_history(out, node);
}

void CountWrite(const at::Tensor& destination, const c10::OperatorHandle& op,
                c10::DispatchKeySet keys, torch::jit::Stack* stack) {
  {
    const at::AutoDispatchBelowADInplaceOrView guard;
    op.redispatchBoxed(keys & c10::after_ADInplaceOrView_keyset, stack);
  }
  if (!destination.defined()) return;
  torch::autograd::increment_version(destination);
  stack->back() = destination;
}

}  // namespace oneflow_promote::torch_extension
