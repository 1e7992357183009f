// The vocabulary of the op table (op_list.h): what a row can say of an op.
// PyTorch's rule (promotion kind, categories, floors, checks, Python scalar
// positions, autograd, overloads, autocast) and each other framework's
// (FrameworkOp: NumPy's ufunc loops, jax.numpy's promote_args*, the Array
// API's signatures, MLX's ops), set on a row with named setters. Free of
// Abseil, for nvcc.

#ifndef ONEFLOW_PROMOTE_OPS_OP_SPEC_H_
#define ONEFLOW_PROMOTE_OPS_OP_SPEC_H_

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
  kFloat32Category = 4,
  kFloat64Category = 64,
  kOtherFloatCategory = kFloat32Category | kFloat64Category,
  kFloat8Category = 32,  // the float8 formats
  kFloatingCategory = kReducedFloatCategory | kOtherFloatCategory | kFloat8Category,
  kComplexCategory = 8,
  kRealCategories = kBoolCategory | kIntegerCategories | kFloatingCategory,
  kNumberCategories = kIntegerCategories | kFloatingCategory | kComplexCategory,
  kAllCategories = kRealCategories | kComplexCategory,
  kIntegersAndFloats = kIntegerCategories | kFloatingCategory,
  kBitwiseCategories = kBoolCategory | kIntegerCategories,
  kInexactCategories = kFloatingCategory | kComplexCategory,
  kRealButFloat8 = kRealCategories & ~kFloat8Category,
  kFloatingButFloat8 = kFloatingCategory & ~kFloat8Category,
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
      if (IsFloat8(dtype)) return kFloat8Category;
      if (dtype == DType::kFloat16 || dtype == DType::kBFloat16) return kReducedFloatCategory;
      return dtype == DType::kFloat32 ? kFloat32Category : kFloat64Category;
    case Category::kComplex:
      return kComplexCategory;
  }
  return 0;
}

// What becomes of the promoted dtype in a framework other than PyTorch. The
// default int, unsigned int and float are the policy's: int64, uint64 and
// float64, but int32, uint32 and float32 under jax_x32 and mlx.
enum class FrameworkRule : uint8_t {
  // The promoted dtype (add, maximum, bitwise ops).
  kPromoted,
  // Integers and bool become a float: NumPy's true division and mean (float64),
  // jax.numpy's promote_args_inexact (sin, arctan2).
  kInexact,
  // Integers and bool become the default float, whatever their width (jax.numpy's rint).
  kDefaultFloat,
  // Bool becomes int32, also with x64: jax.numpy's promote_args_numeric (square, power).
  kNumeric,
  // Bool becomes the default int (jax.numpy's cumsum).
  kBoolToDefaultInt,
  // Bool becomes uint8 (MLX's shifts).
  kBoolToUInt8,
  // Bool and narrower signed ints become the default int, narrower unsigned
  // ints the default unsigned int (sum, prod).
  kAccumulate,
  // float64, or complex128 for complex (NumPy's float_power).
  kDouble,
  // Returns bool (comparisons, logical ops, isnan, any).
  kBool,
  // A complex dtype returns its real part's dtype (abs, real).
  kRealPart,
  // kInexact, then kRealPart (var, std).
  kInexactRealPart,
  // Returns the framework's index dtype: the default int, but uint32 in MLX
  // (argmax).
  kIndex,
  // Returns the default int (count_nonzero).
  kCount,
  // Returns uint8 (bitwise_count).
  kUInt8,
  // ldexp(x, i): x alone decides, as a float (NumPy's first float loop x
  // casts to, jax.numpy's promote_args_inexact); i must be an integer (one
  // that casts safely to int64, in NumPy).
  kLdexp,
};

// A framework's checks of values and shapes beyond its dtype rule.
enum class FrameworkCheck : uint8_t {
  kNone,
  kIntPower,    // no integer to a negative Python int power (np.power, xp.pow)
  kShiftCount,  // no shift by a negative Python int (the Array API's shifts)
  kAtLeast1D,   // no 0-d array (the Array API's cumulative_prod)
  kArraysOnly,  // no Python scalar operand (MLX's reductions, trunc, positive)
};

