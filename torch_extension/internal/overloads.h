// The overloads torch.ops.oneflow_promote registers, as data: for each, its
// schema, the library's op and how its arguments sit on the dispatcher's
// stack; and a call's arguments read back from that stack (OpCall). Every
// kernel of the extension (CPU and CUDA, Meta, Autograd, ADInplaceOrView)
// is one boxed function over this table.

#ifndef ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_OVERLOADS_H_
#define ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_OVERLOADS_H_

#include <ATen/ATen.h>
#include <ATen/core/stack.h>

#include <optional>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "oneflow_promote/ops/op_rules.h"

namespace oneflow_promote::torch_extension {

// How an overload delivers its result.
enum class Variant : uint8_t {
  kFunctional,  // a new tensor
  kOut,         // into out= (out=None: a new tensor)
  kInPlace,     // into self (add_)
};

// One overload, e.g. add.Scalar_alpha_out(Tensor self, Scalar other,
// Scalar alpha, *, Tensor(a!) out) -> Tensor(a!). Its arguments on the
// stack are the operands, then alpha, then rounding_mode, then out.
struct Overload {
  std::string name;    // "add.Scalar_out"
  std::string schema;  // the schema, name included
  std::string base;    // "add": for messages
  ops::Op op;          // div: kDiv, its rounding_mode choosing per call
  Variant variant;
  // Which operands are Python scalars (Scalar in the schema).
  absl::InlinedVector<bool, 3> scalar;
  bool alpha = false;          // add, sub
  bool rounding_mode = false;  // div
  // The functional overload computing the same ("add.Tensor" for add_.Tensor
  // and add.out): what functionalization runs in place of this one.
  std::string functional;
  // The number of arguments on the stack.
  size_t arguments() const {
    return scalar.size() + alpha + rounding_mode + (variant == Variant::kOut);
  }
};

// Every overload, in the order of registration (torch.ops tries them in
// that order for a call on the packet).
const std::vector<Overload>& Overloads();

// One operand of a call: a tensor of the stack, or a Python scalar.
struct Operand {
  const at::Tensor* tensor = nullptr;
  c10::Scalar scalar;
};

// A call's arguments, read from the stack (which must outlive it).
struct OpCall {
  const Overload* overload;
  ops::Op op;  // div with rounding_mode resolved
  absl::InlinedVector<Operand, 3> operands;
  std::optional<c10::Scalar> alpha;  // absent where the overload has none
  // out= or self of an in-place call; undefined for functional calls and
  // out=None.
  at::Tensor destination;
};

// Reads the last overload.arguments() values of the stack.
OpCall ReadCall(const Overload& overload, const torch::jit::Stack& stack);

}  // namespace oneflow_promote::torch_extension

#endif  // ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_OVERLOADS_H_
