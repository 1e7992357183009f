// The functional frontend: dtype rules, then casts (materialized through
// TensorProcessor, or fused into the kernel), then the CPU kernels.

#include "functional/functional.h"

#include <cmath>
#include <optional>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "functional/op_kernels.h"
#include "kernels/cast.h"
#include "oneflow_promote/ops/tensor_processor.h"
#include "oneflow_promote/status_macros.h"

namespace oneflow_promote::functional {
namespace {

absl::Status Invalid(std::string message) { return absl::InvalidArgumentError(std::move(message)); }

// The inputs cast to `dtype` by TensorProcessor (whole tensors; wrapped
// numbers on the host; inputs already of that dtype untouched).
absl::StatusOr<absl::InlinedVector<Tensor, 3>> CastAll(absl::Span<const Tensor> inputs, DType dtype,
                                                       const OpOptions& options) {
  TensorProcessor<Tensor> processor(options.promotion, options.policy, options.context);
  RETURN_IF_ERROR(processor.AddInputs(inputs).PromoteInputsToCommonDtype(true, dtype).Apply());
  return absl::InlinedVector<Tensor, 3>(processor.GetInputs().begin(), processor.GetInputs().end());
}

// The device a call runs on: its tensors' (wrapped numbers and other single
// host elements go along as scalars), or an error naming two devices.
absl::StatusOr<Device> CallDevice(ops::Op op, absl::Span<const Tensor> inputs) {
  const Tensor* cuda = nullptr;
  bool host_tensor = false;
  for (const Tensor& input : inputs) {
    if (input.is_cuda()) {
      if (cuda != nullptr && cuda->device().ordinal != input.device().ordinal) {
        return Invalid(absl::StrCat(ops::OpName(op),
                                    "(): expected all tensors to be on the same device, "
                                    "but found cuda:",
                                    cuda->device().ordinal, " and cuda:", input.device().ordinal));
      }
      cuda = &input;
    } else if (!input.is_wrapped_number() && input.numel() != 1) {
      host_tensor = true;
    }
  }
  if (cuda == nullptr) return Device::Cpu();
  if (host_tensor) {
    return Invalid(absl::StrCat(ops::OpName(op),
                                "(): expected all tensors to be on the same device, "
                                "but found cuda:",
                                cuda->device().ordinal, " and cpu"));
  }
  return Device::Cuda(cuda->device().ordinal);
}

// `destination` (out= or the in-place tensor), when the kernel can write
// into it directly: the result's dtype and shape, contiguous.
bool WritesDirectly(const Tensor* destination, DType dtype, absl::Span<const int64_t> shape,
                    const Device& device) {
  return destination != nullptr && destination->dtype() == dtype && destination->shape() == shape &&
         destination->is_contiguous() && destination->device().kind == device.kind &&
         destination->device().ordinal == device.ordinal;
}

absl::StatusOr<Tensor> RunElementwise(ops::Op op, absl::Span<const Tensor> inputs,
                                      const ops::OpDTypes& dtypes, const OpOptions& options,
                                      const Device& device, const Tensor* destination) {
  absl::InlinedVector<absl::Span<const int64_t>, 3> shapes;
  for (const Tensor& input : inputs) shapes.push_back(input.shape());
  ASSIGN_OR_RETURN(std::vector<int64_t> shape, ops::BroadcastShapes(shapes));
  ASSIGN_OR_RETURN(Tensor out, WritesDirectly(destination, dtypes.result, shape, device)
                                   ? *destination
                                   : Tensor::Empty(dtypes.result, shape, device));

  // The kernels convert inputs as they read them: CUDA's any input, the
  // CPU's when every input is read at the output's own index (or is one
  // element).
  const bool fusable =
      device.kind == Device::Kind::kCuda || op_kernels::CanFuseCasts(inputs, shape);
  if (options.cast_path == CastPath::kFused && !fusable) {
    return Invalid(absl::StrCat(ops::OpName(op),
                                ": cannot fuse casts into the kernel for these operands (each "
                                "must be contiguous with the result's shape, or one element)"));
  }
  if (fusable && options.cast_path != CastPath::kMaterialized) {
    RETURN_IF_ERROR(op_kernels::Elementwise(op, dtypes.compute, inputs, out, options.context));
    return out;
  }
  // Materialized: where's condition becomes bool, the values the compute
  // dtype, except single elements (Python scalars), which the kernel
  // converts as on the fused path: mul and division of narrow floats take a
  // single-element operand unrounded, as PyTorch 2.15 does.
  const size_t first_value = op == ops::Op::kWhere ? 1 : 0;
  absl::InlinedVector<Tensor, 3> to_cast;
  for (size_t i = first_value; i < inputs.size(); ++i) {
    if (inputs[i].numel() != 1) to_cast.push_back(inputs[i]);
  }
  ASSIGN_OR_RETURN(auto cast, to_cast.empty() ? absl::InlinedVector<Tensor, 3>()
                                              : CastAll(to_cast, dtypes.compute, options));
  absl::InlinedVector<Tensor, 3> kernel_inputs;
  if (first_value == 1) {
    ASSIGN_OR_RETURN(Tensor condition, inputs[0].To(DType::kBool, options.context));
    kernel_inputs.push_back(std::move(condition));
  }
  size_t next_cast = 0;
  for (size_t i = first_value; i < inputs.size(); ++i) {
    kernel_inputs.push_back(inputs[i].numel() == 1 ? inputs[i] : cast[next_cast++]);
  }
  RETURN_IF_ERROR(op_kernels::Elementwise(op, dtypes.compute, kernel_inputs, out, options.context));
  return out;
}

// The bytes a tensor's elements can reach, [begin, end); empty for a
// tensor with no elements.
struct MemoryExtent {
  uintptr_t begin = 0;
  uintptr_t end = 0;
};

MemoryExtent ExtentOf(const Tensor& t) {
  if (t.numel() == 0) return {};
  int64_t low = 0, high = 0;
  for (int64_t d = 0; d < t.ndim(); ++d) {
    const int64_t reach = (t.shape()[d] - 1) * t.strides()[d];
    (reach < 0 ? low : high) += reach;
  }
  const int64_t item = static_cast<int64_t>(ItemSize(t.dtype()));
  const uintptr_t first = reinterpret_cast<uintptr_t>(t.data());
  return {first + static_cast<uintptr_t>(low * item),
          first + static_cast<uintptr_t>((high + 1) * item)};
}

// The written-to tensor may be an input exactly (the same first element,
// element size, shape and strides: the kernels read each element before
// writing that element), or share no memory with it. Anything between
// would read elements already overwritten.
absl::Status CheckNoPartialOverlap(ops::Op op, const Tensor& written, absl::string_view role,
                                   absl::Span<const Tensor> inputs) {
  if (!written.defined()) return absl::OkStatus();  // Run reports it
  const MemoryExtent out = ExtentOf(written);
  if (out.begin == out.end) return absl::OkStatus();
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& input = inputs[i];
    if (!input.defined() || input.is_wrapped_number()) continue;
    const MemoryExtent in = ExtentOf(input);
    if (in.begin >= out.end || out.begin >= in.end) continue;
    if (input.data() == written.data() && ItemSize(input.dtype()) == ItemSize(written.dtype()) &&
        input.shape() == written.shape() && input.strides() == written.strides()) {
      continue;
    }
    return Invalid(absl::StrCat(
        ops::OpName(op), "(): ", role, " (", written.Describe(), ") partially overlaps operand ",
        i + 1, " (", input.Describe(),
        "): some elements of the input tensor and the written-to tensor "
        "refer to a single memory location. Please clone() the tensor before performing the "
        "operation."));
  }
  return absl::OkStatus();
}

// Copies `result` into `destination` (same shape, contiguous), converting;
// nothing to do when the kernel wrote there already.
absl::Status WriteInto(const Tensor& result, Tensor& destination, absl::string_view role,
                       const OpOptions& options) {
  const ExecutionContext& context = options.context;
  if (result.data() == destination.data() && result.dtype() == destination.dtype()) {
    return absl::OkStatus();
  }
  if (result.is_cuda() != destination.is_cuda() ||
      result.device().ordinal != destination.device().ordinal) {
    return Invalid(absl::StrCat(role, " is ", destination.Describe(), " but the result is ",
                                result.Describe()));
  }
  if (result.shape() != destination.shape()) {
    return Invalid(absl::StrCat(role, " with shape [", absl::StrJoin(destination.shape(), ", "),
                                "] doesn't match the broadcast shape [",
                                absl::StrJoin(result.shape(), ", "), "]"));
  }
  if (!destination.is_contiguous()) {
    return absl::UnimplementedError(
        absl::StrCat(role, " must be contiguous; got ", destination.Describe()));
  }
  RETURN_IF_ERROR(ops::CheckCanCastToOutput(result.dtype(), destination.dtype(), options.policy));
  return CastElements(result.data(), result.dtype(), destination.data(), destination.dtype(),
                      result.numel(), WithContext(destination.device(), context));
}

// As the cast API words it (kernels/cast.cc): a same-dtype op would
// otherwise run a negative count as all threads.
absl::Status CheckThreads(const OpOptions& options) {
  if (options.context.cpu_threads >= 0) return absl::OkStatus();
  return Invalid(
      absl::StrCat("cpu_threads is ", options.context.cpu_threads, "; use 0 for all threads"));
}

// The type PyTorch converts alpha into (c10::Scalar::to), as its message
// names it, and that type's finite range; a value outside it raises.
struct AlphaType {
  const char* name;
  double lowest, max;
};

std::optional<AlphaType> AlphaTypeOf(DType dtype) {
  switch (dtype) {
    // Unsigned: negative values down to -max wrap (c10's overflows).
    case DType::kUInt8:
      return AlphaType{"uint8_t", -255.0, 255.0};
    case DType::kInt8:
      return AlphaType{"int8_t", -128.0, 127.0};
    case DType::kInt16:
      return AlphaType{"int16_t", -32768.0, 32767.0};
    case DType::kInt32:
      return AlphaType{"int", -2147483648.0, 2147483647.0};
    case DType::kFloat16:
      return AlphaType{"c10::Half", -65504.0, 65504.0};
    case DType::kBFloat16:
      return AlphaType{"c10::BFloat16", -0x1.fep127, 0x1.fep127};
    case DType::kFloat32:
      return AlphaType{"float", -0x1.fffffep127, 0x1.fffffep127};
    case DType::kComplex32:
      return AlphaType{"c10::complex<c10::Half>", -65504.0, 65504.0};
    case DType::kComplex64:
      return AlphaType{"c10::complex<float>", -0x1.fffffep127, 0x1.fffffep127};
    default:
      return std::nullopt;  // bool (any number converts) and 64-bit types
  }
}

// Whether `value` converts into `type` as c10::checked_convert allows:
// infinities and NaN pass where the type has them.
bool Converts(const AlphaType& type, double value) {
  if (std::isinf(value) || std::isnan(value)) return type.max > 1;
  return value >= type.lowest && value <= type.max;
}

}  // namespace

