// The op-specific checks of the built-in ops (OpCheck in op_list.h), with
// PyTorch 2.15's messages, and the helpers op_rules.cc shares with them.
// Private to oneflow_promote/ops/.

#ifndef ONEFLOW_PROMOTE_OPS_INTERNAL_OP_CHECKS_H_
#define ONEFLOW_PROMOTE_OPS_INTERNAL_OP_CHECKS_H_

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>

#include "absl/numeric/int128.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "oneflow_promote/ops/op_rules.h"
#include "oneflow_promote/status_macros.h"

namespace oneflow_promote::ops::ops_internal {

// InferOpDTypes under a policy other than torch (framework_op_rules.cc).
absl::StatusOr<OpDTypes> InferFrameworkOpDTypes(Op op, absl::Span<const Operand> operands,
                                                Policy policy, std::optional<DType> dtype);

inline absl::Status Invalid(std::string message) {
  return absl::InvalidArgumentError(std::move(message));
}

inline bool IsIntegerOrBool(DType d) { return IsIntegral(d) || IsBool(d); }

// A Python scalar that is exactly `value` (any of bool, int, float, complex).
inline bool IsScalarEqualTo(const Operand& operand, int value) {
  switch (operand.kind()) {
    case Operand::Kind::kPyBool:
    case Operand::Kind::kPyInt:
      return operand.int_value() == value;
    case Operand::Kind::kPyFloat:
      return operand.real_value() == value;
    case Operand::Kind::kPyComplex:
      return operand.real_value() == value && operand.imag_value() == 0;
    case Operand::Kind::kTensor:
      return false;
  }
  return false;
}

// The op-specific checks of the built-in ops (OpRule::check_operands and
// check_dtypes), with PyTorch 2.15's messages.

inline absl::Status CheckNoBoolOperand(absl::Span<const Operand> operands) {
  int bools = 0;
  for (const Operand& operand : operands) bools += operand.dtype() == DType::kBool;
  if (bools == 2) {
    return Invalid(
        "Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
        "`^` or `logical_xor()` operator instead.");
  }
  if (bools > 0) {
    return Invalid(
        "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
        "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
  }
  return absl::OkStatus();
}

inline absl::Status CheckNegOperands(absl::Span<const Operand> operands) {
  if (operands[0].dtype() != DType::kBool) return absl::OkStatus();
  return Invalid(
      "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
      "to invert a mask, use the `~` or `logical_not()` operator instead.");
}

inline bool AnyComplex(absl::Span<const Operand> operands) {
  for (const Operand& operand : operands) {
    if (IsComplex(operand.dtype())) return true;
  }
  return false;
}

// A refusal of complex operands, in the op's own words ("maximum not
// implemented for complex tensors.").
template <const char* kMessage>
absl::Status CheckNoComplex(absl::Span<const Operand> operands) {
  return AnyComplex(operands) ? Invalid(kMessage) : absl::OkStatus();
}
inline constexpr char kMaximumComplex[] = "maximum not implemented for complex tensors.";
inline constexpr char kMinimumComplex[] = "minimum not implemented for complex tensors.";
inline constexpr char kClampComplex[] = "clamp is not supported for complex types";
inline constexpr char kNansumComplex[] = "nansum on CPU does not support complex inputs";

// A refusal of bool operands, in the op's own words.
template <const char* kMessage>
absl::Status CheckNoBool(absl::Span<const Operand> operands) {
  for (const Operand& operand : operands) {
    if (operand.dtype() == DType::kBool) return Invalid(kMessage);
  }
  return absl::OkStatus();
}
inline constexpr char kPositiveBool[] = "The `+` operator, on a bool tensor is not supported.";
inline constexpr char kReluBool[] = "Boolean inputs not supported for relu";
inline constexpr char kHardtanhBool[] = "Bool inputs not supported for hardtanh";

// clamp(Tensor, Scalar?, Scalar?) and clamp(Tensor, Tensor?, Tensor?): no
// overload mixes the two.
inline absl::Status CheckClampOperands(absl::Span<const Operand> operands) {
  // A 0-d tensor passes as a number beside a number (PyTorch's argument
  // parser converts it); one with dimensions does not.
  const auto number_like = [](const Operand& o) { return o.is_scalar() || o.ndim() == 0; };
  if (operands[1].is_scalar() != operands[2].is_scalar() &&
      !(number_like(operands[1]) && number_like(operands[2]))) {
    return Invalid(
        "clamp() received an invalid combination of arguments: min and max must both be "
        "numbers or both be tensors");
  }
  // A complex number bound of a floating tensor is read as its real part.
  const bool numbers = operands[1].is_scalar() || operands[2].is_scalar();
  const bool complex_bounds_read_as_real = numbers && IsFloating(operands[0].dtype());
  if (IsComplex(operands[0].dtype()) || (AnyComplex(operands) && !complex_bounds_read_as_real)) {
    return Invalid(kClampComplex);
  }
  for (const Operand& bound : operands.subspan(1)) {
    if (bound.kind() == Operand::Kind::kPyComplex && bound.imag_value() != 0) {
      return Invalid("value cannot be converted to type double without overflow");
    }
  }
  return absl::OkStatus();
}

inline absl::Status CheckSameDType(absl::Span<const Operand> operands) {
  for (const Operand& operand : operands) {
    if (operand.dtype() != operands[0].dtype()) {
      return Invalid("heaviside is not yet implemented for tensors with different dtypes.");
    }
  }
  return absl::OkStatus();
}

inline absl::Status CheckAddcdivOperands(absl::Span<const Operand> operands) {
  if (IsIntegerOrBool(operands[1].dtype()) && IsIntegerOrBool(operands[2].dtype())) {
    return Invalid(
        "Integer division with addcdiv is no longer supported, and in a future release "
        "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
        "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2))."
        "to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
        "float inputs. The future addcdiv behavior is just the latter implementation: "
        "(input + value * tensor1 / tensor2), for all dtypes.");
  }
  return absl::OkStatus();
}

template <Op kOp>
absl::Status CheckArgExtremum(absl::Span<const Operand> operands) {
  if (operands[0].dtype() == DType::kBool) {
    return Invalid(absl::StrCat(OpName(kOp), "(): does not support bool input"));
  }
  if (IsComplex(operands[0].dtype())) {
    return Invalid(absl::StrCat(OpName(kOp), "(): does not support complex input"));
  }
  return absl::OkStatus();
}

template <Op kOp>
absl::Status CheckRealOnly(absl::Span<const Operand> operands) {
  if (!IsComplex(operands[0].dtype())) return absl::OkStatus();
  return Invalid(absl::StrCat(OpName(kOp), " does not support complex inputs."));
}

// ceil, floor, trunc, sign, deg2rad and rad2deg refuse complex inputs in
// words of their own.
template <Op kOp>
absl::Status CheckNotForComplexInputs(absl::Span<const Operand> operands) {
  if (!IsComplex(operands[0].dtype())) return absl::OkStatus();
  if (kOp == Op::kSign) {
    return Invalid(
        "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
        "torch.sgn instead.");
  }
  const absl::string_view noun = kOp == Op::kDeg2rad || kOp == Op::kRad2deg ? "tensors." : "inputs";
  return Invalid(absl::StrCat(OpName(kOp), " is not supported for complex ", noun));
}

// pow(Tensor, Scalar) follows NumPy here; pow(Tensor, Tensor) does not check.
inline absl::Status CheckPowOperands(absl::Span<const Operand> operands) {
  if (operands[0].is_tensor() && IsIntegerOrBool(operands[0].dtype()) &&
      operands[1].kind() == Operand::Kind::kPyInt && operands[1].int_value() < 0) {
    return Invalid("Integers to negative integer powers are not allowed.");
  }
  return absl::OkStatus();
}

inline absl::Status CheckDotOperands(absl::Span<const Operand> operands) {
  if (operands[0].ndim() != 1 || operands[1].ndim() != 1) {
    return Invalid(absl::StrCat("1D tensors expected, but got ", operands[0].ndim(), "D and ",
                                operands[1].ndim(), "D tensors"));
  }
  if (operands[0].dtype() != operands[1].dtype()) {
    return Invalid(absl::StrCat("dot : expected both vectors to have same dtype, but found ",
                                Name(operands[0].dtype()), " and ", Name(operands[1].dtype())));
  }
  return absl::OkStatus();
}

// Whether PyTorch skips pow's kernel, and with it the category rule: x ** 0
// and x ** 1 (fill, copy; a bool exponent counts as 0 or 1) and 1 ** x
// (fill; a bool base does not count as 1).
inline bool PowSkipsKernel(absl::Span<const Operand> operands) {
  if (operands[0].is_tensor() && operands[1].is_scalar()) {
    return IsScalarEqualTo(operands[1], 0) || IsScalarEqualTo(operands[1], 1);
  }
  return operands[0].is_scalar() && operands[1].is_tensor() &&
         operands[0].kind() != Operand::Kind::kPyBool && IsScalarEqualTo(operands[0], 1);
}

// The dtype of a complex dtype's parts.
inline DType RealPartOf(DType complex) {
  return VisitDType(complex, [](auto tag) {
    return DTypeOf<typename PartOf<typename decltype(tag)::type>::type>::value;
  });
}

// Whether c10's checked conversion (c10::overflows) accepts the Python
// scalar as a value of `to`: PyTorch converts the scalar arguments of
// pow(Tensor, Scalar) and of where's scalar overloads this way, and raises
// "value cannot be converted to type ... without overflow" otherwise.
// Integers must fit (unsigned types also take negatives down to -max, which
// wrap); finite floats must lie within [lowest, max] of the (part) type;
// infinities and NaN pass. float8 parts are not checked.
inline bool FitsCheckedConversion(const Operand& scalar, DType to) {
  return VisitDType(to, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using P = typename PartOf<T>::type;
    if constexpr (std::is_same_v<T, bool>) {
      return true;
    } else if constexpr (std::is_integral_v<T>) {
      const absl::int128 value = scalar.int_value();
      const absl::int128 max = std::numeric_limits<T>::max();
      const absl::int128 min =
          std::is_signed_v<T> ? absl::int128(std::numeric_limits<T>::min()) : -max;
      return scalar.kind() == Operand::Kind::kPyBool || (value >= min && value <= max);
    } else {
      double max = std::numeric_limits<double>::infinity();
      if constexpr (std::is_same_v<P, Float16>) max = 65504.0;
      if constexpr (std::is_same_v<P, BFloat16>) max = 3.3895313892515355e38;
      if constexpr (std::is_same_v<P, float>) max = std::numeric_limits<float>::max();
      if constexpr (std::is_same_v<P, double>) max = std::numeric_limits<double>::max();
      const auto fits = [max](double v) {
        return std::isinf(v) || std::isnan(v) || std::fabs(v) <= max;
      };
      switch (scalar.kind()) {
        case Operand::Kind::kPyBool:
          return true;
        case Operand::Kind::kPyInt:
          // Every 128-bit integer lies within a range from 2^127 up; converting
          // such a max to int128 would overflow.
          if (max >= std::ldexp(1.0, 127)) return true;
          return scalar.int_value() <= absl::int128(max) &&
                 scalar.int_value() >= -absl::int128(max);
        case Operand::Kind::kPyFloat:
          return fits(scalar.real_value());
        default:
          return fits(scalar.real_value()) && fits(scalar.imag_value());
      }
    }
  });
}

inline absl::Status CheckScalarFits(const Operand& scalar, DType to) {
  if (FitsCheckedConversion(scalar, to)) return absl::OkStatus();
  return Invalid(absl::StrCat("value ", scalar.ToString(), " cannot be converted to type ",
                              Name(to), " without overflow"));
}

// lerp's end, and a weight with dimensions, must have start's dtype; a 0-d
// weight is promoted with them. A Python-number weight is converted, checked,
// to the opmath type of start's kernel (float for float16 and bfloat16); a
// complex one must be real beside a real start.
inline absl::Status CheckLerpOperands(absl::Span<const Operand> operands) {
  constexpr const char* kNames[] = {"start", "end", "weight"};
  for (size_t i = 1; i < operands.size(); ++i) {
    const bool checked = i == 1 || (operands[i].is_tensor() && operands[i].ndim() > 0);
    if (checked && operands[i].dtype() != operands[0].dtype()) {
      return Invalid(absl::StrCat("expected dtype ", Name(operands[0].dtype()), " for `", kNames[i],
                                  "` but got dtype ", Name(operands[i].dtype())));
    }
  }
  const Operand& weight = operands[2];
  if (!weight.is_scalar()) return absl::OkStatus();
  // start's dtype, the opmath type its kernel converts the weight to, and
  // that type's name in torch's message; no kernel for the others.
  struct Opmath {
    DType start;
    DType opmath;
    const char* name;
  };
  static constexpr Opmath kOpmaths[] = {
      {DType::kFloat16, DType::kFloat32, "float"},
      {DType::kBFloat16, DType::kFloat32, "float"},
      {DType::kFloat32, DType::kFloat32, "float"},
      {DType::kFloat64, DType::kFloat64, "double"},
      {DType::kComplex64, DType::kComplex64, "c10::complex<float>"},
      {DType::kComplex128, DType::kComplex128, "c10::complex<double>"},
  };
  const Opmath* found =
      std::find_if(std::begin(kOpmaths), std::end(kOpmaths),
                   [&](const Opmath& o) { return o.start == operands[0].dtype(); });
  if (found == std::end(kOpmaths)) return absl::OkStatus();  // the category check refuses
  const DType opmath = found->opmath;
  const bool complex_into_real =
      weight.kind() == Operand::Kind::kPyComplex && weight.imag_value() != 0 && !IsComplex(opmath);
  if (complex_into_real || !FitsCheckedConversion(weight, opmath)) {
    return Invalid(
        absl::StrCat("value cannot be converted to type ", found->name, " without overflow"));
  }
  return absl::OkStatus();
}

// The CPU kernel converts a Python exponent to an integer or narrow-float
// compute dtype, checked (float32, float64 and complex exponents stay double).
inline absl::Status CheckPowExponent(absl::Span<const Operand> operands, const OpDTypes& dtypes) {
  if (!operands[0].is_tensor() || !operands[1].is_scalar() || PowSkipsKernel(operands) ||
      !(IsIntegral(dtypes.compute) || dtypes.compute == DType::kFloat16 ||
        dtypes.compute == DType::kBFloat16)) {
    return absl::OkStatus();
  }
  return CheckScalarFits(operands[1], dtypes.compute);
}

// A Python int bound of clamp on an integer dtype must reach its range:
// "Clamp min value 300 is outside the representable range of Byte".
template <Op kOp>
absl::Status CheckClampBounds(absl::Span<const Operand> operands, const OpDTypes& dtypes) {
  if (!IsIntegral(dtypes.compute)) return absl::OkStatus();
  return VisitDType(dtypes.compute, [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      for (size_t i = 1; i < operands.size(); ++i) {
        const Operand& bound = operands[i];
        if (bound.kind() != Operand::Kind::kPyInt) continue;
        // A min above every value, or a max below every value, leaves none.
        const absl::int128 value = bound.int_value();
        const bool max = kOp == Op::kClampMax || (kOp == Op::kClamp && i == 2);
        if (max ? value < absl::int128(std::numeric_limits<T>::min())
                : value > absl::int128(std::numeric_limits<T>::max())) {
          return Invalid(absl::StrCat("Clamp ", max ? "max" : "min", " value ", bound.ToString(),
                                      " is outside the representable range of ",
                                      Name(dtypes.compute)));
        }
      }
    }
    return absl::OkStatus();
  });
}

