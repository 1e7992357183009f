// TensorIterator's order and result layout (iteration_order.h), as its
// build() decides them: its fast setup where every operand has one shape
// and one dense layout, else its reorder_dimensions() and the strides it
// allocates from the order.

#include "torch_extension/internal/iteration_order.h"

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

#include "oneflow_promote/ops/op_rules.h"

namespace oneflow_promote::torch_extension {
namespace {

template <typename Int>
c10::ArrayRef<Int> SizesOf(const at::Tensor& t);
template <>
c10::IntArrayRef SizesOf<int64_t>(const at::Tensor& t) {
  return t.sizes();
}
template <>
c10::SymIntArrayRef SizesOf<c10::SymInt>(const at::Tensor& t) {
  return t.sym_sizes();
}

template <typename Int>
c10::ArrayRef<Int> StridesOf(const at::Tensor& t);
template <>
c10::IntArrayRef StridesOf<int64_t>(const at::Tensor& t) {
  return t.strides();
}
template <>
c10::SymIntArrayRef StridesOf<c10::SymInt>(const at::Tensor& t) {
  return t.sym_strides();
}

// The strides of a new tensor of `sizes` dense in the order `dims`
// (outermost first); a dimension of 0 elements counts as one of 1.
template <typename Int>
std::vector<Int> DenseStridesInOrder(c10::ArrayRef<Int> sizes, at::IntArrayRef dims) {
  std::vector<Int> strides(sizes.size(), Int(1));
  Int next(1);
  for (auto k = static_cast<int64_t>(dims.size()) - 1; k >= 0; --k) {
    strides[dims[k]] = next;
    if (sizes[dims[k]] > 1) next = next * sizes[dims[k]];
  }
  return strides;
}

at::DimVector RowMajorDims(size_t rank) {
  at::DimVector dims(rank);
  std::iota(dims.begin(), dims.end(), 0);
  return dims;
}

// c10's contiguity tests, on a layout that may be a copy's.
template <typename Int>
bool IsDenseInOrder(c10::ArrayRef<Int> sizes, c10::ArrayRef<Int> strides,
                    at::IntArrayRef order) {  // outermost first
  Int expected(1);
  for (auto k = static_cast<int64_t>(order.size()) - 1; k >= 0; --k) {
    const Int& size = sizes[order[k]];
    if (size == 1) continue;
    if (strides[order[k]] != expected) return false;
    expected = expected * size;
  }
  return true;
}

template <typename Int>
bool IsContiguous(c10::ArrayRef<Int> sizes, c10::ArrayRef<Int> strides) {
  for (const Int& size : sizes) {
    if (size == 0) return true;
  }
  return IsDenseInOrder(sizes, strides, RowMajorDims(sizes.size()));
}

template <typename Int>
bool IsChannelsLast(c10::ArrayRef<Int> sizes, c10::ArrayRef<Int> strides) {
  return sizes.size() == 4 && IsDenseInOrder(sizes, strides, {0, 2, 3, 1});
}

template <typename Int>
bool IsNonOverlappingAndDense(c10::ArrayRef<Int> sizes, c10::ArrayRef<Int> strides) {
  at::DimVector inner_first(sizes.size());
  std::iota(inner_first.begin(), inner_first.end(), 0);
  // Smaller strides inward; dimensions of fewer than 2 elements do not count.
  std::sort(inner_first.begin(), inner_first.end(), [&](int64_t a, int64_t b) {
    if (sizes[a] < 2) return false;
    if (sizes[b] < 2) return true;
    return strides[a] < strides[b];
  });
  Int expected(1);
  for (const int64_t d : inner_first) {
    if (sizes[d] < 2) return true;
    if (strides[d] != expected) return false;
    expected = expected * sizes[d];
  }
  return true;
}

// One operand as TensorIterator's layout decisions see it.
template <typename Int>
struct Layout {
  c10::ArrayRef<Int> sizes;
  std::vector<Int> strides;
};

// reorder_dimensions(): an insertion sort of the dimensions, innermost
// first, where the first operand whose strides along both of two
// dimensions are nonzero orders them (a tie goes to the smaller dimension
// inward, or to the next operand).
template <typename Int>
at::DimVector ReorderedDims(const std::vector<Layout<Int>>& layouts, c10::ArrayRef<Int> shape) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  // Each operand's strides along the result's dimensions: 0 where it
  // broadcasts.
  std::vector<std::vector<Int>> along;
  for (const Layout<Int>& layout : layouts) {
    if (layout.sizes.empty()) continue;
    std::vector<Int>& strides = along.emplace_back(rank, Int(0));
    const int64_t offset = rank - static_cast<int64_t>(layout.sizes.size());
    for (int64_t d = 0; d < static_cast<int64_t>(layout.sizes.size()); ++d) {
      if (!(layout.sizes[d] == 1 && shape[offset + d] != 1)) {
        strides[offset + d] = layout.strides[d];
      }
    }
  }
  const auto order = [&](int64_t d0, int64_t d1) {  // 1: d0 goes outside d1
    for (const std::vector<Int>& strides : along) {
      if (strides[d0] == 0 || strides[d1] == 0) continue;
      if (strides[d0] < strides[d1]) return -1;
      if (strides[d0] > strides[d1]) return 1;
      if (shape[d0] > shape[d1]) return 1;
    }
    return 0;
  };
  at::DimVector inner_first(rank);
  for (int64_t i = 0; i < rank; ++i) inner_first[i] = rank - 1 - i;
  for (int64_t i = 1; i < rank; ++i) {
    int64_t moving = i;
    for (int64_t j = i - 1; j >= 0; --j) {
      const int comparison = order(inner_first[j], inner_first[moving]);
      if (comparison > 0) {
        std::swap(inner_first[j], inner_first[moving]);
        moving = j;
      } else if (comparison < 0) {
        break;
      }
    }
  }
  return at::DimVector(inner_first.rbegin(), inner_first.rend());
}

// The strides of the copy of `t` that TensorIterator reads an input
// converted into (Tensor.to): dense in the order of t's own strides, as
// at::infer_dense_strides orders them (TensorIterator's rule for one
// operand).
template <typename Int>
std::vector<Int> ConvertedStrides(const at::Tensor& t) {
  const c10::ArrayRef<Int> sizes = SizesOf<Int>(t);
  const std::vector<Layout<Int>> own = {{sizes, StridesOf<Int>(t).vec()}};
  return DenseStridesInOrder(sizes, ReorderedDims(own, sizes));
}

// WrittenThroughCopy (iteration_order.h) for a call on the CPU or not.
bool WrittenThroughCopy(const OpCall& call, at::ScalarType common, bool cpu) {
  const at::ScalarType type = call.destination.scalar_type();
  if (!cpu || type == common) return false;
  return type != at::kBool || ops::SpecOf(call.op).promotion != ops::PromotionKind::kAlwaysBool;
}

bool OnTheCpu(const OpCall& call) {
  return std::none_of(call.operands.begin(), call.operands.end(),
                      [](const Operand& o) { return o.tensor != nullptr && o.tensor->is_cuda(); });
}

// The operands as TensorIterator holds them when it decides: out= or self
// first (unless resized), then the tensors among the inputs.
template <typename Int>
std::vector<Layout<Int>> LayoutsOf(const OpCall& call, at::ScalarType common,
                                   bool destination_resized) {
  std::vector<Layout<Int>> layouts;
  const at::Tensor& destination = call.destination;
  const bool cpu = OnTheCpu(call);
  if (destination.defined() && !destination_resized) {
    const c10::ArrayRef<Int> sizes = SizesOf<Int>(destination);
    layouts.push_back({sizes, WrittenThroughCopy(call, common, cpu)
                                  ? DenseStridesInOrder(sizes, RowMajorDims(sizes.size()))
                                  : StridesOf<Int>(destination).vec()});
  }
  for (size_t i = 0; i < call.operands.size(); ++i) {
    const at::Tensor* t = call.operands[i].tensor;
    if (t == nullptr) {  // a wrapped 0-d tensor in torch: no strides
      layouts.push_back({{}, {}});
      continue;
    }
    const c10::ArrayRef<Int> sizes = SizesOf<Int>(*t);
    layouts.push_back({sizes, ReadFromConvertedCopy(call.op, i, *t, common)
                                  ? ConvertedStrides<Int>(*t)
                                  : StridesOf<Int>(*t).vec()});
  }
  return layouts;
}

// TensorIterator's fast setup: where every operand has the result's shape
// (none 0-d beside a dimensioned one) and all are contiguous, or all
// channels-last, or all dense with the same strides, it walks memory in
// order and allocates the result alike. The result's strides, or none.
template <typename Int>
std::optional<std::vector<Int>> FastSetupStrides(const std::vector<Layout<Int>>& layouts,
                                                 size_t inputs, c10::ArrayRef<Int> shape) {
  for (size_t i = layouts.size() - inputs; i < layouts.size(); ++i) {
    if (layouts[i].sizes.size() != shape.size() || layouts[i].sizes != shape) return std::nullopt;
  }
  bool contiguous = true, channels_last = true, dense = true, same_strides = true;
  for (const Layout<Int>& layout : layouts) {
    contiguous &= IsContiguous(layout.sizes, c10::ArrayRef<Int>(layout.strides));
    channels_last &= IsChannelsLast(layout.sizes, c10::ArrayRef<Int>(layout.strides));
    dense &= IsNonOverlappingAndDense(layout.sizes, c10::ArrayRef<Int>(layout.strides));
    same_strides &= layout.strides == layouts.back().strides;
  }
  if (contiguous) return DenseStridesInOrder(shape, RowMajorDims(shape.size()));
  if (channels_last) return DenseStridesInOrder(shape, {0, 2, 3, 1});
  if (dense && same_strides) return layouts.back().strides;
  return std::nullopt;
}

}  // namespace

