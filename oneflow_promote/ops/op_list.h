// The op table: every op of the library declared once, as one row of an
// X-macro list. A row names the op's enumerator and an OpSpec built with
// named setters: PyTorch's name and aliases, arity, kind, promotion kind,
// dtype categories, floors, checks, which operands may be Python scalars,
// whether PyTorch's backward raises, the PyTorch overloads and autocast
// lists, whether the library has a kernel for it, and how NumPy, jax.numpy
// and the Array API decide it (op_spec.h says what each setter means). The
// Op enum, the rules (op_rules.h), ParseOp, the CLI, the C ABIs,
// functional::Call, the pipe's autocast lists and the kernels' dispatch all
// derive from it. Free of Abseil, for nvcc.
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

// X(enumerator, spec): every op, in one list. The rows with Kernel() come
// first (the functional frontend's kernels); the rest are rules only.
// clang-format off
#define ONEFLOW_PROMOTE_FOR_EACH_OP(X)                                                             \
  X(kAdd, BinaryRow("add").Scalars(kScalarEither | kScalarsAlone).Kernel().InTorchExtension()      \
      .Alpha().Numpy(Promoted()).Jax(Promoted()).ArrayApi(Promoted(kNumberCategories)))            \
  X(kSub, BinaryRow("sub").Alias("subtract").Categories(kNumberCategories)                         \
      .Scalars(kScalarEither | kScalarsAlone).Check(OpCheck::kNoBoolOperand).Kernel()              \
      .InTorchExtension().Alpha().Numpy(Promoted(kNumberCategories).Named("subtract").ExactLoop()) \
      .Jax(Promoted(kNumberCategories).Named("subtract"))                                          \
      .ArrayApi(Promoted(kNumberCategories).Named("subtract")))                                    \
  X(kMul, BinaryRow("mul").Alias("multiply").Scalars(kScalarEither | kScalarsAlone).Kernel()       \
      .InTorchExtension().Numpy(Promoted().Named("multiply")).Jax(Promoted().Named("multiply"))    \
      .ArrayApi(Promoted(kNumberCategories).Named("multiply")))                                    \
  X(kDiv, BinaryRow("div").Alias("divide true_divide").IntToFloat()                                \
      .Scalars(kScalarEither | kScalarsAlone).Kernel().InTorchExtension().RoundingMode()           \
      .Numpy(Inexact().Named("divide true_divide")).Jax(Inexact().Named("divide true_divide"))     \
      .ArrayApi(Promoted(kInexactCategories).Named("divide")))                                     \
  X(kDivFloor, BinaryRow("div_floor").Alias("div(rounding_mode=floor)")                            \
      .Categories(kIntegersAndFloats).KernelName("div_floor_cpu")                                  \
      .Scalars(kScalarEither | kScalarsAlone).Kernel())                                            \
  X(kDivTrunc, BinaryRow("div_trunc").Alias("div(rounding_mode=trunc)")                            \
      .Categories(kIntegersAndFloats).KernelName("div_trunc_cpu")                                  \
      .Scalars(kScalarEither | kScalarsAlone).Kernel())                                            \
  X(kFloorDivide, BinaryRow("floor_divide").Categories(kIntegersAndFloats)                         \
      .KernelName("div_floor_cpu").Scalars(kScalarEither | kScalarsAlone).NoDerivative().Kernel()  \
      .InTorchExtension().Numpy(Promoted(kIntegersAndFloats)).Jax(Numeric(kRealCategories))        \
      .ArrayApi(Promoted(kIntegersAndFloats)))                                                     \
  X(kRemainder, BinaryRow("remainder").Categories(kIntegersAndFloats).KernelName("remainder_cpu")  \
      .Scalars(kScalarEither).Kernel().InTorchExtension()                                          \
      .Numpy(Promoted(kIntegersAndFloats).Named("remainder mod"))                                  \
      .Jax(Numeric(kRealCategories).Named("remainder mod"))                                        \
      .ArrayApi(Promoted(kIntegersAndFloats)))                                                     \
  X(kPow, BinaryRow("pow").BoolToLong().Categories(kNumberCategories).Check(OpCheck::kPow)         \
      .Scalars(kScalarEither).Kernel().AutoCastCuda(AutoCastKind::kFloat32)                        \
      .Numpy(Promoted(kNumberCategories).Named("power pow").Check(FrameworkCheck::kIntPower))      \
      .Jax(Numeric().Named("power pow"))                                                           \
      .ArrayApi(Promoted(kNumberCategories).Check(FrameworkCheck::kIntPower)))                     \
  X(kMaximum, BinaryRow("maximum").Categories(kRealCategories).Check(OpCheck::kNoComplexOperand)   \
      .Kernel().InTorchExtension().NoInPlace().Numpy(Promoted()).Jax(Promoted())                   \
      .ArrayApi(Promoted(kIntegersAndFloats)))                                                     \
  X(kMinimum, BinaryRow("minimum").Categories(kRealCategories).Check(OpCheck::kNoComplexOperand)   \
      .Kernel().InTorchExtension().NoInPlace().Numpy(Promoted()).Jax(Promoted())                   \
      .ArrayApi(Promoted(kIntegersAndFloats)))                                                     \
  X(kAtan2, BinaryRow("atan2").Alias("arctan2").IntToFloat().Categories(kRealCategories)           \
      .KernelName("atan2_cpu").Kernel().InTorchExtension().AutoCastCuda(AutoCastKind::kPromote)    \
      .Numpy(Promoted(kFloatingCategory).Named("arctan2 atan2"))                                   \
      .Jax(Inexact().Named("arctan2 atan2")).ArrayApi(Promoted(kFloatingCategory)))                \
  X(kEq, BinaryRow("eq").AlwaysBool().Scalars(kScalarSecond).Kernel().InTorchExtension()           \
      .Numpy(ReturnsBool().Named("equal")).Jax(ReturnsBool().Named("equal"))                       \
      .ArrayApi(ReturnsBool().Named("equal")))                                                     \
  X(kNe, BinaryRow("ne").Alias("not_equal").AlwaysBool().Scalars(kScalarSecond).Kernel()           \
      .InTorchExtension().Numpy(ReturnsBool().Named("not_equal"))                                  \
      .Jax(ReturnsBool().Named("not_equal")).ArrayApi(ReturnsBool().Named("not_equal")))           \
  X(kLt, BinaryRow("lt").Alias("less").AlwaysBool().Categories(kRealCategories)                    \
      .KernelName("lt_cpu").Scalars(kScalarSecond).Kernel().InTorchExtension()                     \
      .Numpy(ReturnsBool().Named("less")).Jax(ReturnsBool().Named("less"))                         \
      .ArrayApi(ReturnsBool(kIntegersAndFloats).Named("less")))                                    \
  X(kLe, BinaryRow("le").Alias("less_equal").AlwaysBool().Categories(kRealCategories)              \
      .KernelName("le_cpu").Scalars(kScalarSecond).Kernel().InTorchExtension()                     \
      .Numpy(ReturnsBool().Named("less_equal")).Jax(ReturnsBool().Named("less_equal"))             \
      .ArrayApi(ReturnsBool(kIntegersAndFloats).Named("less_equal")))                              \
  X(kGt, BinaryRow("gt").Alias("greater").AlwaysBool().Categories(kRealCategories)                 \
      .KernelName("gt_cpu").Scalars(kScalarSecond).Kernel().InTorchExtension()                     \
      .Numpy(ReturnsBool().Named("greater")).Jax(ReturnsBool().Named("greater"))                   \
      .ArrayApi(ReturnsBool(kIntegersAndFloats).Named("greater")))                                 \
  X(kGe, BinaryRow("ge").Alias("greater_equal").AlwaysBool().Categories(kRealCategories)           \
      .KernelName("ge_cpu").Scalars(kScalarSecond).Kernel().InTorchExtension()                     \
      .Numpy(ReturnsBool().Named("greater_equal")).Jax(ReturnsBool().Named("greater_equal"))       \
      .ArrayApi(ReturnsBool(kIntegersAndFloats).Named("greater_equal")))                           \
  X(kLogicalAnd, BinaryRow("logical_and").AlwaysBool().Kernel().InTorchExtension()                 \
      .Numpy(ReturnsBool()).Jax(ReturnsBool()).ArrayApi(ReturnsBool(kBoolCategory)))               \
  X(kLogicalOr, BinaryRow("logical_or").AlwaysBool().Kernel().InTorchExtension()                   \
      .Numpy(ReturnsBool()).Jax(ReturnsBool()).ArrayApi(ReturnsBool(kBoolCategory)))               \
  X(kLogicalXor, BinaryRow("logical_xor").AlwaysBool().Kernel().InTorchExtension()                 \
      .Numpy(ReturnsBool()).Jax(ReturnsBool()).ArrayApi(ReturnsBool(kBoolCategory)))               \
  X(kBitwiseAnd, BinaryRow("bitwise_and").Categories(kBitwiseCategories)                           \
      .KernelName("bitwise_and_cpu").Scalars(kScalarEither).Kernel().InTorchExtension()            \
      .Numpy(Promoted(kBitwiseCategories)).Jax(Promoted(kBitwiseCategories))                       \
      .ArrayApi(Promoted(kBitwiseCategories)))                                                     \
  X(kBitwiseOr, BinaryRow("bitwise_or").Categories(kBitwiseCategories)                             \
      .KernelName("bitwise_or_cpu").Scalars(kScalarEither).Kernel().InTorchExtension()             \
      .Numpy(Promoted(kBitwiseCategories)).Jax(Promoted(kBitwiseCategories))                       \
      .ArrayApi(Promoted(kBitwiseCategories)))                                                     \
  X(kBitwiseXor, BinaryRow("bitwise_xor").Categories(kBitwiseCategories)                           \
      .KernelName("bitwise_xor_cpu").Scalars(kScalarEither).Kernel().InTorchExtension()            \
      .Numpy(Promoted(kBitwiseCategories)).Jax(Promoted(kBitwiseCategories))                       \
      .ArrayApi(Promoted(kBitwiseCategories)))                                                     \
  X(kWhere, TernaryRow("where").NoOpMath().FirstPromoted(1).Check(OpCheck::kWhere)                 \
      .Scalars(kScalarValues).Kernel().InTorchExtension())                                         \
  X(kDot, BinaryRow("dot").Contraction().Categories(kNumberCategories).Check(OpCheck::kDot)        \
      .Kernel().AutoCastCuda(AutoCastKind::kPromote))                                              \
  X(kSum, ReductionRow("sum").Floor(ReductionFloor::kInt64).TakesDType().Kernel()                  \
      .AutoCastCuda(AutoCastKind::kFloat32).Numpy(Accumulates()).Jax(Accumulates())                \
      .ArrayApi(Accumulates(kNumberCategories)))                                                   \
  X(kProd, ReductionRow("prod").Floor(ReductionFloor::kInt64).TakesDType().Kernel()                \
      .AutoCastCpu(AutoCastKind::kFloat32).AutoCastCuda(AutoCastKind::kFloat32)                    \
      .Numpy(Accumulates()).Jax(Accumulates()).ArrayApi(Accumulates(kNumberCategories)))           \
  X(kMean, ReductionRow("mean").Check(OpCheck::kMean).TakesDType().Kernel().Numpy(Inexact())       \
      .Jax(Inexact()).ArrayApi(Promoted(kInexactCategories)))                                      \
  X(kCumsum, ReductionRow("cumsum", OpKind::kScan).Floor(ReductionFloor::kInt64).TakesDType()      \
      .Kernel().AutoCastCuda(AutoCastKind::kFloat32).Numpy(Accumulates()).Jax(BoolToDefaultInt())  \
      .ArrayApi(Accumulates(kNumberCategories).Named("cumulative_sum")))                           \
  X(kNeg, UnaryRow("neg").Alias("negative").Categories(kNumberCategories)                          \
      .Check(OpCheck::kNegation).KeepsDType().Kernel()                                             \
      .Numpy(Promoted(kNumberCategories).Named("negative").ExactLoop())                            \
      .Jax(Promoted(kNumberCategories).Named("negative"))                                          \
      .ArrayApi(Promoted(kNumberCategories).Named("negative")))                                    \
  X(kAbs, UnaryRow("abs").Alias("absolute").ComplexToFloat().KeepsDType()                          \
      .Categories(kNumberCategories).KernelName("abs_cpu").Kernel()                                \
      .Numpy(RealPart().Named("absolute abs")).Jax(RealPart().Named("absolute abs"))               \
      .ArrayApi(RealPart(kNumberCategories).Named("abs")))                                         \
  X(kSqrt, UnaryRow("sqrt").IntToFloat().Kernel().Numpy(Promoted(kInexactCategories))              \
      .Jax(Inexact()).ArrayApi(Promoted(kInexactCategories)))                                      \
  /* Unary, INT_TO_FLOAT: integers and bool compute in the default dtype. */                       \
  X(kSin, UnaryRow("sin").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())          \
      .ArrayApi(Promoted(kInexactCategories)))                                                     \
  X(kCos, UnaryRow("cos").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())          \
      .ArrayApi(Promoted(kInexactCategories)))                                                     \
  X(kTan, UnaryRow("tan").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())          \
      .ArrayApi(Promoted(kInexactCategories)))                                                     \
  X(kAsin, UnaryRow("asin").Alias("arcsin").IntToFloat()                                           \
      .Numpy(Promoted(kInexactCategories).Named("arcsin asin"))                                    \
      .Jax(Inexact().Named("arcsin asin")).ArrayApi(Promoted(kInexactCategories)))                 \
  X(kAcos, UnaryRow("acos").Alias("arccos").IntToFloat()                                           \
      .Numpy(Promoted(kInexactCategories).Named("arccos acos"))                                    \
      .Jax(Inexact().Named("arccos acos")).ArrayApi(Promoted(kInexactCategories)))                 \
  X(kAtan, UnaryRow("atan").Alias("arctan").IntToFloat()                                           \
      .Numpy(Promoted(kInexactCategories).Named("arctan atan"))                                    \
      .Jax(Inexact().Named("arctan atan")).ArrayApi(Promoted(kInexactCategories)))                 \
  X(kSinh, UnaryRow("sinh").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())        \
      .ArrayApi(Promoted(kInexactCategories)))                                                     \
  X(kCosh, UnaryRow("cosh").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())        \
      .ArrayApi(Promoted(kInexactCategories)))                                                     \
  X(kTanh, UnaryRow("tanh").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())        \
      .ArrayApi(Promoted(kInexactCategories)))                                                     \
  X(kAsinh, UnaryRow("asinh").Alias("arcsinh").IntToFloat()                                        \
      .Numpy(Promoted(kInexactCategories).Named("arcsinh asinh"))                                  \
      .Jax(Inexact().Named("arcsinh asinh")).ArrayApi(Promoted(kInexactCategories)))               \
  X(kAcosh, UnaryRow("acosh").Alias("arccosh").IntToFloat()                                        \
      .Numpy(Promoted(kInexactCategories).Named("arccosh acosh"))                                  \
      .Jax(Inexact().Named("arccosh acosh")).ArrayApi(Promoted(kInexactCategories)))               \
  X(kAtanh, UnaryRow("atanh").Alias("arctanh").IntToFloat()                                        \
      .Numpy(Promoted(kInexactCategories).Named("arctanh atanh"))                                  \
      .Jax(Inexact().Named("arctanh atanh")).ArrayApi(Promoted(kInexactCategories)))               \
  X(kExp, UnaryRow("exp").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())          \
      .ArrayApi(Promoted(kInexactCategories)))                                                     \
  X(kExp2, UnaryRow("exp2").Alias("special.exp2").IntToFloat().Numpy(Promoted(kInexactCategories)) \
      .Jax(Inexact()))                                                                             \
  X(kExpm1, UnaryRow("expm1").Alias("special.expm1").IntToFloat()                                  \
      .Numpy(Promoted(kInexactCategories)).Jax(Inexact()).ArrayApi(Promoted(kInexactCategories)))  \
  X(kLog, UnaryRow("log").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())          \
      .ArrayApi(Promoted(kInexactCategories)))                                                     \
  X(kLog2, UnaryRow("log2").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())        \
      .ArrayApi(Promoted(kInexactCategories)))                                                     \
  X(kLog10, UnaryRow("log10").IntToFloat().Numpy(Promoted(kInexactCategories)).Jax(Inexact())      \
      .ArrayApi(Promoted(kInexactCategories)))                                                     \
  X(kLog1p, UnaryRow("log1p").Alias("special.log1p").IntToFloat()                                  \
      .Numpy(Promoted(kInexactCategories)).Jax(Inexact()).ArrayApi(Promoted(kInexactCategories)))  \
  X(kRsqrt, UnaryRow("rsqrt").IntToFloat())                                                        \
  X(kReciprocal, UnaryRow("reciprocal").IntToFloat().Numpy(Promoted(kNumberCategories))            \
      .Jax(Inexact()).ArrayApi(Promoted(kInexactCategories)))                                      \
  X(kSigmoid, UnaryRow("sigmoid").Alias("special.expit").IntToFloat())                             \
  X(kSinc, UnaryRow("sinc").Alias("special.sinc").IntToFloat())                                    \
  X(kErf, UnaryRow("erf").Alias("special.erf").IntToFloat().Categories(kRealCategories))           \
  X(kErfc, UnaryRow("erfc").Alias("special.erfc").IntToFloat().Categories(kRealCategories))        \
  X(kErfinv, UnaryRow("erfinv").Alias("special.erfinv").IntToFloat().Categories(kRealCategories))  \
  X(kLgamma, UnaryRow("lgamma").Alias("special.gammaln").IntToFloat().Categories(kRealCategories)) \
  X(kDigamma, UnaryRow("digamma").Alias("special.digamma special.psi").IntToFloat()                \
      .Categories(kRealCategories))                                                                \
  X(kI0, UnaryRow("i0").Alias("special.i0").IntToFloat().Categories(kRealCategories))              \
  X(kLogit, UnaryRow("logit").Alias("special.logit").IntToFloat().Categories(kRealCategories))     \
  X(kDeg2rad, UnaryRow("deg2rad").IntToFloat().Categories(kRealCategories)                         \
      .Check(OpCheck::kNotForComplexInputs)                                                        \
      .Numpy(Promoted(kFloatingCategory).Named("deg2rad radians"))                                 \
      .Jax(Inexact().Named("deg2rad radians")))                                                    \
  X(kRad2deg, UnaryRow("rad2deg").IntToFloat().Categories(kRealCategories)                         \
      .Check(OpCheck::kNotForComplexInputs)                                                        \
      .Numpy(Promoted(kFloatingCategory).Named("rad2deg degrees"))                                 \
      .Jax(Inexact().Named("rad2deg degrees")))                                                    \
  X(kAngle, UnaryRow("angle").IntToFloat().Result(ResultRule::kRealPart))                          \
  X(kSpecialEntr, UnaryRow("special.entr").IntToFloat().Categories(kRealCategories))               \
  X(kSpecialErfcx, UnaryRow("special.erfcx").IntToFloat().Categories(kRealButReducedFloats))       \
  X(kSpecialI0e, UnaryRow("special.i0e").IntToFloat().Categories(kRealCategories))                 \
  X(kSpecialI1, UnaryRow("special.i1").IntToFloat().Categories(kRealCategories))                   \
  X(kSpecialI1e, UnaryRow("special.i1e").IntToFloat().Categories(kRealCategories))                 \
  X(kSpecialNdtr, UnaryRow("special.ndtr").IntToFloat().Categories(kRealCategories))               \
  X(kSpecialNdtri, UnaryRow("special.ndtri").IntToFloat().Categories(kRealButReducedFloats))       \
  X(kSpecialLogNdtr, UnaryRow("special.log_ndtr").IntToFloat().Categories(kRealButReducedFloats))  \
  X(kSpecialBesselJ0, UnaryRow("special.bessel_j0").IntToFloat()                                   \
      .Categories(kRealButReducedFloats))                                                          \
  X(kSpecialBesselJ1, UnaryRow("special.bessel_j1").IntToFloat()                                   \
      .Categories(kRealButReducedFloats))                                                          \
  X(kSpecialSphericalBesselJ0, UnaryRow("special.spherical_bessel_j0").IntToFloat()                \
      .Categories(kRealButReducedFloats))                                                          \
  X(kTanhshrink, UnaryRow("nn.functional.tanhshrink").IntToFloat().Check(OpCheck::kNoBoolOperand)) \
  X(kSoftsign, UnaryRow("nn.functional.softsign").IntToFloat().Categories(kNumberCategories))      \
  /* Unary, DEFAULT: the operand's own dtype. */                                                   \
  X(kCeil, UnaryRow("ceil").Categories(kIntegersAndFloats).Check(OpCheck::kNotForComplexInputs)    \
      .Numpy(Promoted(kRealCategories)).Jax(Promoted(kRealCategories))                             \
      .ArrayApi(Promoted(kIntegersAndFloats)))                                                     \
  X(kFloor, UnaryRow("floor").Categories(kIntegersAndFloats).Check(OpCheck::kNotForComplexInputs)  \
      .Numpy(Promoted(kRealCategories)).Jax(Promoted(kRealCategories))                             \
      .ArrayApi(Promoted(kIntegersAndFloats)))                                                     \
  X(kTrunc, UnaryRow("trunc").Alias("fix").Categories(kIntegersAndFloats)                          \
      .Check(OpCheck::kNotForComplexInputs).Numpy(Promoted(kRealCategories))                       \
      .Jax(Promoted(kRealCategories)).ArrayApi(Promoted(kIntegersAndFloats)))                      \
  X(kRound, UnaryRow("round").Alias("special.round").Categories(kIntegersAndFloats)                \
      .ArrayApi(Promoted(kNumberCategories)))                                                      \
  X(kFrac, UnaryRow("frac").Categories(kFloatingCategory))                                         \
  X(kSign, UnaryRow("sign").Categories(kRealCategories).Check(OpCheck::kNotForComplexInputs)       \
      .Numpy(Promoted(kNumberCategories).ExactLoop()).Jax(Promoted(kNumberCategories))             \
      .ArrayApi(Promoted(kNumberCategories)))                                                      \
  X(kSgn, UnaryRow("sgn"))                                                                         \
  X(kBitwiseNot, UnaryRow("bitwise_not").Categories(kBitwiseCategories)                            \
      .Numpy(Promoted(kBitwiseCategories).Named("invert bitwise_not bitwise_invert"))              \
      .Jax(Promoted(kBitwiseCategories).Named("invert bitwise_not bitwise_invert"))                \
      .ArrayApi(Promoted(kBitwiseCategories).Named("bitwise_invert")))                             \
  X(kNanToNum, UnaryRow("nan_to_num"))                                                             \
  X(kPositive, UnaryRow("positive").Check(OpCheck::kPositive)                                      \
      .Numpy(Promoted(kNumberCategories).ExactLoop()).Jax(Promoted())                              \
      .ArrayApi(Promoted(kNumberCategories)))                                                      \
  X(kConjPhysical, UnaryRow("conj_physical")                                                       \
      .Numpy(Promoted(kNumberCategories).Named("conjugate conj"))                                  \
      .Jax(Promoted().Named("conjugate conj"))                                                     \
      .ArrayApi(Promoted(kNumberCategories).Named("conj")))                                        \
  X(kSquare, UnaryRow("square").BoolToLong().Numpy(Promoted(kNumberCategories)).Jax(Numeric())     \
      .ArrayApi(Promoted(kNumberCategories)))                                                      \
  X(kReal, UnaryRow("real").Result(ResultRule::kRealPart).ArrayApi(RealPart(kNumberCategories)))   \
  X(kImag, UnaryRow("imag").Categories(kComplexCategory).Result(ResultRule::kRealPart)             \
      .ArrayApi(RealPart(kComplexCategory)))                                                       \
  X(kRelu, UnaryRow("nn.functional.relu").Alias("relu").Categories(kRealCategories)                \
      .Check(OpCheck::kNoBoolRelu))                                                                \
  X(kHardtanh, UnaryRow("nn.functional.hardtanh").Categories(kRealCategories)                      \
      .Check(OpCheck::kNoBoolHardtanh))                                                            \
  X(kRelu6, UnaryRow("nn.functional.relu6").Categories(kRealCategories)                            \
      .Check(OpCheck::kNoBoolHardtanh))                                                            \
  X(kGelu, UnaryRow("nn.functional.gelu").Categories(kFloatingCategory))                           \
  X(kElu, UnaryRow("nn.functional.elu").Categories(kFloatingCategory))                             \
  X(kCelu, UnaryRow("nn.functional.celu").Categories(kFloatingCategory))                           \
  X(kSelu, UnaryRow("nn.functional.selu").Categories(kFloatingCategory))                           \
  X(kMish, UnaryRow("nn.functional.mish").Categories(kFloatingCategory))                           \
  X(kSoftplus, UnaryRow("nn.functional.softplus").Categories(kFloatingCategory))                   \
  X(kLeakyRelu, UnaryRow("nn.functional.leaky_relu").Categories(kFloatingCategory))                \
  X(kHardsigmoid, UnaryRow("nn.functional.hardsigmoid").Categories(kFloatingCategory))             \
  X(kHardswish, UnaryRow("nn.functional.hardswish").Categories(kFloatingCategory))                 \
  X(kLogsigmoid, UnaryRow("nn.functional.logsigmoid").Categories(kFloatingCategory))               \
  X(kSilu, UnaryRow("nn.functional.silu").Categories(kInexactCategories))                          \
  /* Unary, ALWAYS_BOOL. */                                                                        \
  X(kIsfinite, UnaryRow("isfinite").AlwaysBool().Numpy(ReturnsBool()).Jax(ReturnsBool())           \
      .ArrayApi(ReturnsBool(kNumberCategories)))                                                   \
  X(kIsinf, UnaryRow("isinf").AlwaysBool().Numpy(ReturnsBool()).Jax(ReturnsBool())                 \
      .ArrayApi(ReturnsBool(kNumberCategories)))                                                   \
  X(kIsnan, UnaryRow("isnan").AlwaysBool().Numpy(ReturnsBool()).Jax(ReturnsBool())                 \
      .ArrayApi(ReturnsBool(kNumberCategories)))                                                   \
  X(kIsreal, UnaryRow("isreal").AlwaysBool())                                                      \
  X(kIsposinf, UnaryRow("isposinf").AlwaysBool().Check(OpCheck::kRealOnly))                        \
  X(kIsneginf, UnaryRow("isneginf").AlwaysBool().Check(OpCheck::kRealOnly))                        \
  X(kSignbit, UnaryRow("signbit").AlwaysBool().Categories(kRealCategories)                         \
      .Numpy(ReturnsBool(kFloatingCategory)).Jax(ReturnsBool(kRealButFloat8))                      \
      .ArrayApi(ReturnsBool(kFloatingCategory)))                                                   \
  X(kLogicalNot, UnaryRow("logical_not").AlwaysBool().Numpy(ReturnsBool()).Jax(ReturnsBool())      \
      .ArrayApi(ReturnsBool(kBoolCategory)))                                                       \
  /* Binary. */                                                                                    \
  X(kFmod, BinaryRow("fmod").Categories(kIntegersAndFloats).Scalars(kScalarSecond)                 \
      .Numpy(Promoted(kIntegersAndFloats)).Jax(Numeric(kRealCategories)))                          \
  X(kHypot, BinaryRow("hypot").Categories(kFloatingCategory).Numpy(Promoted(kFloatingCategory))    \
      .Jax(Inexact(kRealCategories)).ArrayApi(Promoted(kFloatingCategory)))                        \
  X(kCopysign, BinaryRow("copysign").IntToFloat().Categories(kRealCategories)                      \
      .Scalars(kScalarSecond).Numpy(Promoted(kFloatingCategory)).Jax(Inexact(kRealButFloat8))      \
      .ArrayApi(Promoted(kFloatingCategory)))                                                      \
  X(kNextafter, BinaryRow("nextafter").NoOpMath().Categories(kFloatingCategory)                    \
      .Numpy(Promoted(kFloatingCategory)).Jax(Inexact(kRealCategories))                            \
      .ArrayApi(Promoted(kFloatingCategory)))                                                      \
  X(kFmax, BinaryRow("fmax").Categories(kRealCategories).Numpy(Promoted()).Jax(Promoted()))        \
  X(kFmin, BinaryRow("fmin").Categories(kRealCategories).Numpy(Promoted()).Jax(Promoted()))        \
  X(kHeaviside, BinaryRow("heaviside").Categories(kRealCategories).Check(OpCheck::kSameDType)      \
      .Numpy(Promoted(kFloatingCategory)).Jax(Inexact(kRealCategories)))                           \
  X(kIgamma, BinaryRow("igamma").Alias("special.gammainc").Categories(kFloatingCategory))          \
  X(kIgammac, BinaryRow("igammac").Alias("special.gammaincc").Categories(kFloatingCategory))       \
  X(kXlogy, BinaryRow("xlogy").Alias("special.xlogy").IntToFloat().Categories(kRealCategories)     \
      .Scalars(kScalarEither))                                                                     \
  X(kXlog1py, BinaryRow("special.xlog1py").IntToFloat().Categories(kRealCategories)                \
      .Scalars(kScalarEither))                                                                     \
  X(kZeta, BinaryRow("special.zeta").IntToFloat().Categories(kRealButReducedFloats)                \
      .Scalars(kScalarEither))                                                                     \
  X(kLogaddexp, BinaryRow("logaddexp").Categories(kInexactCategories)                              \
      .Numpy(Promoted(kFloatingCategory)).Jax(Inexact()).ArrayApi(Promoted(kFloatingCategory)))    \
  X(kLogaddexp2, BinaryRow("logaddexp2").Categories(kFloatingCategory)                             \
      .Numpy(Promoted(kFloatingCategory)).Jax(Inexact()))                                          \
  X(kLdexp, BinaryRow("ldexp").IntToFloat().Converts(OperandConversion::kSecondIntToFloat)         \
      .Numpy(Ldexp(kFloatingCategory)).Jax(Ldexp(kFloatingButFloat8)))                              \
  X(kFloatPower, BinaryRow("float_power").Converts(OperandConversion::kAllToDouble)                \
      .Scalars(kScalarEither).Numpy(Double()).Jax(Inexact()))                                      \
  X(kGcd, BinaryRow("gcd").Categories(kIntegerCategories)                                          \
      .Numpy(Promoted(kIntegerCategories).ExactLoop()).Jax(Promoted(kIntegerCategories)))          \
  X(kLcm, BinaryRow("lcm").Categories(kIntegerCategories)                                          \
      .Numpy(Promoted(kIntegerCategories).ExactLoop()).Jax(Promoted(kIntegerCategories)))          \
  X(kBitwiseLeftShift, BinaryRow("bitwise_left_shift").Categories(kIntegerCategories)              \
      .Scalars(kScalarEither)                                                                      \
      .Numpy(Promoted(kIntegerCategories).Named("left_shift bitwise_left_shift"))                  \
      .Jax(Numeric(kBitwiseCategories).Named("left_shift bitwise_left_shift"))                     \
      .ArrayApi(Promoted(kIntegerCategories).Check(FrameworkCheck::kShiftCount)))                  \
  X(kBitwiseRightShift, BinaryRow("bitwise_right_shift").Categories(kIntegerCategories)            \
      .Scalars(kScalarEither)                                                                      \
      .Numpy(Promoted(kIntegerCategories).Named("right_shift bitwise_right_shift"))                \
      .Jax(Numeric(kBitwiseCategories).Named("right_shift bitwise_right_shift"))                   \
      .ArrayApi(Promoted(kIntegerCategories).Check(FrameworkCheck::kShiftCount)))                  \
  X(kRsub, BinaryRow("rsub").Categories(kNumberCategories).Check(OpCheck::kNoBoolOperand)          \
      .Scalars(kScalarSecond))                                                                     \
  X(kClampMin, BinaryRow("clamp_min").Categories(kRealCategories).Scalars(kScalarSecond)           \
      .Check(OpCheck::kClampBound))                                                                \
  X(kClampMax, BinaryRow("clamp_max").Categories(kRealCategories).Scalars(kScalarSecond)           \
      .Check(OpCheck::kClampBound))                                                                \
  X(kVdot, BinaryRow("vdot").Contraction().Categories(kNumberCategories).Check(OpCheck::kDot))     \
  /* Ternary. */                                                                                   \
  X(kLerp, TernaryRow("lerp").Categories(kInexactCategories).Check(OpCheck::kLerp)                 \
      .Scalars(kScalarThird))                                                                      \
  X(kAddcmul, TernaryRow("addcmul").Categories(kNumberCategories))                                 \
  X(kAddcdiv, TernaryRow("addcdiv").Check(OpCheck::kAddcdiv))                                      \
  X(kClamp, TernaryRow("clamp").Alias("clip").Categories(kIntegersAndFloats)                       \
      .Check(OpCheck::kClamp).Scalars(kScalarValues)                                               \
      .Converts(OperandConversion::kZeroDimBoundsAsNumbers))                                       \
  /* Reductions and scans. */                                                                      \
  X(kNansum, ReductionRow("nansum").Floor(ReductionFloor::kInt64).TakesDType()                     \
      .Check(OpCheck::kNoComplexNansum).Numpy(Accumulates()).Jax(Accumulates()))                   \
  X(kNanmean, ReductionRow("nanmean").Categories(kFloatingCategory).Check(OpCheck::kNanMean)       \
      .TakesDType().Numpy(Inexact()).Jax(Inexact()))                                               \
  X(kAmax, ReductionRow("amax").Categories(kRealCategories).Numpy(Promoted().Named("max amax"))    \
      .Jax(Promoted().Named("max amax")).ArrayApi(Promoted(kIntegersAndFloats).Named("max")))      \
  X(kAmin, ReductionRow("amin").Categories(kRealCategories).Numpy(Promoted().Named("min amin"))    \
      .Jax(Promoted().Named("min amin")).ArrayApi(Promoted(kIntegersAndFloats).Named("min")))      \
  X(kArgmax, ReductionRow("argmax").Check(OpCheck::kArgExtremum).Result(ResultRule::kInt64)        \
      .Numpy(ReturnsIndex()).Jax(ReturnsIndex()).ArrayApi(ReturnsIndex(kIntegersAndFloats)))       \
  X(kArgmin, ReductionRow("argmin").Check(OpCheck::kArgExtremum).Result(ResultRule::kInt64)        \
      .Numpy(ReturnsIndex()).Jax(ReturnsIndex()).ArrayApi(ReturnsIndex(kIntegersAndFloats)))       \
  X(kAny, ReductionRow("any").Result(ResultRule::kBoolOrByte).Numpy(ReturnsBool())                 \
      .Jax(ReturnsBool()).ArrayApi(ReturnsBool()))                                                 \
  X(kAll, ReductionRow("all").Result(ResultRule::kBoolOrByte).Numpy(ReturnsBool())                 \
      .Jax(ReturnsBool()).ArrayApi(ReturnsBool()))                                                 \
  X(kVar, ReductionRow("var").Check(OpCheck::kVarStd).Result(ResultRule::kRealPart)                \
      .Numpy(InexactRealPart()).Jax(InexactRealPart()).ArrayApi(Promoted(kFloatingCategory)))      \
  X(kStd, ReductionRow("std").Check(OpCheck::kVarStd).Result(ResultRule::kRealPart)                \
      .Numpy(InexactRealPart()).Jax(InexactRealPart()).ArrayApi(Promoted(kFloatingCategory)))      \
  X(kLogsumexp, ReductionRow("logsumexp").IntToFloat())                                            \
  X(kCountNonzero, ReductionRow("count_nonzero").Result(ResultRule::kInt64)                        \
      .ArrayApi(ReturnsIndex()))                                                                   \
  X(kCumprod, ReductionRow("cumprod", OpKind::kScan).Floor(ReductionFloor::kInt64).TakesDType()    \
      .Numpy(Accumulates()).Jax(BoolToDefaultInt())                                                \
      .ArrayApi(Accumulates(kNumberCategories).Named("cumulative_prod")                            \
      .Check(FrameworkCheck::kAtLeast1D)))                                                         \
  /* NumPy's and jax.numpy's, not PyTorch's. */                                                    \
  X(kCbrt, UnaryRow("cbrt").NotInTorch().Numpy(Promoted(kFloatingCategory))                        \
      .Jax(Inexact(kRealCategories)))                                                              \
  X(kFabs, UnaryRow("fabs").NotInTorch().Numpy(Promoted(kFloatingCategory))                        \
      .Jax(Inexact(kRealCategories)))                                                              \
  X(kRint, UnaryRow("rint").NotInTorch().Numpy(Promoted(kInexactCategories)).Jax(DefaultFloat()))  \
  X(kSpacing, UnaryRow("spacing").NotInTorch().Numpy(Promoted(kFloatingCategory))                  \
      .Jax(Inexact(kRealButFloat8)))                                                              \
  X(kBitwiseCount, UnaryRow("bitwise_count").NotInTorch()                                         \
      .Numpy(ReturnsUInt8(kIntegerCategories)).Jax(ReturnsUInt8(kBitwiseCategories)))
