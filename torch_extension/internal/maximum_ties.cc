// maximum's and minimum's ties as PyTorch's loops break them
// (maximum_ties.h).

#include "torch_extension/internal/maximum_ties.h"

#include <cstddef>
#include <cstdint>

#include "absl/types/span.h"
#include "torch_extension/internal/kernels.h"

namespace oneflow_promote::torch_extension {
namespace {

// Runs the binary op into `into` with its operands in order, or swapped.
void RunBinary(ops::Op op, absl::Span<const Tensor> operands, bool swap,
               const ops::OpDTypes& dtypes, const at::Tensor& into,
               const functional::OpOptions& options) {
  const Tensor inputs[] = {operands[swap ? 1 : 0], operands[swap ? 0 : 1]};
  Tensor into_view = ViewOf(into, 2);
  ThrowIfError(functional::CallOutWithDTypes(op, inputs, dtypes, into_view, options));
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
  const ElementRanges& again = swap_whole ? OutsideRanges(vector, numel) : vector;
  RunBinary(op, operands.views, swap_whole, dtypes, target, options);
  if (again.empty()) return;
  const auto run_again = [&](absl::Span<const Tensor> views, const at::Tensor& into) {
    RunBinary(op, views, !swap_whole, dtypes, into, options);
  };
  if (RunOverRanges(op, operands, TorchType(dtypes.compute), again, target, kMostRangeCalls,
                    run_again)) {
    return;
  }
  const at::Tensor other = at::empty_like(target);
  run_again(operands.views, other);
  CopyRanges(other, again, target);
}

}  // namespace oneflow_promote::torch_extension
