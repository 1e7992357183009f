// InferOpDTypes: PyTorch's per-op dtype rules over ResultType.

#include "oneflow_promote/functional/op_rules.h"

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
#include "oneflow_promote/internal/status_macros.h"
#include "oneflow_promote/policy.h"

namespace oneflow_promote::functional {
namespace {

uint8_t CategoryBit(DType d) {
  switch (CategoryOf(d)) {
    case Category::kBool:
      return kBoolCategory;
    case Category::kUnsigned:
    case Category::kSigned:
      return kIntegerCategories;
    case Category::kFloating:
      return kFloatingCategory;
    case Category::kComplex:
      return kComplexCategory;
  }
  return 0;
}

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

absl::Status CheckSubOperands(absl::Span<const Operand> operands) {
  const bool first = operands[0].dtype() == DType::kBool;
  const bool second = operands[1].dtype() == DType::kBool;
  if (first && second) {
    return Invalid(
        "Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
        "`^` or `logical_xor()` operator instead.");
  }
  if (first || second) {
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

template <Op kOp>
absl::Status CheckNoComplexOperands(absl::Span<const Operand> operands) {
  if (!IsComplex(operands[0].dtype()) && !IsComplex(operands[1].dtype())) {
    return absl::OkStatus();
  }
  return Invalid(absl::StrCat(OpName(kOp), " not implemented for complex tensors."));
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

absl::Status CheckMeanDType(absl::Span<const Operand>, const OpDTypes& dtypes) {
  if (IsFloating(dtypes.compute) || IsComplex(dtypes.compute)) return absl::OkStatus();
  return Invalid(absl::StrCat(
      "mean(): could not infer output dtype. Input dtype must be either a floating point or "
      "complex dtype. Got: ",
      Name(dtypes.compute)));
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

// The built-in ops' rules, in the order of op_list.h (checked by
// op_rules_test). Categories are rules about meaning (no bitwise ops on
// floats, no ordering of complex numbers), not about which dtypes PyTorch
// happens to have kernels for: float8 and uint64 compute too.
using K = PromotionKind;
constexpr uint8_t kIntegersAndFloats = kIntegerCategories | kFloatingCategory;
constexpr uint8_t kBitwise = kBoolCategory | kIntegerCategories;
constexpr OpRule kBuiltinRules[] = {
    {"add"},
    {"sub", 2, K::kDefault, kAllCategories, "", ReductionFloor::kNone, false, 0, CheckSubOperands},
    {"mul"},
    {"div", 2, K::kIntToFloat},
    {"div_floor", 2, K::kDefault, kIntegersAndFloats, "div_floor_cpu"},
    {"div_trunc", 2, K::kDefault, kIntegersAndFloats, "div_trunc_cpu"},
    {"floor_divide", 2, K::kDefault, kIntegersAndFloats, "div_floor_cpu", ReductionFloor::kNone,
     false, 0, nullptr, nullptr, nullptr, Derivative::kNotImplemented},
    {"remainder", 2, K::kDefault, kIntegersAndFloats, "remainder_cpu"},
    {"pow", 2, K::kBoolToLong, kNumberCategories, "pow", ReductionFloor::kNone, false, 0,
     CheckPowOperands, CheckPowExponent, PowSkipsKernel},
    {"maximum", 2, K::kDefault, kRealCategories, "", ReductionFloor::kNone, false, 0,
     CheckNoComplexOperands<Op::kMaximum>},
    {"minimum", 2, K::kDefault, kRealCategories, "", ReductionFloor::kNone, false, 0,
     CheckNoComplexOperands<Op::kMinimum>},
    {"atan2", 2, K::kIntToFloat, kRealCategories, "atan2_cpu"},
    {"eq", 2, K::kAlwaysBool},
    {"ne", 2, K::kAlwaysBool},
    {"lt", 2, K::kAlwaysBool, kRealCategories, "lt_cpu"},
    {"le", 2, K::kAlwaysBool, kRealCategories, "le_cpu"},
    {"gt", 2, K::kAlwaysBool, kRealCategories, "gt_cpu"},
    {"ge", 2, K::kAlwaysBool, kRealCategories, "ge_cpu"},
    {"logical_and", 2, K::kAlwaysBool},
    {"logical_or", 2, K::kAlwaysBool},
    {"logical_xor", 2, K::kAlwaysBool},
    {"bitwise_and", 2, K::kDefault, kBitwise, "bitwise_and_cpu"},
    {"bitwise_or", 2, K::kDefault, kBitwise, "bitwise_or_cpu"},
    {"bitwise_xor", 2, K::kDefault, kBitwise, "bitwise_xor_cpu"},
    {"where", 3, K::kNoOpMath, kAllCategories, "", ReductionFloor::kNone, false, 1, nullptr,
     CheckWhereDTypes},
    {"dot", 2, K::kDefault, kNumberCategories, "dot", ReductionFloor::kNone, false, 0,
     CheckDotOperands},
    {"sum", 1, K::kDefault, kAllCategories, "", ReductionFloor::kInt64, true},
    {"prod", 1, K::kDefault, kAllCategories, "", ReductionFloor::kInt64, true},
    {"mean", 1, K::kDefault, kAllCategories, "", ReductionFloor::kNone, true, 0, nullptr,
     CheckMeanDType},
    {"cumsum", 1, K::kDefault, kAllCategories, "", ReductionFloor::kInt64, true},
    {"neg", 1, K::kDefault, kAllCategories, "", ReductionFloor::kNone, true, 0, CheckNegOperands},
    {"abs", 1, K::kComplexToFloat, kNumberCategories, "abs_cpu", ReductionFloor::kNone, true},
    {"sqrt", 1, K::kIntToFloat},
};
static_assert(std::size(kBuiltinRules) == std::size(kAllOps));

}  // namespace

absl::StatusOr<Op> ParseOp(absl::string_view name) {
  for (Op op : kAllOps) {
    if (OpName(op) == name) return op;
  }
  struct Alias {
    absl::string_view name;
    Op op;
  };
  static constexpr Alias kAliases[] = {
      {"true_divide", Op::kDiv},
      {"divide", Op::kDiv},
      {"div(rounding_mode=floor)", Op::kDivFloor},
      {"div(rounding_mode=trunc)", Op::kDivTrunc},
      {"multiply", Op::kMul},
      {"subtract", Op::kSub},
      {"greater", Op::kGt},
      {"greater_equal", Op::kGe},
      {"less", Op::kLt},
      {"less_equal", Op::kLe},
      {"not_equal", Op::kNe},
      {"absolute", Op::kAbs},
      {"negative", Op::kNeg},
      {"arctan2", Op::kAtan2},
  };
  for (const Alias& alias : kAliases) {
    if (alias.name == name) return alias.op;
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

absl::StatusOr<OpDTypes> InferOpDTypes(const OpRule& rule, absl::Span<const Operand> operands,
                                       const PromotionOptions& options, Policy policy) {
  if (static_cast<int>(operands.size()) != rule.arity) {
    return Invalid(absl::StrCat(rule.name, "() takes ", rule.arity, " operand",
                                rule.arity == 1 ? "" : "s", ", got ", operands.size()));
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!IsValid(operands[i].dtype())) {
      return Invalid(absl::StrCat(rule.name, "(): operand ", i + 1, " has an invalid dtype"));
    }
  }
  if (rule.check_operands != nullptr) {
    RETURN_IF_ERROR(rule.check_operands(operands));
  }
  ASSIGN_OR_RETURN(DType promoted,
                   rule.keeps_dtype
                       ? operands[0].dtype()
                       : ResultType(operands.subspan(rule.first_promoted), policy, options));

  OpDTypes dtypes{promoted, promoted, promoted};
  if (rule.runs_no_kernel == nullptr || !rule.runs_no_kernel(operands)) {
    if (!(rule.categories & CategoryBit(promoted))) {
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
    if (rule.floor == ReductionFloor::kInt64 && integer_or_bool) {
      dtypes.compute = dtypes.result = DType::kInt64;
    }
    dtypes.opmath =
        rule.kind == PromotionKind::kNoOpMath ? dtypes.compute : OpMathDType(dtypes.compute);
  }
  if (rule.check_dtypes != nullptr) {
    RETURN_IF_ERROR(rule.check_dtypes(operands, dtypes));
  }
  return dtypes;
}

absl::StatusOr<OpDTypes> InferOpDTypes(Op op, absl::Span<const Operand> operands,
                                       const PromotionOptions& options) {
  return InferOpDTypes(RuleOf(op), operands, options, Policy::kTorch);
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

}  // namespace oneflow_promote::functional
