// Where torch's Python functions take a Python number as an operand of a
// binary op: its Scalar overloads, and the numbers its argument parser
// wraps into tensors for add, sub, mul, div and floor_divide. The
// extension registers its Scalar overloads exactly there, so that
// torch.ops.oneflow_promote refuses a number where torch refuses one (as
// torch.ops.aten does: no overload matches, RuntimeError).

#ifndef ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_PYTHON_SCALARS_H_
#define ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_PYTHON_SCALARS_H_

#include "oneflow_promote/functional/op_rules.h"

namespace oneflow_promote::torch_extension {

struct PythonScalars {
  bool other = false;     // op(tensor, 2), out= and in-place alike
  bool self = false;      // op(2, tensor)
  bool self_out = false;  // op(2, tensor, out=...)
};

// For the binary ops of the overload table (where has its own).
PythonScalars PythonScalarsOf(functional::Op op);

}  // namespace oneflow_promote::torch_extension

#endif  // ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_PYTHON_SCALARS_H_
