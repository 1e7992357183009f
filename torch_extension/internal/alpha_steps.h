// add and sub with an alpha other than 1 where PyTorch's CPU kernel does
// not compute self + alpha * other in one fused step everywhere: the
// library's fused kernel where PyTorch's loop fuses, and two steps, self +
// (alpha * other), each rounded as PyTorch rounds it, elsewhere.

#ifndef ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_ALPHA_STEPS_H_
#define ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_ALPHA_STEPS_H_

#include <ATen/ATen.h>

#include <optional>

#include "functional/functional.h"
#include "functional/tensor.h"
#include "oneflow_promote/ops/op_rules.h"
#include "torch_extension/internal/overloads.h"
#include "torch_extension/internal/tensor_views.h"
#include "torch_extension/internal/vector_loops.h"

namespace oneflow_promote::torch_extension {

// How add and sub with alpha other than 1 run in two steps, self + (alpha
// * other), to give torch's bits: the dtype both steps compute in, and
// alpha as that dtype's kernel takes it (negated for sub).
struct AlphaSteps {
  DType dtype;  // of both steps, and of the result
  c10::Scalar alpha;
  // The element ranges PyTorch computes fused (float16 and bfloat16: its
  // vector loop's, in float32; float32 and float64: all but
  // TorchUnfusedAlphaRanges); the others take the steps in `dtype`.
  ElementRanges fused;
};

// How add and sub with alpha other than 1 run where PyTorch's CPU kernel
// does not compute self + alpha * other in one fused step: float16 and
// bfloat16, whose scalar loop computes in Half and BFloat16 arithmetic
// (alpha * other rounds to the dtype, then the sum does) while its vector
// loop fuses them in float32 and rounds once; complex32, whose kernel
// computes in c10::complex<Half> (the product rounds into Half parts before
// the sum does); float32 and float64 where its compiler does not fuse the
// scalar tail (TorchUnfusedAlphaRanges). Everywhere else the library's add
// kernel takes alpha (OpOptions::alpha) and computes as PyTorch's does.
std::optional<AlphaSteps> AlphaStepsOf(const OpCall& call, const ops::OpDTypes& dtypes,
                                       const c10::Device& device, at::IntArrayRef shape);

// add and sub with alpha other than 1 into `target` (of dtype
// steps.dtype): the steps, and where PyTorch's vector loop would run, the
// library's fused kernel (OpOptions::alpha: the product and sum in float32,
// rounded once).
void RunWithAlpha(const OpCall& call, const AlphaSteps& steps, const KernelOperands& operands,
                  const ops::OpDTypes& dtypes, const at::Tensor& target,
                  functional::OpOptions options);

}  // namespace oneflow_promote::torch_extension

#endif  // ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_ALPHA_STEPS_H_
