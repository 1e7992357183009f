// InferOpDTypes on the cases that PyTorch 2.15 answers differently from
// 1.13, and on its category rules. Expected dtypes and messages are
// PyTorch 2.15's (CPU, probed with tests/ops/cli_vs_torch.py's operand
// conventions); where 2.15 has no CPU kernel ("not implemented for"), the
// library computes, with the result dtype of the op's rule.

#include "oneflow_promote/ops/op_rules.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"

namespace oneflow_promote::ops {
namespace {

Operand T(DType d) { return Operand::Tensor(d, 1); }
Operand Py(double v) { return Operand::PyFloat(v); }

std::string Answer(Op op, std::vector<Operand> operands, DType default_dtype = DType::kFloat32) {
  const absl::StatusOr<OpDTypes> d = InferOpDTypes(op, operands, {default_dtype});
  if (!d.ok()) return absl::StrCat("error: ", d.status().message());
  if (d->result == d->compute) return std::string(Name(d->result));
  return absl::StrCat(Name(d->result), " (computed in ", Name(d->compute), ")");
}

// PyTorch 2.15's errors for same-dtype tensors that are rules (the op has no
// meaning for the category), by category; every other dtype computes.
struct CategoryRule {
  Op op;
  std::vector<Category> rejected;
  std::string message;  // with NAME for the dtype
};

const std::vector<CategoryRule>& CategoryRules() {
  using C = Category;
  static const auto* rules = new std::vector<CategoryRule>{
      {Op::kSub, {C::kBool}, "Subtraction, the `-` operator, with two bool tensors"},
      {Op::kNeg, {C::kBool}, "Negation, the `-` operator, on a bool tensor"},
      {Op::kDivFloor, {C::kBool, C::kComplex}, "\"div_floor_cpu\" not implemented for 'NAME'"},
      {Op::kFloorDivide, {C::kBool, C::kComplex}, "\"div_floor_cpu\" not implemented for 'NAME'"},
      {Op::kDivTrunc, {C::kBool, C::kComplex}, "\"div_trunc_cpu\" not implemented for 'NAME'"},
      {Op::kRemainder, {C::kBool, C::kComplex}, "\"remainder_cpu\" not implemented for 'NAME'"},
      {Op::kPow, {C::kBool}, "\"pow\" not implemented for 'NAME'"},
      {Op::kMaximum, {C::kComplex}, "maximum not implemented for complex tensors."},
      {Op::kMinimum, {C::kComplex}, "minimum not implemented for complex tensors."},
      {Op::kAtan2, {C::kComplex}, "\"atan2_cpu\" not implemented for 'NAME'"},
      {Op::kLt, {C::kComplex}, "\"lt_cpu\" not implemented for 'NAME'"},
      {Op::kLe, {C::kComplex}, "\"le_cpu\" not implemented for 'NAME'"},
      {Op::kGt, {C::kComplex}, "\"gt_cpu\" not implemented for 'NAME'"},
      {Op::kGe, {C::kComplex}, "\"ge_cpu\" not implemented for 'NAME'"},
      {Op::kBitwiseAnd,
       {C::kFloating, C::kComplex},
       "\"bitwise_and_cpu\" not implemented for 'NAME'"},
      {Op::kBitwiseOr,
       {C::kFloating, C::kComplex},
       "\"bitwise_or_cpu\" not implemented for 'NAME'"},
      {Op::kBitwiseXor,
       {C::kFloating, C::kComplex},
       "\"bitwise_xor_cpu\" not implemented for 'NAME'"},
      {Op::kDot, {C::kBool}, "\"dot\" not implemented for 'NAME'"},
      {Op::kMean,
       {C::kBool, C::kUnsigned, C::kSigned},
       "mean(): could not infer output dtype. Input dtype must be either a floating point or "
       "complex dtype. Got: NAME"},
      {Op::kAbs, {C::kBool}, "\"abs_cpu\" not implemented for 'NAME'"},
  };
  return *rules;
}

TEST(OpRules, EachOpComputesEveryDTypeOfItsCategories) {
  for (Op op : kKernelOps) {
    const CategoryRule* rule = nullptr;
    for (const CategoryRule& r : CategoryRules()) {
      if (r.op == op) rule = &r;
    }
    for (DType d : kAllDTypes) {
      std::vector<Operand> operands(OpArity(op), T(d));
      if (op == Op::kWhere) operands[0] = T(DType::kBool);
      bool rejected = false;
      if (rule != nullptr) {
        for (Category c : rule->rejected) rejected |= CategoryOf(d) == c;
      }
      const std::string answer = Answer(op, operands);
      SCOPED_TRACE(absl::StrCat(OpName(op), "(", Name(d), "): ", answer));
      if (!rejected) {
        EXPECT_FALSE(absl::StartsWith(answer, "error")) << "must compute";
        continue;
      }
      std::string message = rule->message;
      if (const size_t at = message.find("NAME"); at != std::string::npos) {
        message.replace(at, 4, std::string(Name(d)));
      }
      EXPECT_TRUE(absl::StartsWith(answer, "error: " + message)) << "expected " << message;
    }
  }
}

// Cases where 2.15's CPU kernels exist now (1.13 raised) and cases where
// they still do not and the library computes anyway.
TEST(OpRules, NewestDTypes) {
  // PyTorch 2.15 computes these.
  EXPECT_EQ(Answer(Op::kMul, {T(DType::kUInt16), T(DType::kUInt16)}), "uint16");
  EXPECT_EQ(Answer(Op::kEq, {T(DType::kFloat8E4M3FN), T(DType::kFloat8E4M3FN)}),
            "bool (computed in float8_e4m3fn)");
  EXPECT_EQ(Answer(Op::kBitwiseXor, {T(DType::kUInt64), Operand::PyInt(3)}), "uint64");
  EXPECT_EQ(Answer(Op::kMaximum, {T(DType::kUInt32), T(DType::kUInt32)}), "uint32");
  EXPECT_EQ(Answer(Op::kAtan2, {T(DType::kFloat16), T(DType::kFloat16)}), "float16");
  EXPECT_EQ(Answer(Op::kAtan2, {T(DType::kUInt16), T(DType::kUInt16)}), "float32");
  EXPECT_EQ(Answer(Op::kSum, {T(DType::kUInt16)}), "int64");
  EXPECT_EQ(Answer(Op::kCumsum, {T(DType::kUInt64)}), "int64");
  EXPECT_EQ(Answer(Op::kProd, {T(DType::kUInt32)}), "int64");
  EXPECT_EQ(Answer(Op::kAbs, {T(DType::kFloat8E5M2)}), "float8_e5m2");
  EXPECT_EQ(Answer(Op::kDot, {T(DType::kFloat16), T(DType::kFloat16)}), "float16");
  EXPECT_EQ(Answer(Op::kProd, {T(DType::kBFloat16)}), "bfloat16");
  EXPECT_EQ(Answer(Op::kSqrt, {T(DType::kFloat16)}), "float16");
  EXPECT_EQ(Answer(Op::kDiv, {T(DType::kUInt64), T(DType::kUInt64)}, DType::kFloat64), "float64");
  // PyTorch 2.15 has no CPU kernel; the library computes.
  EXPECT_EQ(Answer(Op::kAdd, {T(DType::kUInt64), T(DType::kUInt64)}), "uint64");
  EXPECT_EQ(Answer(Op::kAdd, {T(DType::kFloat8E4M3FN), Py(1.5)}), "float8_e4m3fn");
  EXPECT_EQ(Answer(Op::kLt, {T(DType::kUInt16), T(DType::kUInt16)}), "bool (computed in uint16)");
  EXPECT_EQ(Answer(Op::kFloorDivide, {T(DType::kUInt32), T(DType::kUInt32)}), "uint32");
  EXPECT_EQ(Answer(Op::kNeg, {T(DType::kUInt16)}), "uint16");
  EXPECT_EQ(Answer(Op::kDiv, {T(DType::kComplex32), T(DType::kComplex32)}), "complex32");
  EXPECT_EQ(Answer(Op::kSum, {T(DType::kFloat8E4M3FN)}), "float8_e4m3fn");
  EXPECT_EQ(Answer(Op::kMean, {T(DType::kFloat8E5M2)}), "float8_e5m2");
  EXPECT_EQ(Answer(Op::kAbs, {T(DType::kComplex32)}), "float16 (computed in complex32)");
  EXPECT_EQ(Answer(Op::kDot, {T(DType::kUInt16), T(DType::kUInt16)}), "uint16");
  EXPECT_EQ(Answer(Op::kPow, {T(DType::kComplex32), Operand::PyInt(2)}), "complex32");
  EXPECT_EQ(Answer(Op::kLogicalAnd, {T(DType::kComplex32), T(DType::kComplex32)}),
            "bool (computed in complex32)");
  // Promotion still refuses to mix them with other dtypes.
  EXPECT_TRUE(absl::StrContains(Answer(Op::kAdd, {T(DType::kUInt16), T(DType::kInt8)}),
                                "Promotion for uint16, uint32, uint64 types is not supported"));
  EXPECT_TRUE(absl::StrContains(Answer(Op::kMul, {T(DType::kFloat8E4M3FN), T(DType::kFloat32)}),
                                "Promotion for Float8 Types is not supported"));
  // A Python int divisor that wraps to 0 in the compute dtype is the
  // kernel's to refuse, element by element, as PyTorch's CPU kernel does.
  EXPECT_EQ(Answer(Op::kFloorDivide, {T(DType::kUInt16), Operand::PyInt(65536)}), "uint16");
}

// PyTorch 2.15 runs result_type on operands of one dtype, so Python floats
// alone compute in the default dtype; neg, abs and reductions keep theirs.
// Scalars are taken in every position, as libtorch's C++ API takes wrapped
// numbers (PythonSignature below is the Python call's stricter check).
TEST(OpRules, PythonScalarsAlone) {
  EXPECT_EQ(Answer(Op::kAdd, {Py(1.5), Py(2.5)}), "float32");
  EXPECT_EQ(Answer(Op::kAdd, {Py(1.5), Py(2.5)}, DType::kFloat64), "float64");
  EXPECT_EQ(Answer(Op::kMul, {Operand::PyComplex({0, 2}), Operand::PyComplex({0, 2})}),
            "complex64");
  EXPECT_EQ(Answer(Op::kMaximum, {Py(1.5), Py(2.5)}), "float32");
  EXPECT_EQ(Answer(Op::kDiv, {Operand::PyInt(1), Operand::PyInt(2)}), "float32");
  EXPECT_EQ(Answer(Op::kAdd, {Operand::PyInt(1), Operand::PyInt(2)}), "int64");
  EXPECT_EQ(Answer(Op::kSqrt, {Py(1.5)}), "float32");
  EXPECT_EQ(Answer(Op::kSum, {Py(1.5)}), "float64");
  EXPECT_EQ(Answer(Op::kNeg, {Py(1.5)}), "float64");
  EXPECT_EQ(Answer(Op::kAbs, {Operand::PyComplex({0, 2})}), "float64 (computed in complex128)");
  // 1.13's kernel asserted on a Python-scalar condition here; 2.15 computes.
  EXPECT_EQ(Answer(Op::kWhere, {Operand::PyBool(true), Py(1.5), Py(2.5)}), "float32");
}

// torch's Python signatures: scalars only where the op's row says, alone
// only for add, sub, mul and the divisions; the messages are its parser's.
TEST(OpRules, PythonSignature) {
  const auto signature = [](Op op, std::vector<Operand> operands) {
    const absl::Status s = CheckPythonSignature(RuleOf(op), operands);
    return s.ok() ? std::string("ok") : std::string(s.message());
  };
  const Operand f32 = T(DType::kFloat32);
  EXPECT_EQ(signature(Op::kAdd, {Py(1.5), Py(2.5)}), "ok");
  EXPECT_EQ(signature(Op::kAdd, {Py(1.5), f32}), "ok");
  EXPECT_EQ(signature(Op::kSqrt, {Py(1.5)}),
            "sqrt(): argument 'input' (position 1) must be Tensor, not float");
  EXPECT_EQ(signature(Op::kAtan2, {f32, Operand::PyInt(2)}),
            "atan2(): argument 'other' (position 2) must be Tensor, not int");
  EXPECT_EQ(signature(Op::kMaximum, {Operand::PyBool(true), f32}),
            "maximum(): argument 'input' (position 1) must be Tensor, not bool");
  EXPECT_EQ(signature(Op::kEq, {f32, Operand::PyComplex({0, 2})}), "ok");
  EXPECT_EQ(signature(Op::kEq, {Operand::PyComplex({0, 2}), f32}),
            "eq(): argument 'input' (position 1) must be Tensor, not complex");
  EXPECT_NE(signature(Op::kPow, {Operand::PyInt(2), Py(2.5)}), "ok");
  EXPECT_EQ(signature(Op::kPow, {Operand::PyInt(2), f32}), "ok");
  EXPECT_NE(signature(Op::kWhere, {Operand::PyBool(true), Py(1.5), Py(2.5)}), "ok");
  EXPECT_EQ(signature(Op::kWhere, {Operand::Tensor(DType::kBool, 0), Py(1.5), Py(2.5)}), "ok");
  EXPECT_EQ(signature(Op::kClamp, {f32, Py(1.5), Operand::PyInt(3)}), "ok");
}

TEST(OpRules, PowSkipsItsKernelForExponentsZeroAndOne) {
  // In 2.15 a bool exponent counts as 0 or 1; a bool base never counts as 1.
  EXPECT_EQ(Answer(Op::kPow, {T(DType::kBool), Operand::PyBool(true)}), "bool");
  EXPECT_EQ(Answer(Op::kPow, {T(DType::kBool), Operand::PyBool(false)}), "bool");
  EXPECT_EQ(Answer(Op::kPow, {T(DType::kBool), Operand::PyInt(2)}), "int64");
  EXPECT_EQ(Answer(Op::kPow, {T(DType::kBool), T(DType::kBool)}),
            "error: \"pow\" not implemented for 'bool'");
  EXPECT_EQ(Answer(Op::kPow, {Operand::PyBool(true), T(DType::kBool)}),
            "error: \"pow\" not implemented for 'bool'");
  EXPECT_EQ(Answer(Op::kPow, {Operand::PyInt(1), T(DType::kBool)}), "int64");
  EXPECT_EQ(Answer(Op::kPow, {T(DType::kUInt8), Operand::PyInt(-2)}),
            "error: Integers to negative integer powers are not allowed.");
  EXPECT_EQ(Answer(Op::kPow, {T(DType::kInt8), Operand::PyInt(255)}),
            "error: value 255 cannot be converted to type int8 without overflow");
  EXPECT_EQ(Answer(Op::kPow, {T(DType::kBFloat16), Operand::PyInt(70000)}), "bfloat16");
  EXPECT_EQ(Answer(Op::kPow, {T(DType::kFloat16), Operand::PyInt(70000)}),
            "error: value 70000 cannot be converted to type float16 without overflow");
}

TEST(OpRules, WhereScalarsAndCondition) {
  const Operand c = T(DType::kBool);
  // 2.15 fills float16, bfloat16 and float8 results unchecked; others are checked.
  EXPECT_EQ(Answer(Op::kWhere, {c, T(DType::kFloat16), Operand::PyInt(70000)}), "float16");
  EXPECT_EQ(Answer(Op::kWhere, {c, T(DType::kBFloat16), Py(1e300)}), "bfloat16");
  EXPECT_EQ(Answer(Op::kWhere, {c, T(DType::kFloat8E4M3FN), Py(1e300)}), "float8_e4m3fn");
  EXPECT_EQ(Answer(Op::kWhere, {c, T(DType::kFloat32), Py(1e300)}),
            "error: value 1e+300 cannot be converted to type float32 without overflow");
  EXPECT_EQ(Answer(Op::kWhere, {c, T(DType::kComplex32), Operand::PyInt(70000)}),
            "error: value 70000 cannot be converted to type complex32 without overflow");
  EXPECT_EQ(Answer(Op::kWhere, {c, T(DType::kInt8), Operand::PyInt(255)}),
            "error: value 255 cannot be converted to type int8 without overflow");
  EXPECT_EQ(Answer(Op::kWhere, {c, T(DType::kUInt8), Operand::PyInt(-2)}), "uint8");
  EXPECT_EQ(Answer(Op::kWhere, {c, T(DType::kUInt64), T(DType::kUInt64)}), "uint64");
  // uint8 conditions are still accepted (deprecated); others are checked
  // after the values.
  EXPECT_EQ(Answer(Op::kWhere, {T(DType::kUInt8), T(DType::kFloat32), T(DType::kFloat32)}),
            "float32");
  EXPECT_EQ(Answer(Op::kWhere, {T(DType::kInt8), T(DType::kFloat32), T(DType::kFloat32)}),
            "error: where expected condition to be a boolean tensor, but got a tensor with dtype "
            "int8");
  EXPECT_EQ(Answer(Op::kWhere, {T(DType::kInt8), T(DType::kBool), Py(1e300)}),
            "error: value 1e+300 cannot be converted to type float32 without overflow");
}

// lerp's Scalar overload runs on start's dtype and converts the weight,
// checked, to the kernel's opmath type; a 0-d weight is promoted instead.
TEST(OpRules, LerpWeight) {
  const auto lerp = [](DType start, Operand weight) {
    return Answer(Op::kLerp, {T(start), T(start), weight});
  };
  EXPECT_EQ(lerp(DType::kFloat16, Py(1e10)), "float16");
  EXPECT_EQ(lerp(DType::kFloat16, Py(1e300)),
            "error: value cannot be converted to type float without overflow");
  EXPECT_EQ(lerp(DType::kFloat64, Py(1e300)), "float64");
  EXPECT_EQ(lerp(DType::kComplex64, Py(1e300)),
            "error: value cannot be converted to type c10::complex<float> without overflow");
  EXPECT_EQ(lerp(DType::kFloat32, Operand::PyComplex({2.0, 0.0})), "float32");
  EXPECT_EQ(lerp(DType::kFloat64, Operand::PyComplex({0.0, 1.0})),
            "error: value cannot be converted to type double without overflow");
  EXPECT_EQ(lerp(DType::kComplex64, Operand::PyComplex({0.0, 1.0})), "complex64");
  EXPECT_EQ(lerp(DType::kBFloat16, Operand::PyBool(true)), "bfloat16");
  EXPECT_TRUE(absl::StrContains(lerp(DType::kInt16, Py(2.5)), "not implemented for 'int16'"));
  EXPECT_EQ(lerp(DType::kFloat32, Operand::Tensor(DType::kFloat64, 0)), "float32");
  EXPECT_EQ(lerp(DType::kFloat32, Operand::Tensor(DType::kComplex64, 0)), "complex64");
}

// ldexp of a complex input multiplies by pow(2, other) with 2 a 0-d tensor of
// the input's dtype: a 0-d exponent meets it in one bucket.
TEST(OpRules, LdexpOfComplex) {
  EXPECT_EQ(Answer(Op::kLdexp, {T(DType::kComplex64), T(DType::kUInt16)}), "complex64");
  EXPECT_EQ(Answer(Op::kLdexp, {T(DType::kComplex64), Operand::Tensor(DType::kInt16, 0)}),
            "complex64");
  EXPECT_EQ(Answer(Op::kLdexp, {T(DType::kComplex128), Operand::Tensor(DType::kUInt32, 0)}),
            "error: Promotion for uint16, uint32, uint64 types is not supported, attempted to "
            "promote complex128 and uint32");
}

TEST(OpRules, BuiltinRulesFollowTheOpList) {
  for (Op op : kAllOps) {
    EXPECT_EQ(RuleOf(op).name, OpName(op));
    EXPECT_EQ(RuleOf(op).arity, OpArity(op)) << OpName(op);
  }
}

// A framework's own op, declared in a line; expected dtypes and message are
// PyTorch 2.15's torch.copysign (CPU).
TEST(OpRules, DeclaredOpFollowsItsKind) {
  constexpr OpRule kCopysign = {"copysign", 2, PromotionKind::kIntToFloat, kRealCategories,
                                "copysign_cpu"};
  const auto dtypes = [&](std::vector<Operand> operands) {
    return InferOpDTypes(kCopysign, operands);
  };
  absl::StatusOr<OpDTypes> ints = dtypes({T(DType::kInt8), T(DType::kInt8)});
  ASSERT_TRUE(ints.ok()) << ints.status();
  EXPECT_EQ(ints->result, DType::kFloat32);
  EXPECT_EQ(ints->compute, DType::kFloat32);
  absl::StatusOr<OpDTypes> half = dtypes({T(DType::kFloat16), T(DType::kInt64)});
  ASSERT_TRUE(half.ok()) << half.status();
  EXPECT_EQ(half->result, DType::kFloat16);
  EXPECT_EQ(half->opmath, DType::kFloat32);  // PyTorch's opmath
  absl::StatusOr<OpDTypes> scalar = dtypes({T(DType::kInt8), Py(2.5)});
  ASSERT_TRUE(scalar.ok()) << scalar.status();
  EXPECT_EQ(scalar->result, DType::kFloat32);
  EXPECT_EQ(dtypes({T(DType::kComplex64), T(DType::kComplex64)}).status().message(),
            "\"copysign_cpu\" not implemented for 'complex64'");
  EXPECT_EQ(dtypes({T(DType::kInt8)}).status().message(), "copysign() takes 2 operands, got 1");
}

// where computes in its values' dtype (NO_OPMATH); add of float16 in float32.
TEST(OpRules, OpMath) {
  absl::StatusOr<OpDTypes> where =
      InferOpDTypes(Op::kWhere, {T(DType::kBool), T(DType::kFloat16), T(DType::kFloat16)});
  ASSERT_TRUE(where.ok()) << where.status();
  EXPECT_EQ(where->opmath, DType::kFloat16);
  absl::StatusOr<OpDTypes> add =
      InferOpDTypes(Op::kAdd, {T(DType::kComplex32), T(DType::kFloat16)});
  ASSERT_TRUE(add.ok()) << add.status();
  EXPECT_EQ(add->compute, DType::kComplex32);
  EXPECT_EQ(add->opmath, DType::kComplex64);
}

// torch.add(..., alpha=) on PyTorch 2.15: the checks run against the dtype
// the op computes in.
TEST(OpRules, AddAlpha) {
  EXPECT_TRUE(CheckAlpha(DType::kFloat32, Py(1.5)).ok());  // int32 + float32, alpha=1.5
  EXPECT_TRUE(CheckAlpha(DType::kBool, Operand::PyBool(true)).ok());
  EXPECT_TRUE(CheckAlpha(DType::kInt32, Operand::PyInt(2)).ok());
  EXPECT_TRUE(CheckAlpha(DType::kComplex64, Operand::PyComplex({0, 1})).ok());
  EXPECT_EQ(CheckAlpha(DType::kInt32, Py(1.5)).message(),
            "For integral input tensors, argument alpha must not be a floating point number.");
  EXPECT_EQ(CheckAlpha(DType::kInt32, Operand::PyBool(true)).message(),
            "Boolean alpha only supported for Boolean results.");
  EXPECT_EQ(CheckAlpha(DType::kFloat32, Operand::PyComplex({0, 1})).message(),
            "For non-complex input tensors, argument alpha must not be a complex number.");
}

// Gradient dtypes as torch.autograd gives them (PyTorch 2.15):
// (float16 * float32).backward() gives float16 and float32 gradients,
// float64 * complex64 a float64 one (the real part) and a complex64 one,
// int64 operands and where's condition none, comparisons no result grad.
TEST(OpRules, GradientDTypes) {
  const auto gradients = [](Op op, std::vector<Operand> operands) {
    const OpDTypes dtypes = *InferOpDTypes(op, operands);
    std::vector<std::string> names;
    for (size_t i = 0; i < operands.size(); ++i) {
      const std::optional<DType> g = GradientDType(RuleOf(op), operands, i, dtypes);
      names.push_back(g.has_value() ? std::string(Name(*g)) : "none");
    }
    return absl::StrJoin(names, " ");
  };
  EXPECT_EQ(gradients(Op::kMul, {T(DType::kFloat16), T(DType::kFloat32)}), "float16 float32");
  EXPECT_EQ(gradients(Op::kMul, {T(DType::kFloat64), T(DType::kComplex64)}), "float64 complex64");
  EXPECT_EQ(gradients(Op::kAdd, {T(DType::kFloat32), T(DType::kInt64)}), "float32 none");
  EXPECT_EQ(gradients(Op::kAdd, {T(DType::kFloat32), Py(2.5)}), "float32 none");
  EXPECT_EQ(gradients(Op::kWhere, {T(DType::kBool), T(DType::kFloat32), T(DType::kInt32)}),
            "none float32 none");
  EXPECT_EQ(gradients(Op::kAbs, {T(DType::kComplex64)}), "complex64");
  EXPECT_EQ(gradients(Op::kEq, {T(DType::kFloat32), T(DType::kFloat32)}), "none none");
  EXPECT_FALSE(ResultRequiresGrad(*InferOpDTypes(Op::kLt, {T(DType::kFloat32), Py(1.0)})));
  EXPECT_TRUE(ResultRequiresGrad(*InferOpDTypes(Op::kDiv, {T(DType::kInt8), T(DType::kInt8)})));
  EXPECT_EQ(RuleOf(Op::kFloorDivide).derivative, Derivative::kNotImplemented);
  EXPECT_EQ(RuleOf(Op::kDivFloor).derivative, Derivative::kDefined);  // zero gradients
  EXPECT_TRUE(BackwardRaises(RuleOf(Op::kRemainder).derivative, /*scalar_self=*/true));
  EXPECT_FALSE(BackwardRaises(RuleOf(Op::kRemainder).derivative, /*scalar_self=*/false));
}

// The same calls in five frameworks, each answer read from the framework
// itself on 2026-12-04 (numpy 2.4.6, array-api-strict 2.6.1, jax.numpy 0.10.2
// with x64 off) and 2026-12-06 (mlx 0.32.4 on the CPU); "error" where it
// raises. The case files of tests/numpy, tests/jax, tests/array_api and
// tests/mlx hold every function; these are the rows that show how the
// frameworks part.
TEST(OpRules, EachFrameworkDecidesItsOwnDTypes) {
  const auto answer = [](Op op, std::vector<Operand> operands, Policy policy) -> std::string {
    const absl::StatusOr<OpDTypes> d = InferOpDTypes(op, operands, {}, policy);
    return d.ok() ? std::string(Name(d->result)) : "error";
  };
  struct Row {
    Op op;
    std::vector<Operand> operands;
    const char* numpy;
    const char* array_api;
    const char* jax_x32;
    const char* mlx;
    const char* torch;
  };
  const Operand i8 = T(DType::kInt8);
  const std::vector<Row> rows = {
      {Op::kSin, {i8}, "float16", "error", "float32", "float32", "float32"},
      {Op::kSin, {T(DType::kInt64)}, "float64", "error", "float32", "float32", "float32"},
      {Op::kSqrt, {T(DType::kInt16)}, "float32", "error", "float32", "float32", "float32"},
      {Op::kDiv, {i8, i8}, "float64", "error", "float32", "float32", "float32"},
      {Op::kMean, {i8}, "float64", "error", "float32", "float32", "error"},
      {Op::kSum, {T(DType::kUInt8)}, "uint64", "uint64", "uint32", "uint32", "int64"},
      {Op::kSum, {Operand::Tensor(DType::kBool, 0)}, "int64", "error", "int32", "bool", "int64"},
      {Op::kSquare, {T(DType::kBool)}, "int8", "error", "int32", "bool", "int64"},
      {Op::kAdd, {i8, Py(2.5)}, "float64", "error", "float32", "float32", "float32"},
      {Op::kAdd, {i8, Operand::PyInt(300)}, "error", "error", "int8", "error", "int8"},
      {Op::kLogicalAnd, {i8, Operand::PyInt(300)}, "bool", "error", "bool", "bool", "bool"},
      {Op::kArgmax, {i8}, "int64", "int64", "int32", "uint32", "int64"},
      {Op::kAbs, {T(DType::kComplex64)}, "float32", "float32", "float32", "float32", "float32"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(OpName(row.op));
    EXPECT_EQ(answer(row.op, row.operands, Policy::kNumpy), row.numpy);
    EXPECT_EQ(answer(row.op, row.operands, Policy::kArrayApi), row.array_api);
    EXPECT_EQ(answer(row.op, row.operands, Policy::kJaxX32), row.jax_x32);
    EXPECT_EQ(answer(row.op, row.operands, Policy::kMlx), row.mlx);
    EXPECT_EQ(answer(row.op, row.operands, Policy::kTorch), row.torch);
  }
  // heaviside is NumPy's and jax.numpy's, not the Array API's.
  EXPECT_EQ(answer(Op::kHeaviside, {i8, i8}, Policy::kNumpy), "float16");
  EXPECT_EQ(answer(Op::kHeaviside, {i8, i8}, Policy::kJaxX32), "float32");
  const absl::StatusOr<OpDTypes> none =
      InferOpDTypes(Op::kHeaviside, {i8, i8}, {}, Policy::kArrayApi);
  EXPECT_TRUE(absl::StrContains(none.status().message(), "the Array API has no op 'heaviside'"))
      << none.status();
  // A built-in op's rule answers as its framework under that policy too (the
  // TensorProcessor's path).
  EXPECT_EQ(InferOpDTypes(RuleOf(Op::kSin), {i8}, {}, Policy::kNumpy)->compute, DType::kFloat16);
}

TEST(OpRules, ParsesEachFrameworksNames) {
  EXPECT_EQ(*ParseOp("arctan2", Policy::kNumpy), Op::kAtan2);
  EXPECT_EQ(*ParseOp("atan2", Policy::kArrayApi), Op::kAtan2);
  EXPECT_EQ(*ParseOp("pow", Policy::kArrayApi), Op::kPow);
  EXPECT_EQ(*ParseOp("invert", Policy::kJax), Op::kBitwiseNot);
  EXPECT_EQ(*ParseOp("bitwise_invert", Policy::kArrayApi), Op::kBitwiseNot);
  EXPECT_EQ(*ParseOp("cumulative_sum", Policy::kArrayApi), Op::kCumsum);
  EXPECT_EQ(*ParseOp("left_shift", Policy::kMlx), Op::kBitwiseLeftShift);
  EXPECT_EQ(*ParseOp("bitwise_invert", Policy::kMlx), Op::kBitwiseNot);
  EXPECT_FALSE(ParseOp("heaviside", Policy::kMlx).ok());
  EXPECT_FALSE(ParseOp("arctan2", Policy::kArrayApi).ok());
  EXPECT_FALSE(ParseOp("cumulative_sum", Policy::kNumpy).ok());
  EXPECT_EQ(OpName(Op::kAtan2, Policy::kNumpy), "arctan2");
  EXPECT_EQ(OpName(Op::kHeaviside, Policy::kArrayApi), "");
  // np.cbrt has no torch.cbrt: under torch it is unknown, never a guess.
  EXPECT_EQ(*ParseOp("cbrt", Policy::kNumpy), Op::kCbrt);
  EXPECT_FALSE(ParseOp("cbrt").ok());
  EXPECT_EQ(OpName(Op::kCbrt, Policy::kTorch), "");
  const absl::StatusOr<OpDTypes> cbrt = InferOpDTypes(Op::kCbrt, {T(DType::kInt8)});
  EXPECT_TRUE(absl::StrContains(cbrt.status().message(), "PyTorch has no op 'cbrt'"))
      << cbrt.status();
}

}  // namespace
}  // namespace oneflow_promote::ops
