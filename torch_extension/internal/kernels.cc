// The CPU, CUDA and Meta kernels of every overload: one prologue (dtypes by
// InferOpDTypes once per call, the broadcast shape, out= and in-place
// checks as TensorIterator makes them), then the library's functional
// frontend on views of the tensors' storage.

#include "torch_extension/internal/kernels.h"

#include <ATen/EmptyTensor.h>
#include <ATen/ExpandUtils.h>
#include <ATen/MemoryOverlap.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <ATen/native/Resize.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/impl/LocalDispatchKeySet.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "functional/functional.h"
#include "functional/tensor.h"
#include "functional/torch_tensor_traits.h"
#include "kernels/cast.h"
#include "torch_extension/internal/complex_products.h"
#include "torch_extension/internal/fast_path.h"
#include "torch_extension/internal/remainder_nans.h"
#include "torch_extension/internal/vector_loops.h"

namespace oneflow_promote::torch_extension {
namespace {

using ops::OpDTypes;

template <typename T>
T ValueOrThrow(absl::StatusOr<T> value) {
  ThrowIfError(value.status());
  return *std::move(value);
}

// The library's dtype of a torch dtype; an error naming the operand for one
// the library lacks.
inline DType DTypeOf(at::ScalarType type, size_t position) {
  const std::optional<DType> dtype = FromTorchScalarType(type);
  if (C10_UNLIKELY(!dtype.has_value())) {
    TORCH_CHECK(false, "operand ", position + 1, " has dtype ", c10::toString(type),
                ", which oneflow_promote does not have");
  }
  return *dtype;
}

at::ScalarType TorchType(DType dtype) {
  const std::optional<at::ScalarType> type = ToTorchScalarType(dtype);
  TORCH_CHECK(type.has_value(), "libtorch has no ", std::string(Name(dtype)));
  return *type;
}

DType DefaultDType() { return DTypeOf(c10::typeMetaToScalarType(at::get_default_dtype()), 0); }

// How the promotion rules see an operand. A wrapped number on the meta
// device has no value to read: it counts as the Python scalar 1 of its kind.
oneflow_promote::Operand RuleOperand(const Operand& operand, size_t position) {
  if (operand.tensor == nullptr) return ScalarOperand(operand.scalar);
  const at::Tensor& t = *operand.tensor;
  const DType dtype = DTypeOf(t.scalar_type(), position);
  if (!TensorTraits<at::Tensor>::IsWrappedNumber(t)) {
    return oneflow_promote::Operand::Tensor(dtype, t.dim());
  }
  if (!t.is_meta()) return TensorTraits<at::Tensor>::ScalarOf(t);
  return ScalarOperand(t.is_complex()                 ? c10::Scalar(c10::complex<double>(1, 0))
                       : t.is_floating_point()        ? c10::Scalar(1.0)
                       : t.scalar_type() == at::kBool ? c10::Scalar(true)
                                                      : c10::Scalar(int64_t{1}));
}

// The device a call runs on: its first CUDA tensor's, else the CPU (CPU
// 0-d tensors and Python scalars go along with CUDA tensors).
c10::Device CallDevice(const OpCall& call) {
  for (const Operand& operand : call.operands) {
    if (operand.tensor != nullptr && operand.tensor->is_cuda()) return operand.tensor->device();
  }
  return c10::Device(c10::kCPU);
}

// The library's view of a tensor's elements (no copy), or the Python
// scalar it wraps. Called only for tensors with elements.
Tensor ViewOf(const at::Tensor& t, size_t position) {
  const DType dtype = DTypeOf(t.scalar_type(), position);
  if (TensorTraits<at::Tensor>::IsWrappedNumber(t)) {
    return Tensor::WrappedNumber(TensorTraits<at::Tensor>::ScalarOf(t));
  }
  TORCH_CHECK(t.is_cpu() || t.is_cuda(), "operand ", position + 1, " is on ", t.device().str(),
              "; only cpu and cuda");
  const Device device = t.is_cuda() ? Device::Cuda(t.device().index()) : Device::Cpu();
  const absl::Span<const int64_t> sizes = absl::MakeConstSpan(t.sizes().data(), t.dim());
  if (t.is_contiguous()) return ValueOrThrow(Tensor::View(t.data_ptr(), dtype, sizes, device));
  // The elements a strided view reaches, from its first one (torch's
  // strides are never negative).
  int64_t extent = 1;
  for (int64_t d = 0; d < t.dim(); ++d) extent += (t.size(d) - 1) * t.stride(d);
  const Tensor storage = ValueOrThrow(Tensor::View(t.data_ptr(), dtype, {extent}, device));
  return ValueOrThrow(
      storage.AsStrided(sizes, absl::MakeConstSpan(t.strides().data(), t.dim()), 0));
}

// The checks TensorIterator makes on out= and on self of an in-place op,
// with PyTorch's messages: the result's dtype must cast to it (c10::canCast),
// and an in-place op cannot change self's shape.
void CheckDestination(const OpCall& call, DType result, c10::SymIntArrayRef shape) {
  const at::Tensor& destination = call.destination;
  const DType destination_dtype = DTypeOf(destination.scalar_type(), call.operands.size());
  // torch's where writes only into out= of its result's dtype.
  TORCH_CHECK(call.op != ops::Op::kWhere || destination_dtype == result, "Expected out type to be ",
              std::string(Name(result)), " but got ", std::string(Name(destination_dtype)));
  ThrowIfError(ops::CheckCanCastToOutput(result, destination_dtype));
  if (call.overload->variant == Variant::kInPlace) {
    TORCH_CHECK(destination.sym_sizes().equals(shape), "output with shape ",
                destination.sym_sizes(), " doesn't match the broadcast shape ", shape);
  }
}

// Refuses out= (or self) that overlaps an input partly, or itself, as
// TensorIterator does; the same tensor as an input is fine.
void CheckOverlap(const OpCall& call) {
  at::assert_no_internal_overlap(call.destination);
  for (const Operand& operand : call.operands) {
    if (operand.tensor != nullptr) at::assert_no_partial_overlap(call.destination, *operand.tensor);
  }
}

// A new contiguous tensor, from PyTorch's allocators (on the CPU without a
// dispatch, as aten's own kernels allocate their results).
at::Tensor Empty(at::IntArrayRef shape, at::ScalarType type, const c10::Device& device) {
  if (device.is_cpu()) return at::detail::empty_cpu(shape, type);
  return at::empty(shape, at::TensorOptions().dtype(type).device(device));
}

bool IsOne(const c10::Scalar& alpha) {
  return alpha.isComplex() ? alpha.toComplexDouble() == c10::complex<double>(1, 0)
                           : alpha.toDouble() == 1;
}

// Writes the contiguous `result` into `destination` (out= or self, of any
// dtype and layout) with one conversion: the library's cast, into a
// contiguous tensor of the destination's dtype first where the destination
// is strided.
void WriteInto(const at::Tensor& result, const at::Tensor& destination,
               const ExecutionContext& context) {
  const Device device = WithContext(
      result.is_cuda() ? Device::Cuda(result.device().index()) : Device::Cpu(), context);
  const DType from = DTypeOf(result.scalar_type(), 0);
  const DType to = DTypeOf(destination.scalar_type(), 0);
  if (destination.is_contiguous()) {
    ThrowIfError(
        CastElements(result.data_ptr(), from, destination.data_ptr(), to, result.numel(), device));
    return;
  }
  at::Tensor converted = result;
  if (from != to) {
    converted = at::empty(result.sizes(), result.options().dtype(destination.scalar_type()));
    ThrowIfError(
        CastElements(result.data_ptr(), from, converted.data_ptr(), to, result.numel(), device));
  }
  destination.copy_(converted);
}

// How add and sub with alpha other than 1 run in two steps, self + (alpha
// * other), to give torch's bits: the dtype both steps compute in, and
// alpha as that dtype's kernel takes it (negated for sub).
struct AlphaSteps {
  DType dtype;  // of both steps, and of the result
  c10::Scalar alpha;
  // The element ranges PyTorch computes fused (float16 and bfloat16: its
  // vector loop's, in float32; float32 and float64: all but
  // TorchUnfusedAlphaRanges); the others take the steps in `dtype`.
  ElementRanges fused;
};

// How add and sub with alpha other than 1 run where PyTorch's CPU kernel
// does not compute self + alpha * other in one fused step: float16 and
// bfloat16, whose scalar loop computes in Half and BFloat16 arithmetic
// (alpha * other rounds to the dtype, then the sum does) while its vector
// loop fuses them in float32 and rounds once; complex32, whose kernel
// computes in c10::complex<Half> (the product rounds into Half parts before
// the sum does); float32 and float64 where its compiler does not fuse the
// scalar tail (TorchUnfusedAlphaRanges). Everywhere else the library's add
// kernel takes alpha (OpOptions::alpha) and computes as PyTorch's does.
std::optional<AlphaSteps> AlphaStepsOf(const OpCall& call, const OpDTypes& dtypes,
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

// The elements of `from` in `ranges` into `into` (both contiguous, of one
// dtype and shape).
void CopyRanges(const at::Tensor& from, const ElementRanges& ranges, const at::Tensor& into) {
  const size_t size = into.element_size();
  for (const auto& [begin, end] : ranges) {
    std::memcpy(static_cast<char*>(into.data_ptr()) + begin * size,
                static_cast<const char*>(from.data_ptr()) + begin * size, (end - begin) * size);
  }
}

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
  const OpDTypes in_steps = {dtype, dtype, dtype};
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
    const OpDTypes in_halves = {DType::kFloat16, DType::kFloat16, DType::kFloat16};
    ThrowIfError(
        functional::CallOutWithDTypes(ops::Op::kAdd, parts, in_halves, target_parts, options));
    return;
  }
  const Tensor sum_inputs[] = {views[0], scaled_view};
  ThrowIfError(
      functional::CallOutWithDTypes(ops::Op::kAdd, sum_inputs, in_steps, target_view, options));
}

// add and sub with alpha other than 1 into `target` (of dtype
// steps.dtype): the steps, and where PyTorch's vector loop would run, the
// library's fused kernel (OpOptions::alpha: the product and sum in float32,
// rounded once).
void RunWithAlpha(const OpCall& call, const AlphaSteps& steps, absl::Span<const Tensor> views,
                  const OpDTypes& dtypes, const at::Tensor& target, functional::OpOptions options) {
  const auto run_steps = [&](const at::Tensor& into) {
    RunAlphaSteps(steps.dtype, steps.alpha, views, into, options);
  };
  if (steps.fused.empty()) return run_steps(target);
  const auto run_fused = [&](const at::Tensor& into) {
    Tensor into_view = ViewOf(into, views.size());
    functional::OpOptions fused_options = options;
    fused_options.alpha = ScalarOperand(*call.alpha);
    ThrowIfError(functional::CallOutWithDTypes(call.op, views, dtypes, into_view, fused_options));
  };
  // The way covering fewer elements runs first, into a new tensor, and
  // only its elements are copied over: the other writes target, which is
  // self in place, and both read self.
  const int64_t numel = target.numel();
  int64_t fused_count = 0;
  for (const auto& [begin, end] : steps.fused) fused_count += end - begin;
  const at::Tensor first = at::empty(target.sizes(), target.options());
  if (2 * fused_count > numel) {
    run_steps(first);
    run_fused(target);
    CopyRanges(first, OutsideRanges(steps.fused, numel), target);
  } else {
    run_fused(first);
    run_steps(target);
    CopyRanges(first, steps.fused, target);
  }
}

// maximum and minimum of equal elements: PyTorch's CPU kernel returns the
// second in its vector loop (vmaxps, vminps) and the first in its scalar
// loop (std::max, std::min), which only +0.0 and -0.0 tell apart; the
// library's kernel returns the first. The ranges of the vector loop, or none
// where the call needs no more than the library's kernel.
ElementRanges TiesToSecond(const OpCall& call, const OpDTypes& dtypes, const c10::Device& device,
                           at::IntArrayRef shape) {
  if (!device.is_cpu() || (call.op != ops::Op::kMaximum && call.op != ops::Op::kMinimum)) {
    return {};
  }
  const DType compute = dtypes.compute;
  if (!IsFloating(compute) || IsFloat8(compute)) return {};
  return TorchVectorRanges(call, shape, TorchType(compute));
}

// The call's operands: the views the kernel reads, the tensors behind them
// (undefined for a Python scalar or a wrapped number), and the kernel's
// result shape.
struct KernelOperands {
  absl::InlinedVector<Tensor, 3> views;
  std::vector<at::Tensor> sources;
  at::DimVector shape;
};

// Runs the binary op into `target` (contiguous, shaped as the result) with
// its operands in order, or swapped: over every element, or only over
// `ranges` (views of the rows they lie in).
void RunBinary(ops::Op op, const KernelOperands& operands, bool swap, const ElementRanges* ranges,
               const OpDTypes& dtypes, const at::Tensor& target,
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

// maximum and minimum as PyTorch's CPU kernel computes them: the kernel
// over every element with the operands as the larger share of elements
// wants them, then the other share again. Few ranges run over views of
// their rows; many (short rows) over the whole result into a second
// tensor, whose elements in them are copied.
void RunTiesAsTorch(ops::Op op, const KernelOperands& operands, const ElementRanges& vector,
                    const OpDTypes& dtypes, const at::Tensor& target,
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

// Whether this torch refuses maximum of complex tensors with TypeError
// (2.15) or with RuntimeError (2.11): asked of its CPU kernel, once, on
// empty tensors, past any Python mode (FakeTensor's would not raise; nor
// does 2.15's meta kernel).
bool ComplexMaximumRaisesTypeError() {
  static const bool type_error = [] {
    const c10::impl::ExcludeDispatchKeyGuard no_python(
        c10::DispatchKeySet({c10::DispatchKey::Python, c10::DispatchKey::PythonTLSSnapshot}));
    const at::Tensor z = at::empty({0}, at::TensorOptions(at::kComplexFloat).device(at::kCPU));
    try {
      (void)at::maximum(z, z);
    } catch (const c10::TypeError&) {
      return true;
    } catch (const c10::Error&) {
    }
    return false;
  }();
  return type_error;
}

}  // namespace

void ThrowIfError(const absl::Status& status) {
  if (C10_LIKELY(status.ok())) return;
  const std::string message(status.message());
  // The class this torch raises for the same refusal: its dtype checks
  // raise NotImplementedError (TORCH_CHECK_NOT_IMPLEMENTED), maximum's and
  // minimum's of complex tensors TypeError (2.15; RuntimeError in 2.11); the
  // rest RuntimeError.
  if (absl::EndsWith(message, " not implemented for complex tensors.") &&
      ComplexMaximumRaisesTypeError()) {
    TORCH_CHECK_TYPE(false, message);
  }
  if (absl::StrContains(message, "\" not implemented for '") ||
      absl::StartsWith(message, "Subtraction, the `-` operator") ||
      absl::StartsWith(message, "Negation, the `-` operator")) {
    TORCH_CHECK_NOT_IMPLEMENTED(false, message);
  }
  TORCH_CHECK(false, message);
}

OpDTypes InThisTorch(OpDTypes dtypes) {
  // Before 2.15 torch has no bcomplex32, and where 2.15 promotes to it
  // (bfloat16 with a complex scalar) promotes to complex64: the least dtype
  // above it that this torch has, the join of its lattice without the node.
  static const bool has_bcomplex32 = ToTorchScalarType(DType::kBComplex32).has_value();
  if (has_bcomplex32) return dtypes;
  for (DType* dtype : {&dtypes.compute, &dtypes.opmath, &dtypes.result}) {
    if (*dtype == DType::kBComplex32) *dtype = DType::kComplex64;
  }
  return dtypes;
}

OpDTypes InferDTypes(const OpCall& call) { return InferDTypes(call, DefaultDType()); }

OpDTypes InferDTypes(const OpCall& call, DType default_dtype) {
  absl::InlinedVector<oneflow_promote::Operand, 3> operands;
  for (size_t i = 0; i < call.operands.size(); ++i) {
    operands.push_back(RuleOperand(call.operands[i], i));
  }
  PromotionOptions promotion;
  promotion.default_dtype = default_dtype;
  const OpDTypes dtypes =
      InThisTorch(ValueOrThrow(ops::InferOpDTypes(call.op, operands, promotion)));
  if (call.alpha.has_value()) {
    ThrowIfError(ops::CheckAlpha(dtypes.compute, ScalarOperand(*call.alpha)));
  }
  return dtypes;
}

at::Tensor RunOnDevice(const OpCall& call) {
  if (TakesFastPath(call)) return RunFastPath(call);
  // The at:: calls below (views, copies) are part of this kernel: no
  // autograd of their own, and no version counts (the extension's
  // ADInplaceOrView kernel counts the write).
  const at::AutoDispatchBelowADInplaceOrView below_autograd;
  if (call.destination.defined()) CheckOverlap(call);
  // The broadcast shape; operands of one shape (the common case) have it.
  const at::Tensor* first = nullptr;
  bool same_shape = true;
  for (const Operand& operand : call.operands) {
    if (operand.tensor == nullptr) continue;
    if (first == nullptr) first = operand.tensor;
    same_shape &= operand.tensor->sizes() == first->sizes();
  }
  at::DimVector shape(first->sizes().begin(), first->sizes().end());
  if (!same_shape) {
    for (const Operand& operand : call.operands) {
      if (operand.tensor != nullptr)
        shape = at::infer_size_dimvector(shape, operand.tensor->sizes());
    }
  }
  const int64_t numel = c10::multiply_integers(shape);
  const DType default_dtype = DefaultDType();
  const OpDTypes dtypes = InferDTypes(call, default_dtype);
  const c10::Device device = CallDevice(call);
  c10::OptionalDeviceGuard guard;
  if (device.is_cuda()) guard.reset_device(device);
  const at::ScalarType result_type = TorchType(dtypes.result);
  at::Tensor destination = call.destination;
  if (destination.defined()) {
    CheckDestination(call, dtypes.result, c10::fromIntArrayRefSlow(shape));
    TORCH_CHECK(destination.device() == device, call.overload->base,
                "(): ", call.overload->variant == Variant::kOut ? "out=" : "self", " is on ",
                destination.device().str(), " but the result is on ", device.str());
    if (call.overload->variant == Variant::kOut) at::native::resize_output(destination, shape);
  } else {
    destination = Empty(shape, result_type, device);
  }
  if (numel == 0) return destination;

  functional::OpOptions options;
  options.promotion.default_dtype = default_dtype;
  options.context = CurrentTorchContext(device);
  // Ranks beyond what the library's strided kernels take (kMaxCastRank)
  // run on one dimension: inputs broadcast and made contiguous by torch
  // (copies, no conversion).
  const bool flatten = static_cast<int>(shape.size()) > kMaxCastRank;
  KernelOperands operands;
  operands.shape = flatten ? at::DimVector{numel} : shape;
  absl::InlinedVector<Tensor, 3>& views = operands.views;
  for (size_t i = 0; i < call.operands.size(); ++i) {
    const Operand& operand = call.operands[i];
    operands.sources.emplace_back();
    if (operand.tensor == nullptr) {
      views.push_back(Tensor::WrappedNumber(ScalarOperand(operand.scalar)));
      continue;
    }
    at::Tensor t = *operand.tensor;
    // Conjugate and negative views (torch's fallbacks resolve them before
    // a backend kernel; a direct call below them would not).
    if (t.is_conj()) t = t.resolve_conj();
    if (t.is_neg()) t = t.resolve_neg();
    if (flatten) t = t.numel() == 1 ? t.reshape({1}) : t.expand(shape).contiguous().view(-1);
    if (!TensorTraits<at::Tensor>::IsWrappedNumber(t)) operands.sources.back() = t;
    views.push_back(ViewOf(t, i));
  }
  std::optional<AlphaSteps> alpha_steps;
  if (call.alpha.has_value() && !IsOne(*call.alpha)) {
    alpha_steps = AlphaStepsOf(call, dtypes, device, shape);
    if (!alpha_steps.has_value()) options.alpha = ScalarOperand(*call.alpha);
  }
  // The kernel writes into the destination itself where it can: its dtype,
  // contiguous, and not an input that a second pass over ties would read.
  // Elsewhere into a new tensor, converted once into it.
  const ElementRanges ties_to_second = TiesToSecond(call, dtypes, device, shape);
  const bool read_again =
      !ties_to_second.empty() && call.destination.defined() &&
      std::any_of(call.operands.begin(), call.operands.end(), [&](const Operand& operand) {
        return operand.tensor != nullptr && operand.tensor->is_alias_of(destination);
      });
  const bool direct =
      destination.scalar_type() == result_type && destination.is_contiguous() && !read_again;
  const at::Tensor target = direct ? destination : Empty(shape, result_type, device);
  // Read before the kernel writes: the destination may be an operand.
  const std::vector<int64_t> vector_loop_nans = VectorLoopNaNs(call, dtypes, device, shape);
  const FusedProducts fused_products = TorchFusedProducts(call, dtypes, device, shape);
  const at::Tensor kernel_target = flatten ? target.view(-1) : target;
  if (alpha_steps.has_value()) {
    RunWithAlpha(call, *alpha_steps, views, dtypes, kernel_target, options);
  } else if (!ties_to_second.empty()) {
    RunTiesAsTorch(call.op, operands, ties_to_second, dtypes, kernel_target, options);
  } else if (fused_products.count() < numel) {
    Tensor target_view = ViewOf(kernel_target, views.size());
    ThrowIfError(functional::CallOutWithDTypes(call.op, views, dtypes, target_view, options));
  }
  WriteNaNs(vector_loop_nans, target);
  WriteProducts(fused_products, target);
  if (!direct) WriteInto(target, destination, options.context);
  return destination;
}

namespace {

// The broadcast shape (symbolic under dynamic shapes) and the dtypes of a
// call, for the kernels that see no data.
struct ShapeAndDTypes {
  c10::SymDimVector shape;
  OpDTypes dtypes;
};

ShapeAndDTypes InferShapeAndDTypes(const OpCall& call) {
  ShapeAndDTypes inferred;
  for (const Operand& operand : call.operands) {
    if (operand.tensor != nullptr) {
      inferred.shape = at::infer_size_symdimvector(inferred.shape, operand.tensor->sym_sizes());
    }
  }
  inferred.dtypes = InferDTypes(call);
  return inferred;
}

}  // namespace

at::Tensor RunOnMeta(const OpCall& call) {
  const ShapeAndDTypes inferred = InferShapeAndDTypes(call);
  if (!call.destination.defined()) {
    return at::empty_symint(
        inferred.shape,
        at::TensorOptions().dtype(TorchType(inferred.dtypes.result)).device(c10::kMeta));
  }
  CheckDestination(call, inferred.dtypes.result, inferred.shape);
  if (call.overload->variant == Variant::kOut) {
    at::native::resize_output_symint(call.destination, inferred.shape);
  }
  return call.destination;
}

void CheckDestinationOf(const OpCall& call) {
  const ShapeAndDTypes inferred = InferShapeAndDTypes(call);
  CheckDestination(call, inferred.dtypes.result, inferred.shape);
}

}  // namespace oneflow_promote::torch_extension
