// InferOpDTypes: PyTorch's per-op dtype rules over ResultType.

#include "oneflow_promote/ops/op_rules.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "oneflow_promote/internal/status_macros.h"
#include "oneflow_promote/policy.h"

namespace oneflow_promote::ops {
namespace {

uint8_t CategoryBitOf(DType d) { return CategoryBit(CategoryOf(d)); }

absl::Status Invalid(std::string message) { return absl::InvalidArgumentError(std::move(message)); }

bool IsIntegerOrBool(DType d) { return IsIntegral(d) || IsBool(d); }

// A Python scalar that is exactly `value` (any of bool, int, float, complex).
bool IsScalarEqualTo(const Operand& operand, int value) {
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

absl::Status CheckNoBoolOperand(absl::Span<const Operand> operands) {
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

absl::Status CheckNegOperands(absl::Span<const Operand> operands) {
  if (operands[0].dtype() != DType::kBool) return absl::OkStatus();
  return Invalid(
      "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
      "to invert a mask, use the `~` or `logical_not()` operator instead.");
}

bool AnyComplex(absl::Span<const Operand> operands) {
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
constexpr char kMaximumComplex[] = "maximum not implemented for complex tensors.";
constexpr char kMinimumComplex[] = "minimum not implemented for complex tensors.";
constexpr char kClampComplex[] = "clamp is not supported for complex types";
constexpr char kNansumComplex[] = "nansum on CPU does not support complex inputs";

// A refusal of bool operands, in the op's own words.
template <const char* kMessage>
absl::Status CheckNoBool(absl::Span<const Operand> operands) {
  for (const Operand& operand : operands) {
    if (operand.dtype() == DType::kBool) return Invalid(kMessage);
  }
  return absl::OkStatus();
}
constexpr char kPositiveBool[] = "The `+` operator, on a bool tensor is not supported.";
constexpr char kReluBool[] = "Boolean inputs not supported for relu";
constexpr char kHardtanhBool[] = "Bool inputs not supported for hardtanh";

// clamp(Tensor, Scalar?, Scalar?) and clamp(Tensor, Tensor?, Tensor?): no
// overload mixes the two.
absl::Status CheckClampOperands(absl::Span<const Operand> operands) {
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

absl::Status CheckSameDType(absl::Span<const Operand> operands) {
  for (const Operand& operand : operands) {
    if (operand.dtype() != operands[0].dtype()) {
      return Invalid("heaviside is not yet implemented for tensors with different dtypes.");
    }
  }
  return absl::OkStatus();
}

// lerp's end, and a weight with dimensions, must have start's dtype; a 0-d
// or Python scalar weight is promoted with them.
absl::Status CheckLerpOperands(absl::Span<const Operand> operands) {
  constexpr const char* kNames[] = {"start", "end", "weight"};
  for (size_t i = 1; i < operands.size(); ++i) {
    const bool checked = i == 1 || (operands[i].is_tensor() && operands[i].ndim() > 0);
    if (checked && operands[i].dtype() != operands[0].dtype()) {
      return Invalid(absl::StrCat("expected dtype ", Name(operands[0].dtype()), " for `", kNames[i],
                                  "` but got dtype ", Name(operands[i].dtype())));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckAddcdivOperands(absl::Span<const Operand> operands) {
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
absl::Status CheckPowOperands(absl::Span<const Operand> operands) {
  if (operands[0].is_tensor() && IsIntegerOrBool(operands[0].dtype()) &&
      operands[1].kind() == Operand::Kind::kPyInt && operands[1].int_value() < 0) {
    return Invalid("Integers to negative integer powers are not allowed.");
  }
  return absl::OkStatus();
}

absl::Status CheckDotOperands(absl::Span<const Operand> operands) {
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
bool PowSkipsKernel(absl::Span<const Operand> operands) {
  if (operands[0].is_tensor() && operands[1].is_scalar()) {
    return IsScalarEqualTo(operands[1], 0) || IsScalarEqualTo(operands[1], 1);
  }
  return operands[0].is_scalar() && operands[1].is_tensor() &&
         operands[0].kind() != Operand::Kind::kPyBool && IsScalarEqualTo(operands[0], 1);
}

// The dtype of a complex dtype's parts.
DType RealPartOf(DType complex) {
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
bool FitsCheckedConversion(const Operand& scalar, DType to) {
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

absl::Status CheckScalarFits(const Operand& scalar, DType to) {
  if (FitsCheckedConversion(scalar, to)) return absl::OkStatus();
  return Invalid(absl::StrCat("value ", scalar.ToString(), " cannot be converted to type ",
                              Name(to), " without overflow"));
}

// The CPU kernel converts a Python exponent to an integer or narrow-float
// compute dtype, checked (float32, float64 and complex exponents stay double).
absl::Status CheckPowExponent(absl::Span<const Operand> operands, const OpDTypes& dtypes) {
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

absl::Status CheckMeanDType(absl::Span<const Operand>, const OpDTypes& dtypes) {
  if (IsFloating(dtypes.compute) || IsComplex(dtypes.compute)) return absl::OkStatus();
  return Invalid(absl::StrCat(
      "mean(): could not infer output dtype. Input dtype must be either a floating point or "
      "complex dtype. Got: ",
      Name(dtypes.compute)));
}

absl::Status CheckVarStdDType(absl::Span<const Operand>, const OpDTypes& dtypes) {
  if (IsFloating(dtypes.compute) && ItemSize(dtypes.compute) == 1) {
    return Invalid(absl::StrCat("std_var_all: Unsupported dtype ", Name(dtypes.compute)));
  }
  if (IsFloating(dtypes.compute) || IsComplex(dtypes.compute)) return absl::OkStatus();
  return Invalid("std and var only support floating point and complex dtypes");
}

absl::Status CheckNanMeanOperands(absl::Span<const Operand> operands) {
  if (IsComplex(operands[0].dtype())) return Invalid(kNansumComplex);
  if (IsFloating(operands[0].dtype())) return absl::OkStatus();
  return Invalid(
      absl::StrCat("nanmean(): expected input to have floating point or complex dtype but got ",
                   Name(operands[0].dtype())));
}

absl::Status CheckWhereDTypes(absl::Span<const Operand> operands, const OpDTypes& dtypes) {
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

// A built-in op's OpRule, from its OpSpec.
template <Op kOp>
constexpr OpRule RuleFromSpec() {
  constexpr OpSpec spec = SpecOf(kOp);
  constexpr CheckFunctions checks = FunctionsOf<kOp>(spec.check);
  OpRule rule;
  rule.name = spec.name;
  rule.arity = spec.arity;
  rule.kind = spec.promotion;
  rule.categories = spec.categories;
  rule.kernel = spec.kernel_name;
  rule.floor = spec.floor;
  rule.keeps_dtype = spec.keeps_dtype;
  rule.first_promoted = spec.first_promoted;
  rule.check_operands = checks.operands;
  rule.check_dtypes = checks.dtypes;
  rule.runs_no_kernel = checks.runs_no_kernel;
  rule.derivative = spec.derivative;
  rule.scalars = spec.scalars;
  rule.result = spec.result;
  rule.takes_dtype = spec.takes_dtype;
  rule.conversion = spec.conversion;
  return rule;
}

constexpr OpRule kBuiltinRules[] = {
#define ONEFLOW_PROMOTE_OP_RULE(e, spec) RuleFromSpec<Op::e>(),
    ONEFLOW_PROMOTE_FOR_EACH_OP(ONEFLOW_PROMOTE_OP_RULE)
#undef ONEFLOW_PROMOTE_OP_RULE
};

// Operand `index` as the op's composite promotes it (OperandConversion).
// A Python scalar of the dtype's category: what PyTorch's argument parser
// makes of a 0-d tensor passed for a Scalar.
Operand ScalarOfCategory(DType dtype) {
  if (IsBool(dtype)) return Operand::PyBool(true);
  if (IsIntegral(dtype)) return Operand::PyInt(1);
  if (IsComplex(dtype)) return Operand::PyComplex({1.0, 0.0});
  return Operand::PyFloat(1.0);
}

// other_is_scalar: some other operand after the first is a Python scalar.
Operand ConvertOperand(OperandConversion conversion, const Operand& operand, size_t index,
                       bool other_is_scalar) {
  const auto tensor_of = [&operand](DType dtype) {
    return Operand::Tensor(dtype, operand.is_tensor() ? operand.ndim() : 0);
  };
  switch (conversion) {
    case OperandConversion::kNone:
      return operand;
    case OperandConversion::kSecondIntToFloat:
      // pow(2.0, other) of an integer other is a float that promotes as a
      // Python float does: ldexp(float16, int8) is float16.
      if (index != 1 || !IsIntegerOrBool(operand.dtype())) return operand;
      return Operand::PyFloat(1.0);
    case OperandConversion::kAllToDouble:
      return tensor_of(IsComplex(operand.dtype()) ? DType::kComplex128 : DType::kFloat64);
    case OperandConversion::kZeroDimBoundsAsNumbers:
      if (index == 0 || !other_is_scalar) return operand;
      // What CheckClampOperands lets through of a complex bound is its real part.
      if (IsComplex(operand.dtype())) return Operand::PyFloat(1.0);
      return operand.is_tensor() ? ScalarOfCategory(operand.dtype()) : operand;
  }
  return operand;
}

}  // namespace

absl::StatusOr<Op> ParseOp(absl::string_view name) {
  for (Op op : kAllOps) {
    if (OpName(op) == name) return op;
  }
  for (Op op : kAllOps) {
    for (absl::string_view alias : absl::StrSplit(SpecOf(op).aliases, ' ', absl::SkipEmpty())) {
      if (alias == name) return op;
    }
  }
  std::vector<absl::string_view> names;
  for (Op op : kAllOps) names.push_back(OpName(op));
  return Invalid(absl::StrCat("unknown op '", name, "'; ops are ", absl::StrJoin(names, ", ")));
}

absl::StatusOr<DType> CommonDType(absl::Span<const Operand> operands,
                                  absl::Span<const DType> floors, bool integers_to_float,
                                  const PromotionOptions& options, Policy policy) {
  if (operands.empty()) return Invalid("no operands to find a common dtype for");
  if (!floors.empty() && floors.size() != operands.size()) {
    return Invalid(absl::StrCat(floors.size(), " floors for ", operands.size(), " operands"));
  }
  // Operands of one dtype keep it under torch, as TensorIterator does; the
  // other policies promote even those (NumPy checks a Python int's value,
  // jax_x32 canonicalizes int64).
  bool all_same = policy == Policy::kTorch;
  for (const Operand& operand : operands) all_same &= operand.dtype() == operands[0].dtype();
  DType common = operands[0].dtype();
  if (!all_same) {
    ASSIGN_OR_RETURN(common, ResultType(operands, policy, options));
  }
  for (DType floor : floors) {
    // kBool is no floor: promoting with it would trip PyTorch's float8 and
    // uint16/32/64 guards.
    if (floor == DType::kBool) continue;
    ASSIGN_OR_RETURN(common, PromoteTypes(common, floor, policy).ToStatusOr());
  }
  if (integers_to_float && IsIntegerOrBool(common)) common = options.default_dtype;
  return common;
}

absl::string_view PromotionKindName(PromotionKind kind) {
  switch (kind) {
    case PromotionKind::kDefault:
      return "DEFAULT";
    case PromotionKind::kNoOpMath:
      return "NO_OPMATH";
    case PromotionKind::kIntToFloat:
      return "INT_TO_FLOAT";
    case PromotionKind::kAlwaysBool:
      return "ALWAYS_BOOL";
    case PromotionKind::kComplexToFloat:
      return "COMPLEX_TO_FLOAT";
    case PromotionKind::kBoolToLong:
      return "BOOL_TO_LONG";
  }
  return "invalid";
}

DType OpMathDType(DType dtype) {
  switch (dtype) {
    case DType::kFloat16:
    case DType::kBFloat16:
      return DType::kFloat32;
    case DType::kComplex32:
    case DType::kBComplex32:
      return DType::kComplex64;
    default:
      return dtype;
  }
}

const OpRule& RuleOf(Op op) { return kBuiltinRules[static_cast<size_t>(op)]; }

absl::Status CheckPythonSignature(const OpRule& rule, absl::Span<const Operand> operands) {
  static constexpr const char* kArgumentNames[] = {"input", "other", "third"};
  for (size_t i = 0; i < operands.size() && i < 7; ++i) {
    if (!operands[i].is_scalar() || (rule.scalars & (1u << i)) != 0) continue;
    absl::string_view type = "float";
    switch (operands[i].kind()) {
      case Operand::Kind::kPyBool:
        type = "bool";
        break;
      case Operand::Kind::kPyInt:
        type = "int";
        break;
      case Operand::Kind::kPyComplex:
        type = "complex";
        break;
      case Operand::Kind::kPyFloat:
      case Operand::Kind::kTensor:
        break;
    }
    return Invalid(absl::StrCat(rule.name, "(): argument '", kArgumentNames[i < 3 ? i : 2],
                                "' (position ", i + 1, ") must be Tensor, not ", type));
  }
  const bool all_scalars =
      std::all_of(operands.begin(), operands.end(), [](const Operand& o) { return o.is_scalar(); });
  if (all_scalars && (rule.scalars & kScalarsAlone) == 0) {
    return Invalid(absl::StrCat(rule.name,
                                "() received an invalid combination of arguments: no tensor "
                                "among its operands"));
  }
  return absl::OkStatus();
}

absl::StatusOr<OpDTypes> InferOpDTypes(const OpRule& rule, absl::Span<const Operand> operands,
                                       const PromotionOptions& options, Policy policy,
                                       std::optional<DType> dtype) {
  if (static_cast<int>(operands.size()) != rule.arity) {
    return Invalid(absl::StrCat(rule.name, "() takes ", rule.arity, " operand",
                                rule.arity == 1 ? "" : "s", ", got ", operands.size()));
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!IsValid(operands[i].dtype())) {
      return Invalid(absl::StrCat(rule.name, "(): operand ", i + 1, " has an invalid dtype"));
    }
  }
  if (dtype.has_value()) {
    if (!rule.takes_dtype) {
      return Invalid(absl::StrCat(rule.name, "() got an unexpected keyword argument 'dtype'"));
    }
    if (!IsValid(*dtype)) return Invalid(absl::StrCat(rule.name, "(): dtype= is invalid"));
  }
  if (rule.check_operands != nullptr) {
    RETURN_IF_ERROR(rule.check_operands(operands));
  }
  absl::InlinedVector<Operand, 4> converted(operands.begin(), operands.end());
  const bool any_scalar_bound =
      std::any_of(operands.begin() + std::min<size_t>(1, operands.size()), operands.end(),
                  [](const Operand& o) { return o.is_scalar(); });
  for (size_t i = 0; i < converted.size(); ++i) {
    converted[i] = ConvertOperand(rule.conversion, converted[i], i, any_scalar_bound);
  }
  ASSIGN_OR_RETURN(DType promoted,
                   rule.keeps_dtype
                       ? operands[0].dtype()
                       : ResultType(absl::MakeConstSpan(converted).subspan(rule.first_promoted),
                                    policy, options));
  // dtype= casts the input to it first: the op computes in and returns it.
  if (dtype.has_value()) promoted = *dtype;

  OpDTypes dtypes{promoted, promoted, promoted};
  if (rule.runs_no_kernel == nullptr || !rule.runs_no_kernel(operands)) {
    if (!(rule.categories & CategoryBitOf(promoted))) {
      return Invalid(absl::StrCat("\"", rule.kernel.empty() ? rule.name : rule.kernel,
                                  "\" not implemented for '", Name(promoted), "'"));
    }
    const bool integer_or_bool = IsIntegerOrBool(promoted);
    switch (rule.kind) {
      case PromotionKind::kDefault:
      case PromotionKind::kNoOpMath:
        break;
      case PromotionKind::kIntToFloat:
        if (integer_or_bool) dtypes.compute = dtypes.result = options.default_dtype;
        break;
      case PromotionKind::kAlwaysBool:
        dtypes.result = DType::kBool;
        break;
      case PromotionKind::kComplexToFloat:
        if (IsComplex(promoted)) dtypes.result = RealPartOf(promoted);
        break;
      case PromotionKind::kBoolToLong:
        if (IsBool(promoted)) dtypes.compute = dtypes.result = DType::kInt64;
        break;
    }
    switch (rule.floor) {
      case ReductionFloor::kNone:
        break;
      case ReductionFloor::kInt64:
        if (integer_or_bool && !dtype.has_value()) dtypes.compute = dtypes.result = DType::kInt64;
        break;
    }
    dtypes.opmath =
        rule.kind == PromotionKind::kNoOpMath ? dtypes.compute : OpMathDType(dtypes.compute);
  }
  switch (rule.result) {
    case ResultRule::kCompute:
      break;
    case ResultRule::kRealPart:
      if (IsComplex(dtypes.result)) dtypes.result = RealPartOf(dtypes.result);
      break;
    case ResultRule::kInt64:
      dtypes.result = DType::kInt64;
      break;
    case ResultRule::kBoolOrByte:
      dtypes.result = dtypes.compute == DType::kUInt8 ? DType::kUInt8 : DType::kBool;
      break;
  }
  if (rule.check_dtypes != nullptr) {
    RETURN_IF_ERROR(rule.check_dtypes(operands, dtypes));
  }
  return dtypes;
}

absl::StatusOr<OpDTypes> InferOpDTypes(Op op, absl::Span<const Operand> operands,
                                       const PromotionOptions& options,
                                       std::optional<DType> dtype) {
  return InferOpDTypes(RuleOf(op), operands, options, Policy::kTorch, dtype);
}

absl::Status CheckAlpha(DType compute, const Operand& alpha) {
  if (alpha.kind() == Operand::Kind::kPyBool && compute != DType::kBool) {
    return Invalid("Boolean alpha only supported for Boolean results.");
  }
  const bool integral_alpha =
      alpha.kind() == Operand::Kind::kPyBool || alpha.kind() == Operand::Kind::kPyInt;
  if (!IsFloating(compute) && !IsComplex(compute) && !integral_alpha) {
    return Invalid(
        "For integral input tensors, argument alpha must not be a floating point number.");
  }
  if (!IsComplex(compute) && alpha.kind() == Operand::Kind::kPyComplex) {
    return Invalid("For non-complex input tensors, argument alpha must not be a complex number.");
  }
  return absl::OkStatus();
}

bool ResultRequiresGrad(const OpDTypes& dtypes) {
  return IsFloating(dtypes.result) || IsComplex(dtypes.result);
}

std::optional<DType> GradientDType(const OpRule& rule, absl::Span<const Operand> operands,
                                   size_t index, const OpDTypes& dtypes) {
  if (index >= operands.size() || static_cast<int>(index) < rule.first_promoted) {
    return std::nullopt;
  }
  const Operand& operand = operands[index];
  if (!operand.is_tensor() || !ResultRequiresGrad(dtypes)) return std::nullopt;
  if (!IsFloating(operand.dtype()) && !IsComplex(operand.dtype())) return std::nullopt;
  return operand.dtype();
}

absl::StatusOr<std::vector<int64_t>> BroadcastShapes(
    absl::Span<const absl::Span<const int64_t>> shapes) {
  size_t rank = 0;
  for (const auto& shape : shapes) rank = std::max(rank, shape.size());
  // Equal shapes, the common case, broadcast to themselves.
  bool equal = true;
  for (const auto& shape : shapes) equal &= shape == shapes[0];
  if (equal && !shapes.empty()) return std::vector<int64_t>(shapes[0].begin(), shapes[0].end());
  std::vector<int64_t> out(rank, 1);
  // Which operand set each output extent, for the message ("a", "b", ...).
  absl::InlinedVector<size_t, 8> setter(rank, 0);
  for (size_t k = 0; k < rank; ++k) {
    const size_t out_dim = rank - 1 - k;
    for (size_t i = 0; i < shapes.size(); ++i) {
      const auto& shape = shapes[i];
      if (k >= shape.size()) continue;
      const int64_t extent = shape[shape.size() - 1 - k];
      if (extent == 1) continue;
      if (out[out_dim] != 1 && out[out_dim] != extent) {
        return Invalid(absl::StrCat("The size of tensor ", std::string(1, 'a' + setter[out_dim]),
                                    " (", out[out_dim], ") must match the size of tensor ",
                                    std::string(1, 'a' + i), " (", extent,
                                    ") at non-singleton dimension ", out_dim));
      }
      out[out_dim] = extent;
      setter[out_dim] = i;
    }
  }
  return out;
}

absl::Status CheckCanCastToOutput(DType computed, DType out, Policy policy) {
  if (CanCast(computed, out, policy)) return absl::OkStatus();
  return Invalid(absl::StrCat("result type ", Name(computed),
                              " can't be cast to the desired output type ", Name(out)));
}

}  // namespace oneflow_promote::ops
