// The library's views of torch tensors, shared by the extension's kernels:
// dtypes both ways (an error naming the operand for one the other lacks),
// a tensor's elements as a functional::Tensor without a copy, and a call's
// operands as the kernels read them.

#ifndef ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_TENSOR_VIEWS_H_
#define ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_TENSOR_VIEWS_H_

#include <ATen/ATen.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "functional/tensor.h"
#include "functional/torch_tensor_traits.h"
#include "oneflow_promote/dtype.h"

namespace oneflow_promote::torch_extension {

// The library's dtype of a torch dtype; an error naming the operand (its
// 0-based `position`) for one the library lacks.
inline DType DTypeOf(at::ScalarType type, size_t position) {
  const std::optional<DType> dtype = FromTorchScalarType(type);
  if (C10_UNLIKELY(!dtype.has_value())) {
    TORCH_CHECK(false, "operand ", position + 1, " has dtype ", c10::toString(type),
                ", which oneflow_promote does not have");
  }
  return *dtype;
}

// The torch dtype of a library dtype; an error for one this torch lacks.
at::ScalarType TorchType(DType dtype);

// The elements a tensor with elements reaches, from its first one to its
// last (torch's strides are never negative).
int64_t ElementExtent(const at::Tensor& t);

// The library's view of a tensor's elements (no copy), or the Python
// scalar it wraps. Called only for tensors with elements.
Tensor ViewOf(const at::Tensor& t, size_t position);

// A call's operands: the views the kernel reads, the tensors behind them
// (undefined for a Python scalar or a wrapped number), and the kernel's
// result shape.
struct KernelOperands {
  absl::InlinedVector<Tensor, 3> views;
  std::vector<at::Tensor> sources;
  at::DimVector shape;
};

}  // namespace oneflow_promote::torch_extension

#endif  // ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_TENSOR_VIEWS_H_
