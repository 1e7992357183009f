// InferOpDTypes: PyTorch's per-op dtype rules over ResultType.

#include "oneflow_promote/functional/op_rules.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oneflow_promote/policy.h"

namespace oneflow_promote::functional {
namespace {

// The dtype categories an op is defined on, as a mask. These are rules
// about meaning (no bitwise ops on floats, no ordering of complex numbers),
// not about which dtypes PyTorch happens to have kernels for: every dtype of
// an allowed category computes, float8 and uint64 included.
enum Categories : uint8_t {
  kBools = 1,
  kIntegers = 2,
  kFloats = 4,
  kComplexes = 8,
  kReal = kBools | kIntegers | kFloats,
  kNumbers = kIntegers | kFloats | kComplexes,
  kAll = kReal | kComplexes,
};

uint8_t CategoryBit(DType d) {
  switch (CategoryOf(d)) {
    case Category::kBool: return kBools;
    case Category::kUnsigned:
    case Category::kSigned: return kIntegers;
    case Category::kFloating: return kFloats;
    case Category::kComplex: return kComplexes;
  }
  return 0;
}

// What an op returns, given the dtype it computes in.
enum class ResultRule : uint8_t {
  kCompute,  // the compute dtype
  kBool,     // comparisons and logical ops
  kFloat,    // true division, atan2, sqrt: integers and bool compute in the default dtype
  kInt64,    // sum, prod, cumsum: integers and bool accumulate in int64
  kRealPart,  // abs: complex gives its real counterpart
};

struct OpSpec {
  ResultRule rule;
  uint8_t categories;             // of the compute dtype; elsewhere an error
  absl::string_view kernel = "";  // PyTorch's kernel name in that error
  // Whether the op keeps its operand's dtype (PyTorch's unary ops that do
  // not promote, and reductions); the others run result_type, so that a
  // Python float alone computes in the default dtype.
  bool keeps_dtype = false;
};

constexpr OpSpec SpecOf(Op op) {
  using R = ResultRule;
  switch (op) {
    case Op::kAdd: return {R::kCompute, kAll};
    case Op::kSub: return {R::kCompute, kAll};  // bool: CheckOperands
    case Op::kMul: return {R::kCompute, kAll};
    case Op::kDiv: return {R::kFloat, kAll};
    case Op::kDivFloor:
    case Op::kFloorDivide: return {R::kCompute, kIntegers | kFloats, "div_floor_cpu"};
    case Op::kDivTrunc: return {R::kCompute, kIntegers | kFloats, "div_trunc_cpu"};
    case Op::kRemainder: return {R::kCompute, kIntegers | kFloats, "remainder_cpu"};
    case Op::kPow: return {R::kCompute, kNumbers, "pow"};
    case Op::kMaximum:  // complex: CheckOperands, with PyTorch's message
    case Op::kMinimum: return {R::kCompute, kReal};
    case Op::kAtan2: return {R::kFloat, kReal, "atan2_cpu"};
    case Op::kEq: return {R::kBool, kAll};
    case Op::kNe: return {R::kBool, kAll};
    case Op::kLt: return {R::kBool, kReal, "lt_cpu"};
    case Op::kLe: return {R::kBool, kReal, "le_cpu"};
    case Op::kGt: return {R::kBool, kReal, "gt_cpu"};
    case Op::kGe: return {R::kBool, kReal, "ge_cpu"};
    case Op::kLogicalAnd: return {R::kBool, kAll};
    case Op::kLogicalOr: return {R::kBool, kAll};
    case Op::kLogicalXor: return {R::kBool, kAll};
    case Op::kBitwiseAnd: return {R::kCompute, kBools | kIntegers, "bitwise_and_cpu"};
    case Op::kBitwiseOr: return {R::kCompute, kBools | kIntegers, "bitwise_or_cpu"};
    case Op::kBitwiseXor: return {R::kCompute, kBools | kIntegers, "bitwise_xor_cpu"};
    case Op::kWhere: return {R::kCompute, kAll};
    case Op::kDot: return {R::kCompute, kNumbers, "dot"};
    case Op::kSum: return {R::kInt64, kAll, "", true};
    case Op::kProd: return {R::kInt64, kAll, "", true};
    case Op::kMean: return {R::kCompute, kFloats | kComplexes, "", true};
    case Op::kCumsum: return {R::kInt64, kAll, "", true};
    case Op::kNeg: return {R::kCompute, kAll, "", true};  // bool: CheckOperands
    case Op::kAbs: return {R::kRealPart, kNumbers, "abs_cpu", true};
    case Op::kSqrt: return {R::kFloat, kAll};
  }
  return {R::kCompute, 0, "invalid"};
}

// PyTorch 2.15's error for an op outside its categories.
std::string CategoryError(Op op, DType compute) {
  switch (op) {
    case Op::kMean:
      return absl::StrCat(
          "mean(): could not infer output dtype. Input dtype must be either a floating point or "
          "complex dtype. Got: ",
          Name(compute));
    default:
      return absl::StrCat("\"", SpecOf(op).kernel, "\" not implemented for '", Name(compute), "'");
  }
}

absl::Status Invalid(std::string message) {
  return absl::InvalidArgumentError(std::move(message));
}

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

// The checks PyTorch makes on the operands themselves, before promotion.
absl::Status CheckOperands(Op op, absl::Span<const Operand> operands) {
  switch (op) {
    case Op::kSub: {
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
    case Op::kNeg:
      if (operands[0].dtype() == DType::kBool) {
        return Invalid(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
            "to invert a mask, use the `~` or `logical_not()` operator instead.");
      }
      return absl::OkStatus();
    case Op::kMaximum:
    case Op::kMinimum:
      if (IsComplex(operands[0].dtype()) || IsComplex(operands[1].dtype())) {
        return Invalid(absl::StrCat(OpName(op), " not implemented for complex tensors."));
      }
      return absl::OkStatus();
    case Op::kPow:
      // pow(Tensor, Scalar) follows NumPy here; pow(Tensor, Tensor) does not check.
      if (operands[0].is_tensor() && IsIntegerOrBool(operands[0].dtype()) &&
          operands[1].kind() == Operand::Kind::kPyInt && operands[1].int_value() < 0) {
        return Invalid("Integers to negative integer powers are not allowed.");
      }
      return absl::OkStatus();
    case Op::kDot:
      if (operands[0].ndim() != 1 || operands[1].ndim() != 1) {
        return Invalid(absl::StrCat("1D tensors expected, but got ", operands[0].ndim(),
                                    "D and ", operands[1].ndim(), "D tensors"));
      }
      if (operands[0].dtype() != operands[1].dtype()) {
        return Invalid(absl::StrCat("dot : expected both vectors to have same dtype, but found ",
                                    Name(operands[0].dtype()), " and ",
                                    Name(operands[1].dtype())));
      }
      return absl::OkStatus();
    default:
      return absl::OkStatus();
  }
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
      const absl::int128 min = std::is_signed_v<T> ? absl::int128(std::numeric_limits<T>::min())
                                                   : -max;
      return scalar.kind() == Operand::Kind::kPyBool || (value >= min && value <= max);
    } else {
      double max = std::numeric_limits<double>::infinity();
      if constexpr (std::is_same_v<P, Float16>) max = 65504.0;
      if constexpr (std::is_same_v<P, BFloat16>) max = 3.3895313892515355e38;
      if constexpr (std::is_same_v<P, float>) max = std::numeric_limits<float>::max();
      if constexpr (std::is_same_v<P, double>) max = std::numeric_limits<double>::max();
      const auto fits = [max](double v) { return std::isinf(v) || std::isnan(v) || std::fabs(v) <= max; };
      switch (scalar.kind()) {
        case Operand::Kind::kPyBool:
          return true;
        case Operand::Kind::kPyInt:
          // Every 128-bit integer lies within a range from 2^127 up; converting
          // such a max to int128 would overflow.
          if (max >= std::ldexp(1.0, 127)) return true;
          return scalar.int_value() <= absl::int128(max) && scalar.int_value() >= -absl::int128(max);
        case Operand::Kind::kPyFloat:
          return fits(scalar.real_value());
        default:
          return fits(scalar.real_value()) && fits(scalar.imag_value());
      }
    }
  });
}

