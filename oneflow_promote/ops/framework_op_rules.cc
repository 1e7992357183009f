// InferOpDTypes under the policies other than PyTorch's: each op's
// FrameworkOp column of op_list.h applied as NumPy 2, jax.numpy, the Array
// API and MLX apply their rules (tests/numpy, tests/jax, tests/array_api and
// tests/mlx hold the live answers: op_cases.tsv).

#include <algorithm>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "oneflow_promote/ops/internal/op_checks.h"
#include "oneflow_promote/ops/op_rules.h"
#include "oneflow_promote/promotion/policy.h"
#include "oneflow_promote/status_macros.h"

namespace oneflow_promote::ops {
namespace {

using ops_internal::Invalid;
using ops_internal::IsIntegerOrBool;
using ops_internal::RealPartOf;

bool IsUnsigned(DType dtype) { return CategoryOf(dtype) == Category::kUnsigned; }

// NumPy's loop dtypes in the order its ufuncs list their loops.
constexpr DType kNumpyLoopOrder[] = {
    DType::kBool,    DType::kInt8,    DType::kUInt8,     DType::kInt16,     DType::kUInt16,
    DType::kInt32,   DType::kUInt32,  DType::kInt64,     DType::kUInt64,    DType::kFloat16,
    DType::kFloat32, DType::kFloat64, DType::kComplex64, DType::kComplex128};

// The policy's default dtypes: 64-bit, but 32-bit under jax_x32 and mlx.
bool Defaults32(Policy policy) { return policy == Policy::kJaxX32 || policy == Policy::kMlx; }
DType DefaultInt(Policy policy) { return Defaults32(policy) ? DType::kInt32 : DType::kInt64; }
DType DefaultUnsigned(Policy policy) {
  return Defaults32(policy) ? DType::kUInt32 : DType::kUInt64;
}
DType DefaultFloat(Policy policy) { return Defaults32(policy) ? DType::kFloat32 : DType::kFloat64; }

// "numpy.arctan2", "jax.numpy.sin", "xp.atan2", "mlx.core.sin": the call as
// its framework spells it.
std::string QualifiedName(const FrameworkOp& framework, Policy policy) {
  const absl::string_view name = *absl::StrSplit(framework.names, ' ', absl::SkipEmpty()).begin();
  switch (policy) {
    case Policy::kNumpy:
      return absl::StrCat("numpy.", name);
    case Policy::kArrayApi:
      return absl::StrCat("xp.", name);
    case Policy::kMlx:
      return absl::StrCat("mlx.core.", name);
    default:
      return absl::StrCat("jax.numpy.", name);
  }
}

// The rule's part before the op's dtypes are checked or its loop chosen.
DType RuleInput(FrameworkRule rule, DType dtype, Policy policy) {
  switch (rule) {
    case FrameworkRule::kInexact:
    case FrameworkRule::kInexactRealPart:
      if (!IsIntegerOrBool(dtype)) return dtype;
      // jax.numpy's to_inexact_dtype keeps the width: bool and ints of up
      // to 32 bits become float32 (also with x64), 64-bit ints float64.
      if (policy != Policy::kNumpy && ItemSize(dtype) <= 4) return DType::kFloat32;
      return DefaultFloat(policy);
    case FrameworkRule::kDefaultFloat:
      return IsIntegerOrBool(dtype) ? DefaultFloat(policy) : dtype;
    case FrameworkRule::kNumeric:
      return IsBool(dtype) ? DType::kInt32 : dtype;
    case FrameworkRule::kBoolToDefaultInt:
      return IsBool(dtype) ? DefaultInt(policy) : dtype;
    case FrameworkRule::kBoolToUInt8:
      return IsBool(dtype) ? DType::kUInt8 : dtype;
    case FrameworkRule::kAccumulate:
      if (!IsIntegerOrBool(dtype) || ItemSize(dtype) >= ItemSize(DefaultInt(policy))) {
        return dtype;
      }
      return IsUnsigned(dtype) ? DefaultUnsigned(policy) : DefaultInt(policy);
    case FrameworkRule::kDouble:
      return IsComplex(dtype) ? DType::kComplex128 : DType::kFloat64;
    default:
      return dtype;
  }
}

// The op's dtypes once it computes in `compute`.
OpDTypes RuleOutput(FrameworkRule rule, DType compute, Policy policy) {
  OpDTypes dtypes{compute, compute, OpMathDType(compute)};
  switch (rule) {
    case FrameworkRule::kBool:
      dtypes.result = DType::kBool;
      break;
    case FrameworkRule::kRealPart:
    case FrameworkRule::kInexactRealPart:
      if (IsComplex(compute)) dtypes.result = RealPartOf(compute);
      break;
    case FrameworkRule::kIndex:
      dtypes.result = policy == Policy::kMlx ? DType::kUInt32 : DefaultInt(policy);
      break;
    case FrameworkRule::kCount:
      dtypes.result = DefaultInt(policy);
      break;
    case FrameworkRule::kUInt8:
      dtypes.result = DType::kUInt8;
      break;
    default:
      break;
  }
  return dtypes;
}

bool IntFits(absl::int128 value, DType dtype) {
  if (IsBool(dtype)) return value == 0 || value == 1;
  const int bits = 8 * ItemSize(dtype);
  if (IsUnsigned(dtype)) return value >= 0 && (value >> bits) == 0;
  const absl::int128 bound = absl::int128(1) << (bits - 1);
  return value >= -bound && value < bound;
}

absl::string_view OperandNoun(const Operand& operand) {
  return operand.is_tensor() ? (operand.ndim() == 0 ? "0-d array" : "array") : "Python scalar";
}

// The checks of values and shapes that FrameworkCheck names.
absl::Status CheckValues(const FrameworkOp& framework, absl::Span<const Operand> operands,
                         DType compute, Policy policy) {
  const bool negative_int = operands.size() > 1 && operands[1].kind() == Operand::Kind::kPyInt &&
                            operands[1].int_value() < 0;
  switch (framework.check) {
    case FrameworkCheck::kNone:
      break;
    case FrameworkCheck::kIntPower:
      if (negative_int && IsIntegerOrBool(compute)) {
        return Invalid(absl::StrCat(QualifiedName(framework, policy),
                                    ": Integers to negative integer powers are not allowed."));
      }
      break;
    case FrameworkCheck::kShiftCount:
      if (negative_int) {
        return Invalid(
            absl::StrCat(QualifiedName(framework, policy), "(x1, x2) is only defined for x2 >= 0"));
      }
      break;
    case FrameworkCheck::kAtLeast1D:
      for (const Operand& operand : operands) {
        if (operand.is_tensor() && operand.ndim() == 0) {
          return Invalid(absl::StrCat(QualifiedName(framework, policy),
                                      ": only arrays of one or more dimensions are allowed"));
        }
      }
      break;
    case FrameworkCheck::kArraysOnly:
      for (size_t i = 0; i < operands.size(); ++i) {
        if (!operands[i].is_tensor()) {
          return Invalid(absl::StrCat(QualifiedName(framework, policy), ": operand ", i + 1, " (",
                                      operands[i].Describe(),
                                      ") is not an array: it takes arrays only (TypeError)"));
        }
      }
      break;
  }
  return absl::OkStatus();
}

// NumPy 2: with a Python scalar among arrays, every operand takes the
// common dtype of NEP 50 first (NumPy's default promoter); then the first
// loop that every operand casts to safely, or the promoted dtype's own
// loop; then a Python int must fit an integer loop (comparisons excepted:
// NumPy compares out-of-range ints exactly).
absl::StatusOr<DType> NumpyLoop(const FrameworkOp& framework, absl::Span<const Operand> operands) {
  absl::InlinedVector<Operand, 4> neutral(operands.begin(), operands.end());
  for (Operand& operand : neutral) {
    if (operand.kind() == Operand::Kind::kPyInt) operand = Operand::PyInt(0);
  }
  ASSIGN_OR_RETURN(const DType common, ResultType(neutral, Policy::kNumpy));
  const bool all_tensors =
      std::all_of(operands.begin(), operands.end(), [](const Operand& o) { return o.is_tensor(); });
  absl::InlinedVector<DType, 4> dtypes;
  for (const Operand& operand : operands) {
    dtypes.push_back(all_tensors ? operand.dtype() : common);
  }
  // True division and mean of integers only compute in float64.
  const bool inexact = framework.rule == FrameworkRule::kInexact ||
                       framework.rule == FrameworkRule::kInexactRealPart;
  if (!inexact || std::all_of(dtypes.begin(), dtypes.end(), IsIntegerOrBool)) {
    for (DType& dtype : dtypes) dtype = RuleInput(framework.rule, dtype, Policy::kNumpy);
  }
  const std::string name = QualifiedName(framework, Policy::kNumpy);
  std::optional<DType> loop;
  if (framework.exact_loop) {
    DType promoted = dtypes[0];
    for (DType dtype : dtypes) {
      ASSIGN_OR_RETURN(promoted, PromoteTypes(promoted, dtype, Policy::kNumpy).ToStatusOr());
    }
    if (framework.categories & CategoryBitOf(promoted)) loop = promoted;
  } else {
    for (DType candidate : kNumpyLoopOrder) {
      if (!(framework.categories & CategoryBitOf(candidate))) continue;
      const bool safe = std::all_of(dtypes.begin(), dtypes.end(), [candidate](DType dtype) {
        const Promotion p = PromoteTypes(dtype, candidate, Policy::kNumpy);
        return p.ok() && p.dtype() == candidate;
      });
      if (safe) {
        loop = candidate;
        break;
      }
    }
  }
  if (!loop.has_value()) {
    std::vector<absl::string_view> names;
    for (DType dtype : dtypes) names.push_back(Name(dtype));
    return Invalid(absl::StrCat(name, " has no loop for (", absl::StrJoin(names, ", "),
                                "): NumPy raises UFuncTypeError"));
  }
  if (IsIntegerOrBool(*loop) && framework.rule != FrameworkRule::kBool) {
    for (size_t i = 0; i < operands.size(); ++i) {
      if (operands[i].kind() == Operand::Kind::kPyInt && !IntFits(operands[i].int_value(), *loop)) {
        return Invalid(absl::StrCat(name, ": operand ", i + 1, " (", operands[i].Describe(),
                                    ") is out of bounds for ", Name(*loop),
                                    ", the loop NumPy computes in: NumPy raises OverflowError"));
      }
    }
  }
  return *loop;
}

// jax.numpy and MLX: the policy's promotion (weak Python scalars, canonical
// 32-bit dtypes under jax_x32, MLX's left fold), then the rule
// (promote_args_inexact, MLX's at_least_float, ...), then the dtypes the op
// accepts.
absl::StatusOr<DType> PromoteThenRule(const FrameworkOp& framework,
                                      absl::Span<const Operand> operands, Policy policy) {
  ASSIGN_OR_RETURN(const DType promoted, ResultType(operands, policy));
  const DType compute = RuleInput(framework.rule, promoted, policy);
  if (!(framework.categories & CategoryBitOf(compute))) {
    return Invalid(
        absl::StrCat(QualifiedName(framework, policy), " does not accept ", Name(compute),
                     policy == Policy::kMlx ? ": MLX refuses it" : ": JAX raises TypeError"));
  }
  return compute;
}

// MLX's logical ops take each Python scalar as an array of its own dtype
// (ScalarsAsArrays): the lone scalar's promotion under MLX.
absl::StatusOr<absl::InlinedVector<Operand, 4>> ScalarsAsArrays(
    absl::Span<const Operand> operands) {
  absl::InlinedVector<Operand, 4> arrays(operands.begin(), operands.end());
  for (Operand& operand : arrays) {
    if (operand.is_tensor()) continue;
    ASSIGN_OR_RETURN(const DType dtype, ResultType({operand}, Policy::kMlx));
    operand = Operand::Tensor(dtype, 0);
  }
  return arrays;
}

// The Array API: every array operand of a dtype the function takes, a
// Python scalar only beside an array, then the standard's promotion. Where
// a complex Python scalar makes the promoted dtype complex, array-api-strict
// computes as NumPy does (the row's NumPy loops): maximum does, atan2 raises.
absl::StatusOr<DType> ArrayApiCompute(const FrameworkOp& framework, const FrameworkOp& numpy,
                                      absl::Span<const Operand> operands) {
  const std::string name = QualifiedName(framework, Policy::kArrayApi);
  if (std::none_of(operands.begin(), operands.end(),
                   [](const Operand& o) { return o.is_tensor(); })) {
    return Invalid(absl::StrCat(name,
                                " takes an array among its operands, not only Python "
                                "scalars: array-api-strict raises TypeError"));
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    if (operands[i].is_tensor() && !(framework.categories & CategoryBitOf(operands[i].dtype()))) {
      return Invalid(absl::StrCat(name, ": operand ", i + 1, " (", Name(operands[i].dtype()), " ",
                                  OperandNoun(operands[i]),
                                  ") has a dtype the standard does not allow here: "
                                  "array-api-strict raises TypeError"));
    }
  }
  ASSIGN_OR_RETURN(const DType promoted, ResultType(operands, Policy::kArrayApi));
  if (!(numpy.categories & CategoryBitOf(promoted))) {
    return Invalid(absl::StrCat(name, " does not compute in ", Name(promoted),
                                ": array-api-strict raises TypeError"));
  }
  return RuleInput(framework.rule, promoted, Policy::kArrayApi);
}

// ldexp(x, i) (FrameworkRule::kLdexp): x's dtype alone, as NumPy's loops or
// jax.numpy's promote_args_inexact take it; i an integer.
absl::StatusOr<OpDTypes> LdexpDTypes(const FrameworkOp& framework,
                                     absl::Span<const Operand> operands, Policy policy) {
  ASSIGN_OR_RETURN(const DType exponent, ResultType(operands.subspan(1, 1), policy));
  const Promotion to_int64 = PromoteTypes(exponent, DType::kInt64, policy);
  const bool integer = policy == Policy::kNumpy ? to_int64.ok() && to_int64.dtype() == DType::kInt64
                                                : IsIntegerOrBool(exponent);
  if (!integer) {
    return Invalid(absl::StrCat(QualifiedName(framework, policy), ": the exponent (",
                                operands[1].Describe(), ") must be an integer",
                                policy == Policy::kNumpy ? " that casts safely to int64" : ""));
  }
  FrameworkOp mantissa = framework;
  mantissa.rule = policy == Policy::kNumpy ? FrameworkRule::kPromoted : FrameworkRule::kInexact;
  DType compute;
  if (policy == Policy::kNumpy) {
    // A Python scalar x that NEP 50 would give the exponent's dtype stays
    // weak and fits NumPy's first loop, float16 (ldexp(2, int64 array));
    // one that brings a kind of its own is that dtype (a Python float:
    // float64; an int beside a bool array: int64).
    Operand x = operands[0];
    if (x.is_scalar()) {
      const Operand neutral = x.kind() == Operand::Kind::kPyInt ? Operand::PyInt(0) : x;
      ASSIGN_OR_RETURN(const DType common, ResultType({neutral, operands[1]}, policy));
      x = common == exponent ? Operand::PyBool(true) : Operand::Tensor(common, 0);
    }
    ASSIGN_OR_RETURN(compute, NumpyLoop(mantissa, {x}));
  } else {
    ASSIGN_OR_RETURN(compute, PromoteThenRule(mantissa, operands.subspan(0, 1), policy));
  }
  return RuleOutput(mantissa.rule, compute, policy);
}

}  // namespace

const FrameworkOp* FrameworkOpOf(Op op, Policy policy) {
  const OpSpec& spec = SpecOf(op);
  switch (policy) {
    case Policy::kNumpy:
      return &spec.numpy;
    case Policy::kArrayApi:
      return &spec.array_api;
    case Policy::kJax:
    case Policy::kJaxX32:
    case Policy::kJaxStrict:
      return &spec.jax;
    case Policy::kMlx:
      return &spec.mlx;
    case Policy::kTorch:
      break;
  }
  return nullptr;
}

absl::string_view FrameworkName(Policy policy) {
  switch (policy) {
    case Policy::kTorch:
      return "PyTorch";
    case Policy::kNumpy:
      return "NumPy";
    case Policy::kArrayApi:
      return "the Array API";
    case Policy::kJax:
    case Policy::kJaxX32:
    case Policy::kJaxStrict:
      return "jax.numpy";
    case Policy::kMlx:
      return "MLX";
  }
  return "no framework";
}

namespace ops_internal {

absl::StatusOr<OpDTypes> InferFrameworkOpDTypes(Op op, absl::Span<const Operand> operands,
                                                Policy policy, std::optional<DType> dtype) {
  const FrameworkOp* framework = FrameworkOpOf(op, policy);
  if (framework == nullptr || !framework->present()) {
    return Invalid(absl::StrCat(FrameworkName(policy), " has no op '", OpName(op), "'"));
  }
  const std::string name = QualifiedName(*framework, policy);
  if (static_cast<int>(operands.size()) != OpArity(op)) {
    return Invalid(absl::StrCat(name, "() takes ", OpArity(op), " operand",
                                OpArity(op) == 1 ? "" : "s", ", got ", operands.size()));
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!IsValid(operands[i].dtype())) {
      return Invalid(absl::StrCat(name, "(): operand ", i + 1, " has an invalid dtype"));
    }
  }
  if (framework->rule == FrameworkRule::kLdexp) return LdexpDTypes(*framework, operands, policy);
  if (framework->zero_dim_unchanged && operands[0].is_tensor() && operands[0].ndim() == 0) {
    const DType same = operands[0].dtype();
    if (!promotion_internal::InPolicy(same, policy)) {
      return Invalid(
          absl::StrCat(name, "(): ", Name(same), " is not a dtype of ", FrameworkName(policy)));
    }
    return OpDTypes{same, same, OpMathDType(same)};
  }
  DType compute;
  switch (policy) {
    case Policy::kNumpy: {
      ASSIGN_OR_RETURN(compute, NumpyLoop(*framework, operands));
      break;
    }
    case Policy::kArrayApi: {
      ASSIGN_OR_RETURN(compute, ArrayApiCompute(*framework, SpecOf(op).numpy, operands));
      break;
    }
    case Policy::kMlx: {
      if (framework->scalars_as_arrays) {
        ASSIGN_OR_RETURN(const auto arrays, ScalarsAsArrays(operands));
        ASSIGN_OR_RETURN(compute, PromoteThenRule(*framework, arrays, policy));
      } else {
        ASSIGN_OR_RETURN(compute, PromoteThenRule(*framework, operands, policy));
      }
      break;
    }
    default: {
      ASSIGN_OR_RETURN(compute, PromoteThenRule(*framework, operands, policy));
      break;
    }
  }
  RETURN_IF_ERROR(CheckValues(*framework, operands, compute, policy));
  if (dtype.has_value()) {
    if (!SpecOf(op).takes_dtype) {
      return Invalid(absl::StrCat(name, "() got an unexpected keyword argument 'dtype'"));
    }
    return OpDTypes{*dtype, *dtype, OpMathDType(*dtype)};
  }
  return RuleOutput(framework->rule, compute, policy);
}

}  // namespace ops_internal

}  // namespace oneflow_promote::ops
