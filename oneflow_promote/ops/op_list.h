// The op table: every op of the library declared once, as one row of an
// X-macro list. A row names the op's enumerator and an OpSpec built with
// named setters: PyTorch's name and aliases, arity, kind, promotion kind,
// dtype categories, floors, checks, which operands may be Python scalars,
// whether PyTorch's backward raises, the PyTorch overloads and autocast
// lists, and how NumPy, jax.numpy and the Array API decide it (op_spec.h
// says what each setter means); an op with a kernel sits in the first of
// two lists. The Op enum, the rules (op_rules.h), ParseOp, the CLI, the C
// ABIs, functional::Call and its named forms, the pipe's autocast lists and
// the kernels' dispatch all derive from it. Free of Abseil, for nvcc.
//
// Adding an op whose element shape exists is one row here plus its tests;
// tests/ops/generate_cases.py holds the PyTorch call that checks its rule,
// and each framework's generate_op_cases.py already calls its functions.
// An op with a kernel adds its element function in
// functional/internal/op_math.h, and the files docs/integration.md lists.

#ifndef ONEFLOW_PROMOTE_OPS_OP_LIST_H_
#define ONEFLOW_PROMOTE_OPS_OP_LIST_H_

#include <array>
#include <cstddef>

#include "oneflow_promote/ops/op_spec.h"