inline absl::Status CheckMeanDType(absl::Span<const Operand>, const OpDTypes& dtypes) {
  if (IsFloating(dtypes.compute) || IsComplex(dtypes.compute)) return absl::OkStatus();
  return Invalid(absl::StrCat(
      "mean(): could not infer output dtype. Input dtype must be either a floating point or "
      "complex dtype. Got: ",
      Name(dtypes.compute)));
}

inline absl::Status CheckVarStdDType(absl::Span<const Operand>, const OpDTypes& dtypes) {
  if (IsFloating(dtypes.compute) && ItemSize(dtypes.compute) == 1) {
    return Invalid(absl::StrCat("std_var_all: Unsupported dtype ", Name(dtypes.compute)));
  }
  if (IsFloating(dtypes.compute) || IsComplex(dtypes.compute)) return absl::OkStatus();
  return Invalid("std and var only support floating point and complex dtypes");
}

inline absl::Status CheckNanMeanOperands(absl::Span<const Operand> operands) {
  if (IsComplex(operands[0].dtype())) return Invalid(kNansumComplex);
  if (IsFloating(operands[0].dtype())) return absl::OkStatus();
  return Invalid(
      absl::StrCat("nanmean(): expected input to have floating point or complex dtype but got ",
                   Name(operands[0].dtype())));
}