// clang-format on

enum class Op : uint8_t {
#define ONEFLOW_PROMOTE_OP_ENUM(e, spec) e,
  ONEFLOW_PROMOTE_FOR_EACH_OP(ONEFLOW_PROMOTE_OP_ENUM)
#undef ONEFLOW_PROMOTE_OP_ENUM
};

inline constexpr Op kAllOps[] = {
#define ONEFLOW_PROMOTE_OP_LIST(e, spec) Op::e,
    ONEFLOW_PROMOTE_FOR_EACH_OP(ONEFLOW_PROMOTE_OP_LIST)
#undef ONEFLOW_PROMOTE_OP_LIST
};

inline constexpr size_t kNumOps = sizeof(kAllOps) / sizeof(kAllOps[0]);

inline constexpr OpSpec kOpSpecs[] = {
#define ONEFLOW_PROMOTE_OP_SPEC(e, spec) spec,
    ONEFLOW_PROMOTE_FOR_EACH_OP(ONEFLOW_PROMOTE_OP_SPEC)
#undef ONEFLOW_PROMOTE_OP_SPEC
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

// The ops with Kernel(), in table order: what functional::Call runs.
inline constexpr size_t kNumKernelOps = [] {
  size_t n = 0;
  for (Op op : kAllOps) n += HasKernel(op) ? 1 : 0;
  return n;
}();
inline constexpr std::array<Op, kNumKernelOps> kKernelOps = [] {
  std::array<Op, kNumKernelOps> ops{};
  size_t i = 0;
  for (Op op : kAllOps) {
    if (HasKernel(op)) ops[i++] = op;
  }
  return ops;
}();

// PyTorch 2.15's autocast list for a built-in op on the CPU or CUDA.
[[nodiscard]] constexpr AutoCastKind AutoCastKindOf(Op op, bool cuda) {
  return cuda ? SpecOf(op).autocast_cuda : SpecOf(op).autocast_cpu;
}

}  // namespace oneflow_promote::ops

#endif  // ONEFLOW_PROMOTE_OPS_OP_LIST_H_
