// Where PyTorch's CPU kernels run their vector loop and where their scalar
// loop, for the ops whose two loops give different bits (add with alpha in
// float16 and bfloat16; maximum and minimum of +0.0 and -0.0): the element
// ranges of a call's result, and views of an operand over one of them.

#ifndef ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_VECTOR_LOOPS_H_
#define ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_VECTOR_LOOPS_H_

#include <ATen/ATen.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "torch_extension/internal/overloads.h"

namespace oneflow_promote::torch_extension {

// Ranges [begin, end) of a result's elements in row-major order.
using ElementRanges = std::vector<std::pair<int64_t, int64_t>>;

// Whether TensorIterator reads the operand from a contiguous copy: one of
// another dtype than the `common` one it computes in, unless it is dense
// (the copy then keeps its strides).
bool ReadFromContiguousCopy(const at::Tensor& t, at::ScalarType common);

// The rows PyTorch's TensorIterator hands its inner loop for this call,
// which computes in `common`: their length (the trailing dimensions each
// operand takes whole, or each repeats, alike, which coalesce) and whether
// its vector loop runs them (every operand contiguous along them, but for
// at most one that repeats). 0 where it cannot tell: a strided operand of
// the common dtype, or a strided result.
int64_t VectorRowLength(const OpCall& call, at::IntArrayRef shape, at::ScalarType common);

// The element ranges PyTorch 2.15's CPU kernel runs in its vector loop, of
// a result of `numel` elements in rows of `row` (VectorRowLength), whose
// loop takes `vector_pair` elements a step (two vectors): in each thread's
// range of at::parallel_for, each row's piece but its last
// length % vector_pair elements; none where torch runs without vectors.
ElementRanges TorchVectorRanges(int64_t numel, int64_t row, int64_t vector_pair);

// The elements of [0, numel) outside `ranges` (sorted, disjoint).
ElementRanges OutsideRanges(const ElementRanges& ranges, int64_t numel);

// Elements [begin, end) of `t` broadcast to `shape`, as a 1-D view: the
// range lies within one row of VectorRowLength, along which `t` is
// contiguous or repeats one element (for an operand read from a copy, `t`
// is that copy).
at::Tensor RowRangeOf(const at::Tensor& t, at::IntArrayRef shape, int64_t begin, int64_t end);

}  // namespace oneflow_promote::torch_extension

#endif  // ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_VECTOR_LOOPS_H_