namespace oneflow_promote::ops {

// X(Name, spec): every op, in two lists; the enumerator is Op::kName. The
// ops of the first have kernels: functional::Call runs them, and each has a
// named form, functional::Name. The rest have dtype rules only.
// clang-format off
#define ONEFLOW_PROMOTE_FOR_EACH_KERNEL_OP(X)                                                      \
  X(Add, BinaryRow("add").Scalars(kScalarEither | kScalarsAlone).InTorchExtension().Alpha()        \
      .Numpy(Promoted()).Jax(Promoted()).ArrayApi(Promoted(kNumberCategories))                     \
      .Gradient(GradientFormula::kSum)                                                             \
      .Mlx(Promoted()))                                                                            \
  X(Sub, BinaryRow("sub").Alias("subtract").Categories(kNumberCategories)                          \
      .Scalars(kScalarEither | kScalarsAlone).Check(OpCheck::kNoBoolOperand).InTorchExtension()    \
      .Alpha().Numpy(Promoted(kNumberCategories).Named("subtract").ExactLoop())                    \
      .Jax(Promoted(kNumberCategories).Named("subtract"))                                          \
      .ArrayApi(Promoted(kNumberCategories).Named("subtract")).Gradient(GradientFormula::kSum)     \
      .Mlx(Promoted().Named("subtract")))                                                          \
  X(Mul, BinaryRow("mul").Alias("multiply").Scalars(kScalarEither | kScalarsAlone)                 \
      .InTorchExtension().Numpy(Promoted().Named("multiply")).Jax(Promoted().Named("multiply"))    \
      .ArrayApi(Promoted(kNumberCategories).Named("multiply"))                                     \
      .Gradient(GradientFormula::kProduct)                                                         \
      .Mlx(Promoted().Named("multiply")))                                                          \
  X(Div, BinaryRow("div").Alias("divide true_divide").IntToFloat()                                 \
      .Scalars(kScalarEither | kScalarsAlone).InTorchExtension().RoundingMode()                    \
      .Numpy(Inexact().Named("divide true_divide")).Jax(Inexact().Named("divide true_divide"))     \
      .ArrayApi(Promoted(kInexactCategories).Named("divide"))                                      \
      .Gradient(GradientFormula::kQuotient)                                                        \
      .Mlx(Inexact().Named("divide")))                                                             \
  X(DivFloor, BinaryRow("div_floor").Alias("div(rounding_mode=floor)")                             \
      .Categories(kIntegersAndFloats).KernelName("div_floor_cpu")                                  \
      .Scalars(kScalarEither | kScalarsAlone).Gradient(GradientFormula::kZero))                    \
  X(DivTrunc, BinaryRow("div_trunc").Alias("div(rounding_mode=trunc)")                             \
      .Categories(kIntegersAndFloats).KernelName("div_trunc_cpu")                                  \
      .Scalars(kScalarEither | kScalarsAlone).Gradient(GradientFormula::kZero))                    \
  X(FloorDivide, BinaryRow("floor_divide").Categories(kIntegersAndFloats)                          \
      .KernelName("div_floor_cpu").Scalars(kScalarEither | kScalarsAlone).NoDerivative()           \
      .InTorchExtension().Numpy(Promoted(kIntegersAndFloats)).Jax(Numeric(kRealCategories))        \
      .ArrayApi(Promoted(kIntegersAndFloats))                                                      \
      .Mlx(Promoted()))                                                                            \
  X(Remainder, BinaryRow("remainder").Categories(kIntegersAndFloats).KernelName("remainder_cpu")   \
      .Scalars(kScalarEither).InTorchExtension()                                                   \
      .Numpy(Promoted(kIntegersAndFloats).Named("remainder mod"))                                  \
      .Jax(Numeric(kRealCategories).Named("remainder mod"))                                        \
      .ArrayApi(Promoted(kIntegersAndFloats)).Gradient(GradientFormula::kRemainder)                \
      .NoDerivative(Derivative::kNotImplementedForScalarSelf)                                      \
      .Mlx(Promoted(kRealCategories)))                                                             \
  X(Pow, BinaryRow("pow").BoolToLong().Categories(kNumberCategories).Check(OpCheck::kPow)          \
      .Scalars(kScalarEither).AutoCastCuda(AutoCastKind::kFloat32)                                 \
      .Numpy(Promoted(kNumberCategories).Named("power pow").Check(FrameworkCheck::kIntPower))      \
      .Jax(Numeric().Named("power pow"))                                                           \
      .ArrayApi(Promoted(kNumberCategories).Check(FrameworkCheck::kIntPower))                      \
      .Mlx(Promoted().Named("power pow")))                                                         \
  X(Maximum, BinaryRow("maximum").Categories(kRealCategories).Check(OpCheck::kNoComplexOperand)    \
      .InTorchExtension().NoInPlace().Numpy(Promoted()).Jax(Promoted())                            \
      .ArrayApi(Promoted(kIntegersAndFloats)).Gradient(GradientFormula::kExtremum)                 \
      .Mlx(Promoted()))                                                                            \
  X(Minimum, BinaryRow("minimum").Categories(kRealCategories).Check(OpCheck::kNoComplexOperand)    \
      .InTorchExtension().NoInPlace().Numpy(Promoted()).Jax(Promoted())                            \
      .ArrayApi(Promoted(kIntegersAndFloats)).Gradient(GradientFormula::kExtremum)                 \
      .Mlx(Promoted()))                                                                            \
  X(Atan2, BinaryRow("atan2").Alias("arctan2").IntToFloat().Categories(kRealCategories)            \
      .KernelName("atan2_cpu").InTorchExtension().AutoCastCuda(AutoCastKind::kPromote)             \
      .Numpy(Promoted(kFloatingCategory).Named("arctan2 atan2"))                                   \
      .Jax(Inexact().Named("arctan2 atan2")).ArrayApi(Promoted(kFloatingCategory))                 \
      .Gradient(GradientFormula::kAtan2)                                                           \
      .Mlx(Inexact(kFloatingCategory).Named("arctan2 atan2")))                                     \
  X(Eq, BinaryRow("eq").AlwaysBool().Scalars(kScalarSecond).InTorchExtension()                     \
      .Numpy(ReturnsBool().Named("equal")).Jax(ReturnsBool().Named("equal"))                       \
      .ArrayApi(ReturnsBool().Named("equal")).Gradient(GradientFormula::kZero)                     \
      .Mlx(ReturnsBool().Named("equal")))                                                          \
  X(Ne, BinaryRow("ne").Alias("not_equal").AlwaysBool().Scalars(kScalarSecond).InTorchExtension()  \
      .Numpy(ReturnsBool().Named("not_equal")).Jax(ReturnsBool().Named("not_equal"))               \
      .ArrayApi(ReturnsBool().Named("not_equal")).Gradient(GradientFormula::kZero)                 \
      .Mlx(ReturnsBool().Named("not_equal")))                                                      \
  X(Lt, BinaryRow("lt").Alias("less").AlwaysBool().Categories(kRealCategories)                     \
      .KernelName("lt_cpu").Scalars(kScalarSecond).InTorchExtension()                              \
      .Numpy(ReturnsBool().Named("less")).Jax(ReturnsBool().Named("less"))                         \
      .ArrayApi(ReturnsBool(kIntegersAndFloats).Named("less")).Gradient(GradientFormula::kZero)    \
      .Mlx(ReturnsBool().Named("less")))                                                           \
  X(Le, BinaryRow("le").Alias("less_equal").AlwaysBool().Categories(kRealCategories)               \
      .KernelName("le_cpu").Scalars(kScalarSecond).InTorchExtension()                              \
      .Numpy(ReturnsBool().Named("less_equal")).Jax(ReturnsBool().Named("less_equal"))             \
      .ArrayApi(ReturnsBool(kIntegersAndFloats).Named("less_equal"))                               \
      .Gradient(GradientFormula::kZero)                                                            \
      .Mlx(ReturnsBool().Named("less_equal")))                                                     \
  X(Gt, BinaryRow("gt").Alias("greater").AlwaysBool().Categories(kRealCategories)                  \
      .KernelName("gt_cpu").Scalars(kScalarSecond).InTorchExtension()                              \
      .Numpy(ReturnsBool().Named("greater")).Jax(ReturnsBool().Named("greater"))                   \
      .ArrayApi(ReturnsBool(kIntegersAndFloats).Named("greater"))                                  \
      .Gradient(GradientFormula::kZero)                                                            \
      .Mlx(ReturnsBool().Named("greater")))                                                        \
  X(Ge, BinaryRow("ge").Alias("greater_equal").AlwaysBool().Categories(kRealCategories)            \
      .KernelName("ge_cpu").Scalars(kScalarSecond).InTorchExtension()                              \
      .Numpy(ReturnsBool().Named("greater_equal")).Jax(ReturnsBool().Named("greater_equal"))       \
      .ArrayApi(ReturnsBool(kIntegersAndFloats).Named("greater_equal"))                            \
      .Gradient(GradientFormula::kZero)                                                            \
      .Mlx(ReturnsBool().Named("greater_equal")))                                                  \
  X(LogicalAnd, BinaryRow("logical_and").AlwaysBool().InTorchExtension()                           \
      .Numpy(ReturnsBool()).Jax(ReturnsBool()).ArrayApi(ReturnsBool(kBoolCategory))                \
      .Mlx(ReturnsBool().ScalarsAsArrays()))                                                       \
  X(LogicalOr, BinaryRow("logical_or").AlwaysBool().InTorchExtension()                             \
      .Numpy(ReturnsBool()).Jax(ReturnsBool()).ArrayApi(ReturnsBool(kBoolCategory))                \
      .Mlx(ReturnsBool().ScalarsAsArrays()))                                                       \
  X(LogicalXor, BinaryRow("logical_xor").AlwaysBool().InTorchExtension()                           \
      .Numpy(ReturnsBool()).Jax(ReturnsBool()).ArrayApi(ReturnsBool(kBoolCategory))                \
      .Mlx(ReturnsBool().ScalarsAsArrays()))                                                       \
  X(BitwiseAnd, BinaryRow("bitwise_and").Categories(kBitwiseCategories)                            \
      .KernelName("bitwise_and_cpu").Scalars(kScalarEither).InTorchExtension()                     \
      .Numpy(Promoted(kBitwiseCategories)).Jax(Promoted(kBitwiseCategories))                       \
      .ArrayApi(Promoted(kBitwiseCategories))                                                      \
      .Mlx(Promoted(kBitwiseCategories)))                                                          \
  X(BitwiseOr, BinaryRow("bitwise_or").Categories(kBitwiseCategories)                              \
      .KernelName("bitwise_or_cpu").Scalars(kScalarEither).InTorchExtension()                      \
      .Numpy(Promoted(kBitwiseCategories)).Jax(Promoted(kBitwiseCategories))                       \
      .ArrayApi(Promoted(kBitwiseCategories))                                                      \
      .Mlx(Promoted(kBitwiseCategories)))                                                          \
  X(BitwiseXor, BinaryRow("bitwise_xor").Categories(kBitwiseCategories)                            \
      .KernelName("bitwise_xor_cpu").Scalars(kScalarEither).InTorchExtension()                     \
      .Numpy(Promoted(kBitwiseCategories)).Jax(Promoted(kBitwiseCategories))                       \
      .ArrayApi(Promoted(kBitwiseCategories))                                                      \
      .Mlx(Promoted(kBitwiseCategories)))                                                          \
  X(Where, TernaryRow("where").NoOpMath().FirstPromoted(1).Check(OpCheck::kWhere)                  \
      .Scalars(kScalarValues).InTorchExtension().Gradient(GradientFormula::kSelect))               \
  X(Dot, BinaryRow("dot").Contraction().Categories(kNumberCategories).Check(OpCheck::kDot)         \
      .AutoCastCuda(AutoCastKind::kPromote))                                                       \
  X(Sum, ReductionRow("sum").Floor(ReductionFloor::kInt64).TakesDType()                            \
      .AutoCastCuda(AutoCastKind::kFloat32).Numpy(Accumulates()).Jax(Accumulates())                \
      .ArrayApi(Accumulates(kNumberCategories))                                                    \
      .Mlx(Accumulates().Check(FrameworkCheck::kArraysOnly).ZeroDimUnchanged()))                   \
  X(Prod, ReductionRow("prod").Floor(ReductionFloor::kInt64).TakesDType()                          \
      .AutoCastCpu(AutoCastKind::kFloat32).AutoCastCuda(AutoCastKind::kFloat32)                    \
      .Numpy(Accumulates()).Jax(Accumulates()).ArrayApi(Accumulates(kNumberCategories))            \
      .Mlx(Accumulates().Check(FrameworkCheck::kArraysOnly).ZeroDimUnchanged()))                   \
  X(Mean, ReductionRow("mean").Check(OpCheck::kMean).TakesDType().Numpy(Inexact())                 \
      .Jax(Inexact()).ArrayApi(Promoted(kInexactCategories))                                       \
      .Mlx(Inexact().Check(FrameworkCheck::kArraysOnly)))                                          \
  X(Cumsum, ReductionRow("cumsum", OpKind::kScan).Floor(ReductionFloor::kInt64).TakesDType()       \
      .AutoCastCuda(AutoCastKind::kFloat32).Numpy(Accumulates()).Jax(BoolToDefaultInt())           \
      .ArrayApi(Accumulates(kNumberCategories).Named("cumulative_sum"))                            \
      .Mlx(BoolToDefaultInt().Named("cumsum cumulative_sum").Check(FrameworkCheck::kArraysOnly)))  \
  X(Neg, UnaryRow("neg").Alias("negative").Categories(kNumberCategories)                           \
      .Check(OpCheck::kNegation).KeepsDType()                                                      \
      .Numpy(Promoted(kNumberCategories).Named("negative").ExactLoop())                            \
      .Jax(Promoted(kNumberCategories).Named("negative"))                                          \
      .ArrayApi(Promoted(kNumberCategories).Named("negative"))                                     \
      .Mlx(Promoted(kNumberCategories).Named("negative")))                                         \
  X(Abs, UnaryRow("abs").Alias("absolute").ComplexToFloat().KeepsDType()                           \
      .Categories(kNumberCategories).KernelName("abs_cpu")                                         \
      .Numpy(RealPart().Named("absolute abs")).Jax(RealPart().Named("absolute abs"))               \
      .ArrayApi(RealPart(kNumberCategories).Named("abs"))                                          \
      .Mlx(RealPart()))                                                                            \
  X(Sqrt, UnaryRow("sqrt").IntToFloat().Numpy(Promoted(kInexactCategories))                        \
      .Jax(Inexact()).ArrayApi(Promoted(kInexactCategories))                                       \
      .Mlx(Inexact()))
#define ONEFLOW_PROMOTE_FOR_EACH_RULE_OP(X)                                                        \
  /* Unary, INT_TO_FLOAT: integers and bool compute in the default dtype. */                       \
  X(Sin, UnaryRow("sin").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())           \
      .ArrayApi(Promoted(kInexactCategories))                                                      \
      .Mlx(Inexact()))                                                                             \
  X(Cos, UnaryRow("cos").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())           \
      .ArrayApi(Promoted(kInexactCategories))                                                      \
      .Mlx(Inexact()))                                                                             \
  X(Tan, UnaryRow("tan").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())           \
      .ArrayApi(Promoted(kInexactCategories))                                                      \
      .Mlx(Inexact()))                                                                             \
  X(Asin, UnaryRow("asin").Alias("arcsin").IntToFloat()                                            \
      .Numpy(Promoted(kInexactCategories).Named("arcsin asin"))                                    \
      .Jax(Inexact().Named("arcsin asin")).ArrayApi(Promoted(kInexactCategories))                  \
      .Mlx(Inexact().Named("arcsin asin")))                                                        \
  X(Acos, UnaryRow("acos").Alias("arccos").IntToFloat()                                            \
      .Numpy(Promoted(kInexactCategories).Named("arccos acos"))                                    \
      .Jax(Inexact().Named("arccos acos")).ArrayApi(Promoted(kInexactCategories))                  \
      .Mlx(Inexact().Named("arccos acos")))                                                        \
  X(Atan, UnaryRow("atan").Alias("arctan").IntToFloat()                                            \
      .Numpy(Promoted(kInexactCategories).Named("arctan atan"))                                    \
      .Jax(Inexact().Named("arctan atan")).ArrayApi(Promoted(kInexactCategories))                  \
      .Mlx(Inexact().Named("arctan atan")))                                                        \
  X(Sinh, UnaryRow("sinh").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())         \
      .ArrayApi(Promoted(kInexactCategories))                                                      \
      .Mlx(Inexact()))                                                                             \
  X(Cosh, UnaryRow("cosh").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())         \
      .ArrayApi(Promoted(kInexactCategories))                                                      \
      .Mlx(Inexact()))                                                                             \
  X(Tanh, UnaryRow("tanh").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())         \
      .ArrayApi(Promoted(kInexactCategories))                                                      \
      .Mlx(Inexact()))                                                                             \
  X(Asinh, UnaryRow("asinh").Alias("arcsinh").IntToFloat()                                         \
      .Numpy(Promoted(kInexactCategories).Named("arcsinh asinh"))                                  \
      .Jax(Inexact().Named("arcsinh asinh")).ArrayApi(Promoted(kInexactCategories))                \
      .Mlx(Inexact().Named("arcsinh asinh")))                                                      \
  X(Acosh, UnaryRow("acosh").Alias("arccosh").IntToFloat()                                         \
      .Numpy(Promoted(kInexactCategories).Named("arccosh acosh"))                                  \
      .Jax(Inexact().Named("arccosh acosh")).ArrayApi(Promoted(kInexactCategories))                \
      .Mlx(Inexact().Named("arccosh acosh")))                                                      \
  X(Atanh, UnaryRow("atanh").Alias("arctanh").IntToFloat()                                         \
      .Numpy(Promoted(kInexactCategories).Named("arctanh atanh"))                                  \
      .Jax(Inexact().Named("arctanh atanh")).ArrayApi(Promoted(kInexactCategories))                \
      .Mlx(Inexact().Named("arctanh atanh")))                                                      \
  X(Exp, UnaryRow("exp").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())           \
      .ArrayApi(Promoted(kInexactCategories))                                                      \
      .Mlx(Inexact()))                                                                             \
  X(Exp2, UnaryRow("exp2").Alias("special.exp2").IntToFloat().Numpy(Promoted(kInexactCategories))  \
      .Jax(Inexact()))                                                                             \
  X(Expm1, UnaryRow("expm1").Alias("special.expm1").IntToFloat()                                   \
      .Numpy(Promoted(kInexactCategories)).Jax(Inexact()).ArrayApi(Promoted(kInexactCategories))   \
      .Mlx(Inexact(kFloatingCategory)))                                                            \
  X(Log, UnaryRow("log").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())           \
      .ArrayApi(Promoted(kInexactCategories))                                                      \
      .Mlx(Inexact()))                                                                             \
  X(Log2, UnaryRow("log2").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())         \
      .ArrayApi(Promoted(kInexactCategories))                                                      \
      .Mlx(Inexact()))                                                                             \
  X(Log10, UnaryRow("log10").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())       \
      .ArrayApi(Promoted(kInexactCategories))                                                      \
      .Mlx(Inexact()))                                                                             \
  X(Log1p, UnaryRow("log1p").Alias("special.log1p").IntToFloat()                                   \
      .Numpy(Promoted(kInexactCategories)).Jax(Inexact()).ArrayApi(Promoted(kInexactCategories))   \
      .Mlx(Inexact()))                                                                             \
  X(Rsqrt, UnaryRow("rsqrt").IntToFloat()                                                          \
      .Mlx(Inexact()))                                                                             \
  X(Reciprocal, UnaryRow("reciprocal").IntToFloat().Numpy(Promoted(kNumberCategories))             \
      .Jax(Inexact()).ArrayApi(Promoted(kInexactCategories))                                       \
      .Mlx(Inexact()))                                                                             \
  X(Sigmoid, UnaryRow("sigmoid").Alias("special.expit").IntToFloat()                               \
      .Mlx(Inexact(kFloatingCategory)))                                                            \
  X(Sinc, UnaryRow("sinc").Alias("special.sinc").IntToFloat())                                     \
  X(Erf, UnaryRow("erf").Alias("special.erf").IntToFloat().Categories(kRealCategories)             \
      .Mlx(Inexact(kFloatingCategory)))                                                            \
  X(Erfc, UnaryRow("erfc").Alias("special.erfc").IntToFloat().Categories(kRealCategories))         \
  X(Erfinv, UnaryRow("erfinv").Alias("special.erfinv").IntToFloat().Categories(kRealCategories)    \
      .Mlx(Inexact(kFloatingCategory)))                                                            \
  X(Lgamma, UnaryRow("lgamma").Alias("special.gammaln").IntToFloat().Categories(kRealCategories))  \
  X(Digamma, UnaryRow("digamma").Alias("special.digamma special.psi").IntToFloat()                 \
      .Categories(kRealCategories))                                                                \
  X(I0, UnaryRow("i0").Alias("special.i0").IntToFloat().Categories(kRealCategories))               \
  X(Logit, UnaryRow("logit").Alias("special.logit").IntToFloat().Categories(kRealCategories))      \
  X(Deg2rad, UnaryRow("deg2rad").IntToFloat().Categories(kRealCategories)                          \
      .Check(OpCheck::kNotForComplexInputs)                                                        \
      .Numpy(Promoted(kFloatingCategory).Named("deg2rad radians"))                                 \
      .Jax(Inexact().Named("deg2rad radians"))                                                     \
      .Mlx(Inexact().Named("radians")))                                                            \
  X(Rad2deg, UnaryRow("rad2deg").IntToFloat().Categories(kRealCategories)                          \
      .Check(OpCheck::kNotForComplexInputs)                                                        \
      .Numpy(Promoted(kFloatingCategory).Named("rad2deg degrees"))                                 \
      .Jax(Inexact().Named("rad2deg degrees"))                                                     \
      .Mlx(Inexact().Named("degrees")))                                                            \
  X(Angle, UnaryRow("angle").IntToFloat().Result(ResultRule::kRealPart))                           \
  X(SpecialEntr, UnaryRow("special.entr").IntToFloat().Categories(kRealCategories))                \
  X(SpecialErfcx, UnaryRow("special.erfcx").IntToFloat().Categories(kRealButReducedFloats))        \
  X(SpecialI0e, UnaryRow("special.i0e").IntToFloat().Categories(kRealCategories))                  \
  X(SpecialI1, UnaryRow("special.i1").IntToFloat().Categories(kRealCategories))                    \
  X(SpecialI1e, UnaryRow("special.i1e").IntToFloat().Categories(kRealCategories))                  \
  X(SpecialNdtr, UnaryRow("special.ndtr").IntToFloat().Categories(kRealCategories))                \
  X(SpecialNdtri, UnaryRow("special.ndtri").IntToFloat().Categories(kRealButReducedFloats))        \
  X(SpecialLogNdtr, UnaryRow("special.log_ndtr").IntToFloat().Categories(kRealButReducedFloats))   \
  X(SpecialBesselJ0, UnaryRow("special.bessel_j0").IntToFloat()                                    \
      .Categories(kRealButReducedFloats))                                                          \
  X(SpecialBesselJ1, UnaryRow("special.bessel_j1").IntToFloat()                                    \
      .Categories(kRealButReducedFloats))                                                          \
  X(SpecialSphericalBesselJ0, UnaryRow("special.spherical_bessel_j0").IntToFloat()                 \
      .Categories(kRealButReducedFloats))                                                          \
  X(Tanhshrink, UnaryRow("nn.functional.tanhshrink").IntToFloat().Check(OpCheck::kNoBoolOperand))  \
  X(Softsign, UnaryRow("nn.functional.softsign").IntToFloat().Categories(kNumberCategories))       \
  /* Unary, DEFAULT: the operand's own dtype. */                                                   \
  X(Ceil, UnaryRow("ceil").Categories(kIntegersAndFloats).Check(OpCheck::kNotForComplexInputs)     \
      .Numpy(Promoted(kRealCategories)).Jax(Promoted(kRealCategories))                             \
      .ArrayApi(Promoted(kIntegersAndFloats))                                                      \
      .Mlx(Promoted(kRealCategories)))                                                             \
  X(Floor, UnaryRow("floor").Categories(kIntegersAndFloats).Check(OpCheck::kNotForComplexInputs)   \
      .Numpy(Promoted(kRealCategories)).Jax(Promoted(kRealCategories))                             \
      .ArrayApi(Promoted(kIntegersAndFloats))                                                      \
      .Mlx(Promoted(kRealCategories)))                                                             \
  X(Trunc, UnaryRow("trunc").Alias("fix").Categories(kIntegersAndFloats)                           \
      .Check(OpCheck::kNotForComplexInputs).Numpy(Promoted(kRealCategories))                       \
      .Jax(Promoted(kRealCategories)).ArrayApi(Promoted(kIntegersAndFloats))                       \
      .Mlx(Promoted(kRealCategories).Check(FrameworkCheck::kArraysOnly)))                          \
  X(Round, UnaryRow("round").Alias("special.round").Categories(kIntegersAndFloats)                 \
      .ArrayApi(Promoted(kNumberCategories))                                                       \
      .Mlx(Promoted()))                                                                            \
  X(Frac, UnaryRow("frac").Categories(kFloatingCategory))                                          \
  X(Sign, UnaryRow("sign").Categories(kRealCategories).Check(OpCheck::kNotForComplexInputs)        \
      .Numpy(Promoted(kNumberCategories).ExactLoop()).Jax(Promoted(kNumberCategories))             \
      .ArrayApi(Promoted(kNumberCategories))                                                       \
      .Mlx(Promoted()))                                                                            \
  X(Sgn, UnaryRow("sgn"))                                                                          \
  X(BitwiseNot, UnaryRow("bitwise_not").Categories(kBitwiseCategories)                             \
      .Numpy(Promoted(kBitwiseCategories).Named("invert bitwise_not bitwise_invert"))              \
      .Jax(Promoted(kBitwiseCategories).Named("invert bitwise_not bitwise_invert"))                \
      .ArrayApi(Promoted(kBitwiseCategories).Named("bitwise_invert"))                              \
      .Mlx(Promoted(kBitwiseCategories).Named("bitwise_invert")))                                  \
  X(NanToNum, UnaryRow("nan_to_num")                                                               \
      .Mlx(Promoted(kBitwiseCategories | kReducedFloatCategory | kFloat32Category)))               \
  X(Positive, UnaryRow("positive").Check(OpCheck::kPositive)                                       \
      .Numpy(Promoted(kNumberCategories).ExactLoop()).Jax(Promoted())                              \
      .ArrayApi(Promoted(kNumberCategories))                                                       \
      .Mlx(Promoted().Check(FrameworkCheck::kArraysOnly)))                                         \
  X(ConjPhysical, UnaryRow("conj_physical")                                                        \
      .Numpy(Promoted(kNumberCategories).Named("conjugate conj"))                                  \
      .Jax(Promoted().Named("conjugate conj"))                                                     \
      .ArrayApi(Promoted(kNumberCategories).Named("conj"))                                         \
      .Mlx(Promoted().Named("conjugate conj")))                                                    \
  X(Square, UnaryRow("square").BoolToLong().Numpy(Promoted(kNumberCategories)).Jax(Numeric())      \
      .ArrayApi(Promoted(kNumberCategories))                                                       \
      .Mlx(Promoted()))                                                                            \
  X(Real, UnaryRow("real").Result(ResultRule::kRealPart).ArrayApi(RealPart(kNumberCategories))     \
      .Mlx(RealPart()))                                                                            \
  X(Imag, UnaryRow("imag").Categories(kComplexCategory).Result(ResultRule::kRealPart)              \
      .ArrayApi(RealPart(kComplexCategory))                                                        \
      .Mlx(RealPart()))                                                                            \
  X(Relu, UnaryRow("nn.functional.relu").Alias("relu").Categories(kRealCategories)                 \
      .Check(OpCheck::kNoBoolRelu))                                                                \
  X(Hardtanh, UnaryRow("nn.functional.hardtanh").Categories(kRealCategories)                       \
      .Check(OpCheck::kNoBoolHardtanh))                                                            \
  X(Relu6, UnaryRow("nn.functional.relu6").Categories(kRealCategories)                             \
      .Check(OpCheck::kNoBoolHardtanh))                                                            \
  X(Gelu, UnaryRow("nn.functional.gelu").Categories(kFloatingCategory))                            \
  X(Elu, UnaryRow("nn.functional.elu").Categories(kFloatingCategory))                              \
  X(Celu, UnaryRow("nn.functional.celu").Categories(kFloatingCategory))                            \
  X(Selu, UnaryRow("nn.functional.selu").Categories(kFloatingCategory))                            \
  X(Mish, UnaryRow("nn.functional.mish").Categories(kFloatingCategory))                            \
  X(Softplus, UnaryRow("nn.functional.softplus").Categories(kFloatingCategory))                    \
  X(LeakyRelu, UnaryRow("nn.functional.leaky_relu").Categories(kFloatingCategory))                 \
  X(Hardsigmoid, UnaryRow("nn.functional.hardsigmoid").Categories(kFloatingCategory))              \
  X(Hardswish, UnaryRow("nn.functional.hardswish").Categories(kFloatingCategory))                  \
  X(Logsigmoid, UnaryRow("nn.functional.logsigmoid").Categories(kFloatingCategory))                \
  X(Silu, UnaryRow("nn.functional.silu").Categories(kInexactCategories))                           \
  /* Unary, ALWAYS_BOOL. */                                                                        \
  X(Isfinite, UnaryRow("isfinite").AlwaysBool().Numpy(ReturnsBool()).Jax(ReturnsBool())            \
      .ArrayApi(ReturnsBool(kNumberCategories))                                                    \
      .Mlx(ReturnsBool()))                                                                         \
  X(Isinf, UnaryRow("isinf").AlwaysBool().Numpy(ReturnsBool()).Jax(ReturnsBool())                  \
      .ArrayApi(ReturnsBool(kNumberCategories))                                                    \
      .Mlx(ReturnsBool()))                                                                         \
  X(Isnan, UnaryRow("isnan").AlwaysBool().Numpy(ReturnsBool()).Jax(ReturnsBool())                  \
      .ArrayApi(ReturnsBool(kNumberCategories))                                                    \
      .Mlx(ReturnsBool()))                                                                         \
  X(Isreal, UnaryRow("isreal").AlwaysBool())                                                       \
  X(Isposinf, UnaryRow("isposinf").AlwaysBool().Check(OpCheck::kRealOnly)                          \
      .Mlx(ReturnsBool()))                                                                         \
  X(Isneginf, UnaryRow("isneginf").AlwaysBool().Check(OpCheck::kRealOnly)                          \
      .Mlx(ReturnsBool()))                                                                         \
  X(Signbit, UnaryRow("signbit").AlwaysBool().Categories(kRealCategories)                          \
      .Numpy(ReturnsBool(kFloatingCategory)).Jax(ReturnsBool(kRealButFloat8))                      \
      .ArrayApi(ReturnsBool(kFloatingCategory)))                                                   \
  X(LogicalNot, UnaryRow("logical_not").AlwaysBool().Numpy(ReturnsBool()).Jax(ReturnsBool())       \
      .ArrayApi(ReturnsBool(kBoolCategory))                                                        \
      .Mlx(ReturnsBool()))                                                                         \
  /* Binary. */                                                                                    \
  X(Fmod, BinaryRow("fmod").Categories(kIntegersAndFloats).Scalars(kScalarSecond)                  \
      .Numpy(Promoted(kIntegersAndFloats)).Jax(Numeric(kRealCategories)))                          \
  X(Hypot, BinaryRow("hypot").Categories(kFloatingCategory).Numpy(Promoted(kFloatingCategory))     \
      .Jax(Inexact(kRealCategories)).ArrayApi(Promoted(kFloatingCategory)))                        \
  X(Copysign, BinaryRow("copysign").IntToFloat().Categories(kRealCategories)                       \
      .Scalars(kScalarSecond).Numpy(Promoted(kFloatingCategory)).Jax(Inexact(kRealButFloat8))      \
      .ArrayApi(Promoted(kFloatingCategory)))                                                      \
  X(Nextafter, BinaryRow("nextafter").NoOpMath().Categories(kFloatingCategory)                     \
      .Numpy(Promoted(kFloatingCategory)).Jax(Inexact(kRealCategories))                            \
      .ArrayApi(Promoted(kFloatingCategory)))                                                      \
  X(Fmax, BinaryRow("fmax").Categories(kRealCategories).Numpy(Promoted()).Jax(Promoted()))         \
  X(Fmin, BinaryRow("fmin").Categories(kRealCategories).Numpy(Promoted()).Jax(Promoted()))         \
  X(Heaviside, BinaryRow("heaviside").Categories(kRealCategories).Check(OpCheck::kSameDType)       \
      .Numpy(Promoted(kFloatingCategory)).Jax(Inexact(kRealCategories)))                           \
  X(Igamma, BinaryRow("igamma").Alias("special.gammainc").Categories(kFloatingCategory))           \
  X(Igammac, BinaryRow("igammac").Alias("special.gammaincc").Categories(kFloatingCategory))        \
  X(Xlogy, BinaryRow("xlogy").Alias("special.xlogy").IntToFloat().Categories(kRealCategories)      \
      .Scalars(kScalarEither))                                                                     \
  X(Xlog1py, BinaryRow("special.xlog1py").IntToFloat().Categories(kRealCategories)                 \
      .Scalars(kScalarEither))                                                                     \
  X(Zeta, BinaryRow("special.zeta").IntToFloat().Categories(kRealButReducedFloats)                 \
      .Scalars(kScalarEither))                                                                     \
  X(Logaddexp, BinaryRow("logaddexp").Categories(kInexactCategories)                               \
      .Numpy(Promoted(kFloatingCategory)).Jax(Inexact()).ArrayApi(Promoted(kFloatingCategory))     \
      .Mlx(Inexact()))                                                                             \
  X(Logaddexp2, BinaryRow("logaddexp2").Categories(kFloatingCategory)                              \
      .Numpy(Promoted(kFloatingCategory)).Jax(Inexact()))                                          \
  X(Ldexp, BinaryRow("ldexp").IntToFloat().Converts(OperandConversion::kSecondIntToFloat)          \
      .Numpy(Ldexp(kFloatingCategory)).Jax(Ldexp(kFloatingButFloat8)))                             \
  X(FloatPower, BinaryRow("float_power").Converts(OperandConversion::kAllToDouble)                 \
      .Scalars(kScalarEither).Numpy(Double()).Jax(Inexact()))                                      \
  X(Gcd, BinaryRow("gcd").Categories(kIntegerCategories)                                           \
      .Numpy(Promoted(kIntegerCategories).ExactLoop()).Jax(Promoted(kIntegerCategories)))          \
  X(Lcm, BinaryRow("lcm").Categories(kIntegerCategories)                                           \
      .Numpy(Promoted(kIntegerCategories).ExactLoop()).Jax(Promoted(kIntegerCategories)))          \
  X(BitwiseLeftShift, BinaryRow("bitwise_left_shift").Categories(kIntegerCategories)               \
      .Scalars(kScalarEither)                                                                      \
      .Numpy(Promoted(kIntegerCategories).Named("left_shift bitwise_left_shift"))                  \
      .Jax(Numeric(kBitwiseCategories).Named("left_shift bitwise_left_shift"))                     \
      .ArrayApi(Promoted(kIntegerCategories).Check(FrameworkCheck::kShiftCount))                   \
      .Mlx(BoolToUInt8(kBitwiseCategories).Named("left_shift bitwise_left_shift")))                \
  X(BitwiseRightShift, BinaryRow("bitwise_right_shift").Categories(kIntegerCategories)             \
      .Scalars(kScalarEither)                                                                      \
      .Numpy(Promoted(kIntegerCategories).Named("right_shift bitwise_right_shift"))                \
      .Jax(Numeric(kBitwiseCategories).Named("right_shift bitwise_right_shift"))                   \
      .ArrayApi(Promoted(kIntegerCategories).Check(FrameworkCheck::kShiftCount))                   \
      .Mlx(BoolToUInt8(kBitwiseCategories).Named("right_shift bitwise_right_shift")))              \
  X(Rsub, BinaryRow("rsub").Categories(kNumberCategories).Check(OpCheck::kNoBoolOperand)           \
      .Scalars(kScalarSecond))                                                                     \
  X(ClampMin, BinaryRow("clamp_min").Categories(kRealCategories).Scalars(kScalarSecond)            \
      .Check(OpCheck::kClampBound))                                                                \
  X(ClampMax, BinaryRow("clamp_max").Categories(kRealCategories).Scalars(kScalarSecond)            \
      .Check(OpCheck::kClampBound))                                                                \
  X(Vdot, BinaryRow("vdot").Contraction().Categories(kNumberCategories).Check(OpCheck::kDot))      \
  /* Ternary. */                                                                                   \
  X(Lerp, TernaryRow("lerp").Categories(kInexactCategories).Check(OpCheck::kLerp)                  \
      .Scalars(kScalarThird).Converts(OperandConversion::kNumberWeightAsInput))                    \
  X(Addcmul, TernaryRow("addcmul").Categories(kNumberCategories))                                  \
  X(Addcdiv, TernaryRow("addcdiv").Check(OpCheck::kAddcdiv))                                       \
  X(Clamp, TernaryRow("clamp").Alias("clip").Categories(kIntegersAndFloats)                        \
      .Check(OpCheck::kClamp).Scalars(kScalarValues)                                               \
      .Converts(OperandConversion::kZeroDimBoundsAsNumbers))                                       \
  /* Reductions and scans. */                                                                      \
  X(Nansum, ReductionRow("nansum").Floor(ReductionFloor::kInt64).TakesDType()                      \
      .Check(OpCheck::kNoComplexNansum).Numpy(Accumulates()).Jax(Accumulates()))                   \
  X(Nanmean, ReductionRow("nanmean").Categories(kFloatingCategory).Check(OpCheck::kNanMean)        \
      .TakesDType().Numpy(Inexact()).Jax(Inexact()))                                               \
  X(Amax, ReductionRow("amax").Categories(kRealCategories).Numpy(Promoted().Named("max amax"))     \
      .Jax(Promoted().Named("max amax")).ArrayApi(Promoted(kIntegersAndFloats).Named("max"))       \
      .Mlx(Promoted().Named("max").Check(FrameworkCheck::kArraysOnly)))                            \
  X(Amin, ReductionRow("amin").Categories(kRealCategories).Numpy(Promoted().Named("min amin"))     \
      .Jax(Promoted().Named("min amin")).ArrayApi(Promoted(kIntegersAndFloats).Named("min"))       \
      .Mlx(Promoted().Named("min").Check(FrameworkCheck::kArraysOnly)))                            \
  X(Argmax, ReductionRow("argmax").Check(OpCheck::kArgExtremum).Result(ResultRule::kInt64)         \
      .Numpy(ReturnsIndex()).Jax(ReturnsIndex()).ArrayApi(ReturnsIndex(kIntegersAndFloats))        \
      .Mlx(ReturnsIndex().Check(FrameworkCheck::kArraysOnly)))                                     \
  X(Argmin, ReductionRow("argmin").Check(OpCheck::kArgExtremum).Result(ResultRule::kInt64)         \
      .Numpy(ReturnsIndex()).Jax(ReturnsIndex()).ArrayApi(ReturnsIndex(kIntegersAndFloats))        \
      .Mlx(ReturnsIndex().Check(FrameworkCheck::kArraysOnly)))                                     \
  X(Any, ReductionRow("any").Result(ResultRule::kBoolOrByte).Numpy(ReturnsBool())                  \
      .Jax(ReturnsBool()).ArrayApi(ReturnsBool())                                                  \
      .Mlx(ReturnsBool().Check(FrameworkCheck::kArraysOnly)))                                      \
  X(All, ReductionRow("all").Result(ResultRule::kBoolOrByte).Numpy(ReturnsBool())                  \
      .Jax(ReturnsBool()).ArrayApi(ReturnsBool())                                                  \
      .Mlx(ReturnsBool().Check(FrameworkCheck::kArraysOnly)))                                      \
  X(Var, ReductionRow("var").Check(OpCheck::kVarStd).Result(ResultRule::kRealPart)                 \
      .Numpy(InexactRealPart()).Jax(InexactRealPart()).ArrayApi(Promoted(kFloatingCategory))       \
      .Mlx(InexactRealPart().Check(FrameworkCheck::kArraysOnly)))                                  \
  X(Std, ReductionRow("std").Check(OpCheck::kVarStd).Result(ResultRule::kRealPart)                 \
      .Numpy(InexactRealPart()).Jax(InexactRealPart()).ArrayApi(Promoted(kFloatingCategory))       \
      .Mlx(InexactRealPart().Check(FrameworkCheck::kArraysOnly)))                                  \
  X(Logsumexp, ReductionRow("logsumexp").IntToFloat()                                              \
      .Mlx(Inexact().Check(FrameworkCheck::kArraysOnly)))                                          \
  X(CountNonzero, ReductionRow("count_nonzero").Result(ResultRule::kInt64)                         \
      .ArrayApi(ReturnsCount())                                                                    \
      .Mlx(ReturnsCount().Check(FrameworkCheck::kArraysOnly)))                                     \
  X(Cumprod, ReductionRow("cumprod", OpKind::kScan).Floor(ReductionFloor::kInt64).TakesDType()     \
      .Numpy(Accumulates()).Jax(BoolToDefaultInt())                                                \
      .ArrayApi(Accumulates(kNumberCategories).Named("cumulative_prod")                            \
      .Check(FrameworkCheck::kAtLeast1D))                                                          \
      .Mlx(Promoted().Named("cumprod cumulative_prod").Check(FrameworkCheck::kArraysOnly)))        \
  /* NumPy's and jax.numpy's, not PyTorch's. */                                                    \
  X(Cbrt, UnaryRow("cbrt").NotInTorch().Numpy(Promoted(kFloatingCategory))                         \
      .Jax(Inexact(kRealCategories)))                                                              \
  X(Fabs, UnaryRow("fabs").NotInTorch().Numpy(Promoted(kFloatingCategory))                         \
      .Jax(Inexact(kRealCategories)))                                                              \
  X(Rint, UnaryRow("rint").NotInTorch().Numpy(Promoted(kInexactCategories)).Jax(DefaultFloat()))   \
  X(Spacing, UnaryRow("spacing").NotInTorch().Numpy(Promoted(kFloatingCategory))                   \
      .Jax(Inexact(kRealButFloat8)))                                                               \
  X(BitwiseCount, UnaryRow("bitwise_count").NotInTorch()                                           \
      .Numpy(ReturnsUInt8(kIntegerCategories)).Jax(ReturnsUInt8(kBitwiseCategories)))
