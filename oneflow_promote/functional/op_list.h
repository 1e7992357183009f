// The functional frontend's ops, in one X-macro list: the Op enum, kAllOps
// and each op's arity. Free of Abseil, for nvcc; op_rules.h adds names,
// parsing and the dtype rules.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_OP_LIST_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_OP_LIST_H_

#include <cstdint>

namespace oneflow_promote::functional {

// X(enumerator, name, arity, kind): every op of the frontend, in one list.
#define ONEFLOW_PROMOTE_FOR_EACH_OP(X)           \
  X(kAdd, add, 2, kElementwise)                  \
  X(kSub, sub, 2, kElementwise)                  \
  X(kMul, mul, 2, kElementwise)                  \
  X(kDiv, div, 2, kElementwise)                  \
  X(kDivFloor, div_floor, 2, kElementwise)       \
  X(kDivTrunc, div_trunc, 2, kElementwise)       \
  X(kFloorDivide, floor_divide, 2, kElementwise) \
  X(kRemainder, remainder, 2, kElementwise)      \
  X(kPow, pow, 2, kElementwise)                  \
  X(kMaximum, maximum, 2, kElementwise)          \
  X(kMinimum, minimum, 2, kElementwise)          \
  X(kAtan2, atan2, 2, kElementwise)              \
  X(kEq, eq, 2, kElementwise)                    \
  X(kNe, ne, 2, kElementwise)                    \
  X(kLt, lt, 2, kElementwise)                    \
  X(kLe, le, 2, kElementwise)                    \
  X(kGt, gt, 2, kElementwise)                    \
  X(kGe, ge, 2, kElementwise)                    \
  X(kLogicalAnd, logical_and, 2, kElementwise)   \
  X(kLogicalOr, logical_or, 2, kElementwise)     \
  X(kLogicalXor, logical_xor, 2, kElementwise)   \
  X(kBitwiseAnd, bitwise_and, 2, kElementwise)   \
  X(kBitwiseOr, bitwise_or, 2, kElementwise)     \
  X(kBitwiseXor, bitwise_xor, 2, kElementwise)   \
  X(kWhere, where, 3, kElementwise)              \
  X(kDot, dot, 2, kContraction)                  \
  X(kSum, sum, 1, kReduction)                    \
  X(kProd, prod, 1, kReduction)                  \
  X(kMean, mean, 1, kReduction)                  \
  X(kCumsum, cumsum, 1, kScan)                   \
  X(kNeg, neg, 1, kElementwise)                  \
  X(kAbs, abs, 1, kElementwise)                  \
  X(kSqrt, sqrt, 1, kElementwise)

// What an op's kernel does with its operands' elements.
enum class OpKind : uint8_t {
  kElementwise,  // one result element per (broadcast) operand element
  kReduction,    // all elements to one (sum, prod, mean)
  kScan,         // running results along a dimension (cumsum)
  kContraction,  // products summed over a dimension (dot)
};

enum class Op : uint8_t {
#define ONEFLOW_PROMOTE_OP_ENUM(e, name, arity, kind) e,
  ONEFLOW_PROMOTE_FOR_EACH_OP(ONEFLOW_PROMOTE_OP_ENUM)
#undef ONEFLOW_PROMOTE_OP_ENUM
};

inline constexpr Op kAllOps[] = {
#define ONEFLOW_PROMOTE_OP_LIST(e, name, arity, kind) Op::e,
    ONEFLOW_PROMOTE_FOR_EACH_OP(ONEFLOW_PROMOTE_OP_LIST)
#undef ONEFLOW_PROMOTE_OP_LIST
};

// How many operands the op takes (where: condition, then the two values).
[[nodiscard]] constexpr int OpArity(Op op) {
  switch (op) {
#define ONEFLOW_PROMOTE_OP_ARITY(e, name, arity, kind) \
  case Op::e:                                          \
    return arity;
    ONEFLOW_PROMOTE_FOR_EACH_OP(ONEFLOW_PROMOTE_OP_ARITY)
#undef ONEFLOW_PROMOTE_OP_ARITY
  }
  return 0;
}

[[nodiscard]] constexpr OpKind KindOf(Op op) {
  switch (op) {
#define ONEFLOW_PROMOTE_OP_KIND(e, name, arity, kind) \
  case Op::e:                                         \
    return OpKind::kind;
    ONEFLOW_PROMOTE_FOR_EACH_OP(ONEFLOW_PROMOTE_OP_KIND)
#undef ONEFLOW_PROMOTE_OP_KIND
  }
  return OpKind::kElementwise;
}

// An elementwise op of one operand (neg, abs, sqrt).
[[nodiscard]] constexpr bool IsUnaryElementwise(Op op) {
  return KindOf(op) == OpKind::kElementwise && OpArity(op) == 1;
}

}  // namespace oneflow_promote::functional

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_OP_LIST_H_
