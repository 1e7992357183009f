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
// The rules follow libtorch 1.13's CPU operators (checked exhaustively by
// //tests:ops_vs_torch), including which dtypes each CPU kernel implements:
// where PyTorch raises "not implemented for 'Half'", so does this. See
// docs/ops.md.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_OP_RULES_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_OP_RULES_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/result_type.h"

namespace oneflow_promote::functional {

// X(enumerator, name, arity): every op of the frontend, in one list.
#define ONEFLOW_PROMOTE_FOR_EACH_OP(X) \
  X(kAdd, add, 2)                      \
  X(kSub, sub, 2)                      \
  X(kMul, mul, 2)                      \
  X(kDiv, div, 2)                      \
  X(kDivFloor, div_floor, 2)           \
  X(kDivTrunc, div_trunc, 2)           \
  X(kFloorDivide, floor_divide, 2)     \
  X(kRemainder, remainder, 2)          \
  X(kPow, pow, 2)                      \
  X(kMaximum, maximum, 2)              \
  X(kMinimum, minimum, 2)              \
  X(kAtan2, atan2, 2)                  \
  X(kEq, eq, 2)                        \
  X(kNe, ne, 2)                        \
  X(kLt, lt, 2)                        \
  X(kLe, le, 2)                        \
  X(kGt, gt, 2)                        \
  X(kGe, ge, 2)                        \
  X(kLogicalAnd, logical_and, 2)       \
  X(kLogicalOr, logical_or, 2)         \
  X(kLogicalXor, logical_xor, 2)       \
  X(kBitwiseAnd, bitwise_and, 2)       \
  X(kBitwiseOr, bitwise_or, 2)         \
  X(kBitwiseXor, bitwise_xor, 2)       \
  X(kWhere, where, 3)                  \
  X(kDot, dot, 2)                      \
  X(kSum, sum, 1)                      \
  X(kProd, prod, 1)                    \
  X(kMean, mean, 1)                    \
  X(kCumsum, cumsum, 1)                \
  X(kNeg, neg, 1)                      \
  X(kAbs, abs, 1)                      \
  X(kSqrt, sqrt, 1)

enum class Op : uint8_t {
#define ONEFLOW_PROMOTE_OP_ENUM(e, name, arity) e,
  ONEFLOW_PROMOTE_FOR_EACH_OP(ONEFLOW_PROMOTE_OP_ENUM)
#undef ONEFLOW_PROMOTE_OP_ENUM
};

inline constexpr Op kAllOps[] = {
#define ONEFLOW_PROMOTE_OP_LIST(e, name, arity) Op::e,
    ONEFLOW_PROMOTE_FOR_EACH_OP(ONEFLOW_PROMOTE_OP_LIST)
#undef ONEFLOW_PROMOTE_OP_LIST
};

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

// How many operands the op takes (where: condition, then the two values).
[[nodiscard]] constexpr int OpArity(Op op) {
  switch (op) {
#define ONEFLOW_PROMOTE_OP_ARITY(e, name, arity) \
  case Op::e:                                    \
    return arity;
    ONEFLOW_PROMOTE_FOR_EACH_OP(ONEFLOW_PROMOTE_OP_ARITY)
#undef ONEFLOW_PROMOTE_OP_ARITY
  }
  return 0;
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
// forbidden dtypes (bool - bool, -bool, bitwise on floats, mean of
// integers, where with a non-bool condition, dot of unequal dtypes or of
// tensors that are not 1-D), dtypes PyTorch's CPU kernel does not
// implement, integer powers with a negative Python int exponent, and
// integer division by a Python int 0.
//
// The compute dtype is PyTorch's: operands of one dtype keep it (a Python
// float alone is float64, as libtorch's wrapped numbers are); otherwise
// ResultType under the torch policy and `options`.
[[nodiscard]] absl::StatusOr<OpDTypes> InferOpDTypes(Op op, absl::Span<const Operand> operands,
                                                     const PromotionOptions& options = {});

// The dtype a set of operands computes in, as PyTorch's TensorIterator and
// OneFlow's TensorProcessor decide it: operands that all share one dtype
// keep it (so a Python float alone is float64, as a libtorch wrapped number
// is); otherwise ResultType under the torch policy. Then each operand's
// floor is joined in (floors[i] is operand i's lowest dtype, kBool for none:
// sum of int8 computes in int64), and with `integers_to_float` an integer or
// bool result becomes options.default_dtype (true division of ints).
// `floors` is empty or has one entry per operand.
[[nodiscard]] absl::StatusOr<DType> CommonDType(absl::Span<const Operand> operands,
                                                absl::Span<const DType> floors,
                                                bool integers_to_float,
                                                const PromotionOptions& options = {});

// The check PyTorch makes before writing a result computed in `computed` to
// an out= tensor or in place into an input of dtype `out`: c10::canCast.
// The error is PyTorch's "result type float32 can't be cast to the desired
// output type int64".
[[nodiscard]] absl::Status CheckCanCastToOutput(DType computed, DType out);

}  // namespace oneflow_promote::functional

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_OP_RULES_H_
