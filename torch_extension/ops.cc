// PyTorch ops built on the library: TORCH_LIBRARY(oneflow_promote) registers
// add, sub, mul, div (every rounding mode), the other binary ops, where and
// the comparisons, each with Tensor and Scalar overloads and out= variants.
// Each call decides its dtypes with InferOpDTypes (PyTorch's rules, the
// default dtype read from torch.get_default_dtype()), casts the inputs the
// kernel cannot convert as it reads them through TensorProcessor<at::Tensor>,
// and runs the library's elementwise kernel on views of the tensors'
// storage: on the CPU with PyTorch's intra-op thread count, on CUDA under a
// device guard on PyTorch's current stream.
//
//   torch.ops.load_library(".../_C.so")  # or: import oneflow_promote_torch
//   torch.ops.oneflow_promote.add(torch.ones(3, dtype=torch.int8), 2.5)  # float32

#include <ATen/ATen.h>
#include <c10/core/DeviceGuard.h>
#include <torch/library.h>

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "kernels/cast.h"
#include "oneflow_promote/functional/functional.h"
#include "oneflow_promote/functional/op_kernels.h"
#include "oneflow_promote/functional/op_rules.h"
#include "oneflow_promote/functional/tensor.h"
#include "oneflow_promote/functional/tensor_processor.h"
#include "oneflow_promote/functional/torch_tensor_traits.h"
#include "oneflow_promote/sbp/sbp.h"

namespace oneflow_promote::torch_extension {
namespace {

using functional::Op;

// An argument of an op: a tensor, or a Python scalar (a Scalar overload).
using Input = std::variant<at::Tensor, c10::Scalar>;

// Raises the status as a Python RuntimeError with the library's message,
// as PyTorch raises its own dtype errors.
void ThrowIfError(const absl::Status& status) {
  TORCH_CHECK(status.ok(), std::string(status.message()));
}

template <typename T>
T ValueOrThrow(absl::StatusOr<T> value) {
  ThrowIfError(value.status());
  return *std::move(value);
}

absl::StatusOr<DType> DTypeOf(at::ScalarType type, size_t position) {
  const std::optional<DType> dtype = FromTorchScalarType(type);
  if (dtype.has_value()) return *dtype;
  return absl::InvalidArgumentError(absl::StrCat("operand ", position + 1, " has dtype ",
                                                 c10::toString(type),
                                                 ", which oneflow_promote does not have"));
}

// The library's view of a tensor's elements (no copy), or the Python
// scalar it wraps. Tensors with no elements never get here.
absl::StatusOr<Tensor> ViewOf(const at::Tensor& t, size_t position) {
  absl::StatusOr<DType> dtype = DTypeOf(t.scalar_type(), position);
  if (!dtype.ok()) return dtype.status();
  if (TensorTraits<at::Tensor>::IsWrappedNumber(t)) {
    return Tensor::WrappedNumber(TensorTraits<at::Tensor>::ScalarOf(t));
  }
  if (!t.is_cpu() && !t.is_cuda()) {
    return absl::InvalidArgumentError(absl::StrCat("operand ", position + 1, " is on ",
                                                   t.device().str(), "; only cpu and cuda"));
  }
  // The elements a strided view reaches, from its first one.
  int64_t extent = 1;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.stride(d) < 0) {
      return absl::UnimplementedError(
          absl::StrCat("operand ", position + 1, " has a negative stride"));
    }
    extent += (t.size(d) - 1) * t.stride(d);
  }
  const Device device = t.is_cuda() ? Device::Cuda(t.device().index()) : Device::Cpu();
  absl::StatusOr<Tensor> storage = Tensor::View(t.data_ptr(), *dtype, {extent}, device);
  if (!storage.ok()) return storage;
  return storage->AsStrided(t.sizes().vec(), t.strides().vec(), 0);
}

// The device the op runs on: its first CUDA tensor's, else the CPU.
c10::Device CallDevice(absl::Span<const Input> inputs) {
  for (const Input& input : inputs) {
    if (const auto* t = std::get_if<at::Tensor>(&input); t != nullptr && t->is_cuda()) {
      return t->device();
    }
  }
  return c10::Device(c10::kCPU);
}

at::ScalarType TorchType(DType dtype) {
  const std::optional<at::ScalarType> type = ToTorchScalarType(dtype);
  TORCH_CHECK(type.has_value(), "libtorch has no ", std::string(Name(dtype)));
  return *type;
}

