// Where PyTorch's CPU kernels run their vector loop and where their scalar
// loop, for the ops whose two loops give different bits (add with alpha in
// float16 and bfloat16, and in float32 and float64 by a repeated other;
// maximum and minimum of +0.0 and -0.0; remainder where a quotient
// overflows; complex products): the element ranges of a call's result, and
// views of an operand over one of them.

#ifndef ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_VECTOR_LOOPS_H_
#define ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_VECTOR_LOOPS_H_

#include <ATen/ATen.h>

#include <c10/util/FunctionRef.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "torch_extension/internal/overloads.h"
#include "torch_extension/internal/tensor_views.h"

namespace oneflow_promote::torch_extension {

// Ranges [begin, end) of a result's elements in row-major order.
using ElementRanges = std::vector<std::pair<int64_t, int64_t>>;

// The element ranges of a call's result (shaped `shape`) that PyTorch
// 2.15's CPU kernel, computing in `common`, runs in its vector loop, 64
// bytes (two AVX2 vectors) a step: in each thread's range of
// at::parallel_for, each row's piece but its last elements short of a step.
// The call is walked in row-major order (iteration_order.h). None where
// torch runs without vectors.
ElementRanges TorchVectorRanges(const OpCall& call, at::IntArrayRef shape, at::ScalarType common);

// The elements of add and sub with alpha in float32 or float64 that
// PyTorch 2.15's CPU kernel computes as self + round(alpha * other), not
// fused: where `other` repeats along the rows its vector loop runs, each
// piece's scalar tail is vectorized by its compiler with the product
// hoisted out of the loop, 16 bytes at a time after the tail's first
// element: of a tail of r elements, w of them in 16 bytes, the w *
// floor((r - 1) / w) after the first. Measured under the AVX2 and AVX-512
// capabilities alike.
ElementRanges TorchUnfusedAlphaRanges(const OpCall& call, at::IntArrayRef shape,
                                      at::ScalarType common);

// The elements of a complex mul whose products PyTorch 2.15's CPU kernel,
// computing in `common`, fuses into multiply-adds (complex_products.h):
// those of its scalar loop (each piece of a row whole where an operand is
// strided along the rows, else the vector loop's tail). complex128: all of
// them. complex64: those its compiler takes in pairs, all but an odd last
// one; where an operand repeats along contiguous rows, the tail's fours
// after its first element; along strided rows none where out= or self
// overlaps an operand. Measured under the AVX2 and AVX-512 capabilities
// alike.
ElementRanges TorchFusedProductRanges(const OpCall& call, at::IntArrayRef shape,
                                      at::ScalarType common);

// The elements of a complex64 division whose quotient PyTorch 2.15's CPU
// kernel computes with only its denominator's multiply-add fused: the odd
// last element of each piece's scalar loop (its compiler takes the others
// in pairs, every multiply-add fused, as the library's division computes
// them); every element of its scalar loop where out= or self overlaps an
// operand (the pairs' run-time alias check fails). Measured under the
// AVX-512 capability, contiguous, broadcast and strided operands alike.
ElementRanges TorchOddQuotientRanges(const OpCall& call, at::IntArrayRef shape);

// The elements of [0, numel) outside `ranges` (sorted, disjoint).
ElementRanges OutsideRanges(const ElementRanges& ranges, int64_t numel);

// The elements of `from` in `ranges` into `into` (both contiguous, of one
// dtype and shape).
void CopyRanges(const at::Tensor& from, const ElementRanges& ranges, const at::Tensor& into);

// Calls run(views, into) over each of `ranges` of the result (shaped
// operands.shape): views of the operands' elements in the range, and of
// `target`'s (contiguous, shaped as the result) as a 1-D tensor. A range
// is cut where a row of the result's innermost dimension ends, along which
// every operand steps by one stride. An operand TensorIterator reads from
// a copy of another layout (computing in `common`) is read from one here
// too.
// Runs nothing and returns false where that makes more than `most_calls`
// calls.
bool RunOverRanges(ops::Op op, const KernelOperands& operands, at::ScalarType common,
                   const ElementRanges& ranges, const at::Tensor& target, size_t most_calls,
                   c10::function_ref<void(absl::Span<const Tensor>, const at::Tensor&)> run);

}  // namespace oneflow_promote::torch_extension

#endif  // ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_VECTOR_LOOPS_H_
