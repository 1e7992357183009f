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

// A set of dtypes as a bit mask over their indices.
using DTypeSet = uint32_t;
static_assert(kNumDTypes <= 32);

constexpr DTypeSet Of(std::initializer_list<DType> dtypes) {
  DTypeSet set = 0;
  for (DType d : dtypes) set |= DTypeSet{1} << Index(d);
  return set;
}
constexpr bool Contains(DTypeSet set, DType dtype) { return (set >> Index(dtype)) & 1; }

// The dtypes libtorch 1.13's CPU kernels are compiled for, by family. The
// newest dtypes (float8, uint16/32/64) have no CPU arithmetic in PyTorch.
constexpr DTypeSet kIntegers = Of({DType::kUInt8, DType::kInt8, DType::kInt16, DType::kInt32,
                                   DType::kInt64});
constexpr DTypeSet kFloats = Of({DType::kFloat16, DType::kBFloat16, DType::kFloat32,
                                 DType::kFloat64});
constexpr DTypeSet kComplexes = Of({DType::kComplex32, DType::kComplex64, DType::kComplex128});
constexpr DTypeSet kBool = Of({DType::kBool});
constexpr DTypeSet kAll = kBool | kIntegers | kFloats | kComplexes;
constexpr DTypeSet kHalves = Of({DType::kFloat16, DType::kComplex32});
constexpr DTypeSet kReal = kBool | kIntegers | kFloats;

// What an op returns, given the dtype it computes in.
enum class ResultRule : uint8_t {
  kCompute,        // the compute dtype
  kBool,           // comparisons and logical ops
  kFloat,          // true division, atan2, sqrt: integers and bool compute in the default dtype
  kInt64Floor,     // sum, prod, cumsum: integers and bool accumulate in int64
  kFloatingOnly,   // mean: integers and bool are an error
  kRealPart,       // abs: complex gives its real counterpart
};

struct OpSpec {
  ResultRule rule;
  DTypeSet kernel_dtypes;    // compute dtypes PyTorch's CPU kernel implements
  absl::string_view kernel;  // its name in "not implemented" errors
};

