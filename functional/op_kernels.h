// Kernels of the functional frontend's ops, after dtypes are decided:
// elementwise ops over broadcast operands on the CPU (with the casts of
// mixed-dtype inputs either done beforehand or fused into the loop, block by
// block) and on CUDA devices; reductions, cumsum and dot on the CPU and on
// CUDA devices. Only the ops of ops/op_list.h with Kernel() have them. The
// element semantics of every op are in docs/ops.md; integer arithmetic
// wraps, float16 and bfloat16 compute in float32 and round once, complex32
// in complex64.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_OP_KERNELS_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_OP_KERNELS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "functional/tensor.h"
#include "oneflow_promote/ops/op_rules.h"

namespace oneflow_promote::op_kernels {

// The dtype of `dtype`'s math type, which the kernels compute in: float32
// for the narrow floats, complex64 for complex32 and bcomplex32, the dtype
// itself elsewhere.
[[nodiscard]] DType MathDType(DType dtype);

// Whether Elementwise can convert these inputs block by block as it goes
// (each input either has the output's shape and is contiguous, or has one
// element); otherwise the caller casts them first.
[[nodiscard]] bool CanFuseCasts(absl::Span<const Tensor> inputs, absl::Span<const int64_t> shape);

// out = op(inputs...) elementwise, for op an elementwise op of op_rules.h
// (binary ops, where, neg, abs, sqrt). `out` is contiguous with the
// broadcast shape and dtype InferOpDTypes' result. Each input is read as
// `compute` (where's condition as bool). On the CPU an input of another
// dtype must satisfy CanFuseCasts and is converted in cache-sized blocks.
// When `out` is on a CUDA device the kernel runs there: inputs must then be
// on that device, of any dtype and layout (another dtype is converted as
// each element is read), or single host elements (Python scalars, passed
// with the launch). Integer division by zero is an error
// ("ZeroDivisionError") on the CPU and the device's own answer on CUDA, as
// in PyTorch. The CPU kernel runs on up to context.cpu_threads threads; the
// CUDA kernel is queued on context.cuda_stream, and the call returns
// without waiting for it.
[[nodiscard]] absl::Status Elementwise(ops::Op op, DType compute, absl::Span<const Tensor> inputs,
                                       Tensor& out, const ExecutionContext& context = {});

// sum, prod or mean of all elements of `input` (dtype `compute`) into the
// 0-d tensor `out`; floating sums accumulate in float64 (complex128).
[[nodiscard]] absl::Status ReduceAll(ops::Op op, const Tensor& input, Tensor& out,
                                     const ExecutionContext& context = {});

// Inclusive prefix sums of `input` (dtype `out`'s) along `dim` into the
// contiguous `out` of the same shape; floating sums accumulate in float64.
[[nodiscard]] absl::Status Cumsum(const Tensor& input, int64_t dim, Tensor& out,
                                  const ExecutionContext& context = {});

// The dot product of two 1-d tensors of out's dtype into the 0-d `out`.
[[nodiscard]] absl::Status Dot(const Tensor& a, const Tensor& b, Tensor& out,
                               const ExecutionContext& context = {});

}  // namespace oneflow_promote::op_kernels

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_OP_KERNELS_H_
