// InferOpDTypes: PyTorch's per-op dtype rules over ResultType, from the
// rows of op_list.h and the checks of internal/op_checks.h.

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
#include "oneflow_promote/ops/internal/op_checks.h"
#include "oneflow_promote/promotion/policy.h"
#include "oneflow_promote/status_macros.h"

namespace oneflow_promote::ops {
namespace {

using namespace ops_internal;  // NOLINT(build/namespaces): the checks and their helpers

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
  rule.builtin = kOp;
  return rule;
}

constexpr OpRule kBuiltinRules[] = {
#define ONEFLOW_PROMOTE_OP_RULE(name, spec) RuleFromSpec<Op::k##name>(),
    ONEFLOW_PROMOTE_FOR_EACH_OP(ONEFLOW_PROMOTE_OP_RULE)
#undef ONEFLOW_PROMOTE_OP_RULE
};

// A Python scalar of the dtype's category: what PyTorch's argument parser
// makes of a 0-d tensor passed for a Scalar.
Operand ScalarOfCategory(DType dtype) {
  if (IsBool(dtype)) return Operand::PyBool(true);
  if (IsIntegral(dtype)) return Operand::PyInt(1);
  if (IsComplex(dtype)) return Operand::PyComplex({1.0, 0.0});
  return Operand::PyFloat(1.0);
}

// Operand `index` of `operands` as the op's composite promotes it
// (OperandConversion); other_is_scalar: some other operand after the first is
// a Python scalar.
absl::StatusOr<Operand> ConvertOperand(OperandConversion conversion,
                                       absl::Span<const Operand> operands, size_t index,
                                       bool other_is_scalar, Policy policy) {
  const Operand& operand = operands[index];
  const auto tensor_of = [&operand](DType dtype) {
    return Operand::Tensor(dtype, operand.is_tensor() ? operand.ndim() : 0);
  };
  switch (conversion) {
    case OperandConversion::kNone:
      return operand;
    case OperandConversion::kSecondIntToFloat:
      // An integer exponent leaves a float input's dtype as it is (torch's
      // ldexp kernel), and pow(2.0, other) is float for an integer input:
      // either way it promotes as a Python float would. A complex input is
      // multiplied by pow of a 0-d 2 in its own dtype, which a 0-d exponent
      // meets in one bucket, where the promotion can refuse (complex64 with
      // uint16); a dimensioned exponent's category wins without it.
      if (index != 1 || !IsIntegerOrBool(operand.dtype())) return operand;
      if (IsComplex(operands[0].dtype()) && operand.is_tensor() && operand.ndim() == 0) {
        RETURN_IF_ERROR(PromoteTypes(operands[0].dtype(), operand.dtype(), policy).status());
      }
      return Operand::PyFloat(1.0);
    case OperandConversion::kAllToDouble:
      return tensor_of(IsComplex(operand.dtype()) ? DType::kComplex128 : DType::kFloat64);
    case OperandConversion::kZeroDimBoundsAsNumbers:
      if (index == 0 || !other_is_scalar) return operand;
      // What CheckClampOperands lets through of a complex bound is its real part.
      if (IsComplex(operand.dtype())) return Operand::PyFloat(1.0);
      return operand.is_tensor() ? ScalarOfCategory(operand.dtype()) : operand;
    case OperandConversion::kNumberWeightAsInput:
      if (index != 2 || !operand.is_scalar()) return operand;
      return ScalarOfCategory(operands[0].dtype());
  }
  return operand;
}

}  // namespace

absl::string_view OpName(Op op, Policy policy) {
  const FrameworkOp* framework = FrameworkOpOf(op, policy);
  if (framework == nullptr) return SpecOf(op).in_torch ? OpName(op) : "";
  if (!framework->present()) return "";
  return *absl::StrSplit(framework->names, ' ', absl::SkipEmpty()).begin();
}

absl::StatusOr<Op> ParseOp(absl::string_view name, Policy policy) {
  if (policy == Policy::kTorch) return ParseOp(name);
  std::vector<absl::string_view> names;
  for (Op op : kAllOps) {
    const FrameworkOp* framework = FrameworkOpOf(op, policy);
    if (framework == nullptr || !framework->present()) continue;
    for (absl::string_view word : absl::StrSplit(framework->names, ' ', absl::SkipEmpty())) {
      if (word == name) return op;
      names.push_back(word);
    }
  }
  return Invalid(absl::StrCat(FrameworkName(policy), " has no op '", name,
                              "' that the library declares; its ops are ",
                              absl::StrJoin(names, ", ")));
}

absl::StatusOr<Op> ParseOp(absl::string_view name) {
  for (Op op : kAllOps) {
    if (SpecOf(op).in_torch && OpName(op) == name) return op;
  }
  for (Op op : kAllOps) {
    for (absl::string_view alias : absl::StrSplit(SpecOf(op).aliases, ' ', absl::SkipEmpty())) {
      if (alias == name) return op;
    }
  }
  std::vector<absl::string_view> names;
  for (Op op : kAllOps) {
    if (SpecOf(op).in_torch) names.push_back(OpName(op));
  }
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
  if (rule.builtin.has_value()) {
    if (policy != Policy::kTorch) {
      return InferFrameworkOpDTypes(*rule.builtin, operands, policy, dtype);
    }
    if (!SpecOf(*rule.builtin).in_torch) {
      return Invalid(absl::StrCat("PyTorch has no op '", rule.name, "'"));
    }
  }
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
    ASSIGN_OR_RETURN(converted[i],
                     ConvertOperand(rule.conversion, operands, i, any_scalar_bound, policy));
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
                                       const PromotionOptions& options, Policy policy,
                                       std::optional<DType> dtype) {
  return InferOpDTypes(RuleOf(op), operands, options, policy, dtype);
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
