// The CPU, CUDA and Meta kernels of every overload: one prologue (dtypes by
// InferOpDTypes once per call, the broadcast shape, out= and in-place
// checks as TensorIterator makes them, the result laid out and the call
// walked as it does: iteration_order.h), then the library's functional
// frontend on views of the tensors' storage, and on the CPU where
// PyTorch's loops round or tie otherwise, their answers (alpha_steps.h,
// complex_products.h, maximum_ties.h, remainder_nans.h).

#include "torch_extension/internal/kernels.h"

#include <ATen/EmptyTensor.h>
#include <ATen/ExpandUtils.h>
#include <ATen/MemoryOverlap.h>
#include <ATen/native/Resize.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/impl/LocalDispatchKeySet.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/match.h"
#include "functional/functional.h"
#include "functional/tensor.h"
#include "functional/torch_tensor_traits.h"
#include "kernels/cast.h"
#include "torch_extension/internal/alpha_steps.h"
#include "torch_extension/internal/complex_products.h"
#include "torch_extension/internal/fast_path.h"
#include "torch_extension/internal/iteration_order.h"
#include "torch_extension/internal/maximum_ties.h"
#include "torch_extension/internal/remainder_nans.h"
#include "torch_extension/internal/tensor_views.h"
#include "torch_extension/internal/vector_loops.h"

namespace oneflow_promote::torch_extension {
namespace {

using ops::OpDTypes;

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

// The same with these strides.
at::Tensor EmptyStrided(at::IntArrayRef shape, at::IntArrayRef strides, at::ScalarType type,
                        const c10::Device& device) {
  if (device.is_cpu()) return at::detail::empty_strided_cpu(shape, strides, type);
  return at::empty_strided(shape, strides, at::TensorOptions().dtype(type).device(device));
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

namespace {

// Runs a call whose operands and destination (out= or self, or the result
// `destination`) are walked in row-major order as torch walks them.
void RunInOrder(const OpCall& call, at::IntArrayRef shape, const OpDTypes& dtypes,
                DType default_dtype, const c10::Device& device, const at::Tensor& destination) {
  const int64_t numel = c10::multiply_integers(shape);
  const at::ScalarType result_type = TorchType(dtypes.result);
  functional::OpOptions options;
  options.promotion.default_dtype = default_dtype;
  options.context = CurrentTorchContext(device);
  // Ranks beyond what the library's strided kernels take (kMaxCastRank)
  // run on one dimension: inputs broadcast and made contiguous by torch
  // (copies, no conversion).
  const bool flatten = static_cast<int>(shape.size()) > kMaxCastRank;
  KernelOperands operands;
  operands.shape = flatten ? at::DimVector{numel} : at::DimVector(shape.begin(), shape.end());
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
  const FusedProducts fused_products = TorchFusedProducts(call, dtypes, device, shape, target);
  const at::Tensor kernel_target = flatten ? target.view(-1) : target;
  if (alpha_steps.has_value()) {
    RunWithAlpha(call, *alpha_steps, operands, dtypes, kernel_target, options);
  } else if (!ties_to_second.empty()) {
    RunTiesAsTorch(call.op, operands, ties_to_second, dtypes, kernel_target, options);
  } else if (fused_products.count() < numel) {
    Tensor target_view = ViewOf(kernel_target, views.size());
    ThrowIfError(functional::CallOutWithDTypes(call.op, views, dtypes, target_view, options));
  }
  WriteNaNs(vector_loop_nans, target);
  WriteProducts(fused_products, target);
  if (!direct) WriteInto(target, destination, options.context);
}

}  // namespace

at::Tensor RunOnDevice(const OpCall& call) {
  if (std::optional<at::Tensor> result = TryFastPath(call)) return *std::move(result);
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
  const DType default_dtype = DefaultDType();
  const OpDTypes dtypes = InferDTypes(call, default_dtype);
  const c10::Device device = CallDevice(call);
  c10::OptionalDeviceGuard guard;
  if (device.is_cuda()) guard.reset_device(device);
  const at::ScalarType result_type = TorchType(dtypes.result);
  const at::ScalarType common = TorchType(dtypes.compute);
  at::Tensor destination = call.destination;
  bool resized = false;
  if (destination.defined()) {
    CheckDestination(call, dtypes.result, c10::fromIntArrayRefSlow(shape));
    TORCH_CHECK(destination.device() == device, call.overload->base,
                "(): ", call.overload->variant == Variant::kOut ? "out=" : "self", " is on ",
                destination.device().str(), " but the result is on ", device.str());
    if (call.overload->variant == Variant::kOut) {
      resized = at::native::resize_output(destination, shape);
    }
  }
  // The result's layout and the walk's order, as TensorIterator's.
  const IterationOrder<int64_t> order = TorchIterationOrder<int64_t>(call, shape, common, resized);
  if (!destination.defined()) {
    destination = EmptyStrided(shape, order.result_strides, result_type, device);
  } else if (resized && destination.strides() != order.result_strides) {
    destination.as_strided_(shape, order.result_strides);
  }
  if (c10::multiply_integers(shape) == 0) return destination;
  if (order.row_major()) {
    RunInOrder(call, shape, dtypes, default_dtype, device, destination);
  } else {
    const CallInOrder in_order(call, shape, order.dims, common);
    RunInOrder(in_order.call(), in_order.shape(), dtypes, default_dtype, device,
               destination.permute(order.dims));
  }
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
  const at::ScalarType common = TorchType(inferred.dtypes.compute);
  if (!call.destination.defined()) {
    return at::empty_strided_symint(
        inferred.shape,
        TorchIterationOrder<c10::SymInt>(call, inferred.shape, common, false).result_strides,
        at::TensorOptions().dtype(TorchType(inferred.dtypes.result)).device(c10::kMeta));
  }
  CheckDestination(call, inferred.dtypes.result, inferred.shape);
  if (call.overload->variant == Variant::kOut &&
      at::native::resize_output_symint(call.destination, inferred.shape)) {
    call.destination.as_strided__symint(
        inferred.shape,
        TorchIterationOrder<c10::SymInt>(call, inferred.shape, common, true).result_strides);
  }
  return call.destination;
}

void CheckDestinationOf(const OpCall& call) {
  const ShapeAndDTypes inferred = InferShapeAndDTypes(call);
  CheckDestination(call, inferred.dtypes.result, inferred.shape);
}

}  // namespace oneflow_promote::torch_extension
