// The functional frontend's ops, in one X-macro list: the Op enum, kAllOps
// and each op's arity. Free of Abseil, for nvcc; op_rules.h adds names,
// parsing and the dtype rules.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_OP_LIST_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_OP_LIST_H_

#include <cstdint>

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

}  // namespace oneflow_promote::functional

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_OP_LIST_H_