// clang-format on
#define ONEFLOW_PROMOTE_FOR_EACH_OP(X) \
  ONEFLOW_PROMOTE_FOR_EACH_KERNEL_OP(X) ONEFLOW_PROMOTE_FOR_EACH_RULE_OP(X)

enum class Op : uint8_t {
#define ONEFLOW_PROMOTE_OP_ENUM(name, spec) k##name,
  ONEFLOW_PROMOTE_FOR_EACH_OP(ONEFLOW_PROMOTE_OP_ENUM)
#undef ONEFLOW_PROMOTE_OP_ENUM
};

inline constexpr Op kAllOps[] = {
#define ONEFLOW_PROMOTE_OP_LIST(name, spec) Op::k##name,
    ONEFLOW_PROMOTE_FOR_EACH_OP(ONEFLOW_PROMOTE_OP_LIST)
#undef ONEFLOW_PROMOTE_OP_LIST
};

inline constexpr size_t kNumOps = sizeof(kAllOps) / sizeof(kAllOps[0]);

inline constexpr OpSpec kOpSpecs[] = {
#define ONEFLOW_PROMOTE_KERNEL_OP_SPEC(name, spec) spec.Kernel(),
#define ONEFLOW_PROMOTE_RULE_OP_SPEC(name, spec) spec,
    ONEFLOW_PROMOTE_FOR_EACH_KERNEL_OP(ONEFLOW_PROMOTE_KERNEL_OP_SPEC)
        ONEFLOW_PROMOTE_FOR_EACH_RULE_OP(ONEFLOW_PROMOTE_RULE_OP_SPEC)
#undef ONEFLOW_PROMOTE_KERNEL_OP_SPEC
#undef ONEFLOW_PROMOTE_RULE_OP_SPEC
};