inline absl::Status CheckWhereDTypes(absl::Span<const Operand> operands, const OpDTypes& dtypes) {
  // Scalar values convert checked to the result dtype, except to float16,
  // bfloat16 and float8, which 2.15 fills unchecked.
  const bool reduced_float = IsFloating(dtypes.result) && ItemSize(dtypes.result) < 4;
  if (operands[0].is_tensor() && !reduced_float) {
    for (const Operand& value : operands.subspan(1)) {
      if (!value.is_scalar()) continue;
      RETURN_IF_ERROR(CheckScalarFits(value, dtypes.result));
    }
  }
  // Checked after the values (PyTorch 2.15's order); uint8 conditions still
  // pass (deprecated, with a warning).
  if (operands[0].dtype() != DType::kBool && operands[0].dtype() != DType::kUInt8) {
    return Invalid(absl::StrCat(
        "where expected condition to be a boolean tensor, but got a tensor with dtype ",
        Name(operands[0].dtype())));
  }
  return absl::OkStatus();
}

// The functions of an OpCheck, for op `kOp`.
struct CheckFunctions {
  absl::Status (*operands)(absl::Span<const Operand>) = nullptr;
  absl::Status (*dtypes)(absl::Span<const Operand>, const OpDTypes&) = nullptr;
  bool (*runs_no_kernel)(absl::Span<const Operand>) = nullptr;
};

