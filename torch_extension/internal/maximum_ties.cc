// maximum's and minimum's ties as PyTorch's loops break them
// (maximum_ties.h).

#include "torch_extension/internal/maximum_ties.h"

#include <cstddef>
#include <cstdint>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "torch_extension/internal/kernels.h"

namespace oneflow_promote::torch_extension {
namespace {

// Runs the binary op into `target` (contiguous, shaped as the result) with
// its operands in order, or swapped: over every element, or only over
// `ranges` (views of the rows they lie in).
void RunBinary(ops::Op op, const KernelOperands& operands, bool swap, const ElementRanges* ranges,
               const ops::OpDTypes& dtypes, const at::Tensor& target,
               const functional::OpOptions& options) {
  const auto run = [&](Tensor first, Tensor second, const at::Tensor& into) {
    if (swap) std::swap(first, second);
    const Tensor inputs[] = {std::move(first), std::move(second)};
    Tensor into_view = ViewOf(into, 2);
    ThrowIfError(functional::CallOutWithDTypes(op, inputs, dtypes, into_view, options));
  };
  if (ranges == nullptr) return run(operands.views[0], operands.views[1], target);
  const at::Tensor flat = target.view(-1);
  // An operand TensorIterator reads from a contiguous copy is read from one
  // here too: a row may span several of its own.
  at::Tensor sources[2];
  const at::ScalarType common = TorchType(dtypes.compute);
  for (size_t i = 0; i < 2; ++i) {
    const at::Tensor& source = operands.sources[i];
    sources[i] =
        source.defined() && ReadFromContiguousCopy(source, common) ? source.contiguous() : source;
  }
  for (const auto& [begin, end] : *ranges) {
    absl::InlinedVector<Tensor, 2> views;
    for (size_t i = 0; i < 2; ++i) {
      const at::Tensor& source = sources[i];
      if (!source.defined()) {
        views.push_back(operands.views[i]);
      } else if (source.numel() == 1) {
        views.push_back(ViewOf(source.reshape({1}), i));
      } else {
        views.push_back(ViewOf(RowRangeOf(source, operands.shape, begin, end), i));
      }
    }
    run(views[0], views[1], flat.narrow(0, begin, end - begin));
  }
}

}  // namespace

ElementRanges TiesToSecond(const OpCall& call, const ops::OpDTypes& dtypes,
                           const c10::Device& device, at::IntArrayRef shape) {
  if (!device.is_cpu() || (call.op != ops::Op::kMaximum && call.op != ops::Op::kMinimum)) {
    return {};
  }
  const DType compute = dtypes.compute;
  if (!IsFloating(compute) || IsFloat8(compute)) return {};
  return TorchVectorRanges(call, shape, TorchType(compute));
}

void RunTiesAsTorch(ops::Op op, const KernelOperands& operands, const ElementRanges& vector,
                    const ops::OpDTypes& dtypes, const at::Tensor& target,
                    const functional::OpOptions& options) {
  constexpr size_t kMostRangeCalls = 64;
  const int64_t numel = target.numel();
  int64_t in_vector = 0;
  for (const auto& [begin, end] : vector) in_vector += end - begin;
  const bool swap_whole = 2 * in_vector >= numel;
  const ElementRanges outside = OutsideRanges(vector, numel);
  const ElementRanges& again = swap_whole ? outside : vector;
  RunBinary(op, operands, swap_whole, nullptr, dtypes, target, options);
  if (again.empty()) return;
  if (again.size() <= kMostRangeCalls) {
    return RunBinary(op, operands, !swap_whole, &again, dtypes, target, options);
  }
  const at::Tensor other = at::empty_like(target);
  RunBinary(op, operands, !swap_whole, nullptr, dtypes, other, options);
  CopyRanges(other, again, target);
}

}  // namespace oneflow_promote::torch_extension