// How a framework other than PyTorch decides an op's dtypes. After
// promotion under the framework's policy, `rule` maps the dtype, and
// `categories` are the dtypes the op computes in: NumPy computes in the
// first of its loop dtypes within them that every operand casts to safely
// (sin of int8 in float16), or with `exact_loop` in the promoted dtype
// only; jax.numpy and MLX refuse a dtype outside them after the rule; the
// Array API refuses an array operand outside them before promotion.
struct FrameworkOp {
  // The op's name in the framework, then its aliases, space-separated; the
  // row's PyTorch name where a setter is given none. Null: the framework has
  // no such op.
  const char* names = nullptr;
  uint8_t categories = kAllCategories;
  FrameworkRule rule = FrameworkRule::kPromoted;
  FrameworkCheck check = FrameworkCheck::kNone;
  bool exact_loop = false;
  // A 0-d operand is returned as it is, its dtype unchanged (MLX's sum and
  // prod reduce no axis of it).
  bool zero_dim_unchanged = false;
  // Python scalars become arrays of their own dtype before promotion, not of
  // the other operand's (MLX's logical ops: no range check against it).
  bool scalars_as_arrays = false;

  [[nodiscard]] constexpr bool present() const { return names != nullptr; }
  constexpr FrameworkOp Named(const char* value) const {
    FrameworkOp f = *this;
    f.names = value;
    return f;
  }
  constexpr FrameworkOp Check(FrameworkCheck value) const {
    FrameworkOp f = *this;
    f.check = value;
    return f;
  }
  constexpr FrameworkOp ExactLoop() const { return Set(&FrameworkOp::exact_loop); }
  constexpr FrameworkOp ZeroDimUnchanged() const { return Set(&FrameworkOp::zero_dim_unchanged); }
  constexpr FrameworkOp ScalarsAsArrays() const { return Set(&FrameworkOp::scalars_as_arrays); }

 private:
  constexpr FrameworkOp Set(bool FrameworkOp::*field) const {
    FrameworkOp f = *this;
    f.*field = true;
    return f;
  }
};

// A row's framework column, by its rule: .Numpy(Promoted(kInexactCategories)).
constexpr FrameworkOp WithRule(FrameworkRule rule, uint8_t categories) {
  FrameworkOp f;
  f.names = "";
  f.categories = categories;
  f.rule = rule;
  return f;
}
constexpr FrameworkOp Promoted(uint8_t categories = kAllCategories) {
  return WithRule(FrameworkRule::kPromoted, categories);
}
constexpr FrameworkOp Inexact(uint8_t categories = kAllCategories) {
  return WithRule(FrameworkRule::kInexact, categories);
}
constexpr FrameworkOp DefaultFloat(uint8_t categories = kAllCategories) {
  return WithRule(FrameworkRule::kDefaultFloat, categories);
}
constexpr FrameworkOp Numeric(uint8_t categories = kAllCategories) {
  return WithRule(FrameworkRule::kNumeric, categories);
}
constexpr FrameworkOp BoolToDefaultInt(uint8_t categories = kAllCategories) {
  return WithRule(FrameworkRule::kBoolToDefaultInt, categories);
}
constexpr FrameworkOp Accumulates(uint8_t categories = kAllCategories) {
  return WithRule(FrameworkRule::kAccumulate, categories);
}
constexpr FrameworkOp ReturnsBool(uint8_t categories = kAllCategories) {
  return WithRule(FrameworkRule::kBool, categories);
}
constexpr FrameworkOp RealPart(uint8_t categories = kAllCategories) {
  return WithRule(FrameworkRule::kRealPart, categories);
}
constexpr FrameworkOp ReturnsIndex(uint8_t categories = kAllCategories) {
  return WithRule(FrameworkRule::kIndex, categories);
}
constexpr FrameworkOp ReturnsCount(uint8_t categories = kAllCategories) {
  return WithRule(FrameworkRule::kCount, categories);
}
constexpr FrameworkOp BoolToUInt8(uint8_t categories = kAllCategories) {
  return WithRule(FrameworkRule::kBoolToUInt8, categories);
}
constexpr FrameworkOp InexactRealPart(uint8_t categories = kAllCategories) {
  return WithRule(FrameworkRule::kInexactRealPart, categories);
}
constexpr FrameworkOp ReturnsUInt8(uint8_t categories = kAllCategories) {
  return WithRule(FrameworkRule::kUInt8, categories);
}
constexpr FrameworkOp Ldexp(uint8_t categories = kAllCategories) {
  return WithRule(FrameworkRule::kLdexp, categories);
}
constexpr FrameworkOp Double() { return WithRule(FrameworkRule::kDouble, kAllCategories); }