constexpr OpSpec SpecOf(Op op) {
  switch (op) {
    case Op::kAdd: return {ResultRule::kCompute, kAll, "add_cpu"};
    case Op::kSub: return {ResultRule::kCompute, kAll, "sub_cpu"};
    case Op::kMul: return {ResultRule::kCompute, kAll, "mul_cpu"};
    case Op::kDiv: return {ResultRule::kFloat, kAll & ~Of({DType::kComplex32}), "div_cpu"};
    case Op::kDivFloor:
    case Op::kFloorDivide: return {ResultRule::kCompute, kIntegers | kFloats, "div_floor_cpu"};
    case Op::kDivTrunc: return {ResultRule::kCompute, kIntegers | kFloats, "div_trunc_cpu"};
    case Op::kRemainder: return {ResultRule::kCompute, kIntegers | kFloats, "remainder_cpu"};
    case Op::kPow: return {ResultRule::kCompute, kAll & ~kBool & ~Of({DType::kComplex32}), "pow"};
    case Op::kMaximum: return {ResultRule::kCompute, kReal, "maximum_cpu"};
    case Op::kMinimum: return {ResultRule::kCompute, kReal, "minimum_cpu"};
    case Op::kAtan2:
      return {ResultRule::kFloat, Of({DType::kBFloat16, DType::kFloat32, DType::kFloat64}),
              "atan2_cpu"};
    case Op::kEq: return {ResultRule::kBool, kAll, "eq_cpu"};
    case Op::kNe: return {ResultRule::kBool, kAll, "ne_cpu"};
    case Op::kLt: return {ResultRule::kBool, kReal, "lt_cpu"};
    case Op::kLe: return {ResultRule::kBool, kReal, "le_cpu"};
    case Op::kGt: return {ResultRule::kBool, kReal, "gt_cpu"};
    case Op::kGe: return {ResultRule::kBool, kReal, "ge_cpu"};
    case Op::kLogicalAnd:
      return {ResultRule::kBool, kAll & ~Of({DType::kComplex32}), "logical_and_cpu"};
    case Op::kLogicalOr:
      return {ResultRule::kBool, kAll & ~Of({DType::kComplex32}), "logical_or_cpu"};
    case Op::kLogicalXor:
      return {ResultRule::kBool, kAll & ~Of({DType::kComplex32}), "logical_xor_cpu"};
    case Op::kBitwiseAnd: return {ResultRule::kCompute, kBool | kIntegers, "bitwise_and_cpu"};
    case Op::kBitwiseOr: return {ResultRule::kCompute, kBool | kIntegers, "bitwise_or_cpu"};
    case Op::kBitwiseXor: return {ResultRule::kCompute, kBool | kIntegers, "bitwise_xor_cpu"};
    case Op::kWhere: return {ResultRule::kCompute, kAll, "where_cpu"};
    case Op::kDot:
      return {ResultRule::kCompute, (kIntegers | kFloats | kComplexes) & ~kHalves, "dot"};
    case Op::kSum: return {ResultRule::kInt64Floor, kAll & ~Of({DType::kComplex32}), "sum_cpu"};
    case Op::kProd:
      return {ResultRule::kInt64Floor,
              kAll & ~kHalves & ~Of({DType::kBFloat16}), "prod_cpu"};
    case Op::kMean:
      return {ResultRule::kFloatingOnly, kAll & ~Of({DType::kComplex32}), "sum_cpu"};
    case Op::kCumsum: return {ResultRule::kInt64Floor, kAll & ~kHalves, "cumsum_out_cpu"};
    case Op::kNeg: return {ResultRule::kCompute, kAll, "neg_cpu"};
    case Op::kAbs: return {ResultRule::kRealPart, kAll & ~kBool, "abs_cpu"};
    case Op::kSqrt: return {ResultRule::kFloat, kAll & ~kHalves, "sqrt_vml_cpu"};
  }
  return {ResultRule::kCompute, 0, "invalid"};
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
    case Op::kWhere:
      // libtorch 1.13 still accepts uint8 conditions (deprecated, with a warning).
      if (operands[0].dtype() != DType::kBool && operands[0].dtype() != DType::kUInt8) {
        return Invalid(absl::StrCat(
            "where expected condition to be a boolean tensor, but got a tensor with dtype ",
            Name(operands[0].dtype())));
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

// Whether PyTorch skips the kernel, so that its dtype coverage does not
// matter: x ** 0 and x ** 1 (fill, copy), 1 ** x (fill), cumsum of a 0-d
// tensor (copy). at::Scalar::equal never holds for a bool, so True and
// False do not count as 1 and 0 here.
bool SkipsKernel(Op op, absl::Span<const Operand> operands) {
  const auto is_number = [](const Operand& operand, int value) {
    return operand.kind() != Operand::Kind::kPyBool && IsScalarEqualTo(operand, value);
  };
  switch (op) {
    case Op::kPow:
      if (operands[0].is_tensor() && operands[1].is_scalar()) {
        return is_number(operands[1], 0) || is_number(operands[1], 1);
      }
      return operands[0].is_scalar() && operands[1].is_tensor() && is_number(operands[0], 1);
    case Op::kCumsum:
      return operands[0].ndim() == 0;
    default:
      return false;
  }
}

// The dtype of a complex dtype's parts.
DType RealPartOf(DType complex) {
  switch (complex) {
    case DType::kComplex32: return DType::kFloat16;
    case DType::kBComplex32: return DType::kBFloat16;
    case DType::kComplex64: return DType::kFloat32;
    default: return DType::kFloat64;
  }
}

// Whether c10's checked conversion (c10::overflows) accepts the Python
// scalar as a value of `to`: PyTorch converts the scalar arguments of
// pow(Tensor, Scalar) and of where's scalar overloads this way, and raises
// "value cannot be converted to type ... without overflow" otherwise.
// Integers must fit (unsigned types also take negatives down to -max, which
// wrap); finite floats must lie within [lowest, max]; infinities and NaN
// pass.
bool FitsCheckedConversion(const Operand& scalar, DType to) {
  return VisitDType(to, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      return true;
    } else if constexpr (std::is_integral_v<T>) {
      const absl::int128 value = scalar.int_value();
      const absl::int128 max = std::numeric_limits<T>::max();
      const absl::int128 min = std::is_signed_v<T> ? absl::int128(std::numeric_limits<T>::min())
                                                   : -max;
      return scalar.kind() == Operand::Kind::kPyBool || (value >= min && value <= max);
    } else {
      double max = 0;
      if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, Complex<Float16>>) {
        max = 65504.0;
      } else if constexpr (std::is_same_v<T, BFloat16>) {
        max = 3.3895313892515355e38;
      } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, Complex<float>>) {
        max = std::numeric_limits<float>::max();
      } else {
        max = std::numeric_limits<double>::max();
      }
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
  const DType kInt64Floors[] = {DType::kInt64};
  absl::StatusOr<DType> common =
      op == Op::kWhere
          // where calls result_type on its values, with no same-dtype shortcut.
          ? ResultType(operands.subspan(1), Policy::kTorch, options)
          : CommonDType(operands,
                        spec.rule == ResultRule::kInt64Floor ? absl::MakeConstSpan(kInt64Floors)
                                                             : absl::Span<const DType>(),
                        spec.rule == ResultRule::kFloat, options);
  if (!common.ok()) return common.status();
  if (op == Op::kWhere && operands[0].is_scalar() && operands[1].is_scalar() &&
      operands[1].dtype() == operands[2].dtype() && *common != operands[1].dtype()) {
    // libtorch 1.13 fails an internal assert (needs_dynamic_casting) here;
    // Python rejects a scalar condition outright.
    return Invalid(absl::StrCat(
        "where(): with a Python scalar condition, Python scalar values of dtype ",
        Name(operands[1].dtype()), " cannot produce ", Name(*common),
        " (libtorch's kernel asserts); pass the condition as a tensor"));
  }

  OpDTypes dtypes{*common, *common};
  switch (spec.rule) {
    case ResultRule::kCompute:
    case ResultRule::kFloat:
    case ResultRule::kInt64Floor:
      break;
    case ResultRule::kBool:
      dtypes.result = DType::kBool;
      break;
    case ResultRule::kFloatingOnly:
      if (IsIntegerOrBool(*common)) {
        return Invalid(absl::StrCat(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            "or complex dtype. Got: ",
            Name(*common)));
      }
      break;
    case ResultRule::kRealPart:
      if (IsComplex(*common)) dtypes.result = RealPartOf(*common);
      break;
  }
  if (!Contains(spec.kernel_dtypes, dtypes.compute) && !SkipsKernel(op, operands)) {
    return Invalid(
        absl::StrCat("\"", spec.kernel, "\" not implemented for '", Name(dtypes.compute), "'"));
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
  if (op == Op::kPow && operands[0].is_tensor() && operands[1].is_scalar() &&
      !SkipsKernel(op, operands) &&
      (IsIntegral(dtypes.compute) || dtypes.compute == DType::kFloat16 ||
       dtypes.compute == DType::kBFloat16)) {
    // The CPU kernel converts the exponent to the compute dtype (float32,
    // float64 and complex exponents stay double).
    if (absl::Status status = check_scalar_fits(operands[1], dtypes.compute); !status.ok()) {
      return status;
    }
  }
  if (op == Op::kWhere && operands[0].is_tensor()) {
    for (const Operand& value : operands.subspan(1)) {
      if (!value.is_scalar()) continue;
      if (absl::Status status = check_scalar_fits(value, dtypes.result); !status.ok()) {
        return status;
      }
    }
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
