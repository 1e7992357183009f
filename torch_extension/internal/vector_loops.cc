// Where PyTorch's CPU kernels run their vector loop (vector_loops.h).

#include "torch_extension/internal/vector_loops.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "torch_extension/internal/iteration_order.h"
#include "torch_extension/internal/tensor_views.h"

namespace oneflow_promote::torch_extension {

namespace {

// The rows TensorIterator hands its inner loop for this call, which
// computes in `common`: their length (the trailing dimensions that coalesce
// for every operand; 0 where it cannot be told), which operand repeats
// along them (-1: none; at most one), and whether its scalar loop runs
// them whole (scalar_only: an operand strided along them) rather than its
// vector loop (every operand contiguous along them, or repeating).
struct VectorRows {
  int64_t length = 0;
  int repeating = -1;
  bool scalar_only = false;
};

VectorRows VectorRowsOf(const OpCall& call, at::IntArrayRef shape, at::ScalarType common) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  // A tensor's stride in elements per dimension of the result, 0 where it
  // repeats (a one-element tensor, a broadcast); `own` its strides.
  const auto along_result = [&](const at::Tensor& t, at::IntArrayRef own) {
    absl::InlinedVector<int64_t, 8> along(rank, 0);
    if (t.numel() == 1) return along;
    const int64_t offset = rank - t.dim();
    for (int64_t d = 0; d < t.dim(); ++d) {
      if (t.size(d) != 1) along[offset + d] = own[d];
    }
    return along;
  };
  // Per operand: its strides as the kernel reads it (a Python scalar's
  // are all 0).
  absl::InlinedVector<absl::InlinedVector<int64_t, 8>, 3> strides;
  for (size_t i = 0; i < call.operands.size(); ++i) {
    const at::Tensor* t = call.operands[i].tensor;
    if (t == nullptr) {
      strides.emplace_back(rank, 0);
      continue;
    }
    strides.push_back(along_result(*t, ReadFromConvertedCopy(call.op, i, *t, common)
                                           ? at::IntArrayRef(ConvertedCopyStrides(*t))
                                           : t->strides()));
  }
  // TensorIterator's operands: out= or self first (unless it is written
  // through a contiguous copy), then the inputs.
  const bool strided_destination = call.destination.defined() &&
                                   !call.destination.is_contiguous() &&
                                   !WrittenThroughCopy(call, common);
  const absl::InlinedVector<int64_t, 8> destination =
      strided_destination ? along_result(call.destination, call.destination.strides())
                          : absl::InlinedVector<int64_t, 8>();
  absl::InlinedVector<const absl::InlinedVector<int64_t, 8>*, 4> all_strides;
  if (strided_destination) all_strides.push_back(&destination);
  for (const auto& along : strides) all_strides.push_back(&along);
  // The innermost dimension, and those that coalesce with it: every operand
  // steps on from the last one (or repeats in both).
  VectorRows rows{1};
  std::optional<int64_t> innermost;
  int64_t previous = 0;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (shape[d] == 1) continue;
    if (innermost.has_value()) {
      bool coalesces = true;
      for (const auto* along : all_strides) {
        coalesces &= (*along)[d] == (*along)[previous] * shape[previous];
      }
      if (!coalesces) break;
    } else {
      innermost = d;
      // The vector loop's operands are contiguous along the rows, or repeat.
      for (const auto* along : all_strides) rows.scalar_only |= (*along)[d] > 1;
    }
    rows.length *= shape[d];
    previous = d;
  }
  if (!innermost.has_value()) return rows;  // one element: a row of one
  for (size_t i = 0; i < strides.size(); ++i) {
    if (strides[i][*innermost] != 0) continue;
    if (rows.repeating >= 0) return {};
    rows.repeating = static_cast<int>(i);
  }
  return rows;
}

// Calls visit(begin, end, step) for each piece of a row that one thread of
// at::parallel_for hands the kernel's inner loop, where its vector loop
// runs `rows` (step: the elements of a vector loop's step).
template <typename Visit>
void ForEachPiece(const VectorRows& rows, at::IntArrayRef shape, at::ScalarType common,
                  Visit visit) {
  const int64_t step = 64 / static_cast<int64_t>(c10::elementSize(common));
  const int64_t numel = c10::multiply_integers(shape);
  const int64_t grain = at::internal::GRAIN_SIZE;
  int64_t threads = numel < grain ? 1 : at::get_num_threads();
  threads = std::max<int64_t>(1, std::min(threads, (numel + grain - 1) / grain));
  const int64_t chunk = (numel + threads - 1) / threads;
  for (int64_t begin = 0; begin < numel; begin += chunk) {
    const int64_t end = std::min(numel, begin + chunk);
    for (int64_t piece = begin; piece < end;) {
      const int64_t piece_end = std::min(end, (piece / rows.length + 1) * rows.length);
      visit(piece, piece_end, step);
      piece = piece_end;
    }
  }
}