// On the CPU the kernel converts an input of another dtype as it reads it
// only where op_kernels::CanFuseCasts allows; the other inputs are cast
// first by TensorProcessor<at::Tensor>, into PyTorch-allocated tensors that
// `storage` keeps alive, and their views replaced.
void CastWhatTheKernelCannot(Op op, const functional::OpDTypes& dtypes,
                             absl::Span<const int64_t> shape, const ExecutionContext& context,
                             absl::Span<const Input> inputs, absl::Span<Tensor> views,
                             std::vector<at::Tensor>& storage) {
  std::vector<at::Tensor> to_cast;
  std::vector<size_t> positions;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto* t = std::get_if<at::Tensor>(&inputs[i]);
    if (t == nullptr || op_kernels::CanFuseCasts(absl::MakeConstSpan(&views[i], 1), shape)) {
      continue;
    }
    const bool condition = op == Op::kWhere && i == 0;
    const DType needed = condition ? DType::kBool : dtypes.compute;
    if (views[i].dtype() == needed) continue;
    if (condition) {
      storage.push_back(ValueOrThrow(TensorTraits<at::Tensor>::Cast(*t, DType::kBool, context)));
      views[i] = ValueOrThrow(ViewOf(storage.back(), i));
      continue;
    }
    to_cast.push_back(*t);
    positions.push_back(i);
  }
  if (to_cast.empty()) return;
  TensorProcessor<at::Tensor> processor({}, Policy::kTorch, context);
  ThrowIfError(processor.AddInputs(to_cast).PromoteInputsToCommonDtype(true, dtypes.compute).Apply());
  for (size_t k = 0; k < positions.size(); ++k) {
    storage.push_back(processor.GetInputs()[k]);
    views[positions[k]] = ValueOrThrow(ViewOf(storage.back(), positions[k]));
  }
}

at::Tensor Run(Op op, std::vector<Input> inputs, std::optional<at::Tensor> out = std::nullopt) {
  functional::OpOptions options;
  options.promotion.default_dtype =
      ValueOrThrow(DTypeOf(c10::typeMetaToScalarType(at::get_default_dtype()), 0));
  absl::InlinedVector<Operand, 3> operands;
  absl::InlinedVector<absl::Span<const int64_t>, 3> shapes;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (const auto* scalar = std::get_if<c10::Scalar>(&inputs[i])) {
      operands.push_back(ScalarOperand(*scalar));
      continue;
    }
    const at::Tensor& t = std::get<at::Tensor>(inputs[i]);
    ThrowIfError(DTypeOf(t.scalar_type(), i).status());  // names a dtype the library lacks
    operands.push_back(OperandOf(t));
    shapes.push_back(absl::MakeConstSpan(t.sizes().data(), t.sizes().size()));
  }
  const functional::OpDTypes dtypes =
      ValueOrThrow(functional::InferOpDTypes(op, operands, options.promotion));
  const std::vector<int64_t> shape = ValueOrThrow(functional::BroadcastShapes(shapes));
  if (out.has_value()) {
    ThrowIfError(functional::CheckCanCastToOutput(
        dtypes.result, ValueOrThrow(DTypeOf(out->scalar_type(), inputs.size()))));
  }

  const c10::Device device = CallDevice(inputs);
  const c10::DeviceGuard guard(device);
  options.context = CurrentTorchContext(device);
  const at::TensorOptions result_options =
      at::TensorOptions().dtype(TorchType(dtypes.result)).device(device);
  const bool into_out = out.has_value() && out->scalar_type() == TorchType(dtypes.result) &&
                        out->device() == device && out->sizes().vec() == shape &&
                        out->is_contiguous();
  at::Tensor result = into_out ? *out : at::empty(shape, result_options);

  if (result.numel() > 0) {
    // Tensors are viewed in place; Python scalars go in as wrapped numbers.
    absl::InlinedVector<Tensor, 3> views;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const auto* t = std::get_if<at::Tensor>(&inputs[i]);
      views.push_back(t != nullptr ? ValueOrThrow(ViewOf(*t, i)) : Tensor::WrappedNumber(operands[i]));
    }
    std::vector<at::Tensor> cast_storage;
    if (!device.is_cuda()) {
      CastWhatTheKernelCannot(op, dtypes, shape, options.context, inputs, absl::MakeSpan(views),
                              cast_storage);
    }
    Tensor result_view = ValueOrThrow(ViewOf(result, inputs.size()));
    ThrowIfError(functional::CallOut(op, views, result_view, options));
  }
  if (!out.has_value() || into_out) return result;
  // out= of another dtype, shape or layout: resized as PyTorch resizes it,
  // then the result converted into it.
  if (out->sizes().vec() != shape) out->resize_(shape);
  if (out->numel() == 0) return *out;
  if (out->is_contiguous() && out->device() == device) {
    ThrowIfError(CastElements(result.data_ptr(), dtypes.result, out->data_ptr(),
                              ValueOrThrow(DTypeOf(out->scalar_type(), inputs.size())),
                              result.numel(),
                              WithContext(device.is_cuda() ? Device::Cuda(device.index())
                                                           : Device::Cpu(),
                                          options.context)));
  } else {
    out->copy_(result);
  }
  return *out;
}

