// The op table: every op of the library declared once, as one row of an
// X-macro list. A row names the op's enumerator and an OpSpec built with
// named setters: PyTorch's name and aliases, arity, kind, promotion kind,
// dtype categories, floors, checks, which operands may be Python scalars,
// whether PyTorch's backward raises, the PyTorch overloads and autocast
// lists, and whether the library has a kernel for it. The Op enum, the rules
// (op_rules.h), ParseOp, the CLI, the C ABIs, functional::Call, the pipe's
// autocast lists and the kernels' dispatch all derive from it. Free of
// Abseil, for nvcc.
//
// Adding an op whose element shape exists is one row here plus its tests;
// tests/ops/generate_cases.py holds the PyTorch call that checks its rule.
// An op with a kernel adds its element function in
// functional/internal/op_math.h, and the files docs/integration.md lists.

#ifndef ONEFLOW_PROMOTE_OPS_OP_LIST_H_
#define ONEFLOW_PROMOTE_OPS_OP_LIST_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "oneflow_promote/dtype.h"
#include "oneflow_promote/dtype_enum.h"

namespace oneflow_promote::ops {

// What an op's kernel does with its operands' elements.
enum class OpKind : uint8_t {
  kElementwise,  // one result element per (broadcast) operand element
  kReduction,    // all elements to one (sum, prod, mean)
  kScan,         // running results along a dimension (cumsum)
  kContraction,  // products summed over a dimension (dot)
};

// How an elementwise op's dtypes follow from its operands' promoted dtype:
// PyTorch's ELEMENTWISE_TYPE_PROMOTION_KIND (torch._prims_common), whose
// per-op values tests/torch_extension compares with torch._refs'.
enum class PromotionKind : uint8_t {
  kDefault,         // the promoted dtype (add, mul, maximum, bitwise ops)
  kNoOpMath,        // the promoted dtype, computed in itself too (where)
  kIntToFloat,      // integers and bool become the default dtype (div, atan2, sqrt)
  kAlwaysBool,      // a bool result (comparisons, logical ops)
  kComplexToFloat,  // a complex dtype returns its real part's dtype (abs)
  kBoolToLong,      // bool becomes int64 (pow)
};

// The lowest dtype an op computes in, joined with its promoted dtype.
enum class ReductionFloor : uint8_t {
  kNone,
  kInt64,  // integers and bool accumulate in and return int64 (sum, prod, cumsum)
};

// A result dtype that does not follow the compute dtype.
enum class ResultRule : uint8_t {
  kCompute,     // the compute dtype, after the promotion kind
  kRealPart,    // a complex compute dtype returns its parts' dtype (var, angle, real)
  kInt64,       // indices and counts (argmax, count_nonzero)
  kBoolOrByte,  // bool, but uint8 for uint8 (any, all)
};

// Dtype categories as a mask, for the categories an op is defined on.
enum DTypeCategories : uint8_t {
  kBoolCategory = 1,
  kIntegerCategories = 2,      // signed and unsigned
  kReducedFloatCategory = 16,  // float16 and bfloat16
  kOtherFloatCategory = 4,     // float32, float64 and the float8 formats
  kFloatingCategory = kReducedFloatCategory | kOtherFloatCategory,
  kComplexCategory = 8,
  kRealCategories = kBoolCategory | kIntegerCategories | kFloatingCategory,
  kNumberCategories = kIntegerCategories | kFloatingCategory | kComplexCategory,
  kAllCategories = kRealCategories | kComplexCategory,
  kIntegersAndFloats = kIntegerCategories | kFloatingCategory,
  kBitwiseCategories = kBoolCategory | kIntegerCategories,
  kInexactCategories = kFloatingCategory | kComplexCategory,
  // PyTorch's special functions without a float16 or bfloat16 kernel.
  kRealButReducedFloats = kRealCategories & ~kReducedFloatCategory,
};

// The category bit of a dtype: float16 and bfloat16 have their own.
[[nodiscard]] constexpr uint8_t CategoryBitOf(DType dtype) {
  switch (CategoryOf(dtype)) {
    case Category::kBool:
      return kBoolCategory;
    case Category::kUnsigned:
    case Category::kSigned:
      return kIntegerCategories;
    case Category::kFloating:
      return dtype == DType::kFloat16 || dtype == DType::kBFloat16 ? kReducedFloatCategory
                                                                   : kOtherFloatCategory;
    case Category::kComplex:
      return kComplexCategory;
  }
  return 0;
}

// Whether PyTorch's autograd has a derivative for an op whose result carries
// gradients (see ResultRequiresGrad).
enum class Derivative : uint8_t {
  kDefined,
  kNotImplemented,  // the result requires grad, but backward raises (floor_divide)
};

// The op-specific checks of the built-in ops, with PyTorch 2.15's messages
// (op_rules.cc turns each into its function).
enum class OpCheck : uint8_t {
  kNone,
  kNoBoolOperand,        // sub, rsub: "Subtraction, the `-` operator, with a bool tensor ..."
  kNegation,             // neg: "Negation, the `-` operator, on a bool tensor ..."
  kPositive,             // positive: "The `+` operator, on a bool tensor is not supported."
  kNoComplexOperand,     // maximum, minimum: "maximum not implemented for complex tensors."
  kPow,                  // integers to negative Python int powers; the exponent's range
  kDot,                  // 1-d operands of one dtype
  kMean,                 // floating or complex compute dtype
  kVarStd,               // floating (not float8) or complex compute dtype
  kNanMean,              // floating input (complex: nansum's message)
  kWhere,                // a bool condition; scalar values that fit
  kSameDType,            // heaviside: operands of one dtype
  kLerp,                 // lerp: end, and a dimensioned weight, of start's dtype
  kAddcdiv,              // addcdiv: no integer division
  kNoBoolRelu,           // relu: "Boolean inputs not supported for relu"
  kNoBoolHardtanh,       // hardtanh, relu6: "Bool inputs not supported for hardtanh"
  kClamp,                // clamp: bounds both scalars or both tensors; no complex; in range
  kClampBound,           // clamp_min, clamp_max: a Python int bound within an integer dtype
  kArgExtremum,          // argmax, argmin: no bool, no complex
  kRealOnly,             // isposinf, isneginf: no complex
  kNotForComplexInputs,  // ceil, floor, trunc, deg2rad, sign, ...: "<op> is not supported ..."
  kNoComplexNansum,      // nansum: "nansum on CPU does not support complex inputs"
};

// Bits of OpSpec::scalars: which operand positions take a Python scalar.
enum ScalarPositions : uint8_t {
  kNoScalars = 0,
  kScalarFirst = 1,
  kScalarSecond = 2,
  kScalarThird = 4,
  kScalarEither = kScalarFirst | kScalarSecond,
  kScalarValues = kScalarSecond | kScalarThird,  // where, clamp
  // With it, every operand may be a Python scalar at once (add(2, 2.5));
  // without it, at least one is a tensor.
  kScalarsAlone = 0x80,
  kAnyScalars = 0xFF,
};

// How operands are converted before they are promoted, where an op is a
// composite of others in PyTorch (ldexp is mul(input, pow(2.0, other))).
enum class OperandConversion : uint8_t {
  kNone,
  kSecondIntToFloat,  // an integer or bool second operand promotes as a Python float
  kAllToDouble,       // every operand becomes float64 (complex128 if complex)
  // Beside a Python scalar bound, a 0-d tensor bound is a number (clamp).
  kZeroDimBoundsAsNumbers,
};

// Which autocast list an op is on (torch.autocast's names).
enum class AutoCastKind : uint8_t {
  kNone,            // runs in its inputs' dtypes
  kLowerPrecision,  // floating inputs run in the autocast dtype (matmul, conv)
  kFloat32,         // floating inputs run in float32 (pow, sum, cumsum on CUDA)
  kPromote,         // floating inputs run in their widest dtype (atan2, dot on CUDA)
};

// One op's declaration. Each setter returns the spec with one property
// set, so a row reads as a sentence:
//   BinaryRow("atan2").Alias("arctan2").IntToFloat().Categories(kRealCategories)
struct OpSpec {
  const char* name = "";
  const char* aliases = "";  // space-separated
  int arity = 1;
  OpKind kind = OpKind::kElementwise;
  PromotionKind promotion = PromotionKind::kDefault;
  uint8_t categories = kAllCategories;
  const char* kernel_name = "";  // in "\"<kernel>\" not implemented for ..."; defaults to name
  ReductionFloor floor = ReductionFloor::kNone;
  ResultRule result = ResultRule::kCompute;
  bool keeps_dtype = false;  // the first operand's dtype, unpromoted (unary ops, reductions)
  int first_promoted = 0;    // the operands before it are not promoted (where's condition)
  OpCheck check = OpCheck::kNone;
  uint8_t scalars = kNoScalars;
  OperandConversion conversion = OperandConversion::kNone;
  bool takes_dtype = false;  // a dtype= argument (sum, mean, cumsum, ...)
  Derivative derivative = Derivative::kDefined;
  bool has_kernel = false;          // the library computes it (op_kernels.h)
  bool alpha = false;               // the PyTorch overloads take alpha (add, sub)
  bool in_place = true;             // PyTorch has name_ (maximum and minimum have none)
  bool rounding_mode = false;       // the PyTorch overloads take rounding_mode (div)
  bool in_torch_extension = false;  // torch.ops.oneflow_promote registers it
  AutoCastKind autocast_cpu = AutoCastKind::kNone;
  AutoCastKind autocast_cuda = AutoCastKind::kNone;

#define ONEFLOW_PROMOTE_OP_SETTER(Setter, field, Type) \
  constexpr OpSpec Setter(Type value) const {          \
    OpSpec s = *this;                                  \
    s.field = value;                                   \
    return s;                                          \
  }
  ONEFLOW_PROMOTE_OP_SETTER(Alias, aliases, const char*)
  ONEFLOW_PROMOTE_OP_SETTER(Categories, categories, uint8_t)
  ONEFLOW_PROMOTE_OP_SETTER(KernelName, kernel_name, const char*)
  ONEFLOW_PROMOTE_OP_SETTER(Floor, floor, ReductionFloor)
  ONEFLOW_PROMOTE_OP_SETTER(Result, result, ResultRule)
  ONEFLOW_PROMOTE_OP_SETTER(Check, check, OpCheck)
  ONEFLOW_PROMOTE_OP_SETTER(Scalars, scalars, uint8_t)
  ONEFLOW_PROMOTE_OP_SETTER(AutoCastCpu, autocast_cpu, AutoCastKind)
  ONEFLOW_PROMOTE_OP_SETTER(AutoCastCuda, autocast_cuda, AutoCastKind)
  ONEFLOW_PROMOTE_OP_SETTER(Promotion, promotion, PromotionKind)
  ONEFLOW_PROMOTE_OP_SETTER(Converts, conversion, OperandConversion)
#undef ONEFLOW_PROMOTE_OP_SETTER
  constexpr OpSpec IntToFloat() const { return Promotion(PromotionKind::kIntToFloat); }
  constexpr OpSpec AlwaysBool() const { return Promotion(PromotionKind::kAlwaysBool); }
  constexpr OpSpec ComplexToFloat() const { return Promotion(PromotionKind::kComplexToFloat); }
  constexpr OpSpec BoolToLong() const { return Promotion(PromotionKind::kBoolToLong); }
  constexpr OpSpec NoOpMath() const { return Promotion(PromotionKind::kNoOpMath); }
  constexpr OpSpec Kernel() const { return Set(&OpSpec::has_kernel, true); }
  constexpr OpSpec Alpha() const { return Set(&OpSpec::alpha, true); }
  constexpr OpSpec RoundingMode() const { return Set(&OpSpec::rounding_mode, true); }
  constexpr OpSpec InTorchExtension() const { return Set(&OpSpec::in_torch_extension, true); }
  constexpr OpSpec NoInPlace() const { return Set(&OpSpec::in_place, false); }
  constexpr OpSpec TakesDType() const { return Set(&OpSpec::takes_dtype, true); }
  constexpr OpSpec KeepsDType() const { return Set(&OpSpec::keeps_dtype, true); }
  constexpr OpSpec NoDerivative() const {
    OpSpec s = *this;
    s.derivative = Derivative::kNotImplemented;
    return s;
  }
  constexpr OpSpec Contraction() const {
    OpSpec s = *this;
    s.kind = OpKind::kContraction;
    return s;
  }
  constexpr OpSpec FirstPromoted(int index) const {
    OpSpec s = *this;
    s.first_promoted = index;
    return s;
  }