absl::StatusOr<Operand> KernelAlpha(ops::Op op, DType compute, const Operand& alpha,
                                    const Device& device) {
  if (op != ops::Op::kAdd && op != ops::Op::kSub) {
    return Invalid(absl::StrCat(ops::OpName(op), "() takes no alpha"));
  }
  if (!alpha.is_scalar())
    return Invalid(absl::StrCat(ops::OpName(op), "(): alpha must be a number"));
  RETURN_IF_ERROR(ops::CheckAlpha(compute, alpha));
  Operand value = alpha;
  if (op == ops::Op::kSub) {
    switch (alpha.kind()) {
      case Operand::Kind::kPyInt:
        value = Operand::PyInt(-alpha.int_value());
        break;
      case Operand::Kind::kPyFloat:
        value = Operand::PyFloat(-alpha.real_value());
        break;
      case Operand::Kind::kPyComplex:
        value = Operand::PyComplex({-alpha.real_value(), -alpha.imag_value()});
        break;
      case Operand::Kind::kPyBool:  // ops::CheckAlpha allows it for bool, which sub refuses
      case Operand::Kind::kTensor:
        return Invalid(absl::StrCat("sub(): alpha ", alpha.Describe(), " cannot be negated"));
    }
  }
  // On CUDA PyTorch takes alpha in opmath: float32 for the 16-bit floats.
  const DType type = device.kind == Device::Kind::kCuda ? op_kernels::MathDType(compute) : compute;
  const std::optional<AlphaType> range = AlphaTypeOf(type);
  const bool integral =
      value.kind() == Operand::Kind::kPyInt || value.kind() == Operand::Kind::kPyBool;
  const double real = integral ? static_cast<double>(value.int_value()) : value.real_value();
  const bool fits =
      !range.has_value() || (Converts(*range, real) && Converts(*range, value.imag_value()));
  if (!fits) {
    return Invalid(
        absl::StrCat("value cannot be converted to type ", range->name, " without overflow"));
  }
  return value;
}