bool IsIntegerDivision(Op op) {
  return op == Op::kDivFloor || op == Op::kDivTrunc || op == Op::kFloorDivide ||
         op == Op::kRemainder;
}

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
                                  const PromotionOptions& options) {
  if (operands.empty()) return Invalid("no operands to find a common dtype for");
  if (!floors.empty() && floors.size() != operands.size()) {
    return Invalid(absl::StrCat(floors.size(), " floors for ", operands.size(), " operands"));
  }
  bool all_same = true;
  for (const Operand& operand : operands) all_same &= operand.dtype() == operands[0].dtype();
  DType common = operands[0].dtype();
  if (!all_same) {
    absl::StatusOr<DType> promoted = ResultType(operands, Policy::kTorch, options);
    if (!promoted.ok()) return promoted.status();
    common = *promoted;
  }
  for (DType floor : floors) {
    // kBool is no floor: promoting with it would trip PyTorch's float8 and
    // uint16/32/64 guards.
    if (floor == DType::kBool) continue;
    const Promotion p = PromoteTypes(common, floor, Policy::kTorch);
    if (!p.ok()) return p.status();
    common = p.dtype();
  }
  if (integers_to_float && IsIntegerOrBool(common)) common = options.default_dtype;
  return common;
}

absl::StatusOr<OpDTypes> InferOpDTypes(Op op, absl::Span<const Operand> operands,
                                       const PromotionOptions& options) {
  if (static_cast<int>(operands.size()) != OpArity(op)) {
    return Invalid(absl::StrCat(OpName(op), "() takes ", OpArity(op), " operand",
                                OpArity(op) == 1 ? "" : "s", ", got ", operands.size()));
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!IsValid(operands[i].dtype())) {
      return Invalid(absl::StrCat(OpName(op), "(): operand ", i + 1, " has an invalid dtype"));
    }
  }
  if (absl::Status status = CheckOperands(op, operands); !status.ok()) return status;

  const OpSpec spec = SpecOf(op);
  // PyTorch 2.15 runs result_type even on operands of one dtype (so two
  // Python floats add in the default dtype); where promotes its values only.
  absl::StatusOr<DType> common =
      spec.keeps_dtype
          ? operands[0].dtype()
          : ResultType(operands.subspan(op == Op::kWhere ? 1 : 0), Policy::kTorch, options);
  if (!common.ok()) return common.status();

  OpDTypes dtypes{*common, *common};
  switch (spec.rule) {
    case ResultRule::kCompute:
      break;
    case ResultRule::kBool:
      dtypes.result = DType::kBool;
      break;
    case ResultRule::kFloat:
      if (IsIntegerOrBool(*common)) dtypes = {options.default_dtype, options.default_dtype};
      break;
    case ResultRule::kInt64:
      if (IsIntegerOrBool(*common)) dtypes = {DType::kInt64, DType::kInt64};
      break;
    case ResultRule::kRealPart:
      if (IsComplex(*common)) dtypes.result = RealPartOf(*common);
      break;
  }
  const bool skips_kernel = op == Op::kPow && PowSkipsKernel(operands);
  if (!(spec.categories & CategoryBit(dtypes.compute)) && !skips_kernel) {
    return Invalid(CategoryError(op, dtypes.compute));
  }
  if (IsIntegerDivision(op) && IsIntegral(dtypes.compute) && operands[1].is_scalar()) {
    // The Python int is cast (wrapping) to the compute dtype before the
    // kernel divides: int8 // 256 divides by zero.
    const int bits = static_cast<int>(8 * ItemSize(dtypes.compute));
    const uint64_t wrapped = static_cast<uint64_t>(operands[1].int_value()) &
                             (bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
    if (wrapped == 0) return Invalid("ZeroDivisionError");
  }
  const auto check_scalar_fits = [&](const Operand& scalar, DType to) -> absl::Status {
    if (FitsCheckedConversion(scalar, to)) return absl::OkStatus();
    return Invalid(absl::StrCat("value ", scalar.ToString(), " cannot be converted to type ",
                                Name(to), " without overflow"));
  };
  if (op == Op::kPow && operands[0].is_tensor() && operands[1].is_scalar() && !skips_kernel &&
      (IsIntegral(dtypes.compute) || dtypes.compute == DType::kFloat16 ||
       dtypes.compute == DType::kBFloat16)) {
    // The CPU kernel converts the exponent to the compute dtype (float32,
    // float64 and complex exponents stay double).
    if (absl::Status status = check_scalar_fits(operands[1], dtypes.compute); !status.ok()) {
      return status;
    }
  }
  // where's scalar values convert checked to the result dtype, except to
  // float16, bfloat16 and float8, which 2.15 fills unchecked.
  const bool reduced_float = IsFloating(dtypes.result) && ItemSize(dtypes.result) < 4;
  if (op == Op::kWhere && operands[0].is_tensor() && !reduced_float) {
    for (const Operand& value : operands.subspan(1)) {
      if (!value.is_scalar()) continue;
      if (absl::Status status = check_scalar_fits(value, dtypes.result); !status.ok()) {
        return status;
      }
    }
  }
  // Checked after the values (PyTorch 2.15's order); uint8 conditions still
  // pass (deprecated, with a warning).
  if (op == Op::kWhere && operands[0].dtype() != DType::kBool &&
      operands[0].dtype() != DType::kUInt8) {
    return Invalid(absl::StrCat(
        "where expected condition to be a boolean tensor, but got a tensor with dtype ",
        Name(operands[0].dtype())));
  }
  return dtypes;
}

absl::StatusOr<std::vector<int64_t>> BroadcastShapes(
    absl::Span<const absl::Span<const int64_t>> shapes) {
  size_t rank = 0;
  for (const auto& shape : shapes) rank = std::max(rank, shape.size());
  std::vector<int64_t> out(rank, 1);
  // Which operand set each output extent, for the message ("a", "b", ...).
  std::vector<size_t> setter(rank, 0);
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

absl::Status CheckCanCastToOutput(DType computed, DType out) {
  if (CanCast(computed, out, Policy::kTorch)) return absl::OkStatus();
  return Invalid(absl::StrCat("result type ", Name(computed),
                              " can't be cast to the desired output type ", Name(out)));
}

}  // namespace oneflow_promote::functional