// Of a scalar tail of `tail` elements from `first`, those the compiler's
// vectors of `width` elements take after peeling the first one (none for a
// tail shorter than width + 1).
void AddGroupsAfterFirst(int64_t first, int64_t tail, int64_t width, ElementRanges& ranges) {
  const int64_t grouped = (tail - 1) / width * width;
  if (grouped > 0) ranges.emplace_back(first + 1, first + 1 + grouped);
}

// The rows of a call where its kernel runs vectors: none without them.
VectorRows RowsWithVectors(const OpCall& call, at::IntArrayRef shape, at::ScalarType common) {
#if defined(__x86_64__)
  // Kernels registered with REGISTER_DISPATCH run their AVX2 build on an
  // AVX-512 machine too, so a step is 64 bytes on both (measured: 32
  // float16, 16 float32, 8 float64 elements).
  static const bool vectors = at::get_cpu_capability() != "DEFAULT";
  if (vectors) return VectorRowsOf(call, shape, common);
#else
  (void)call;  // not measured: every element as the scalar loop computes it
  (void)shape;
  (void)common;
#endif
  return {};
}

// The bytes a tensor's elements span, from its lowest address.
std::pair<const char*, const char*> AddressRange(const at::Tensor& t) {
  const char* first = static_cast<const char*>(t.data_ptr());
  return {first, first + ElementExtent(t) * t.element_size()};
}

// Whether out= or self spans bytes an operand spans: the runtime check by
// which the compiler's vector loops over strided rows fall back to its
// scalar loop. (It checks each row's bytes; the whole tensors' tell the
// same for self in place and for out= an operand.)
bool DestinationOverlapsAnOperand(const OpCall& call) {
  if (!call.destination.defined() || call.destination.numel() == 0) return false;
  const auto [begin, end] = AddressRange(call.destination);
  for (const Operand& operand : call.operands) {
    const at::Tensor* t = operand.tensor;
    if (t == nullptr || t->numel() == 0 || !t->has_storage()) continue;
    const auto [first, last] = AddressRange(*t);
    if (first < end && begin < last) return true;
  }
  return false;
}

// Elements [begin, end) of `t` broadcast to `shape`, as a 1-D view: the
// range lies within a row of the innermost dimension.
at::Tensor RowRangeOf(const at::Tensor& t, at::IntArrayRef shape, int64_t begin, int64_t end) {
  const at::Tensor broadcast = t.expand(shape);
  int64_t offset = 0;
  int64_t step = 0;  // along the row: the innermost dimension it spans
  bool innermost = true;
  int64_t rest = begin;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    offset += (rest % shape[d]) * broadcast.stride(d);
    rest /= shape[d];
    if (innermost && shape[d] != 1) {
      step = broadcast.stride(d);
      innermost = false;
    }
  }
  return t.as_strided({end - begin}, {step}, t.storage_offset() + offset);
}

}  // namespace

ElementRanges TorchVectorRanges(const OpCall& call, at::IntArrayRef shape, at::ScalarType common) {
  ElementRanges ranges;
  const VectorRows rows = RowsWithVectors(call, shape, common);
  if (rows.length == 0 || rows.scalar_only) return ranges;
  ForEachPiece(rows, shape, common, [&](int64_t begin, int64_t end, int64_t step) {
    const int64_t length = end - begin;
    if (length >= step) ranges.emplace_back(begin, end - length % step);
  });
  return ranges;
}

ElementRanges TorchUnfusedAlphaRanges(const OpCall& call, at::IntArrayRef shape,
                                      at::ScalarType common) {
  ElementRanges ranges;
  const VectorRows rows = RowsWithVectors(call, shape, common);
  if (rows.length == 0 || rows.scalar_only || rows.repeating != 1) return ranges;
  // The compiler's vectors over the tail: 16 bytes.
  const int64_t width = 16 / static_cast<int64_t>(c10::elementSize(common));
  ForEachPiece(rows, shape, common, [&](int64_t begin, int64_t end, int64_t step) {
    AddGroupsAfterFirst(end - (end - begin) % step, (end - begin) % step, width, ranges);
  });
  return ranges;
}