namespace {

// Run once the dtypes are decided.
absl::StatusOr<Tensor> RunWithDTypes(ops::Op op, absl::Span<const Tensor> inputs,
                                     const ops::OpDTypes& dtypes, const OpOptions& options,
                                     const Tensor* destination) {
  if (!ops::HasKernel(op)) {
    return absl::UnimplementedError(
        absl::StrCat(ops::OpName(op),
                     " has a dtype rule but no kernel in this library; ops::InferOpDTypes and "
                     "TensorProcessor decide its dtypes for a framework's own kernel"));
  }
  ASSIGN_OR_RETURN(Device place, CallDevice(op, inputs));
  // Results are allocated in the order of the call's stream.
  const Device device = WithContext(place, options.context);

  switch (ops::KindOf(op)) {
    case ops::OpKind::kReduction:
    case ops::OpKind::kScan: {
      ASSIGN_OR_RETURN(auto cast, CastAll(inputs, dtypes.compute, options));
      const Tensor& x = cast[0];
      if (ops::KindOf(op) == ops::OpKind::kReduction) {
        ASSIGN_OR_RETURN(Tensor out, Tensor::Empty(dtypes.result, {}, device));
        RETURN_IF_ERROR(op_kernels::ReduceAll(op, x, out, options.context));
        return out;
      }
      const int64_t rank = std::max<int64_t>(x.ndim(), 1);
      const int64_t dim = options.dim < 0 ? options.dim + rank : options.dim;
      if (dim < 0 || dim >= rank) {
        return absl::OutOfRangeError(
            absl::StrCat("Dimension out of range (expected to be in range of [", -rank, ", ",
                         rank - 1, "], but got ", options.dim, ")"));
      }
      ASSIGN_OR_RETURN(Tensor out, Tensor::Empty(dtypes.result, x.shape(), device));
      RETURN_IF_ERROR(op_kernels::Cumsum(x, dim, out, options.context));
      return out;
    }
    case ops::OpKind::kContraction: {
      ASSIGN_OR_RETURN(Tensor out, Tensor::Empty(dtypes.result, {}, device));
      RETURN_IF_ERROR(op_kernels::Dot(inputs[0], inputs[1], out, options.context));
      return out;
    }
    case ops::OpKind::kElementwise: {
      if (destination != nullptr) {
        // Checked before the kernel runs, so a refused in-place op leaves
        // its tensor untouched.
        RETURN_IF_ERROR(
            ops::CheckCanCastToOutput(dtypes.result, destination->dtype(), options.policy));
      }
      if (!options.alpha.has_value()) {
        return RunElementwise(op, inputs, dtypes, options, device, destination);
      }
      ASSIGN_OR_RETURN(const Operand alpha,
                       KernelAlpha(op, dtypes.compute, *options.alpha, device));
      absl::InlinedVector<Tensor, 3> scaled(inputs.begin(), inputs.end());
      scaled.push_back(Tensor::WrappedNumber(alpha));
      return RunElementwise(ops::Op::kAdd, scaled, dtypes, options, device, destination);
    }
  }
  return absl::InternalError("invalid op kind");
}

// Call, writing elementwise results straight into `destination` where it
// fits (see WritesDirectly); the caller checks what it gets back.
absl::StatusOr<Tensor> Run(ops::Op op, absl::Span<const Tensor> inputs, const OpOptions& options,
                           const Tensor* destination) {
  RETURN_IF_ERROR(CheckThreads(options));
  absl::InlinedVector<Operand, 3> operands;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].defined()) {
      return Invalid(
          absl::StrCat(ops::OpName(op), "(): operand ", i + 1, " is an undefined tensor"));
    }
    operands.push_back(inputs[i].AsOperand());
  }
  ASSIGN_OR_RETURN(ops::OpDTypes dtypes,
                   ops::InferOpDTypes(op, operands, options.promotion, options.policy));
  return RunWithDTypes(op, inputs, dtypes, options, destination);
}

}  // namespace

