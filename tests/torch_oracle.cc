// libtorch oracle helpers (see torch_oracle.h). An op's libtorch call is
// found by the name its row gives, as Python's torch.<name> finds it.

#include "tests/torch_oracle.h"

#include "oneflow_promote/convert.h"

#include "functional/torch_tensor_traits.h"

#include <ATen/ScalarOps.h>
#include <ATen/native/TypeProperties.h>
#include <c10/core/DefaultDtype.h>
#include <c10/util/Logging.h>
#include <torch/csrc/jit/runtime/operator.h>

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

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

// The PyTorch call that computes `op`, from its row: its name, or the alias
// that names a call with a keyword ("div(rounding_mode=floor)"); a scan runs
// along dim 0.
struct TorchCall {
  std::string name;
  std::map<std::string, c10::IValue> keywords;
};

TorchCall TorchCallOf(ops::Op op) {
  const ops::OpSpec& spec = ops::SpecOf(op);
  TorchCall call{spec.name, {}};
  for (absl::string_view alias : absl::StrSplit(spec.aliases, ' ', absl::SkipEmpty())) {
    const size_t open = alias.find('(');
    const size_t equals = alias.find('=');
    if (open == absl::string_view::npos || equals == absl::string_view::npos) continue;
    call.name = std::string(alias.substr(0, open));
    call.keywords[std::string(alias.substr(open + 1, equals - open - 1))] =
        std::string(alias.substr(equals + 1, alias.size() - equals - 2));
  }
  if (spec.kind == ops::OpKind::kScan) call.keywords["dim"] = int64_t{0};
  return call;
}

// Whether `schema` is a functional aten overload returning one Tensor that
// takes the operands positionally (a Python scalar as a Scalar argument, or
// as a wrapped-number Tensor where `scalars_as_tensors`), and whose other
// arguments are the call's keywords, of their types, or have defaults.
bool Takes(const c10::FunctionSchema& schema, const std::vector<Operand>& operands,
           const TorchCall& call, bool scalars_as_tensors) {
  if (schema.is_mutable() || schema.returns().size() != 1 ||
      schema.returns()[0].type()->kind() != c10::TypeKind::TensorType) {
    return false;
  }
  const std::vector<c10::Argument>& arguments = schema.arguments();
  if (arguments.size() < operands.size()) return false;
  for (size_t i = 0; i < operands.size(); ++i) {
    const c10::TypeKind wanted = operands[i].is_tensor() || scalars_as_tensors
                                     ? c10::TypeKind::TensorType
                                     : c10::TypeKind::NumberType;
    if (arguments[i].kwarg_only() || arguments[i].type()->kind() != wanted) return false;
  }
  size_t keywords_taken = 0;
  for (size_t i = operands.size(); i < arguments.size(); ++i) {
    const auto keyword = call.keywords.find(arguments[i].name());
    if (keyword != call.keywords.end()) {
      if (!keyword->second.type()->isSubtypeOf(*arguments[i].type())) return false;
      ++keywords_taken;
    } else if (!arguments[i].default_value().has_value()) {
      return false;
    }
  }
  return keywords_taken == call.keywords.size();
}

}  // namespace

at::Tensor RunTorchOp(ops::Op op, const std::vector<Operand>& operands,
                      const std::vector<at::Tensor>& inputs) {
  const TorchCall call = TorchCallOf(op);
  const auto overloads =
      torch::jit::getAllOperatorsFor(c10::Symbol::fromQualString("aten::" + call.name));
  // Python's argument parser: a Scalar overload for a Python scalar where
  // aten has one (pow(Tensor, Scalar)), else the Tensor overload with a
  // wrapped number.
  for (const bool scalars_as_tensors : {false, true}) {
    for (const std::shared_ptr<torch::jit::Operator>& overload : overloads) {
      const c10::FunctionSchema& schema = overload->schema();
      if (!Takes(schema, operands, call, scalars_as_tensors)) continue;
      torch::jit::Stack stack;
      for (size_t i = 0; i < operands.size(); ++i) {
        const bool scalar = schema.arguments()[i].type()->kind() == c10::TypeKind::NumberType;
        stack.emplace_back(scalar ? c10::IValue(ToTorchScalar(operands[i])) : inputs[i]);
      }
      for (size_t i = operands.size(); i < schema.arguments().size(); ++i) {
        const c10::Argument& argument = schema.arguments()[i];
        const auto keyword = call.keywords.find(argument.name());
        stack.push_back(keyword != call.keywords.end() ? keyword->second
                                                       : *argument.default_value());
      }
      overload->getOperation()(stack);
      return stack.front().toTensor();
    }
  }
  throw std::invalid_argument("RunTorchOp: no libtorch overload of " + call.name + " takes " +
                              std::to_string(operands.size()) + " such operands");
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
