// The order in which PyTorch's TensorIterator walks a call's elements and
// the strides of the result it allocates: a result with the layout of its
// operands (a transposed input gives a transposed result, channels-last
// inputs a channels-last one). The extension allocates its results so, and
// walks a call in that order, which is where its model of torch's loops
// (vector_loops.h) finds torch's rows.

#ifndef ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_ITERATION_ORDER_H_
#define ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_ITERATION_ORDER_H_

#include <ATen/ATen.h>

#include <cstdint>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "oneflow_promote/ops/op_rules.h"
#include "torch_extension/internal/overloads.h"

namespace oneflow_promote::torch_extension {

// How TensorIterator lays out and walks one call.
template <typename Int>
struct IterationOrder {
  // The result's dimensions, outermost first, as TensorIterator walks them
  // (0, 1, ..., rank - 1 for row-major order).
  at::DimVector dims;
  // The strides of a result it allocates, or of out= it resizes.
  std::vector<Int> result_strides;

  bool row_major() const {
    for (size_t d = 0; d < dims.size(); ++d) {
      if (dims[d] != static_cast<int64_t>(d)) return false;
    }
    return true;
  }
};

// The order of a call computing in `common` whose broadcast shape is
// `shape`, with its destination (out= or self) taking part unless
// `destination_resized`. On the CPU TensorIterator reads an input of
// another dtype than `common` from a converted copy, and writes out= of
// another dtype through a contiguous one; their layouts count, as there.
// Int: int64_t, or c10::SymInt for the meta device (comparisons guard).
template <typename Int>
IterationOrder<Int> TorchIterationOrder(const OpCall& call, c10::ArrayRef<Int> shape,
                                        at::ScalarType common, bool destination_resized);

// Whether TensorIterator reads `t`, input `position` of `op`, from a
// converted copy of another layout: on the CPU, where `t` is of another
// dtype than `common` (where's condition is never converted) and not
// dense (a dense one's copy keeps its strides).
bool ReadFromConvertedCopy(ops::Op op, size_t position, const at::Tensor& t, at::ScalarType common);

// That copy's strides, and a copy of `t` in its dtype with them: dense in
// the order of t's own strides (Tensor.to's at::infer_dense_strides).
std::vector<int64_t> ConvertedCopyStrides(const at::Tensor& t);
at::Tensor ConvertedCopyLayout(const at::Tensor& t);

// Whether TensorIterator writes the call's out= or self through a
// contiguous copy: on the CPU, where it is not of the dtype `common` it
// computes in (but for the bool results of comparisons, written directly).
bool WrittenThroughCopy(const OpCall& call, at::ScalarType common);

// A call with its operands and destination as views permuted into
// TensorIterator's order (`dims`, outermost first), and its shape alike:
// walked in row-major order, the views are walked as torch walks the
// call. An operand read from a converted copy of another layout is read
// from such a copy (in its own dtype). A 0-d operand stays one.
class CallInOrder {
 public:
  CallInOrder(const OpCall& call, at::IntArrayRef shape, at::IntArrayRef dims,
              at::ScalarType common);
  CallInOrder(const CallInOrder&) = delete;
  CallInOrder& operator=(const CallInOrder&) = delete;

  const OpCall& call() const { return call_; }
  at::IntArrayRef shape() const { return shape_; }

 private:
  absl::InlinedVector<at::Tensor, 3> tensors_;  // what call_'s operands point to
  OpCall call_;
  at::DimVector shape_;
};

}  // namespace oneflow_promote::torch_extension

#endif  // ONEFLOW_PROMOTE_TORCH_EXTENSION_INTERNAL_ITERATION_ORDER_H_
