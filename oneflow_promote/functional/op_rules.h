// The dtype rules of the functional frontend's ops, under PyTorch's policy:
// which dtype an op computes in, which dtype it returns, and which operand
// combinations it rejects, with PyTorch's messages. This is the one copy of
// those rules: the frontend's functions and `promote op` both call
// InferOpDTypes.
//
//   std::vector<Operand> operands = {Operand::Tensor(DType::kInt8, 1),
//                                    Operand::PyFloat(2.5)};
//   absl::StatusOr<OpDTypes> d = InferOpDTypes(Op::kDiv, operands);
//   // d->compute == d->result == float32
//
// The rules follow PyTorch 2.15's CPU operators (tests/ops/cli_vs_torch.py
// compares every op and operand combination). Each op is defined on dtype
// categories (no bitwise ops on floats, no ordering of complex numbers);
// within them every dtype computes, also where PyTorch has no CPU kernel
// for it (add of uint16, sum of float8): docs/ops.md lists those cases.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_OP_RULES_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_OP_RULES_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/functional/op_list.h"
#include "oneflow_promote/result_type.h"

namespace oneflow_promote::functional {

// The op's name as PyTorch spells it ("floor_divide"); div with a rounding
// mode is "div_floor" / "div_trunc".
[[nodiscard]] constexpr absl::string_view OpName(Op op) {
  switch (op) {
#define ONEFLOW_PROMOTE_OP_NAME(e, name, arity) \
  case Op::e:                                   \
    return #name;
    ONEFLOW_PROMOTE_FOR_EACH_OP(ONEFLOW_PROMOTE_OP_NAME)
#undef ONEFLOW_PROMOTE_OP_NAME
  }
  return "invalid";
}

// Parses an op name: the names above, PyTorch's aliases (true_divide,
// divide, multiply, subtract, greater, greater_equal, less, less_equal,
// not_equal, absolute, negative) and "div(rounding_mode=floor)" /
// "div(rounding_mode=trunc)". The error lists the accepted names.
[[nodiscard]] absl::StatusOr<Op> ParseOp(absl::string_view name);

// What an op does with dtypes.
struct OpDTypes {
  // The dtype the kernel runs in: every input is cast to it first.
  DType compute;
  // The dtype of the returned tensor (bool for comparisons; int64 for sums
  // of integers; the real dtype for abs of complex).
  DType result;
};

// The dtypes of `op` applied to `operands` (tensors, with their number of
// dimensions, and Python scalars, with their values), or PyTorch's error:
// forbidden dtypes (bool - bool, -bool, bitwise on floats, ordering of
// complex numbers, mean of integers, where with a condition neither bool
// nor uint8, dot of unequal dtypes or of tensors that are not 1-D), integer
// powers with a negative Python int exponent, integer division by a Python
// int 0, and Python scalars that overflow the dtype PyTorch converts them to.
//
// The compute dtype is PyTorch's: ResultType under the torch policy and
// `options`, even for operands of one dtype (two Python floats add in the
// default dtype), except that neg, abs and the reductions keep their
// operand's dtype (sum(1.5) is float64, as libtorch's wrapped numbers are).
[[nodiscard]] absl::StatusOr<OpDTypes> InferOpDTypes(Op op, absl::Span<const Operand> operands,
                                                     const PromotionOptions& options = {});

// The dtype a set of operands computes in, as OneFlow's TensorProcessor
// decides it (and libtorch 1.13's TensorIterator did): operands that all
// share one dtype keep it (so a Python float alone is float64); otherwise
// ResultType under the torch policy. Then each operand's
// floor is joined in (floors[i] is operand i's lowest dtype, kBool for none:
// sum of int8 computes in int64), and with `integers_to_float` an integer or
// bool result becomes options.default_dtype (true division of ints).
// `floors` is empty or has one entry per operand.
[[nodiscard]] absl::StatusOr<DType> CommonDType(absl::Span<const Operand> operands,
                                                absl::Span<const DType> floors,
                                                bool integers_to_float,
                                                const PromotionOptions& options = {});

// The shape `shapes` broadcast to (NumPy's rule), or PyTorch's error: "The
// size of tensor a (3) must match the size of tensor b (4) at non-singleton
// dimension 1".
[[nodiscard]] absl::StatusOr<std::vector<int64_t>> BroadcastShapes(
    absl::Span<const absl::Span<const int64_t>> shapes);

// The check PyTorch makes before writing a result computed in `computed` to
// an out= tensor or in place into an input of dtype `out`: c10::canCast.
// The error is PyTorch's "result type float32 can't be cast to the desired
// output type int64".
[[nodiscard]] absl::Status CheckCanCastToOutput(DType computed, DType out);

}  // namespace oneflow_promote::functional

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_OP_RULES_H_