template <Op kOp>
constexpr CheckFunctions FunctionsOf(OpCheck check) {
  switch (check) {
    case OpCheck::kNone:
      return {};
    case OpCheck::kNoBoolOperand:
      return {CheckNoBoolOperand};
    case OpCheck::kNegation:
      return {CheckNegOperands};
    case OpCheck::kPositive:
      return {CheckNoBool<kPositiveBool>};
    case OpCheck::kNoComplexOperand:
      return {kOp == Op::kMaximum ? CheckNoComplex<kMaximumComplex>
                                  : CheckNoComplex<kMinimumComplex>};
    case OpCheck::kPow:
      return {CheckPowOperands, CheckPowExponent, PowSkipsKernel};
    case OpCheck::kDot:
      return {CheckDotOperands};
    case OpCheck::kMean:
      return {nullptr, CheckMeanDType};
    case OpCheck::kVarStd:
      return {nullptr, CheckVarStdDType};
    case OpCheck::kNanMean:
      return {CheckNanMeanOperands};
    case OpCheck::kWhere:
      return {nullptr, CheckWhereDTypes};
    case OpCheck::kSameDType:
      return {CheckSameDType};
    case OpCheck::kLerp:
      return {CheckLerpOperands};
    case OpCheck::kAddcdiv:
      return {CheckAddcdivOperands};
    case OpCheck::kNoBoolRelu:
      return {CheckNoBool<kReluBool>};
    case OpCheck::kNoBoolHardtanh:
      return {CheckNoBool<kHardtanhBool>};
    case OpCheck::kClamp:
      return {CheckClampOperands, CheckClampBounds<kOp>};
    case OpCheck::kClampBound:
      return {nullptr, CheckClampBounds<kOp>};
    case OpCheck::kArgExtremum:
      return {CheckArgExtremum<kOp>};
    case OpCheck::kRealOnly:
      return {CheckRealOnly<kOp>};
    case OpCheck::kNotForComplexInputs:
      return {CheckNotForComplexInputs<kOp>};
    case OpCheck::kNoComplexNansum:
      return {CheckNoComplex<kNansumComplex>};
  }
  return {};
}

}  // namespace oneflow_promote::ops::ops_internal

#endif  // ONEFLOW_PROMOTE_OPS_INTERNAL_OP_CHECKS_H_
