// The CUDA half of the functional frontend's elementwise ops, implemented in
// cuda_ops.cu. Free of Abseil, like cuda_cast.h: op_kernels.cc prepares
// the operands (cast to the compute dtype, broadcast strides) and turns the
// result into absl::Status.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_CUDA_OPS_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_CUDA_OPS_H_

#include <cstdint>

#include "kernels/cuda_cast.h"
#include "oneflow_promote/dtype_enum.h"
#include "oneflow_promote/ops/op_list.h"

namespace oneflow_promote::functional_internal {

inline constexpr int kMaxRank = 8;

// One input: device memory of `dtype`, read at sum(index[d] * strides[d])
// over the output's index space (stride 0 repeats); or, with data ==
// nullptr, the single element in `value` (a host scalar already in the
// compute dtype, passed with the launch). A `dtype` other than the compute
// dtype (bool for where's condition) is converted as it is read, with
// convert.h's semantics: the fused cast.
struct CudaOperand {
  const void* data = nullptr;
  DType dtype = DType::kFloat32;
  int64_t strides[kMaxRank] = {};
  alignas(16) unsigned char value[16] = {};
};

struct CudaElementwiseArgs {
  ops::Op op = ops::Op::kAdd;
  DType compute = DType::kFloat32;
  int rank = 0;
  int64_t shape[kMaxRank] = {};
  int64_t numel = 0;
  CudaOperand inputs[3];
  void* out = nullptr;  // contiguous, of the op's result dtype
  // The second input is one element for the whole op: mul and division of
  // narrow floats then take it in float32 (op_math.h's kTakesScalarInFloat;
  // a host scalar's `value` holds it so).
  bool scalar_divisor = false;
  // add's inputs[2] is alpha, a host scalar in the math type (float32 for
  // the narrow floats): self + alpha * other, as op_math.h's ScaledAdd.
  bool scaled = false;
};

// Queues the op on `stream` (a cudaStream_t; nullptr: the default stream)
// of device `ordinal`, after the work already there, as PyTorch's kernels
// run: the call returns before the kernel ends, and can be captured in a
// CUDA graph. Integer division by zero gives the device's answer, as in
// PyTorch's CUDA kernels. Code -1: no kernel for the op and compute dtype.
[[nodiscard]] cast_internal::CudaResult CudaElementwise(const CudaElementwiseArgs& args,
                                                        int ordinal, void* stream);

// sum, prod or mean of n contiguous elements of `dtype` (an accumulating
// dtype: int64, floating or complex) into the one element at `out`, all on
// device `ordinal`, queued on `stream`.
[[nodiscard]] cast_internal::CudaResult CudaReduceAll(ops::Op op, DType dtype, const void* in,
                                                      int64_t n, void* out, int ordinal,
                                                      void* stream);

// Inclusive prefix sums along the middle axis of contiguous [outer, length,
// inner] data, queued on `stream`.
[[nodiscard]] cast_internal::CudaResult CudaCumsum(DType dtype, const void* in, void* out,
                                                   int64_t outer, int64_t length, int64_t inner,
                                                   int ordinal, void* stream);

// The dot product of two strided vectors of n elements into `out`, queued
// on `stream`.
[[nodiscard]] cast_internal::CudaResult CudaDot(DType dtype, const void* a, int64_t stride_a,
                                                const void* b, int64_t stride_b, int64_t n,
                                                void* out, int ordinal, void* stream);

}  // namespace oneflow_promote::functional_internal

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_CUDA_OPS_H_
