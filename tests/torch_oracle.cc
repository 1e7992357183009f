// libtorch oracle helpers (see torch_oracle.h).

#include "tests/torch_oracle.h"

#include "oneflow_promote/convert.h"

#include "functional/torch_tensor_traits.h"

#include <ATen/ScalarOps.h>
#include <ATen/native/TypeProperties.h>
#include <c10/core/DefaultDtype.h>
#include <c10/util/Logging.h>

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

namespace oneflow_promote::testing {
namespace {

// c10::Error captures a backtrace (about a millisecond each); the oracle
// only needs the message, and calls that libtorch rejects are common.
const bool kNoBacktraces = [] {
  c10::SetStackTraceFetcher([] { return std::string(); });
  return true;
}();

}  // namespace

const std::vector<DType>& TorchDTypes() {
  static const auto* dtypes = [] {
    auto* list = new std::vector<DType>;
    for (DType dtype : kAllDTypes) {
      if (ToTorchScalarType(dtype).has_value()) list->push_back(dtype);
    }
    return list;
  }();
  return *dtypes;
}

std::vector<Operand> TensorOperandPool() {
  std::vector<Operand> pool;
  for (DType dtype : TorchDTypes()) {
    pool.push_back(Operand::Tensor(dtype, 1));
    pool.push_back(Operand::Tensor(dtype, 0));
  }
  return pool;
}

std::optional<at::ScalarType> ToTorch(DType dtype) { return ToTorchScalarType(dtype); }

at::Tensor TorchFilled(at::IntArrayRef shape, DType dtype, int value) {
  at::Tensor t = at::empty(shape, at::TensorOptions().dtype(*ToTorch(dtype)));
  VisitDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T element = Convert<T>(value);
    T* data = static_cast<T*>(t.data_ptr());
    for (int64_t i = 0; i < t.numel(); ++i) data[i] = element;
  });
  return t;
}

DType FromTorch(at::ScalarType type) {
  const std::optional<DType> dtype = FromTorchScalarType(type);
  if (!dtype.has_value()) {
    std::fprintf(stderr, "libtorch returned %s, a dtype outside TorchDTypes()\n",
                 c10::toString(type));
    std::abort();
  }
  return *dtype;
}

at::Tensor ToTorchOperand(const Operand& operand) {
  switch (operand.kind()) {
    case Operand::Kind::kTensor: {
      const std::vector<int64_t> shape(operand.ndim(), 1);
      return TorchFilled(shape, operand.dtype(), 0);
    }
    case Operand::Kind::kPyBool:
      return at::native::wrapped_scalar_tensor(at::Scalar(operand.int_value() != 0));
    case Operand::Kind::kPyInt:
      return at::native::wrapped_scalar_tensor(
          at::Scalar(static_cast<int64_t>(operand.int_value())));
    case Operand::Kind::kPyFloat:
      return at::native::wrapped_scalar_tensor(at::Scalar(operand.real_value()));
    case Operand::Kind::kPyComplex:
      return at::native::wrapped_scalar_tensor(
          at::Scalar(c10::complex<double>(operand.real_value(), operand.imag_value())));
  }
  std::abort();
}

void SetTorchDefaultDType(DType dtype) {
  c10::set_default_dtype(dtype == DType::kFloat64 ? caffe2::TypeMeta::Make<double>()
                                                  : caffe2::TypeMeta::Make<float>());
}

std::string TorchDTypeName(at::ScalarType type) {
  const std::optional<DType> dtype = FromTorchScalarType(type);
  return dtype.has_value() ? std::string(Name(*dtype)) : std::string(c10::toString(type));
}

std::string TorchAnswer::Describe() const {
  if (ok) return std::string(Name(dtype));
  if (!foreign.empty()) return foreign + " (a dtype this library lacks)";
  return "error: " + error;
}

namespace {

TorchAnswer AnswerOf(at::ScalarType type) {
  const std::optional<DType> dtype = FromTorchScalarType(type);
  if (!dtype.has_value()) return {false, DType::kBool, "", c10::toString(type)};
  return {true, *dtype, "", ""};
}

}  // namespace

TorchAnswer TorchResultType(const std::vector<at::Tensor>& tensors) {
  try {
    return AnswerOf(at::native::result_type(at::ITensorListRef(tensors)));
  } catch (const c10::Error& e) {
    return {false, DType::kBool, e.what_without_backtrace(), ""};
  }
}

namespace {

at::Scalar ToTorchScalar(const Operand& operand) {
  switch (operand.kind()) {
    case Operand::Kind::kPyBool:
      return at::Scalar(operand.int_value() != 0);
    case Operand::Kind::kPyInt:
      return at::Scalar(static_cast<int64_t>(operand.int_value()));
    case Operand::Kind::kPyFloat:
      return at::Scalar(operand.real_value());
    case Operand::Kind::kPyComplex:
      return at::Scalar(c10::complex<double>(operand.real_value(), operand.imag_value()));
    case Operand::Kind::kTensor:
      break;
  }
  std::abort();
}

}  // namespace

