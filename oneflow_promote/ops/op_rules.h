// The dtype rules of ops: which dtype an op computes in, which it returns,
// and which operand combinations it rejects, as PyTorch decides them (with
// its messages) or, under another policy, as NumPy 2, jax.numpy or the
// Array API does. Each PyTorch rule is an OpRule (PyTorch's promotion kind,
// its dtype categories, its checks); a framework declares its own ops the
// same way. The built-in ops' rules are derived from their rows of
// op_list.h: the frontend's functions, `promote op` and the PyTorch
// extension all call InferOpDTypes.
//
//   std::vector<Operand> operands = {Operand::Tensor(DType::kInt8, 1),
//                                    Operand::PyFloat(2.5)};
//   absl::StatusOr<OpDTypes> d = InferOpDTypes(Op::kDiv, operands);
//   // d->compute == d->result == float32
//   d = InferOpDTypes(Op::kSin, {Operand::Tensor(DType::kInt8, 1)}, {}, Policy::kNumpy);
//   // d->result == float16: NumPy's first sin loop int8 casts to safely
//
// The rules follow PyTorch 2.15's CPU operators as Python calls them
// (tests/ops/cases.tsv, from tests/ops/generate_cases.py). Each op is defined on dtype
// categories (no bitwise ops on floats, no ordering of complex numbers);
// within them every dtype computes, also where PyTorch has no CPU kernel
// for it (add of uint16, sum of float8): docs/ops.md lists those cases.

#ifndef ONEFLOW_PROMOTE_OPS_OP_RULES_H_
#define ONEFLOW_PROMOTE_OPS_OP_RULES_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/ops/op_list.h"
#include "oneflow_promote/promotion/policy.h"
#include "oneflow_promote/promotion/result_type.h"

