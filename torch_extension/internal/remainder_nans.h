// remainder of floats on the CPU, where PyTorch's two loops give different
// answers: its vector loop takes Sleef's fmod, which gives NaN where
// |a| / |b| overflows the float it computes in (a tiny or subnormal
// divisor); its scalar loop, and the library, give fmod's exact answer.

#ifndef ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_REMAINDER_NANS_H_
#define ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_REMAINDER_NANS_H_

#include <ATen/ATen.h>

#include <cstdint>
#include <vector>

#include "oneflow_promote/ops/op_rules.h"
#include "torch_extension/internal/overloads.h"

namespace oneflow_promote::torch_extension {

// The elements of the call's result (shaped `shape`, in row-major order)
// that PyTorch 2.15's CPU kernel gives as NaN in its vector loop where the
// library's kernel computes fmod: none but for remainder on the CPU in
// float32, float64 and bfloat16. Read before the kernel runs, which may
// write over an operand.
std::vector<int64_t> VectorLoopNaNs(const OpCall& call, const ops::OpDTypes& dtypes,
                                    const c10::Device& device, at::IntArrayRef shape);

// Writes NaN at `elements` of `result` (contiguous).
void WriteNaNs(const std::vector<int64_t>& elements, const at::Tensor& result);

}  // namespace oneflow_promote::torch_extension

#endif  // ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_REMAINDER_NANS_H_