at::Tensor RunTorchOp(ops::Op op, const std::vector<Operand>& operands,
                      const std::vector<at::Tensor>& inputs) {
  using ops::Op;
  const at::Tensor& a = inputs[0];
  switch (op) {
    case Op::kAdd:
      return at::add(a, inputs[1]);
    case Op::kSub:
      return at::sub(a, inputs[1]);
    case Op::kMul:
      return at::mul(a, inputs[1]);
    case Op::kDiv:
      return at::div(a, inputs[1]);
    case Op::kDivFloor:
      return at::div(a, inputs[1], "floor");
    case Op::kDivTrunc:
      return at::div(a, inputs[1], "trunc");
    case Op::kFloorDivide:
      return at::floor_divide(a, inputs[1]);
    case Op::kRemainder:
      return at::remainder(a, inputs[1]);
    case Op::kPow:
      if (operands[0].is_tensor() && operands[1].is_scalar()) {
        return at::pow(a, ToTorchScalar(operands[1]));
      }
      if (operands[0].is_scalar() && operands[1].is_tensor()) {
        return at::pow(ToTorchScalar(operands[0]), inputs[1]);
      }
      return at::pow(a, inputs[1]);
    case Op::kMaximum:
      return at::maximum(a, inputs[1]);
    case Op::kMinimum:
      return at::minimum(a, inputs[1]);
    case Op::kAtan2:
      return at::atan2(a, inputs[1]);
    case Op::kEq:
      return at::eq(a, inputs[1]);
    case Op::kNe:
      return at::ne(a, inputs[1]);
    case Op::kLt:
      return at::lt(a, inputs[1]);
    case Op::kLe:
      return at::le(a, inputs[1]);
    case Op::kGt:
      return at::gt(a, inputs[1]);
    case Op::kGe:
      return at::ge(a, inputs[1]);
    case Op::kLogicalAnd:
      return at::logical_and(a, inputs[1]);
    case Op::kLogicalOr:
      return at::logical_or(a, inputs[1]);
    case Op::kLogicalXor:
      return at::logical_xor(a, inputs[1]);
    case Op::kBitwiseAnd:
      return at::bitwise_and(a, inputs[1]);
    case Op::kBitwiseOr:
      return at::bitwise_or(a, inputs[1]);
    case Op::kBitwiseXor:
      return at::bitwise_xor(a, inputs[1]);
    case Op::kWhere: {
      const bool scalar_self = operands[1].is_scalar() && operands[0].is_tensor();
      const bool scalar_other = operands[2].is_scalar() && operands[0].is_tensor();
      if (scalar_self && scalar_other) {
        return at::where(a, ToTorchScalar(operands[1]), ToTorchScalar(operands[2]));
      }
      if (scalar_self) return at::where(a, ToTorchScalar(operands[1]), inputs[2]);
      if (scalar_other) return at::where(a, inputs[1], ToTorchScalar(operands[2]));
      return at::where(a, inputs[1], inputs[2]);
    }
    case Op::kDot:
      return at::dot(a, inputs[1]);
    case Op::kSum:
      return at::sum(a);
    case Op::kProd:
      return at::prod(a);
    case Op::kMean:
      return at::mean(a);
    case Op::kCumsum:
      return at::cumsum(a, 0);
    case Op::kNeg:
      return at::neg(a);
    case Op::kAbs:
      return at::abs(a);
    case Op::kSqrt:
      return at::sqrt(a);
    default:  // the ops with a rule and no kernel: tests/ops asks Python's torch
      break;
  }
  throw std::invalid_argument("RunTorchOp: no libtorch call for " + std::string(ops::OpName(op)));
}

TorchAnswer TorchOpDType(ops::Op op, const std::vector<Operand>& operands) {
  std::vector<at::Tensor> inputs;
  for (const Operand& operand : operands) {
    if (operand.is_tensor()) {
      const std::vector<int64_t> shape(operand.ndim(), 2);
      inputs.push_back(TorchFilled(shape, operand.dtype(), 1));
    } else {
      inputs.push_back(ToTorchOperand(operand));
    }
  }
  try {
    return AnswerOf(RunTorchOp(op, operands, inputs).scalar_type());
  } catch (const c10::Error& e) {
    return {false, DType::kBool, e.what_without_backtrace(), ""};
  } catch (const std::exception& e) {  // c10's checked Scalar conversions
    return {false, DType::kBool, e.what(), ""};
  }
}

}  // namespace oneflow_promote::testing
