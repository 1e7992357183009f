// TensorProcessor for libtorch's at::Tensor: the adapter that lets a
// PyTorch-based frontend use this library's promotion rules and cast
// kernels on its own tensors. Casts allocate an at::Tensor of the target
// dtype (PyTorch's allocators) and fill it with CastElements / CastStrided
// on the data pointers (CPU, or CUDA on the tensor's device and PyTorch's
// current stream); wrapped numbers (Python scalars) convert on the host.
//
//   TensorProcessor<at::Tensor> processor;
//   absl::Status s = processor.AddInputs({x, y}).PromoteInputsToCommonDtype(true).Apply();
//   at::Tensor sum = at::add(processor.GetInputs()[0], processor.GetInputs()[1]);
//
// Unlike the rest of the library (C++17), this header needs C++20: PyTorch
// 2.15's ATen requires it. In Bazel, compile its users with TORCH_COPTS
// (//third_party/torch:torch.bzl).

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_TORCH_TENSOR_TRAITS_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_TORCH_TENSOR_TRAITS_H_

#include <ATen/ATen.h>

#include <optional>

#include "absl/status/statusor.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/ops/tensor_processor.h"

namespace oneflow_promote {

// The ScalarType of a dtype libtorch has; nullopt for ours that it lacks.
[[nodiscard]] std::optional<at::ScalarType> ToTorchScalarType(DType dtype);
// The dtype of a ScalarType; nullopt for libtorch's quantized and other
// types this library does not have.
[[nodiscard]] std::optional<DType> FromTorchScalarType(at::ScalarType type);

// How the promotion rules see a Python scalar that reached C++ as a Scalar.
[[nodiscard]] Operand ScalarOperand(const c10::Scalar& value);

// PyTorch's execution context for work on `device`: its intra-op thread
// count and pool (at::parallel_for), and its current stream when `device`
// is a CUDA device. Needs no CUDA headers (c10's device-generic stream API).
[[nodiscard]] ExecutionContext CurrentTorchContext(const c10::Device& device);

template <>
struct ops::TensorTraits<at::Tensor> {
  // A dtype this library lacks maps to an invalid DType, which Apply()
  // reports with the operand's position.
  static DType DTypeOf(const at::Tensor& t) {
    return FromTorchScalarType(t.scalar_type()).value_or(static_cast<DType>(0xff));
  }
  static int64_t NDim(const at::Tensor& t) { return t.dim(); }
  static bool IsWrappedNumber(const at::Tensor& t) {
    return t.unsafeGetTensorImpl()->is_wrapped_number();
  }
  static Operand ScalarOf(const at::Tensor& t);
  // On the CPU with the context's threads; on CUDA, under a guard for the
  // tensor's device, on the context's stream or, when it names none,
  // PyTorch's current stream of that device.
  static absl::StatusOr<at::Tensor> Cast(const at::Tensor& t, DType dtype,
                                         const ExecutionContext& context);
};

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_TORCH_TENSOR_TRAITS_H_
