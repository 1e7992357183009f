// libtorch as an oracle: the mapping between our DType and at::ScalarType,
// and tensors that stand for our Operands, built the way PyTorch's Python
// front end builds them (Python scalars become wrapped-number tensors).

#ifndef ONEFLOW_PROMOTE_TESTS_TORCH_ORACLE_H_
#define ONEFLOW_PROMOTE_TESTS_TORCH_ORACLE_H_

#include <ATen/ATen.h>

#include <optional>
#include <string>
#include <vector>

#include "oneflow_promote/dtype.h"
#include "oneflow_promote/ops/op_rules.h"
#include "oneflow_promote/promotion/result_type.h"

namespace oneflow_promote::testing {

// The dtypes libtorch has too (those ToTorchScalarType maps, all 18 of ours
// with PyTorch 2.15), in our enum's order.
const std::vector<DType>& TorchDTypes();

// Every libtorch dtype as a 1-d and as a 0-d tensor operand.
std::vector<Operand> TensorOperandPool();

// The ScalarType for a dtype libtorch has; nullopt for the others.
std::optional<at::ScalarType> ToTorch(DType dtype);
// The dtype of a ScalarType; aborts, naming it, for one this library lacks.
DType FromTorch(at::ScalarType type);
// Our canonical name for a ScalarType, or libtorch's own name for one this
// library lacks (BComplex32: PyTorch 2.15 gives bfloat16 tensor + complex
// Python scalar that dtype).
std::string TorchDTypeName(at::ScalarType type);

// A tensor with the operand's dtype and rank (extent 1 per dimension), or a
// wrapped-number tensor for a Python scalar. Python ints outside int64 have
// no libtorch counterpart: the caller must not pass them.
at::Tensor ToTorchOperand(const Operand& operand);

// A tensor of `shape` with every element `value` (0 or 1), built without
// libtorch's fill kernel, which PyTorch 2.15 lacks for some dtypes
// (bcomplex32, float8_e8m0fnu): the bytes come from this library's Convert.
at::Tensor TorchFilled(at::IntArrayRef shape, DType dtype, int value);

// Sets libtorch's default dtype (float32 or float64) for this thread's calls.
void SetTorchDefaultDType(DType dtype);

// libtorch's answer for at::native::result_type, or the text of its error.
struct TorchAnswer {
  bool ok;  // libtorch answered `dtype`
  DType dtype;
  std::string error;  // libtorch's error when it raised
  // libtorch answered a dtype this library lacks (its name in `foreign`): no
  // answer of ours, error or dtype, agrees with that.
  std::string foreign;

  // Whether an error of ours agrees: libtorch raised too.
  bool raised() const { return !ok && foreign.empty(); }
  // "int64", "BComplex32 (a dtype this library lacks)", "error: ...".
  std::string Describe() const;
};
TorchAnswer TorchResultType(const std::vector<at::Tensor>& tensors);

// Calls libtorch's operator for `op` the way PyTorch's Python front end
// does, found by the name in the op's row (ops/op_list.h) among aten's
// overloads: `inputs` are the operands as tensors (Python scalars as
// wrapped numbers), and where aten has a Scalar overload for a Python
// scalar (pow(Tensor, Scalar), where with scalar values) it is called with
// the scalar instead. Throws c10::Error where PyTorch raises.
at::Tensor RunTorchOp(ops::Op op, const std::vector<Operand>& operands,
                      const std::vector<at::Tensor>& inputs);

// The result dtype of RunTorchOp on tensors of ones (so that no integer
// division meets a zero it was not given as a Python scalar), or the text
// of libtorch's error.
TorchAnswer TorchOpDType(ops::Op op, const std::vector<Operand>& operands);

}  // namespace oneflow_promote::testing

#endif  // ONEFLOW_PROMOTE_TESTS_TORCH_ORACLE_H_