absl::StatusOr<Tensor> Call(ops::Op op, absl::Span<const Tensor> inputs, const OpOptions& options) {
  return Run(op, inputs, options, nullptr);
}

absl::Status CallOut(ops::Op op, absl::Span<const Tensor> inputs, Tensor& out,
                     const OpOptions& options) {
  RETURN_IF_ERROR(CheckNoPartialOverlap(op, out, "out=", inputs));
  ASSIGN_OR_RETURN(Tensor result, Run(op, inputs, options, &out));
  return WriteInto(result, out, "out=", options);
}

absl::Status CallOutWithDTypes(ops::Op op, absl::Span<const Tensor> inputs,
                               const ops::OpDTypes& dtypes, Tensor& out, const OpOptions& options) {
  RETURN_IF_ERROR(CheckThreads(options));
  RETURN_IF_ERROR(CheckNoPartialOverlap(op, out, "out=", inputs));
  ASSIGN_OR_RETURN(Tensor result, RunWithDTypes(op, inputs, dtypes, options, &out));
  return WriteInto(result, out, "out=", options);
}

absl::Status CallInPlace(ops::Op op, Tensor& self, absl::Span<const Tensor> others,
                         const OpOptions& options) {
  absl::InlinedVector<Tensor, 3> inputs = {self};
  inputs.insert(inputs.end(), others.begin(), others.end());
  RETURN_IF_ERROR(CheckNoPartialOverlap(op, self, "the in-place tensor", inputs));
  ASSIGN_OR_RETURN(Tensor result, Run(op, inputs, options, &self));
  return WriteInto(result, self, "output", options);
}

}  // namespace oneflow_promote::functional
