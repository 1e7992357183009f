// maximum and minimum of floats on the CPU where PyTorch's two loops tie
// differently: of equal elements its vector loop returns the second (vmaxps,
// vminps) and its scalar loop the first (std::max, std::min), which only
// +0.0 and -0.0 tell apart.

#ifndef ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_MAXIMUM_TIES_H_
#define ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_MAXIMUM_TIES_H_

#include <ATen/ATen.h>

#include "functional/functional.h"
#include "oneflow_promote/ops/op_rules.h"
#include "torch_extension/internal/overloads.h"
#include "torch_extension/internal/tensor_views.h"
#include "torch_extension/internal/vector_loops.h"

namespace oneflow_promote::torch_extension {

// The ranges of PyTorch's vector loop, whose ties go to the second operand,
// for a maximum or minimum of floats on the CPU; none where the call needs
// no more than the library's kernel (whose ties go to the first).
ElementRanges TiesToSecond(const OpCall& call, const ops::OpDTypes& dtypes,
                           const c10::Device& device, at::IntArrayRef shape);

// maximum and minimum as PyTorch's CPU kernel computes them: the kernel
// over every element with the operands as the larger share of elements
// wants them, then the other share again. Few ranges run over views of
// their rows; many (short rows) over the whole result into a second
// tensor, whose elements in them are copied.
void RunTiesAsTorch(ops::Op op, const KernelOperands& operands, const ElementRanges& vector,
                    const ops::OpDTypes& dtypes, const at::Tensor& target,
                    const functional::OpOptions& options);

}  // namespace oneflow_promote::torch_extension

#endif  // ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_MAXIMUM_TIES_H_