 private:
  constexpr OpSpec Set(bool OpSpec::*field, bool value) const {
    OpSpec s = *this;
    s.*field = value;
    return s;
  }
};

// The shapes of rows: an elementwise op of one, two or three operands, a
// reduction or scan of one (which keeps its operand's dtype, unpromoted: a
// wrapped number's float64 stays float64).
constexpr OpSpec ElementwiseRow(const char* name, int arity) {
  OpSpec s;
  s.name = name;
  s.arity = arity;
  return s;
}
constexpr OpSpec UnaryRow(const char* name) { return ElementwiseRow(name, 1); }
constexpr OpSpec BinaryRow(const char* name) { return ElementwiseRow(name, 2); }
constexpr OpSpec TernaryRow(const char* name) { return ElementwiseRow(name, 3); }
constexpr OpSpec ReductionRow(const char* name, OpKind kind = OpKind::kReduction) {
  OpSpec s = UnaryRow(name);
  s.kind = kind;
  s.keeps_dtype = true;
  return s;
}

// X(enumerator, spec): every op, in one list. The rows with Kernel() come
// first (the functional frontend's kernels); the rest are rules only.
// clang-format off
#define ONEFLOW_PROMOTE_FOR_EACH_OP(X)                                                             \
  X(kAdd, BinaryRow("add").Scalars(kScalarEither | kScalarsAlone).Kernel().InTorchExtension()      \
      .Alpha())                                                                                    \
  X(kSub, BinaryRow("sub").Alias("subtract").Categories(kNumberCategories)                         \
      .Scalars(kScalarEither | kScalarsAlone).Check(OpCheck::kNoBoolOperand).Kernel()              \
      .InTorchExtension().Alpha())                                                                 \
  X(kMul, BinaryRow("mul").Alias("multiply").Scalars(kScalarEither | kScalarsAlone).Kernel()       \
      .InTorchExtension())                                                                         \
  X(kDiv, BinaryRow("div").Alias("divide true_divide").IntToFloat()                                \
      .Scalars(kScalarEither | kScalarsAlone).Kernel().InTorchExtension().RoundingMode())          \
  X(kDivFloor, BinaryRow("div_floor").Alias("div(rounding_mode=floor)")                            \
      .Categories(kIntegersAndFloats).KernelName("div_floor_cpu")                                  \
      .Scalars(kScalarEither | kScalarsAlone).Kernel())                                            \
  X(kDivTrunc, BinaryRow("div_trunc").Alias("div(rounding_mode=trunc)")                            \
      .Categories(kIntegersAndFloats).KernelName("div_trunc_cpu")                                  \
      .Scalars(kScalarEither | kScalarsAlone).Kernel())                                            \
  X(kFloorDivide, BinaryRow("floor_divide").Categories(kIntegersAndFloats)                         \
      .KernelName("div_floor_cpu").Scalars(kScalarEither | kScalarsAlone).NoDerivative().Kernel()  \
      .InTorchExtension())                                                                         \
  X(kRemainder, BinaryRow("remainder").Categories(kIntegersAndFloats).KernelName("remainder_cpu")  \
      .Scalars(kScalarEither).Kernel().InTorchExtension())                                         \
  X(kPow, BinaryRow("pow").BoolToLong().Categories(kNumberCategories).Check(OpCheck::kPow)         \
      .Scalars(kScalarEither).Kernel().AutoCastCuda(AutoCastKind::kFloat32))                       \
  X(kMaximum, BinaryRow("maximum").Categories(kRealCategories).Check(OpCheck::kNoComplexOperand)   \
      .Kernel().InTorchExtension().NoInPlace())                                                    \
  X(kMinimum, BinaryRow("minimum").Categories(kRealCategories).Check(OpCheck::kNoComplexOperand)   \
      .Kernel().InTorchExtension().NoInPlace())                                                    \
  X(kAtan2, BinaryRow("atan2").Alias("arctan2").IntToFloat().Categories(kRealCategories)           \
      .KernelName("atan2_cpu").Kernel().InTorchExtension().AutoCastCuda(AutoCastKind::kPromote))   \
  X(kEq, BinaryRow("eq").AlwaysBool().Scalars(kScalarSecond).Kernel().InTorchExtension())          \
  X(kNe, BinaryRow("ne").Alias("not_equal").AlwaysBool().Scalars(kScalarSecond).Kernel()           \
      .InTorchExtension())                                                                         \
  X(kLt, BinaryRow("lt").Alias("less").AlwaysBool().Categories(kRealCategories)                    \
      .KernelName("lt_cpu").Scalars(kScalarSecond).Kernel().InTorchExtension())                    \
  X(kLe, BinaryRow("le").Alias("less_equal").AlwaysBool().Categories(kRealCategories)              \
      .KernelName("le_cpu").Scalars(kScalarSecond).Kernel().InTorchExtension())                    \
  X(kGt, BinaryRow("gt").Alias("greater").AlwaysBool().Categories(kRealCategories)                 \
      .KernelName("gt_cpu").Scalars(kScalarSecond).Kernel().InTorchExtension())                    \
  X(kGe, BinaryRow("ge").Alias("greater_equal").AlwaysBool().Categories(kRealCategories)           \
      .KernelName("ge_cpu").Scalars(kScalarSecond).Kernel().InTorchExtension())                    \
  X(kLogicalAnd, BinaryRow("logical_and").AlwaysBool().Kernel().InTorchExtension())                \
  X(kLogicalOr, BinaryRow("logical_or").AlwaysBool().Kernel().InTorchExtension())                  \
  X(kLogicalXor, BinaryRow("logical_xor").AlwaysBool().Kernel().InTorchExtension())                \
  X(kBitwiseAnd, BinaryRow("bitwise_and").Categories(kBitwiseCategories)                           \
      .KernelName("bitwise_and_cpu").Scalars(kScalarEither).Kernel().InTorchExtension())           \
  X(kBitwiseOr, BinaryRow("bitwise_or").Categories(kBitwiseCategories)                             \
      .KernelName("bitwise_or_cpu").Scalars(kScalarEither).Kernel().InTorchExtension())            \
  X(kBitwiseXor, BinaryRow("bitwise_xor").Categories(kBitwiseCategories)                           \
      .KernelName("bitwise_xor_cpu").Scalars(kScalarEither).Kernel().InTorchExtension())           \
  X(kWhere, TernaryRow("where").NoOpMath().FirstPromoted(1).Check(OpCheck::kWhere)                 \
      .Scalars(kScalarValues).Kernel().InTorchExtension())                                         \
  X(kDot, BinaryRow("dot").Contraction().Categories(kNumberCategories).Check(OpCheck::kDot)        \
      .Kernel().AutoCastCuda(AutoCastKind::kPromote))                                              \
  X(kSum, ReductionRow("sum").Floor(ReductionFloor::kInt64).TakesDType().Kernel()                  \
      .AutoCastCuda(AutoCastKind::kFloat32))                                                       \
  X(kProd, ReductionRow("prod").Floor(ReductionFloor::kInt64).TakesDType().Kernel()                \
      .AutoCastCpu(AutoCastKind::kFloat32).AutoCastCuda(AutoCastKind::kFloat32))                   \
  X(kMean, ReductionRow("mean").Check(OpCheck::kMean).TakesDType().Kernel())                       \
  X(kCumsum, ReductionRow("cumsum", OpKind::kScan).Floor(ReductionFloor::kInt64).TakesDType()      \
      .Kernel().AutoCastCuda(AutoCastKind::kFloat32))                                              \
  X(kNeg, UnaryRow("neg").Alias("negative").Categories(kNumberCategories)                          \
      .Check(OpCheck::kNegation).KeepsDType().Kernel())                                            \
  X(kAbs, UnaryRow("abs").Alias("absolute").ComplexToFloat().KeepsDType()                          \
      .Categories(kNumberCategories).KernelName("abs_cpu").Kernel())                               \
  X(kSqrt, UnaryRow("sqrt").IntToFloat().Kernel())                                                 \
  /* Unary, INT_TO_FLOAT: integers and bool compute in the default dtype. */                       \
  X(kSin, UnaryRow("sin").IntToFloat())                                                            \
  X(kCos, UnaryRow("cos").IntToFloat())                                                            \
  X(kTan, UnaryRow("tan").IntToFloat())                                                            \
  X(kAsin, UnaryRow("asin").Alias("arcsin").IntToFloat())                                          \
  X(kAcos, UnaryRow("acos").Alias("arccos").IntToFloat())                                          \
  X(kAtan, UnaryRow("atan").Alias("arctan").IntToFloat())                                          \
  X(kSinh, UnaryRow("sinh").IntToFloat())                                                          \
  X(kCosh, UnaryRow("cosh").IntToFloat())                                                          \
  X(kTanh, UnaryRow("tanh").IntToFloat())                                                          \
  X(kAsinh, UnaryRow("asinh").Alias("arcsinh").IntToFloat())                                       \
  X(kAcosh, UnaryRow("acosh").Alias("arccosh").IntToFloat())                                       \
  X(kAtanh, UnaryRow("atanh").Alias("arctanh").IntToFloat())                                       \
  X(kExp, UnaryRow("exp").IntToFloat())                                                            \
  X(kExp2, UnaryRow("exp2").Alias("special.exp2").IntToFloat())                                    \
  X(kExpm1, UnaryRow("expm1").Alias("special.expm1").IntToFloat())                                 \
  X(kLog, UnaryRow("log").IntToFloat())                                                            \
  X(kLog2, UnaryRow("log2").IntToFloat())                                                          \
  X(kLog10, UnaryRow("log10").IntToFloat())                                                        \
  X(kLog1p, UnaryRow("log1p").Alias("special.log1p").IntToFloat())                                 \
  X(kRsqrt, UnaryRow("rsqrt").IntToFloat())                                                        \
  X(kReciprocal, UnaryRow("reciprocal").IntToFloat())                                              \
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
      .Check(OpCheck::kNotForComplexInputs))                                                       \
  X(kRad2deg, UnaryRow("rad2deg").IntToFloat().Categories(kRealCategories)                         \
      .Check(OpCheck::kNotForComplexInputs))                                                       \
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
  X(kCeil, UnaryRow("ceil").Categories(kIntegersAndFloats).Check(OpCheck::kNotForComplexInputs))   \
  X(kFloor, UnaryRow("floor").Categories(kIntegersAndFloats).Check(OpCheck::kNotForComplexInputs)) \
  X(kTrunc, UnaryRow("trunc").Alias("fix").Categories(kIntegersAndFloats)                          \
      .Check(OpCheck::kNotForComplexInputs))                                                       \
  X(kRound, UnaryRow("round").Alias("special.round").Categories(kIntegersAndFloats))               \
  X(kFrac, UnaryRow("frac").Categories(kFloatingCategory))                                         \
  X(kSign, UnaryRow("sign").Categories(kRealCategories).Check(OpCheck::kNotForComplexInputs))      \
  X(kSgn, UnaryRow("sgn"))                                                                         \
  X(kBitwiseNot, UnaryRow("bitwise_not").Categories(kBitwiseCategories))                           \
  X(kNanToNum, UnaryRow("nan_to_num"))                                                             \
  X(kPositive, UnaryRow("positive").Check(OpCheck::kPositive))                                     \
  X(kConjPhysical, UnaryRow("conj_physical"))                                                      \
  X(kSquare, UnaryRow("square").BoolToLong())                                                      \
  X(kReal, UnaryRow("real").Result(ResultRule::kRealPart))                                         \
  X(kImag, UnaryRow("imag").Categories(kComplexCategory).Result(ResultRule::kRealPart))            \
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
  X(kIsfinite, UnaryRow("isfinite").AlwaysBool())                                                  \
  X(kIsinf, UnaryRow("isinf").AlwaysBool())                                                        \
  X(kIsnan, UnaryRow("isnan").AlwaysBool())                                                        \
  X(kIsreal, UnaryRow("isreal").AlwaysBool())                                                      \
  X(kIsposinf, UnaryRow("isposinf").AlwaysBool().Check(OpCheck::kRealOnly))                        \
  X(kIsneginf, UnaryRow("isneginf").AlwaysBool().Check(OpCheck::kRealOnly))                        \
  X(kSignbit, UnaryRow("signbit").AlwaysBool().Categories(kRealCategories))                        \
  X(kLogicalNot, UnaryRow("logical_not").AlwaysBool())                                             \
  /* Binary. */                                                                                    \
  X(kFmod, BinaryRow("fmod").Categories(kIntegersAndFloats).Scalars(kScalarSecond))                \
  X(kHypot, BinaryRow("hypot").Categories(kFloatingCategory))                                      \
  X(kCopysign, BinaryRow("copysign").IntToFloat().Categories(kRealCategories)                      \
      .Scalars(kScalarSecond))                                                                     \
  X(kNextafter, BinaryRow("nextafter").NoOpMath().Categories(kFloatingCategory))                   \
  X(kFmax, BinaryRow("fmax").Categories(kRealCategories))                                          \
  X(kFmin, BinaryRow("fmin").Categories(kRealCategories))                                          \
  X(kHeaviside, BinaryRow("heaviside").Categories(kRealCategories).Check(OpCheck::kSameDType))     \
  X(kIgamma, BinaryRow("igamma").Alias("special.gammainc").Categories(kFloatingCategory))          \
  X(kIgammac, BinaryRow("igammac").Alias("special.gammaincc").Categories(kFloatingCategory))       \
  X(kXlogy, BinaryRow("xlogy").Alias("special.xlogy").IntToFloat().Categories(kRealCategories)     \
      .Scalars(kScalarEither))                                                                     \
  X(kXlog1py, BinaryRow("special.xlog1py").IntToFloat().Categories(kRealCategories)                \
      .Scalars(kScalarEither))                                                                     \
  X(kZeta, BinaryRow("special.zeta").IntToFloat().Categories(kRealButReducedFloats)                \
      .Scalars(kScalarEither))                                                                     \
  X(kLogaddexp, BinaryRow("logaddexp").Categories(kInexactCategories))                             \
  X(kLogaddexp2, BinaryRow("logaddexp2").Categories(kFloatingCategory))                            \
  X(kLdexp, BinaryRow("ldexp").IntToFloat().Converts(OperandConversion::kSecondIntToFloat))        \
  X(kFloatPower, BinaryRow("float_power").Converts(OperandConversion::kAllToDouble)                \
      .Scalars(kScalarEither))                                                                     \
  X(kGcd, BinaryRow("gcd").Categories(kIntegerCategories))                                         \
  X(kLcm, BinaryRow("lcm").Categories(kIntegerCategories))                                         \
  X(kBitwiseLeftShift, BinaryRow("bitwise_left_shift").Categories(kIntegerCategories)              \
      .Scalars(kScalarEither))                                                                     \
  X(kBitwiseRightShift, BinaryRow("bitwise_right_shift").Categories(kIntegerCategories)            \
      .Scalars(kScalarEither))                                                                     \
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
      .Check(OpCheck::kNoComplexNansum))                                                           \
  X(kNanmean, ReductionRow("nanmean").Categories(kFloatingCategory).Check(OpCheck::kNanMean)       \
      .TakesDType())                                                                               \
  X(kAmax, ReductionRow("amax").Categories(kRealCategories))                                       \
  X(kAmin, ReductionRow("amin").Categories(kRealCategories))                                       \
  X(kArgmax, ReductionRow("argmax").Check(OpCheck::kArgExtremum).Result(ResultRule::kInt64))       \
  X(kArgmin, ReductionRow("argmin").Check(OpCheck::kArgExtremum).Result(ResultRule::kInt64))       \
  X(kAny, ReductionRow("any").Result(ResultRule::kBoolOrByte))                                     \
  X(kAll, ReductionRow("all").Result(ResultRule::kBoolOrByte))                                     \
  X(kVar, ReductionRow("var").Check(OpCheck::kVarStd).Result(ResultRule::kRealPart))               \
  X(kStd, ReductionRow("std").Check(OpCheck::kVarStd).Result(ResultRule::kRealPart))               \
  X(kLogsumexp, ReductionRow("logsumexp").IntToFloat())                                            \
  X(kCountNonzero, ReductionRow("count_nonzero").Result(ResultRule::kInt64))                       \
  X(kCumprod, ReductionRow("cumprod", OpKind::kScan).Floor(ReductionFloor::kInt64).TakesDType())
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
