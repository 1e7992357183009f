// libtorch oracle helpers (see torch_oracle.h).

#include "tests/torch_oracle.h"

#include <ATen/ScalarOps.h>
#include <ATen/native/TypeProperties.h>
#include <c10/core/DefaultDtype.h>

#include <cstdlib>
#include <limits>

namespace oneflow_promote::testing {

const std::vector<DType>& TorchDTypes() {
  static const auto* dtypes = new std::vector<DType>{
      DType::kBool,    DType::kUInt8,    DType::kInt8,      DType::kInt16,     DType::kInt32,
      DType::kInt64,   DType::kFloat16,  DType::kBFloat16,  DType::kFloat32,   DType::kFloat64,
      DType::kComplex32, DType::kComplex64, DType::kComplex128};
  return *dtypes;
}

std::optional<at::ScalarType> ToTorch(DType dtype) {
  switch (dtype) {
    case DType::kBool: return at::kBool;
    case DType::kUInt8: return at::kByte;
    case DType::kInt8: return at::kChar;
    case DType::kInt16: return at::kShort;
    case DType::kInt32: return at::kInt;
    case DType::kInt64: return at::kLong;
    case DType::kFloat16: return at::kHalf;
    case DType::kBFloat16: return at::kBFloat16;
    case DType::kFloat32: return at::kFloat;
    case DType::kFloat64: return at::kDouble;
    case DType::kComplex32: return at::kComplexHalf;
    case DType::kComplex64: return at::kComplexFloat;
    case DType::kComplex128: return at::kComplexDouble;
    default: return std::nullopt;
  }
}

DType FromTorch(at::ScalarType type) {
  for (DType dtype : TorchDTypes()) {
    if (ToTorch(dtype) == type) return dtype;
  }
  std::abort();  // a dtype libtorch 1.13 does not return from promotion
}

at::Tensor ToTorchOperand(const Operand& operand) {
  switch (operand.kind()) {
    case Operand::Kind::kTensor: {
      const std::vector<int64_t> shape(operand.ndim(), 1);
      return at::zeros(shape, at::TensorOptions().dtype(*ToTorch(operand.dtype())));
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

TorchAnswer TorchResultType(const std::vector<at::Tensor>& tensors) {
  try {
    return {true, FromTorch(at::native::result_type(at::ITensorListRef(tensors))), ""};
  } catch (const c10::Error& e) {
    return {false, DType::kBool, e.what_without_backtrace()};
  }
}

}  // namespace oneflow_promote::testing