bool ReadFromConvertedCopy(ops::Op op, size_t position, const at::Tensor& t,
                           at::ScalarType common) {
  if (op == ops::Op::kWhere && position == 0) return false;
  return t.scalar_type() != common && !t.is_cuda() && !t.is_non_overlapping_and_dense();
}

std::vector<int64_t> ConvertedCopyStrides(const at::Tensor& t) {
  return ConvertedStrides<int64_t>(t);
}

at::Tensor ConvertedCopyLayout(const at::Tensor& t) {
  return at::empty_strided(t.sizes(), ConvertedCopyStrides(t), t.options()).copy_(t);
}

bool WrittenThroughCopy(const OpCall& call, at::ScalarType common) {
  return call.destination.defined() && WrittenThroughCopy(call, common, OnTheCpu(call));
}

template <typename Int>
IterationOrder<Int> TorchIterationOrder(const OpCall& call, c10::ArrayRef<Int> shape,
                                        at::ScalarType common, bool destination_resized) {
  const std::vector<Layout<Int>> layouts = LayoutsOf<Int>(call, common, destination_resized);
  IterationOrder<Int> order;
  order.dims = ReorderedDims(layouts, shape);
  if (std::optional<std::vector<Int>> strides =
          FastSetupStrides(layouts, call.operands.size(), shape)) {
    order.result_strides = *std::move(strides);
    return order;
  }
  if (order.row_major()) {  // contiguous
    order.result_strides = DenseStridesInOrder(shape, order.dims);
    return order;
  }
  // Dense in the walk's order, where a dimension of 0 elements zeroes the
  // strides outside it (TensorIterator's compatible_stride()).
  const int64_t rank = static_cast<int64_t>(shape.size());
  order.result_strides.assign(rank, Int(1));
  Int next(1);
  for (int64_t k = rank - 1; k >= 0; --k) {
    order.result_strides[order.dims[k]] = next;
    next = next * shape[order.dims[k]];
  }
  return order;
}

