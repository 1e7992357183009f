// add and sub with alpha in PyTorch's steps (alpha_steps.h).

#include "torch_extension/internal/alpha_steps.h"

#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>

#include <cstddef>
#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "functional/torch_tensor_traits.h"
#include "torch_extension/internal/kernels.h"
#include "torch_extension/internal/tensor_views.h"

namespace oneflow_promote::torch_extension {
namespace {

// A complex32 tensor's parts: float16, with a trailing dimension of 2: a
// view that does not own t's memory.
Tensor PartsOf(const Tensor& t) {
  absl::InlinedVector<int64_t, 8> shape(t.shape().begin(), t.shape().end());
  absl::InlinedVector<int64_t, 8> strides;
  int64_t extent = 2;  // the elements the view reaches, from its first one
  for (size_t d = 0; d < shape.size(); ++d) {
    strides.push_back(2 * t.strides()[d]);
    extent += (shape[d] - 1) * strides.back();
  }
  shape.push_back(2);
  strides.push_back(1);
  const Tensor storage =
      ValueOrThrow(Tensor::View(t.data(), DType::kFloat16, {extent}, t.device()));
  return ValueOrThrow(storage.AsStrided(shape, strides, 0));
}

// self + (alpha * other), both steps in `dtype`, into `target` (of that
// dtype, shaped as the result).
void RunAlphaSteps(DType dtype, const c10::Scalar& alpha, absl::Span<const Tensor> views,
                   const at::Tensor& target, const functional::OpOptions& options) {
  const ops::OpDTypes in_steps = {dtype, dtype, dtype};
  const Tensor& other = views[1];
  const at::Tensor scaled = at::empty(
      at::IntArrayRef(other.shape().data(), other.shape().size()),
      target.options().device(other.is_cuda() ? c10::Device(c10::kCUDA, other.device().ordinal)
                                              : c10::Device(c10::kCPU)));
  Tensor scaled_view = ViewOf(scaled, 1);
  const Tensor product_inputs[] = {views[1], Tensor::WrappedNumber(ScalarOperand(alpha))};
  ThrowIfError(
      functional::CallOutWithDTypes(ops::Op::kMul, product_inputs, in_steps, scaled_view, options));
  Tensor target_view = ViewOf(target, views.size());
  if (dtype == DType::kComplex32) {
    // c10::complex<Half> adds part by part; the library's complex add
    // multiplies by alpha 1, which gives an infinite part a NaN partner
    // and turns -0 into +0.
    const Tensor self = ValueOrThrow(views[0].To(dtype));  // outlives its parts' view
    const Tensor parts[] = {PartsOf(self), PartsOf(scaled_view)};
    Tensor target_parts = PartsOf(target_view);
    const ops::OpDTypes in_halves = {DType::kFloat16, DType::kFloat16, DType::kFloat16};
    ThrowIfError(
        functional::CallOutWithDTypes(ops::Op::kAdd, parts, in_halves, target_parts, options));
    return;
  }
  const Tensor sum_inputs[] = {views[0], scaled_view};
  ThrowIfError(
      functional::CallOutWithDTypes(ops::Op::kAdd, sum_inputs, in_steps, target_view, options));
}

}  // namespace

std::optional<AlphaSteps> AlphaStepsOf(const OpCall& call, const ops::OpDTypes& dtypes,
                                       const c10::Device& device, at::IntArrayRef shape) {
  const DType dtype = dtypes.result;
  if (!device.is_cpu()) return std::nullopt;
  ElementRanges unfused;
  if (dtype == DType::kFloat32 || dtype == DType::kFloat64) {
    unfused = TorchUnfusedAlphaRanges(call, shape, TorchType(dtype));
    if (unfused.empty()) return std::nullopt;
  } else if (dtype != DType::kFloat16 && dtype != DType::kBFloat16 && dtype != DType::kComplex32) {
    return std::nullopt;
  }
  // The checks the fused kernel makes (c10::Scalar::to's range).
  ValueOrThrow(
      functional::KernelAlpha(call.op, dtypes.compute, ScalarOperand(*call.alpha), Device::Cpu()));
  // PyTorch's sub runs its add kernel with c10::Scalar's -alpha (self +
  // (-alpha) * other), which keeps the signs of zeros that self - alpha *
  // other flips and wraps the negation of an int64 alpha.
  const c10::Scalar alpha = call.op == ops::Op::kSub ? -*call.alpha : *call.alpha;
  if (dtype == DType::kComplex32) return AlphaSteps{DType::kComplex32, alpha};
  if (!unfused.empty()) {
    return AlphaSteps{dtype, alpha, OutsideRanges(unfused, c10::multiply_integers(shape))};
  }
  // PyTorch's CPU kernel (ufunc/add.h) takes alpha in the compute dtype.
  const float value = static_cast<float>(alpha.toDouble());
  const double rounded = dtype == DType::kFloat16 ? static_cast<float>(c10::Half(value))
                                                  : static_cast<float>(c10::BFloat16(value));
  AlphaSteps steps{dtype, c10::Scalar(rounded)};
  steps.fused = TorchVectorRanges(call, shape, TorchType(dtype));
  return steps;
}

void RunWithAlpha(const OpCall& call, const AlphaSteps& steps, const KernelOperands& operands,
                  const ops::OpDTypes& dtypes, const at::Tensor& target,
                  functional::OpOptions options) {
  constexpr size_t kMostRangeCalls = 64;
  const auto run_steps = [&](absl::Span<const Tensor> views, const at::Tensor& into) {
    RunAlphaSteps(steps.dtype, steps.alpha, views, into, options);
  };
  if (steps.fused.empty()) return run_steps(operands.views, target);
  const auto run_fused = [&](absl::Span<const Tensor> views, const at::Tensor& into) {
    Tensor into_view = ViewOf(into, views.size());
    functional::OpOptions fused_options = options;
    fused_options.alpha = ScalarOperand(*call.alpha);
    ThrowIfError(functional::CallOutWithDTypes(call.op, views, dtypes, into_view, fused_options));
  };
  // The way covering fewer elements runs first, over its ranges (views of
  // their rows where they are few), into a new tensor whose elements in
  // them are copied over last: the other way writes target, which is self
  // in place, and both read self.
  const int64_t numel = target.numel();
  int64_t fused_count = 0;
  for (const auto& [begin, end] : steps.fused) fused_count += end - begin;
  const bool steps_first = 2 * fused_count > numel;
  const ElementRanges first_ranges = steps_first ? OutsideRanges(steps.fused, numel) : steps.fused;
  using Run = c10::function_ref<void(absl::Span<const Tensor>, const at::Tensor&)>;
  const Run run_first = steps_first ? Run(run_steps) : Run(run_fused);
  const Run run_second = steps_first ? Run(run_fused) : Run(run_steps);
  const at::Tensor first = at::empty(target.sizes(), target.options());
  if (!RunOverRanges(call.op, operands, TorchType(dtypes.compute), first_ranges, first,
                     kMostRangeCalls, run_first)) {
    run_first(operands.views, first);
  }
  run_second(operands.views, target);
  CopyRanges(first, first_ranges, target);
}

}  // namespace oneflow_promote::torch_extension