// Whether PyTorch's autograd has a derivative for an op whose result carries
// gradients (see ResultRequiresGrad).
enum class Derivative : uint8_t {
  kDefined,
  kNotImplemented,  // the result requires grad, but backward raises (floor_divide)
  // Defined, but not for aten's overload with a Python scalar self, which
  // Python calls (remainder(Scalar, Tensor)).
  kNotImplementedForScalarSelf,
};

// Whether backward raises for a call whose self is, or is not, a Python scalar.
constexpr bool BackwardRaises(Derivative derivative, bool scalar_self) {
  return derivative == Derivative::kNotImplemented ||
         (derivative == Derivative::kNotImplementedForScalarSelf && scalar_self);
}

// derivatives.yaml's formula for an op's backward, by its shape: what the
// PyTorch extension's autograd computes (torch_extension/internal/autograd.cc).
enum class GradientFormula : uint8_t {
  kNone,       // none here: a logical or bitwise op, or a rule without a kernel
  kSum,        // add, sub: grad to self, grad times +-alpha to other
  kProduct,    // mul: grad times the other operand's conjugate
  kQuotient,   // div
  kZero,       // zero gradients: div with a rounding_mode, in-place comparisons
  kRemainder,  // grad to self, -grad * floor(self / other) to other
  kExtremum,   // maximum, minimum: to the operand that won, halved at ties
  kAtan2,      // grad * other / (self^2 + other^2), and -self for other
  kSelect,     // where: grad to the value the condition chose
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
  // An integer or bool second operand promotes as a Python float; beside a
  // complex first operand a 0-d one must promote with it (ldexp).
  kSecondIntToFloat,
  kAllToDouble,  // every operand becomes float64 (complex128 if complex)
  // Beside a Python scalar bound, a 0-d tensor bound is a number (clamp).
  kZeroDimBoundsAsNumbers,
  // A Python-number third operand is read in the first's dtype and takes no
  // part in the promotion (lerp's Scalar weight).
  kNumberWeightAsInput,
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
  GradientFormula gradient = GradientFormula::kNone;
  bool has_kernel = false;          // in op_list.h's kernel list: the library computes it
  bool alpha = false;               // the PyTorch overloads take alpha (add, sub)
  bool in_place = true;             // PyTorch has name_ (maximum and minimum have none)
  bool rounding_mode = false;       // the PyTorch overloads take rounding_mode (div)
  bool in_torch_extension = false;  // torch.ops.oneflow_promote registers it
  bool in_torch = true;             // PyTorch has the op (cbrt is NumPy's and JAX's only)
  AutoCastKind autocast_cpu = AutoCastKind::kNone;
  AutoCastKind autocast_cuda = AutoCastKind::kNone;
  // The other frameworks' rules; jax covers the jax, jax_x32 and jax_strict
  // policies.
  FrameworkOp numpy;
  FrameworkOp jax;
  FrameworkOp array_api;
  FrameworkOp mlx;

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
  ONEFLOW_PROMOTE_OP_SETTER(Gradient, gradient, GradientFormula)
#undef ONEFLOW_PROMOTE_OP_SETTER
  constexpr OpSpec Numpy(FrameworkOp f) const { return WithFramework(&OpSpec::numpy, f); }
  constexpr OpSpec Jax(FrameworkOp f) const { return WithFramework(&OpSpec::jax, f); }
  constexpr OpSpec ArrayApi(FrameworkOp f) const { return WithFramework(&OpSpec::array_api, f); }
  constexpr OpSpec Mlx(FrameworkOp f) const { return WithFramework(&OpSpec::mlx, f); }
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
  constexpr OpSpec NotInTorch() const { return Set(&OpSpec::in_torch, false); }
  constexpr OpSpec TakesDType() const { return Set(&OpSpec::takes_dtype, true); }
  constexpr OpSpec KeepsDType() const { return Set(&OpSpec::keeps_dtype, true); }
  constexpr OpSpec NoDerivative(Derivative which = Derivative::kNotImplemented) const {
    OpSpec s = *this;
    s.derivative = which;
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
  constexpr OpSpec WithFramework(FrameworkOp OpSpec::*field, FrameworkOp f) const {
    if (f.names == nullptr || f.names[0] == '\0') f.names = name;
    OpSpec s = *this;
    s.*field = f;
    return s;
  }
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

}  // namespace oneflow_promote::ops

#endif  // ONEFLOW_PROMOTE_OPS_OP_SPEC_H_