template IterationOrder<int64_t> TorchIterationOrder(const OpCall&, c10::IntArrayRef,
                                                     at::ScalarType, bool);
template IterationOrder<c10::SymInt> TorchIterationOrder(const OpCall&, c10::SymIntArrayRef,
                                                         at::ScalarType, bool);

namespace {

at::Tensor PermutedView(const at::Tensor& t, int64_t rank, at::IntArrayRef dims) {
  if (t.dim() == 0) return t;
  at::Tensor full = t;
  while (full.dim() < rank) full = full.unsqueeze(0);
  return full.permute(dims);
}

}  // namespace

CallInOrder::CallInOrder(const OpCall& call, at::IntArrayRef shape, at::IntArrayRef dims,
                         at::ScalarType common)
    : call_(call) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  for (int64_t d : dims) shape_.push_back(shape[d]);
  tensors_.reserve(call.operands.size());  // call_'s operands point into it
  for (size_t i = 0; i < call.operands.size(); ++i) {
    const at::Tensor* t = call.operands[i].tensor;
    if (t == nullptr) continue;
    tensors_.push_back(PermutedView(
        ReadFromConvertedCopy(call.op, i, *t, common) ? ConvertedCopyLayout(*t) : *t, rank, dims));
    call_.operands[i].tensor = &tensors_.back();
  }
  if (call.destination.defined()) call_.destination = PermutedView(call.destination, rank, dims);
}

}  // namespace oneflow_promote::torch_extension