ElementRanges TorchFusedProductRanges(const OpCall& call, at::IntArrayRef shape,
                                      at::ScalarType common) {
  ElementRanges ranges;
  const VectorRows rows = RowsWithVectors(call, shape, common);
  if (rows.length == 0) return ranges;
  // complex64's strided rows are fused by the compiler's vector loop, which
  // it skips for its scalar loop (products rounded) where they overlap.
  if (common == at::kComplexFloat && rows.scalar_only && DestinationOverlapsAnOperand(call)) {
    return ranges;
  }
  ForEachPiece(rows, shape, common, [&](int64_t begin, int64_t end, int64_t step) {
    // The scalar loop's elements: the whole piece, or its vector loop's tail.
    const int64_t first = rows.scalar_only ? begin : end - (end - begin) % step;
    if (common == at::kComplexDouble) {
      if (end > first) ranges.emplace_back(first, end);
    } else if (rows.repeating >= 0 && !rows.scalar_only) {
      AddGroupsAfterFirst(first, end - first, 4, ranges);
    } else if (end - first >= 2) {
      ranges.emplace_back(first, first + (end - first) / 2 * 2);  // an odd last one is not
    }
  });
  return ranges;
}

ElementRanges TorchOddQuotientRanges(const OpCall& call, at::IntArrayRef shape) {
  ElementRanges ranges;
  const VectorRows rows = RowsWithVectors(call, shape, at::kComplexFloat);
  if (rows.length == 0) return ranges;
  // Where out= or self overlaps an operand, the compiler's pairs fail their
  // run-time alias check: its scalar loop takes every element.
  const bool overlaps = DestinationOverlapsAnOperand(call);
  ForEachPiece(rows, shape, at::kComplexFloat, [&](int64_t begin, int64_t end, int64_t step) {
    const int64_t first = rows.scalar_only ? begin : end - (end - begin) % step;
    if (overlaps && end > first) {
      ranges.emplace_back(first, end);
    } else if ((end - first) % 2 == 1) {
      ranges.emplace_back(end - 1, end);
    }
  });
  return ranges;
}

ElementRanges OutsideRanges(const ElementRanges& ranges, int64_t numel) {
  ElementRanges outside;
  int64_t next = 0;
  for (const auto& [begin, end] : ranges) {
    if (begin > next) outside.emplace_back(next, begin);
    next = end;
  }
  if (next < numel) outside.emplace_back(next, numel);
  return outside;
}

void CopyRanges(const at::Tensor& from, const ElementRanges& ranges, const at::Tensor& into) {
  const size_t size = into.element_size();
  for (const auto& [begin, end] : ranges) {
    std::memcpy(static_cast<char*>(into.data_ptr()) + begin * size,
                static_cast<const char*>(from.data_ptr()) + begin * size, (end - begin) * size);
  }
}

bool RunOverRanges(ops::Op op, const KernelOperands& operands, at::ScalarType common,
                   const ElementRanges& ranges, const at::Tensor& target, size_t most_calls,
                   c10::function_ref<void(absl::Span<const Tensor>, const at::Tensor&)> run) {
  const at::IntArrayRef shape = operands.shape;
  int64_t row = 1;  // the innermost dimension's extent, past those of 1
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0 && row == 1; --d) row = shape[d];
  ElementRanges cut;
  for (auto [begin, end] : ranges) {
    while (begin < end) {
      const int64_t row_end = std::min(end, (begin / row + 1) * row);
      cut.emplace_back(begin, row_end);
      if (cut.size() > most_calls) return false;
      begin = row_end;
    }
  }
  absl::InlinedVector<at::Tensor, 3> sources;
  for (size_t i = 0; i < operands.sources.size(); ++i) {
    const at::Tensor& source = operands.sources[i];
    sources.push_back(source.defined() && ReadFromConvertedCopy(op, i, source, common)
                          ? ConvertedCopyLayout(source)
                          : source);
  }
  const at::Tensor flat = target.view(-1);
  for (const auto& [begin, end] : cut) {
    absl::InlinedVector<Tensor, 3> views;
    for (size_t i = 0; i < sources.size(); ++i) {
      const at::Tensor& source = sources[i];
      if (!source.defined()) {
        views.push_back(operands.views[i]);
      } else if (source.numel() == 1) {
        views.push_back(ViewOf(source.reshape({1}), i));
      } else {
        views.push_back(ViewOf(RowRangeOf(source, shape, begin, end), i));
      }
    }
    run(views, flat.narrow(0, begin, end - begin));
  }
  return true;
}

}  // namespace oneflow_promote::torch_extension