Op DivOp(const std::optional<c10::string_view>& rounding_mode) {
  if (!rounding_mode.has_value()) return Op::kDiv;
  if (*rounding_mode == "floor") return Op::kDivFloor;
  if (*rounding_mode == "trunc") return Op::kDivTrunc;
  TORCH_CHECK(false,
              "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '",
              std::string(*rounding_mode), "'");
  return Op::kDiv;
}

// The promotion kind and the dtypes of an op on tensors of these dtypes and
// ranks, for tests against torch._prims_common: [kind, compute, opmath, result].
std::vector<std::string> OpDTypesOf(c10::string_view name, const std::vector<at::Tensor>& tensors) {
  const Op op = ValueOrThrow(functional::ParseOp(std::string(name)));
  absl::InlinedVector<Operand, 3> operands;
  for (size_t i = 0; i < tensors.size(); ++i) {
    operands.push_back(Operand::Tensor(ValueOrThrow(DTypeOf(tensors[i].scalar_type(), i)),
                                       tensors[i].dim()));
  }
  PromotionOptions promotion;
  promotion.default_dtype =
      ValueOrThrow(DTypeOf(c10::typeMetaToScalarType(at::get_default_dtype()), 0));
  const functional::OpDTypes d = ValueOrThrow(functional::InferOpDTypes(op, operands, promotion));
  return {std::string(functional::PromotionKindName(functional::RuleOf(op).kind)),
          std::string(Name(d.compute)), std::string(Name(d.opmath)), std::string(Name(d.result))};
}

// Whether a cast keeps partial layouts of a reduce op ("sum", "max",
// "min"): "exact", "up to rounding" or "needs boxing" (sbp.h's CastKeeps),
// for DTensor's sharding strategy (oneflow_promote_torch/dtensor.py).
std::string CastKeepsName(at::ScalarType source, at::ScalarType target,
                          c10::string_view reduce_op) {
  const DType from = ValueOrThrow(DTypeOf(source, 0));
  const DType to = ValueOrThrow(DTypeOf(target, 1));
  sbp::SbpKind kind = sbp::SbpKind::kPartialSum;
  if (reduce_op == "max") {
    kind = sbp::SbpKind::kPartialMax;
  } else if (reduce_op == "min") {
    kind = sbp::SbpKind::kPartialMin;
  } else {
    TORCH_CHECK(reduce_op == "sum", "cast_keeps: reduce_op is sum, max or min; got ",
                std::string(reduce_op));
  }
  return sbp::ExactnessName(sbp::CastKeeps(from, to, kind));
}

}  // namespace

// Schemas and kernels of one binary op `name` (Op `e`): Tensor and Scalar
// second operands, each with an out= variant.
#define ONEFLOW_PROMOTE_BINARY_OP(name, e)                                                         \
  m.def(#name ".Tensor(Tensor self, Tensor other) -> Tensor",                                      \
        [](const at::Tensor& a, const at::Tensor& b) { return Run(Op::e, {a, b}); });              \
  m.def(#name ".Scalar(Tensor self, Scalar other) -> Tensor",                                      \
        [](const at::Tensor& a, const c10::Scalar& b) { return Run(Op::e, {a, b}); });             \
  m.def(#name ".out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",                  \
        [](const at::Tensor& a, const at::Tensor& b, at::Tensor out) {                             \
          return Run(Op::e, {a, b}, out);                                                          \
        });                                                                                        \
  m.def(#name ".Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",           \
        [](const at::Tensor& a, const c10::Scalar& b, at::Tensor out) {                            \
          return Run(Op::e, {a, b}, out);                                                          \
        });