// The op's declaration.
[[nodiscard]] constexpr const OpSpec& SpecOf(Op op) { return kOpSpecs[static_cast<size_t>(op)]; }

// How many operands the op takes (where: condition, then the two values).
[[nodiscard]] constexpr int OpArity(Op op) { return SpecOf(op).arity; }

[[nodiscard]] constexpr OpKind KindOf(Op op) { return SpecOf(op).kind; }

// An elementwise op of one operand (neg, abs, sqrt).
[[nodiscard]] constexpr bool IsUnaryElementwise(Op op) {
  return KindOf(op) == OpKind::kElementwise && OpArity(op) == 1;
}

// Whether the library has a kernel for the op (functional::Call runs it);
// the others have a dtype rule only.
[[nodiscard]] constexpr bool HasKernel(Op op) { return SpecOf(op).has_kernel; }

// The ops with kernels, in table order: what functional::Call runs.
inline constexpr Op kKernelOps[] = {
#define ONEFLOW_PROMOTE_KERNEL_OP(name, spec) Op::k##name,
    ONEFLOW_PROMOTE_FOR_EACH_KERNEL_OP(ONEFLOW_PROMOTE_KERNEL_OP)
#undef ONEFLOW_PROMOTE_KERNEL_OP
};

// PyTorch 2.15's autocast list for a built-in op on the CPU or CUDA.
[[nodiscard]] constexpr AutoCastKind AutoCastKindOf(Op op, bool cuda) {
  return cuda ? SpecOf(op).autocast_cuda : SpecOf(op).autocast_cpu;
}

}  // namespace oneflow_promote::ops

#endif  // ONEFLOW_PROMOTE_OPS_OP_LIST_H_
