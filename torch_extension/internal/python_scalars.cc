// torch 2.15's Python surface for numbers in the binary ops, as
// torch.add(2, t), torch.atan2(t, 2) and the rest answer it.

#include "torch_extension/internal/python_scalars.h"

namespace oneflow_promote::torch_extension {

PythonScalars PythonScalarsOf(functional::Op op) {
  using functional::Op;
  switch (op) {
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kDiv:
    case Op::kFloorDivide:
      // Numbers the argument parser wraps into tensors, in either place.
      return {/*other=*/true, /*self=*/true, /*self_out=*/true};
    case Op::kRemainder:
    case Op::kBitwiseAnd:
    case Op::kBitwiseOr:
    case Op::kBitwiseXor:
      // aten's Scalar_Tensor overloads, which Python binds without out=.
      return {/*other=*/true, /*self=*/true, /*self_out=*/false};
    case Op::kMaximum:
    case Op::kMinimum:
    case Op::kAtan2:
    case Op::kLogicalAnd:
    case Op::kLogicalOr:
    case Op::kLogicalXor:
      return {};  // tensors only
    default:
      return {/*other=*/true};  // the comparisons: aten's Scalar overloads
  }
}

}  // namespace oneflow_promote::torch_extension