namespace oneflow_promote::ops {

// The op's name as PyTorch spells it ("floor_divide", "special.entr"); div
// with a rounding mode is "div_floor" / "div_trunc".
[[nodiscard]] constexpr absl::string_view OpName(Op op) { return SpecOf(op).name; }

// Parses an op name: its name or one of its aliases in op_list.h
// (PyTorch's: true_divide, multiply, arctan2, special.expit, ..., and
// "div(rounding_mode=floor)" / "div(rounding_mode=trunc)"). The error lists
// the accepted names. Under a policy other than torch, the names are that
// framework's (NumPy's arctan2, power, invert; the Array API's atan2, pow,
// bitwise_invert), and a name it lacks is an error naming it.
[[nodiscard]] absl::StatusOr<Op> ParseOp(absl::string_view name);
[[nodiscard]] absl::StatusOr<Op> ParseOp(absl::string_view name, Policy policy);

// The op's declaration in the framework `policy` follows (NumPy, jax.numpy
// for the three JAX policies, the Array API), or null under torch, whose
// rule is the row's own. FrameworkOp::present() is false where the
// framework has no such op.
[[nodiscard]] const FrameworkOp* FrameworkOpOf(Op op, Policy policy);

// "PyTorch", "NumPy", "jax.numpy", "the Array API": who decides under `policy`.
[[nodiscard]] absl::string_view FrameworkName(Policy policy);

// The op's name under `policy` (NumPy's "arctan2"), or "" where the
// framework lacks it.
[[nodiscard]] absl::string_view OpName(Op op, Policy policy);

// "DEFAULT", "INT_TO_FLOAT", ...: PyTorch's spelling.
[[nodiscard]] absl::string_view PromotionKindName(PromotionKind kind);

// What an op does with dtypes.
struct OpDTypes {
  // The dtype every input is cast to (or read as) before the kernel.
  DType compute;
  // The dtype of the returned tensor (bool for comparisons; int64 for sums
  // of integers; the real dtype for abs of complex).
  DType result;
  // The dtype the kernel's arithmetic runs in (PyTorch's opmath): float32
  // for float16 and bfloat16, complex64 for complex32 and bcomplex32; the
  // compute dtype otherwise, and always for kNoOpMath.
  DType opmath;
};

// PyTorch's opmath dtype of `dtype` (torch._prims_common's computation dtype).
[[nodiscard]] DType OpMathDType(DType dtype);

// An op's dtype rule. A framework declares its own op in a line,
//
//   constexpr OpRule kMyOp = {"my_op", 2, PromotionKind::kIntToFloat, kRealCategories};
//   absl::StatusOr<OpDTypes> d = InferOpDTypes(kMyOp, operands);
//
// and the built-in ops' rules come from their rows of op_list.h (RuleOf).
struct OpRule {
  absl::string_view name;
  int arity = 2;
  PromotionKind kind = PromotionKind::kDefault;
  // The categories of the promoted dtype the op is defined on; others fail
  // with "\"<kernel>\" not implemented for '<dtype>'".
  uint8_t categories = kAllCategories;
  absl::string_view kernel = "";  // defaults to `name`
  ReductionFloor floor = ReductionFloor::kNone;
  // Keeps its first operand's dtype instead of promoting (unary ops that do
  // not promote, reductions): sum(1.5) is float64, as a wrapped number is.
  bool keeps_dtype = false;
  // The operands before this one are not promoted (where's condition).
  int first_promoted = 0;
  // Op-specific checks: on the operands before promotion, and on the
  // operands with their dtypes after it. Null: none.
  absl::Status (*check_operands)(absl::Span<const Operand> operands) = nullptr;
  absl::Status (*check_dtypes)(absl::Span<const Operand> operands,
                               const OpDTypes& dtypes) = nullptr;
  // The operands for which the op is a copy or a fill, run by no kernel
  // (pow's x ** 0, x ** 1, 1 ** x): neither the categories nor the kind
  // apply. Null: none.
  bool (*runs_no_kernel)(absl::Span<const Operand> operands) = nullptr;
  // Gradients through the op, where its result carries them.
  Derivative derivative = Derivative::kDefined;
  // The operand positions that take a Python scalar (ScalarPositions bits);
  // a scalar elsewhere fails as PyTorch's argument parser fails it.
  uint8_t scalars = kAnyScalars;
  // A result dtype that does not follow the compute dtype (argmax, var).
  ResultRule result = ResultRule::kCompute;
  // Takes a dtype= argument, which becomes the compute and result dtype.
  bool takes_dtype = false;
  // How operands are converted before promotion (ldexp, float_power).
  OperandConversion conversion = OperandConversion::kNone;
  // The built-in op the rule is of (RuleOf sets it): under a policy other
  // than torch, InferOpDTypes answers as that op's framework decides it. A
  // framework's own rule has none and applies its PyTorch promotion kind to
  // the policy's promoted dtype.
  std::optional<Op> builtin;
};

// Whether the operands fit the op's Python signature: Python scalars only in
// the positions that take them, and alone only where the op allows it; the
// error is PyTorch's argument parser's ("atan2(): argument 'other'
// (position 2) must be Tensor, not float"). The Python-facing surfaces check
// it (`promote op`, the PyTorch extension); InferOpDTypes and the functional
// ops take Python scalars as libtorch's C++ API takes wrapped numbers, in
// every position.
[[nodiscard]] absl::Status CheckPythonSignature(const OpRule& rule,
                                                absl::Span<const Operand> operands);

// The rule of a built-in op, from its row of op_list.h.
[[nodiscard]] const OpRule& RuleOf(Op op);

// The dtypes of an op under `rule` applied to `operands` (tensors, with
// their number of dimensions, and Python scalars, with their values), or
// the error: a wrong operand count, an invalid dtype, the rule's checks,
// a promoted dtype outside the rule's categories, or a failed promotion.
// The promoted dtype is ResultType's under `policy` and `options`, even for
// operands of one dtype (two Python floats add in the default dtype). A
// built-in op's rule under another policy answers as InferOpDTypes(op, ...).
// `dtype` is the dtype= argument of an op that takes one (sum, mean, cumsum):
// the input is cast to it and the op computes in and returns it.
[[nodiscard]] absl::StatusOr<OpDTypes> InferOpDTypes(const OpRule& rule,
                                                     absl::Span<const Operand> operands,
                                                     const PromotionOptions& options = {},
                                                     Policy policy = Policy::kTorch,
                                                     std::optional<DType> dtype = std::nullopt);

// Under torch, InferOpDTypes(RuleOf(op), ...): PyTorch's errors for
// forbidden dtypes (bool - bool, -bool, bitwise on floats, ordering of
// complex numbers, mean of integers, where with a condition neither bool
// nor uint8, dot of unequal dtypes or of tensors that are not 1-D), integer
// powers with a negative Python int exponent, and Python scalars that
// overflow the dtype PyTorch converts them to. Integer division by zero is
// the kernels' to report, as in PyTorch (an empty tensor divides by 0).
// Under another policy, the op as its framework decides it (FrameworkOp):
// NumPy's ufunc loops with NEP 50's Python scalars (OverflowError for an int
// that does not fit the loop), jax.numpy's promote_args* with its weak
// types and default dtypes (32-bit under jax_x32), the Array API's dtype
// categories and scalar rules; an op the framework lacks is an error naming
// the framework. `options` apply under torch only.
[[nodiscard]] absl::StatusOr<OpDTypes> InferOpDTypes(Op op, absl::Span<const Operand> operands,
                                                     const PromotionOptions& options = {},
                                                     Policy policy = Policy::kTorch,
                                                     std::optional<DType> dtype = std::nullopt);

// PyTorch's checks of add's and sub's `alpha` (a Python scalar) against the
// dtype the op computes in: a bool alpha only for bool, a floating one not
// for integers, a complex one only for complex dtypes, in PyTorch's words
// ("For integral input tensors, argument alpha must not be a floating point
// number.").
[[nodiscard]] absl::Status CheckAlpha(DType compute, const Operand& alpha);

// Gradients, as PyTorch's autograd passes them. An op's result requires grad
// when an operand does and the result is floating or complex (not a
// comparison's bool, nor an integer); then each operand that can require
// grad receives a gradient of its own dtype: a tensor (not a Python scalar)
// of a floating or complex dtype that the op promotes (not where's
// condition). The gradient reaches the op in the result's dtype and is
// converted to the operand's; a real operand of a complex result receives
// the real part (PyTorch's handle_r_to_c), a complex operand of a real
// result (abs) the gradient as a complex number.
[[nodiscard]] bool ResultRequiresGrad(const OpDTypes& dtypes);
// The dtype of the gradient operand `index` receives, or nullopt for none.
[[nodiscard]] std::optional<DType> GradientDType(const OpRule& rule,
                                                 absl::Span<const Operand> operands, size_t index,
                                                 const OpDTypes& dtypes);

// The dtype a set of operands computes in, as OneFlow's TensorProcessor
// decides it (and libtorch 1.13's TensorIterator did): under torch, operands
// that all share one dtype keep it (so a Python float alone is float64);
// otherwise, and always under the other policies, ResultType under `policy`. Then each operand's
// floor is joined in (floors[i] is operand i's lowest dtype, kBool for none:
// sum of int8 computes in int64), and with `integers_to_float` an integer or
// bool result becomes options.default_dtype (true division of ints).
// `floors` is empty or has one entry per operand.
[[nodiscard]] absl::StatusOr<DType> CommonDType(absl::Span<const Operand> operands,
                                                absl::Span<const DType> floors,
                                                bool integers_to_float,
                                                const PromotionOptions& options = {},
                                                Policy policy = Policy::kTorch);

// The shape `shapes` broadcast to (NumPy's rule), or PyTorch's error: "The
// size of tensor a (3) must match the size of tensor b (4) at non-singleton
// dimension 1".
[[nodiscard]] absl::StatusOr<std::vector<int64_t>> BroadcastShapes(
    absl::Span<const absl::Span<const int64_t>> shapes);

// The check PyTorch makes before writing a result computed in `computed` to
// an out= tensor or in place into an input of dtype `out`: c10::canCast
// (CanCast under `policy`). The error is PyTorch's "result type float32
// can't be cast to the desired output type int64".
[[nodiscard]] absl::Status CheckCanCastToOutput(DType computed, DType out,
                                                Policy policy = Policy::kTorch);

}  // namespace oneflow_promote::ops

#endif  // ONEFLOW_PROMOTE_OPS_OP_RULES_H_
