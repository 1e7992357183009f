// The extension's kernels below autograd, shared by every overload: the
// CPU and CUDA kernel (the library's functional frontend on views of the
// tensors' storage) and the Meta kernel (the result's dtype from the
// library's rules, its shape the broadcast shape), which FakeTensor,
// torch.compile and torch.export run.

#ifndef ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_KERNELS_H_
#define ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_KERNELS_H_

#include <ATen/ATen.h>

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "oneflow_promote/ops/op_rules.h"
#include "torch_extension/internal/overloads.h"

namespace oneflow_promote::torch_extension {

// Raises the status with the library's message, as the exception PyTorch
// raises for the same error (NotImplementedError for a dtype an op lacks,
// else mostly RuntimeError).
void ThrowIfError(const absl::Status& status);

// The value, or its status raised as ThrowIfError raises it.
template <typename T>
T ValueOrThrow(absl::StatusOr<T> value) {
  ThrowIfError(value.status());
  return *std::move(value);
}

// The rules' dtypes as the torch this is compiled against (and loaded
// into) has them: without bcomplex32 (before 2.15), complex64 in its place.
ops::OpDTypes InThisTorch(ops::OpDTypes dtypes);

// The library's dtypes for a call (the default dtype from
// torch.get_default_dtype()), or PyTorch's error, raised.
ops::OpDTypes InferDTypes(const OpCall& call);
ops::OpDTypes InferDTypes(const OpCall& call, DType default_dtype);

// The call on CPU or CUDA tensors: checks (overlap, dtypes, shapes), then
// the result, or out= or self written.
at::Tensor RunOnDevice(const OpCall& call);

// The same call on meta tensors: the same checks but overlap, and no data.
at::Tensor RunOnMeta(const OpCall& call);

// The checks of an out= or in-place call on its destination (dtypes,
// canCast, an in-place op's shape), on tensors of any device.
void CheckDestinationOf(const OpCall& call);

}  // namespace oneflow_promote::torch_extension

#endif  // ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_KERNELS_H_
