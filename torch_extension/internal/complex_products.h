// complex64 and complex128 mul on the CPU where PyTorch's kernel fuses the
// products: its compiler computes the real part as fma(ar, br, -(ai * bi))
// and the imaginary part as fma(ar, bi, ai * br), each rounded once, in its
// scalar loop and in the vectors it makes of scalar tails
// (TorchFusedProductRanges), where its vector loop and the library round
// every product. The two differ in the last bit, in the sign of a zero that
// an underflowing product leaves, and where a product overflows (inf - inf
// is NaN unfused, an infinity fused). And complex64 div's elements whose
// quotient PyTorch's compiler fuses less than the library does
// (TorchOddQuotientRanges).

#ifndef ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_COMPLEX_PRODUCTS_H_
#define ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_COMPLEX_PRODUCTS_H_

#include <ATen/ATen.h>

#include "oneflow_promote/ops/op_rules.h"
#include "torch_extension/internal/overloads.h"
#include "torch_extension/internal/vector_loops.h"

namespace oneflow_promote::torch_extension {

// Elements of a result and their values.
struct FusedProducts {
  ElementRanges ranges;
  at::Tensor values;       // the ranges' elements in order, in the compute dtype
  bool in_result = false;  // values is the result itself, already written
  int64_t count() const { return values.defined() ? values.numel() : 0; }
};

// The elements of the call's result (shaped `shape`, row-major) whose
// products PyTorch 2.15's CPU kernel fuses otherwise than the library, with
// its values: none but for complex64 and complex128 mul and complex64 div
// on the CPU. It reads the operands, so it is
// called before a kernel writes over one. Where the products are every
// element of `result` (contiguous, of the compute dtype; may be undefined)
// and no operand holds its elements at other positions, they are written
// into it at once, and no kernel runs.
FusedProducts TorchFusedProducts(const OpCall& call, const ops::OpDTypes& dtypes,
                                 const c10::Device& device, at::IntArrayRef shape,
                                 const at::Tensor& result);

// Writes the products into `result` (contiguous, of the compute dtype);
// where they are every element, no kernel needs to run before.
void WriteProducts(const FusedProducts& products, const at::Tensor& result);

}  // namespace oneflow_promote::torch_extension

#endif  // ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_COMPLEX_PRODUCTS_H_