TORCH_LIBRARY(oneflow_promote, m) {
  ONEFLOW_PROMOTE_BINARY_OP(add, kAdd)
  ONEFLOW_PROMOTE_BINARY_OP(sub, kSub)
  ONEFLOW_PROMOTE_BINARY_OP(mul, kMul)
  ONEFLOW_PROMOTE_BINARY_OP(floor_divide, kFloorDivide)
  ONEFLOW_PROMOTE_BINARY_OP(remainder, kRemainder)
  ONEFLOW_PROMOTE_BINARY_OP(maximum, kMaximum)
  ONEFLOW_PROMOTE_BINARY_OP(minimum, kMinimum)
  ONEFLOW_PROMOTE_BINARY_OP(atan2, kAtan2)
  ONEFLOW_PROMOTE_BINARY_OP(eq, kEq)
  ONEFLOW_PROMOTE_BINARY_OP(ne, kNe)
  ONEFLOW_PROMOTE_BINARY_OP(lt, kLt)
  ONEFLOW_PROMOTE_BINARY_OP(le, kLe)
  ONEFLOW_PROMOTE_BINARY_OP(gt, kGt)
  ONEFLOW_PROMOTE_BINARY_OP(ge, kGe)
  ONEFLOW_PROMOTE_BINARY_OP(logical_and, kLogicalAnd)
  ONEFLOW_PROMOTE_BINARY_OP(logical_or, kLogicalOr)
  ONEFLOW_PROMOTE_BINARY_OP(logical_xor, kLogicalXor)
  ONEFLOW_PROMOTE_BINARY_OP(bitwise_and, kBitwiseAnd)
  ONEFLOW_PROMOTE_BINARY_OP(bitwise_or, kBitwiseOr)
  ONEFLOW_PROMOTE_BINARY_OP(bitwise_xor, kBitwiseXor)

  using Mode = std::optional<c10::string_view>;
  m.def("div.Tensor(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor",
        [](const at::Tensor& a, const at::Tensor& b, Mode mode) { return Run(DivOp(mode), {a, b}); });
  m.def("div.Scalar(Tensor self, Scalar other, *, str? rounding_mode=None) -> Tensor",
        [](const at::Tensor& a, const c10::Scalar& b, Mode mode) {
          return Run(DivOp(mode), {a, b});
        });
  m.def("div.out(Tensor self, Tensor other, *, str? rounding_mode=None, Tensor(a!) out) -> "
        "Tensor(a!)",
        [](const at::Tensor& a, const at::Tensor& b, Mode mode, at::Tensor out) {
          return Run(DivOp(mode), {a, b}, out);
        });
  m.def("div.Scalar_out(Tensor self, Scalar other, *, str? rounding_mode=None, Tensor(a!) out) -> "
        "Tensor(a!)",
        [](const at::Tensor& a, const c10::Scalar& b, Mode mode, at::Tensor out) {
          return Run(DivOp(mode), {a, b}, out);
        });

  m.def("where.self(Tensor condition, Tensor self, Tensor other) -> Tensor",
        [](const at::Tensor& c, const at::Tensor& a, const at::Tensor& b) {
          return Run(Op::kWhere, {c, a, b});
        });
  m.def("where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor",
        [](const at::Tensor& c, const c10::Scalar& a, const at::Tensor& b) {
          return Run(Op::kWhere, {c, a, b});
        });
  m.def("where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor",
        [](const at::Tensor& c, const at::Tensor& a, const c10::Scalar& b) {
          return Run(Op::kWhere, {c, a, b});
        });
  m.def("where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor",
        [](const at::Tensor& c, const c10::Scalar& a, const c10::Scalar& b) {
          return Run(Op::kWhere, {c, a, b});
        });
  m.def("where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> "
        "Tensor(a!)",
        [](const at::Tensor& c, const at::Tensor& a, const at::Tensor& b, at::Tensor out) {
          return Run(Op::kWhere, {c, a, b}, out);
        });

  m.def("op_dtypes(str op, Tensor[] operands) -> str[]", &OpDTypesOf);
  m.def("cast_keeps(ScalarType source, ScalarType target, str reduce_op) -> str", &CastKeepsName);
}

#undef ONEFLOW_PROMOTE_BINARY_OP

}  // namespace oneflow_promote::torch_extension
